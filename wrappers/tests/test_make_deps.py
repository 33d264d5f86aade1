"""`make deps` (which `make test` runs first): it installs only what is
missing, says which packages, and never calls sudo or apt-get when
every package is already there.

sudo, apt-get, id and dpkg-query are stand-ins on PATH that log their
arguments, so no package is installed and nothing asks for a password.
"""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

LOGGING = """#!/bin/sh
echo "$(basename "$0") $*" >> "$DEPS_LOG"
{tail}
"""


def debian_packages() -> list[str]:
    proc = subprocess.run(["make", "-s", "-C", str(REPO), "--eval",
                           "print-packages: ; @echo $(DEBIAN_PACKAGES)", "print-packages"],
                          capture_output=True, text=True, check=True)
    return proc.stdout.split()


def installed(package: str) -> bool:
    proc = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package],
                          capture_output=True, text=True)
    return proc.stdout.startswith("install ok installed")


class MakeDepsTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.bin = Path(tmp.name) / "bin"
        self.bin.mkdir()
        self.log = Path(tmp.name) / "calls.log"
        self.log.write_text("")
        self.fake("sudo", 'exec "$@"')
        self.fake("apt-get", "exit 0")

    def fake(self, name: str, tail: str) -> None:
        path = self.bin / name
        path.write_text(LOGGING.format(tail=tail))
        path.chmod(0o755)

    def deps(self) -> subprocess.CompletedProcess:
        env = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}", "DEPS_LOG": str(self.log)}
        return subprocess.run(["make", "-s", "-C", str(REPO), "deps"], env=env,
                              capture_output=True, text=True, timeout=120)

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()

    def test_the_package_list_is_readable(self):
        packages = debian_packages()
        self.assertIn("coccinelle", packages)
        self.assertIn("strace", packages)

    def test_nothing_missing_means_no_sudo_and_no_apt_get(self):
        missing = [p for p in debian_packages() if not installed(p)]
        if missing:
            self.skipTest("not every package is installed here: " + " ".join(missing))
        proc = self.deps()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.calls(), [])
        self.assertEqual(proc.stdout, "")

    def with_missing(self, missing: str, uid: int) -> subprocess.CompletedProcess:
        self.fake("dpkg-query", f'case "$*" in *" {missing}") exit 1;; esac\n'
                                "echo 'install ok installed'")
        self.fake("id", f"echo {uid}")
        return self.deps()

    def test_a_missing_package_is_named_and_installed_through_sudo(self):
        proc = self.with_missing("strace", uid=1000)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("deps: installing strace", proc.stdout)
        installs = [c for c in self.calls() if c.startswith("sudo apt-get install")]
        self.assertEqual(len(installs), 1, self.calls())
        self.assertEqual(installs[0].split()[-1], "strace")
        self.assertIn("apt-get install -y -qq --no-install-recommends strace", self.calls())

    def test_root_installs_without_sudo(self):
        proc = self.with_missing("strace", uid=0)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("deps: installing strace", proc.stdout)
        self.assertFalse([c for c in self.calls() if c.startswith("sudo")], self.calls())
        self.assertIn("apt-get install -y -qq --no-install-recommends strace", self.calls())


if __name__ == "__main__":
    unittest.main()

"""ioctl-rework installed both ways, used from outside the clone.

The clone's files are copied to a scratch source directory, installed
from there into a temporary prefix with `pip install --no-deps
--no-build-isolation` (Debian's setuptools) and with `make install
PREFIX=...`, and the copy is deleted: an installation that still looked
into a clone would fail.  Then each one runs convert, audit, a pre-commit
hook through a real `git commit`, and `fixture list`, with the working
directory, HOME and the cache all outside the clone, and must write
nothing inside its own prefix.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_check_repo import GIT_ENV, fixture

REPO = Path(__file__).resolve().parents[2]


def _have_pip() -> bool:
    return subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode == 0


def copy_sources(dest: Path) -> None:
    """The clone's files as a checkout has them (tracked, and new but not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, listed):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            target = dest / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if "__pycache__" not in p.parts}


class Installed:
    """One installation in a prefix, and how a user's shell would run it."""

    def __init__(self, prefix: Path, home: Path, pythonpath: Path | None = None):
        self.prefix = prefix
        self.bin = next(prefix.rglob("bin/ioctl-rework")).parent
        self.env = {**os.environ, **GIT_ENV, "HOME": str(home),
                    "XDG_CACHE_HOME": str(home / ".cache"),
                    "PATH": f"{self.bin}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
        for name in ("PYTHONPATH", "IOCTL_REWORK_FIXTURE_CACHE"):
            self.env.pop(name, None)
        if pythonpath:
            self.env["PYTHONPATH"] = str(pythonpath)

    def run(self, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run(["ioctl-rework", *args], cwd=cwd, env=self.env, text=True,
                              capture_output=True, timeout=600)

    def git(self, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=cwd, env=self.env, text=True,
                              capture_output=True, timeout=600)


class InstallCase:
    """The checks every installation must pass; subclasses install."""

    installed: Installed
    work: Path

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="ioctl-rework-install.")
        root = Path(cls.tmp.name)
        source = root / "src"
        copy_sources(source)
        cls.installed = cls.install(source, root / "prefix", root / "home")
        shutil.rmtree(source)
        cls.work = root / "work"
        cls.work.mkdir()
        cls.before = snapshot(root / "prefix")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def driver_dir(self, name: str, text: str) -> Path:
        directory = self.work / name / "drivers" / "misc"
        directory.mkdir(parents=True)
        (directory / f"{name}.c").write_text(text)
        return directory

    def assertNothingWrittenInThePrefix(self):
        self.assertEqual(snapshot(Path(self.tmp.name) / "prefix") - self.before, set())

    def test_convert(self):
        drivers = self.driver_dir("convert", fixture("legacy_driver.c"))
        proc = self.installed.run("convert", "--target", "2.6.20", "--no-kernel-headers",
                                  str(drivers), cwd=self.work)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("+static long thermo_ioctl(struct file *file,", proc.stdout)
        self.assertIn(".unlocked_ioctl", proc.stdout)
        cache = Path(self.installed.env["XDG_CACHE_HOME"]) / "ioctl-rework"
        self.assertTrue(any(cache.rglob("*")), "the convert cache is not under $XDG_CACHE_HOME")
        self.assertNothingWrittenInThePrefix()

    def test_audit(self):
        drivers = self.driver_dir("audit", fixture("legacy_driver.c"))
        proc = self.installed.run("audit", str(drivers), cwd=self.work)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("legacy-ioctl: thermo_fops: .ioctl = thermo_ioctl", proc.stdout)
        self.assertNothingWrittenInThePrefix()

    def test_hook_runs_the_installed_command_in_a_real_commit(self):
        repo = self.work / "repo"
        repo.mkdir()
        self.installed.git("init", "-q", "-b", "main", cwd=repo)
        (repo / "README").write_text("x\n")
        self.installed.git("add", "README", cwd=repo)
        self.installed.git("commit", "-q", "-m", "base", cwd=repo)
        # A repository of its own, no kernel tree: the hook checks without a kernel's headers.
        proc = self.installed.run("check", "--install-hook", "--no-kernel-headers", cwd=repo)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        hook = (repo / ".git" / "hooks" / "pre-commit").read_text()
        self.assertNotIn(str(REPO), hook)
        self.assertNotIn(self.tmp.name + "/src", hook)
        self.assertRegex(hook, r"\nexec (ioctl-rework|\S*python\S* -m ioctl_rework) check --staged "
                               r"--no-kernel-headers\n")

        legacy = repo / "drivers" / "misc" / "thermo.c"
        legacy.parent.mkdir(parents=True)
        legacy.write_text(fixture("legacy_driver.c"))
        self.installed.git("add", "drivers", cwd=repo)
        rejected = self.installed.git("commit", "-q", "-m", "add thermo", cwd=repo)
        self.assertNotEqual(rejected.returncode, 0)
        self.assertIn("ERROR:LEGACY_IOCTL", rejected.stdout + rejected.stderr)

        self.installed.git("rm", "-q", "--cached", "drivers/misc/thermo.c", cwd=repo)
        legacy.unlink()
        clean = repo / "drivers" / "misc" / "baro.c"
        clean.write_text(fixture("clean_driver.c"))
        self.installed.git("add", "drivers", cwd=repo)
        accepted = self.installed.git("commit", "-q", "-m", "add baro", cwd=repo)
        self.assertEqual(accepted.returncode, 0, accepted.stdout + accepted.stderr)
        self.assertNothingWrittenInThePrefix()

    def test_the_rules_and_fixtures_come_along(self):
        from ioctl_rework import paths
        layout = paths.find_layout(next(self.installed.prefix.rglob("ioctl_rework/paths.py")).parent)
        for directory, files in (("semantic-patches", lambda d: d.iterdir()),
                                 ("kernel-fixtures", lambda d: d.rglob("*"))):
            with self.subTest(directory):
                def names(root):
                    return {str(p.relative_to(root)) for p in files(root)
                            if p.is_file() and "__pycache__" not in p.parts}
                self.assertEqual(names(layout.data / directory), names(REPO / directory))

    def test_fixture_list_and_its_cache(self):
        proc = self.installed.run("fixture", "list", cwd=self.work)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        names = [line.split()[0] for line in proc.stdout.splitlines()]
        self.assertIn("legacy", names)
        self.assertIn("negative-dropped-unlock", names)
        from ioctl_rework import paths
        layout = paths.find_layout(next(self.installed.prefix.rglob("ioctl_rework/paths.py")).parent)
        self.assertNotEqual(layout.install, paths.Install.CLONE)
        self.assertIsNone(layout.repo)


@unittest.skipUnless(_have_pip(), "python3-pip is needed (make deps)")
class PipInstallTest(InstallCase, unittest.TestCase):
    @classmethod
    def install(cls, source: Path, prefix: Path, home: Path) -> Installed:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-build-isolation", "--no-warn-script-location",
                        "--prefix", str(prefix), str(source)],
                       cwd=source, check=True, capture_output=True,
                       env={**os.environ, "PIP_NO_INDEX": "1", "PIP_ROOT_USER_ACTION": "ignore",
                            "HOME": str(home)})
        package = next(prefix.rglob("ioctl_rework/__init__.py")).parent
        return Installed(prefix, home, pythonpath=package.parent)


class MakeInstallTest(InstallCase, unittest.TestCase):
    @classmethod
    def install(cls, source: Path, prefix: Path, home: Path) -> Installed:
        subprocess.run(["make", "-s", "-C", str(source), "install", f"PREFIX={prefix}"],
                       check=True, capture_output=True)
        return Installed(prefix, home)


if __name__ == "__main__":
    unittest.main()

"""No committed report, document or --help text names a path of the
machine that produced it: trees go by version (`linux 6.1.192`), files by
their path inside the tree, examples by `~/linux-6.1`.

System paths that are the same on every Debian host (/usr/src/...,
/dev/null, /bin/busybox) are fine; a path under a directory that is this
machine's own (/work, /home, /root, /tmp, the clone, $HOME) is not.
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import cli

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "wrappers" / "ioctl-rework"

MACHINE_ROOTS = {"work", "home", "root", "tmp", "mnt", "media", "srv", "opt", "scratch",
                 "var", "build"}
ABSOLUTE = re.compile(r"(?<![\w.~/+:-])/(?P<root>[\w.+-]+)(?:/[\w.+-]*)*")
EMBEDDED = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+")


def machine_roots() -> set[str]:
    own = {Path(p).resolve().parts[1] for p in (REPO, Path.home(), tempfile.gettempdir())
           if len(Path(p).resolve().parts) > 1}
    return MACHINE_ROOTS | own


def machine_paths(text: str) -> list[str]:
    """Absolute paths in TEXT under a directory that belongs to this machine."""
    roots = machine_roots()
    own = (str(REPO), str(Path.home()))
    return [m.group(0) for m in ABSOLUTE.finditer(EMBEDDED.sub("", text))
            if m.group("root") in roots or m.group(0).startswith(own)]


def committed_documents() -> list[Path]:
    """Reports, benchmarks' reports and the documents a user reads."""
    listed = subprocess.run(["git", "ls-files", "-z", "reports", "bench", "README.md",
                             "CONTRIBUTING", "kernel-fixtures"], cwd=REPO,
                            capture_output=True, check=True).stdout.split(b"\0")
    paths = [REPO / os.fsdecode(name) for name in listed if name]
    return [p for p in paths if p.is_file() and (
        p.parts[len(REPO.parts)] == "reports" and p.suffix != ".png"
        or p.suffix == ".md" or p.name in ("README", "README.md", "CONTRIBUTING"))]


class DetectorTest(unittest.TestCase):
    def test_finds_this_machines_paths(self):
        self.assertEqual(machine_paths("Tree: `/work/trees/linux-6.1`; 377 files"),
                         ["/work/trees/linux-6.1"])
        self.assertEqual(machine_paths('"tree": "/home/me/linux"'), ["/home/me/linux"])
        self.assertEqual(machine_paths(f"see {REPO}/build/x"), [f"{REPO}/build/x"])
        self.assertTrue(machine_paths("cache in /tmp/ioctl-rework-test.abc/cache"))

    def test_leaves_system_paths_tree_paths_and_examples(self):
        for text in ("from /usr/src/linux-source-6.1.tar.xz", "fs/root.c and drivers/tmp.c",
                     "2>/dev/null", "convert ~/linux-2.6.9", "linux 6.1.192",
                     "<img src=\"data:image/png;base64,AAAA+/tmp/work/BBB=\">",
                     "https://example.org/home/page", "/bin/busybox"):
            with self.subTest(text):
                self.assertEqual(machine_paths(text), [])


class CommittedDocumentsTest(unittest.TestCase):
    def test_no_machine_path_in_reports_and_documents(self):
        documents = committed_documents()
        self.assertTrue(any(p.parent.name == "reports" for p in documents))
        for path in documents:
            with self.subTest(str(path.relative_to(REPO))):
                self.assertEqual(machine_paths(path.read_text(errors="replace")), [])


class HelpTest(unittest.TestCase):
    def test_no_machine_path_in_any_help(self):
        for command in [[], *([c.name] for c in cli.SUBCOMMANDS)]:
            with self.subTest(" ".join(command) or "ioctl-rework"):
                proc = subprocess.run([sys.executable, str(ENTRY), *command, "--help"],
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertIn("usage: ioctl-rework", proc.stdout)
                self.assertEqual(machine_paths(proc.stdout), [])


if __name__ == "__main__":
    unittest.main()

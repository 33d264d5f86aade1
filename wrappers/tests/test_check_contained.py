"""check reads untrusted patches: no file name in one may lead outside.

Each test builds a directory holding the scratch space check gets
(TMPDIR), a directory the patch tries to reach ("outside"), the working
directory and, where used, a tree; check must refuse the patch (exit 2, a
message naming the file) and leave every file of that directory as it was.
"""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from test_check_repo import ENTRY, GitRepo, fixture

LEGACY = fixture("legacy_driver.c")


def new_file_patch(header_name: str, text: str = LEGACY, diff_name: str | None = None) -> str:
    """A git patch adding TEXT under the +++ name HEADER_NAME (written as is)."""
    lines = text.splitlines()
    diff_name = diff_name or "b/drivers/misc/thermo.c"
    return (f"diff --git a/drivers/misc/thermo.c {diff_name}\nnew file mode 100644\n"
            f"index 0000000..1111111\n--- /dev/null\n+++ {header_name}\n"
            f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines))


def snapshot(top: Path) -> dict[str, tuple]:
    """Every path under TOP with what it is and holds."""
    found = {}
    for directory, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(directory) / name
            rel = str(path.relative_to(top))
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                found[rel] = ("dir",)
            else:
                found[rel] = ("file", path.read_bytes())
    return found


class ContainedTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="ioctl-rework-contained.")
        self.addCleanup(tmp.cleanup)
        self.top = Path(tmp.name)
        for name in ("scratch", "outside", "cwd"):
            (self.top / name).mkdir()
        self.outside = self.top / "outside"
        (self.outside / "thermo.c").write_text("/* a file outside the tree */\n")

    def check(self, patch: str, *args: str) -> subprocess.CompletedProcess:
        (self.top / "cwd" / "0001-hostile.patch").write_text(patch)
        before = snapshot(self.top)
        out = subprocess.run(
            [sys.executable, str(ENTRY), "check", "--no-kernel-headers",
             "--diff", "0001-hostile.patch", *args],
            cwd=self.top / "cwd", capture_output=True, text=True, check=False, timeout=300,
            env={**os.environ, "TMPDIR": str(self.top / "scratch")})
        self.assertEqual(snapshot(self.top), before,
                         "check created, changed or removed a file")
        return out

    def assertRefused(self, out: subprocess.CompletedProcess, name: str, why: str):
        self.assertEqual(out.returncode, 2, out.stdout + out.stderr)
        self.assertEqual(out.stdout, "")
        self.assertEqual(len(out.stderr.splitlines()), 1, out.stderr)
        self.assertIn(f"ioctl-rework check: {name}: ", out.stderr)
        self.assertIn(why, out.stderr)
        self.assertIn("nothing was checked", out.stderr)

    # Absolute names.

    def test_absolute_name_after_the_b_prefix(self):
        target = self.outside / "evil.c"
        out = self.check(new_file_patch(f"b/{target}"))
        self.assertRefused(out, str(target), "an absolute file name")

    def test_absolute_name_without_a_prefix(self):
        target = self.outside / "evil.c"
        out = self.check(new_file_patch(str(target)))
        self.assertRefused(out, str(target), "an absolute file name")

    def test_absolute_name_in_a_rename(self):
        target = self.outside / "thermo.c"
        patch = ("diff --git a/drivers/misc/thermo.c b/drivers/misc/thermo.c\n"
                 "similarity index 90%\nrename from drivers/misc/thermo.c\n"
                 f"rename to {target}\n--- a/drivers/misc/thermo.c\n+++ b/{target}\n"
                 "@@ -1 +1,2 @@\n int x;\n+static int y;\n")
        out = self.check(patch)
        self.assertRefused(out, str(target), "an absolute file name")

    def test_absolute_name_with_a_tree(self):
        tree = self.top / "cwd" / "tree"
        tree.mkdir()
        target = self.outside / "evil.c"
        out = self.check(new_file_patch(f"b/{target}"), "--tree", str(tree))
        self.assertRefused(out, str(target), "an absolute file name")

    # `..` components.

    def test_dot_dot_at_the_start(self):
        out = self.check(new_file_patch("b/../../outside/evil.c"))
        self.assertRefused(out, "../../outside/evil.c", "`..`")

    def test_dot_dot_in_the_middle(self):
        out = self.check(new_file_patch("b/drivers/../../../outside/evil.c"))
        self.assertRefused(out, "drivers/../../../outside/evil.c", "`..`")

    def test_dot_dot_hidden_in_git_quoting(self):
        # "\057" is "/": the name only shows its `..` once unquoted.
        out = self.check(new_file_patch('"b/..\\057..\\057outside\\057evil.c"'))
        self.assertRefused(out, "../../outside/evil.c", "`..`")

    def test_dot_dot_in_a_plain_diff_u(self):
        lines = LEGACY.splitlines()
        patch = (f"--- old/drivers/misc/thermo.c\n+++ new/../../outside/evil.c\n"
                 f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines))
        out = self.check(patch)
        self.assertRefused(out, "../../outside/evil.c", "`..`")

    def test_dot_dot_with_a_tree(self):
        tree = self.top / "cwd" / "tree"
        (tree / "drivers").mkdir(parents=True)
        out = self.check(new_file_patch("b/drivers/../../../outside/evil.c"),
                         "--tree", str(tree))
        self.assertRefused(out, "drivers/../../../outside/evil.c", "`..`")

    # Symbolic links.

    def test_name_below_a_symlink_the_patch_adds(self):
        patch = ("diff --git a/drivers/link b/drivers/link\nnew file mode 120000\n"
                 f"index 0000000..2222222\n--- /dev/null\n+++ b/drivers/link\n"
                 f"@@ -0,0 +1 @@\n+{self.outside}\n\\ No newline at end of file\n"
                 + new_file_patch("b/drivers/link/evil.c",
                                  diff_name="b/drivers/link/evil.c").replace(
                                      "a/drivers/misc/thermo.c", "a/drivers/link/evil.c"))
        for tree in ((), ("--tree", str(self.top / "cwd"))):
            with self.subTest(tree=bool(tree)):
                out = self.check(patch, *tree)
                self.assertRefused(out, "drivers/link/evil.c",
                                   "lies below drivers/link, which the patch makes a "
                                   "symbolic link")

    def tree_with_link(self, link: str, target: Path) -> Path:
        tree = self.top / "cwd" / "tree"
        (tree / Path(link).parent).mkdir(parents=True, exist_ok=True)
        (tree / link).symlink_to(target)
        return tree

    def change_patch(self) -> str:
        return ("diff --git a/drivers/misc/thermo.c b/drivers/misc/thermo.c\n"
                "index 1111111..2222222 100644\n--- a/drivers/misc/thermo.c\n"
                "+++ b/drivers/misc/thermo.c\n@@ -1 +1,2 @@\n"
                " /* a file outside the tree */\n+static int (*evil)(void);\n")

    def test_tree_directory_linked_outside(self):
        tree = self.tree_with_link("drivers/misc", self.outside)
        out = self.check(self.change_patch(), "--tree", str(tree))
        self.assertRefused(out, "drivers/misc/thermo.c",
                           "resolves through a symbolic link to outside the tree")

    def test_tree_file_linked_outside(self):
        tree = self.tree_with_link("drivers/misc/thermo.c", self.outside / "thermo.c")
        out = self.check(self.change_patch(), "--tree", str(tree))
        self.assertRefused(out, "drivers/misc/thermo.c",
                           "resolves through a symbolic link to outside the tree")


class SymlinkCommitTest(unittest.TestCase):
    """A commit may add a symbolic link: followed only inside the tree."""

    def test_a_symlinked_c_file_in_a_commit_is_not_followed(self):
        with tempfile.TemporaryDirectory() as tmp, GitRepo() as repo:
            secret = Path(tmp) / "secret.c"
            secret.write_text(LEGACY)
            repo.commit("base", {"README": "x\n"})
            (repo.path / "drivers").mkdir()
            (repo.path / "drivers" / "evil.c").symlink_to(secret)
            repo.git("add", "-A")
            repo.git("commit", "-q", "-m", "a link")
            out = repo.run_cli("check", "--git", "HEAD")
        # A C file that is a link out of the tree: what it holds is never
        # read, and a gate does not pass what it could not read.
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn("ERROR:NOT_CHECKED: a symbolic link to ", out.stdout)
        self.assertIn("outside the tree: what it holds cannot be read", out.stdout)
        self.assertIn("NOTE: drivers/evil.c not checked: a symbolic link", out.stdout)
        self.assertNotIn("thermo", out.stdout)


if __name__ == "__main__":
    unittest.main()

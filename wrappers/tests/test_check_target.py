"""check proposes conversions for the kernel the tree is: the version its
top Makefile names (from any directory under it), --target when given,
settings.DEFAULT_TARGET (6.1) without a tree; never the BKL on a kernel
that has none.  A tree older than .unlocked_ioctl is refused.

Every run commits test_data/check/legacy_driver.c and reads the conversion
check shows (--git), prints (--fix) or the pre-commit hook shows.
"""

import subprocess
import sys
import unittest
from pathlib import Path

from test_check_repo import ENTRY, GitRepo, fixture

LEGACY = fixture("legacy_driver.c")
MAKEFILE = "VERSION = {}\nPATCHLEVEL = {}\nSUBLEVEL = {}\nEXTRAVERSION =\nNAME = test\n"

# What a conversion under the BKL adds, and under the private mutex.
BKL = ("+#include <linux/smp_lock.h>", "+\tlock_kernel();", "+\t\tunlock_kernel();")
MUTEX = ("+#include <linux/mutex.h>", "+static DEFINE_MUTEX(thermo_mutex);",
         "+\tmutex_lock(&thermo_mutex);", "+\t\tmutex_unlock(&thermo_mutex);")


class TargetedCheckCase(unittest.TestCase):
    def repo_for(self, version: str | None) -> GitRepo:
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        files = {"README": "a tree\n"}
        if version:
            files["Makefile"] = MAKEFILE.format(*version.split("."))
        repo.commit("base", files)
        return repo

    def conversion(self, text: str) -> str:
        """The diff part of a check report (the conversion it shows)."""
        start = text.find("--- a/drivers/misc/thermo.c")
        self.assertNotEqual(start, -1, f"no conversion shown in:\n{text}")
        return text[start:]

    def assert_mutex(self, text: str) -> None:
        diff = self.conversion(text)
        for line in MUTEX:
            self.assertIn(line, diff)
        self.assertNotIn("lock_kernel", diff)
        self.assertNotIn("smp_lock.h", diff)
        self.assertIn("+\tstruct inode *inode = file_inode(file);", diff)

    def assert_bkl(self, text: str) -> None:
        diff = self.conversion(text)
        for line in BKL:
            self.assertIn(line, diff)
        self.assertNotIn("mutex", diff)


class ModernTreeTest(TargetedCheckCase):
    """A tree whose Makefile says 6.1: no BKL, no <linux/smp_lock.h> there."""

    def setUp(self):
        self.repo = self.repo_for("6.1.0")
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})

    def test_git_shows_the_mutex_conversion(self):
        out = self.repo.run_cli("check", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assert_mutex(out.stdout)

    def test_fix_prints_the_mutex_conversion(self):
        out = self.repo.run_cli("check", "--git", "HEAD", "--fix")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assert_mutex(out.stdout)

    def test_the_version_is_read_from_a_subdirectory_and_given_one_wins(self):
        sub = self.repo.path / "drivers"
        out = subprocess_in(self.repo, sub, "check", "--git", "HEAD")
        self.assert_mutex(out.stdout)
        out = self.repo.run_cli("check", "--git", "HEAD", "--target", "2.6.20")
        self.assert_bkl(out.stdout)
        self.assertIn("+\tstruct inode *inode = file->f_path.dentry->d_inode;",
                      self.conversion(out.stdout))


class HookTest(TargetedCheckCase):
    def test_the_hook_shows_the_mutex_conversion_in_a_modern_tree(self):
        repo = self.repo_for("6.1.0")
        installed = repo.run_cli("check", "--install-hook")
        self.assertEqual(installed.returncode, 0, installed.stderr)
        repo.write("drivers/misc/thermo.c", LEGACY)
        repo.git("add", "drivers/misc/thermo.c")
        rejected = repo.git("commit", "-q", "-m", "add thermo", check=False)
        self.assertNotEqual(rejected.returncode, 0)
        self.assert_mutex(rejected.stdout + rejected.stderr)


class OtherTreesTest(TargetedCheckCase):
    def test_a_tree_with_the_bkl_gets_the_bkl(self):
        repo = self.repo_for("2.6.20")
        repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        out = repo.run_cli("check", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assert_bkl(out.stdout)

    def test_no_tree_version_is_the_default_target_with_its_lock(self):
        repo = self.repo_for(None)
        repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        out = repo.run_cli("check", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assert_mutex(out.stdout)
        patch = repo.git("format-patch", "-1", "--stdout", "HEAD").stdout
        out = repo.run_cli("check", "--diff", "-", stdin=patch)
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assert_mutex(out.stdout)

    def test_a_tree_before_unlocked_ioctl_is_refused(self):
        repo = self.repo_for("2.6.9")
        repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        out = repo.run_cli("check", "--git", "HEAD")
        self.assertEqual((out.returncode, out.stdout), (2, ""))
        self.assertRegex(out.stderr, r"Makefile: 2\.6\.9 has no \.unlocked_ioctl")
        self.assertIn("--multi-kernel", out.stderr)


def subprocess_in(repo: GitRepo, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """`ioctl-rework ARGS` run from CWD, a directory of REPO."""
    return subprocess.run([sys.executable, str(ENTRY), *args], cwd=cwd, env=repo.env,
                          text=True, capture_output=True, check=False, timeout=600)


if __name__ == "__main__":
    unittest.main()

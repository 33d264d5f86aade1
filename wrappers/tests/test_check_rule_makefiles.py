"""check hands the rule the Makefiles convert would (issue 22: check's
rules got no Makefiles, so the conversion check shows and --fix prints
did not see the kbuild flags convert sees in the tree).

fl.c calls FL_ENTER(file), which the file defines empty unless a flag
defines it; its Makefile's flag makes it return (`-DFL_ENTER(f)=do { if
(!fl_up(f)) return -ENODEV; } while (0)`), or name the inode.  convert
keeps the handler's signature behind the wrapper (ioctl_rule/
kbuild_defines.py, test_unseen_inode); check laid the Makefiles apart
from the rule's directory, so the conversion it showed, and --fix
printed, pushed the lock down past a return that leaves it held.  A flag
renaming a word the rule reads (-Dioctl=...) refuses it, as in convert.
"""

import unittest

from test_check_repo import GitRepo
from test_unseen_inode import FLAGGED, FLAGGED_DRIVER

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n\nobj-y += drivers/\n"
KEPT = "\tret = fl_ioctl(file->f_path.dentry->d_inode, file, cmd, arg);"


def driver(case: str) -> str:
    _makefile, _flags, _others, prelude, body = FLAGGED[case]
    return FLAGGED_DRIVER.format(prelude=prelude, body=body)


class RuleMakefilesTest(unittest.TestCase):
    def check(self, makefile: str, text: str, *extra: str, parent: str = "obj-y += fl/\n"
              ) -> str:
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": parent,
                                 "drivers/fl/Makefile": "obj-m += fl.o\n" + makefile})
        repo.commit("fl", {"drivers/fl/fl.c": text})
        out = repo.run_cli("check", "--git", "HEAD", *extra)
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        return out.stdout

    def test_the_conversion_shown_and_fixed_follows_the_flags(self):
        for case in ("return", "through_macro", "inode"):
            for extra in ((), ("--fix",)):
                with self.subTest(case=case, extra=extra):
                    out = self.check(FLAGGED[case][0] + "\n", driver(case), *extra)
                    self.assertIn("+" + KEPT, out)
                    self.assertNotIn("+static long fl_ioctl(struct file *file", out)

    def test_a_parents_subdir_flag_too(self):
        flag = FLAGGED["return"][0].replace("ccflags-y", "subdir-ccflags-y")
        out = self.check("", driver("return"), parent="obj-y += fl/\n" + flag + "\n")
        self.assertIn("+" + KEPT, out)

    def test_without_the_flag_the_lock_is_pushed_down_as_before(self):
        out = self.check("", driver("return"))
        self.assertIn("+static long fl_ioctl(struct file *file,", out)
        self.assertNotIn(KEPT, out)

    def test_a_flag_renaming_a_word_refuses_the_conversion(self):
        out = self.check("ccflags-y += -Dioctl=unlocked_ioctl\n", driver("return"), "--fix")
        self.assertNotIn("+\t.unlocked_ioctl", out)
        self.assertIn("fl_ioctl not converted: a kbuild flag of drivers/fl/Makefile, "
                      "-Dioctl=unlocked_ioctl, defines ioctl", out)


if __name__ == "__main__":
    unittest.main()

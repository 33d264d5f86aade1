"""check and a kbuild flag that defines a word the rules read as C (issue
22: `-Dunlocked_ioctl=ioctl` style renames were handled nowhere).

baro.c reads as a modern driver, `.unlocked_ioctl = baro_ioctl`; its
directory's Makefile has `-Dunlocked_ioctl=ioctl`, so gcc compiles a
legacy .ioctl entry, called under the BKL on 2.6.11-2.6.35.  check passed
it (exit 0).  Now such a file is NOT_CHECKED, with the flag and its
Makefile named (ctext/renamed_words.py; convert: test_renamed_words).
"""

import unittest

from test_check import types
from test_check_repo import GitRepo

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 32\n\nobj-y += drivers/\n"
MISC = "obj-m += baro.o\n"
BARO = """/*
 * baro: a pressure sensor on the LPC bus.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static long baro_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static const struct file_operations baro_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= baro_ioctl,
	.compat_ioctl	= baro_ioctl,
};

static struct miscdevice baro_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "baro",
	.fops	= &baro_fops,
};

static int __init baro_init(void)
{
	return misc_register(&baro_dev);
}
module_init(baro_init);
MODULE_LICENSE("GPL");
"""

# (Makefile, its text, the flag the reason names)
RENAMING = {
    "ccflags-y": ("drivers/misc/Makefile", MISC + "ccflags-y += -Dunlocked_ioctl=ioctl\n",
                  "-Dunlocked_ioctl=ioctl"),
    "EXTRA_CFLAGS, compat": ("drivers/misc/Makefile",
                             MISC + "EXTRA_CFLAGS += -Dcompat_ioctl=ioctl\n",
                             "-Dcompat_ioctl=ioctl"),
    "CFLAGS_baro.o, the type": ("drivers/misc/Makefile",
                                MISC + "CFLAGS_baro.o += '-Dfile_operations=baro_ops'\n",
                                "-Dfile_operations=baro_ops"),
    "a parent's subdir-ccflags": ("drivers/Makefile",
                                  "obj-y += misc/\nsubdir-ccflags-y += -D unlocked_ioctl=ioctl\n",
                                  "-Dunlocked_ioctl=ioctl"),
}


class RenamedWordsTest(unittest.TestCase):
    def check(self, makefile: str, text: str, driver: str = BARO,
              before: str | None = None) -> tuple[int, list[str], str]:
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        tree = {"Makefile": TOP, "drivers/Makefile": "obj-y += misc/\n",
                "drivers/misc/Makefile": MISC}
        tree[makefile] = text
        if before is not None:
            tree["drivers/misc/baro.c"] = before
        repo.commit("the tree", tree)
        repo.commit("baro", {"drivers/misc/baro.c": driver})
        out = repo.run_cli("check", "--git", "HEAD")
        return out.returncode, types(out.stdout), out.stdout + out.stderr

    def test_a_file_whose_flags_rename_a_word_is_not_checked(self):
        for spelling, (makefile, text, flag) in RENAMING.items():
            with self.subTest(spelling):
                code, found, out = self.check(makefile, text)
                self.assertEqual(code, 1, out)
                self.assertIn("ERROR:NOT_CHECKED", found)
                self.assertIn(flag, out)
                self.assertIn(makefile, out)

    def test_it_is_shown_at_the_changed_line_naming_the_word(self):
        makefile, text, _ = RENAMING["ccflags-y"]
        driver = BARO.replace("\t.compat_ioctl\t= baro_ioctl,\n", "")
        code, found, out = self.check(makefile, text, BARO, before=driver)
        self.assertEqual(code, 1, out)
        self.assertEqual(found, ["ERROR:NOT_CHECKED"])
        self.assertRegex(out, r"FILE: drivers/misc/baro.c:16:\n\+\t\.compat_ioctl\t= baro_ioctl,")

    def test_other_flags_pass_as_before(self):
        for text in (MISC + "CFLAGS_other.o += -Dunlocked_ioctl=ioctl\n",
                     MISC + "ccflags-y += -DBARO_DEBUG -DIOCTL_MAX=4\n"):
            with self.subTest(text):
                code, found, out = self.check("drivers/misc/Makefile", text)
                self.assertEqual(code, 0, out)
                self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()

"""check and convert read a kbuild flag's make variables alike (issue 22).

A flag naming a variable no Makefile of the tree assigns
(`EXTRA_CFLAGS += $(KNOB_USER_CFLAGS)`, a knob for the user's environment)
is empty in the build the tree describes: convert, reading the tree,
converts.  check laid the directory's Makefiles in a scratch directory
with no top Makefile, where nothing is known unset, so the conversion it
showed was refused ("brings in what the rules do not read").  A variable
the tree assigns (`DRV_FLAGS := -DDRV_FAST` in the top Makefile) is not
expanded by either (which Makefile's value reaches the compile is not
read): both refuse, in the same words."""

import unittest

from test_check_repo import GitRepo

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n\nDRV_FLAGS := -DDRV_FAST\nexport DRV_FLAGS\n" \
      "\nobj-y += drivers/\n"

KNOB = """/*
 * knob: a control knob whose ioctl reads one register.
 */
#include <linux/fs.h>

static int knob_value;

static int knob_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return knob_value;
}

static struct file_operations knob_fops = {
	.ioctl		= knob_ioctl,
};
"""

REFUSED = "a kbuild flag of its Makefile, %s (drivers/knob/Makefile), brings in what the " \
          "rules do not read"
CONVERTED = "+static long knob_ioctl(struct file *file,"


class MakeVariablesTest(unittest.TestCase):
    def both(self, flags: str):
        """check's and convert's output on knob.c under FLAGS."""
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": "obj-y += knob/\n",
                                 "drivers/knob/Makefile": "obj-m += knob.o\n" + flags + "\n",
                                 "include/linux/fs.h": "struct inode;\nstruct file;\n"})
        repo.commit("knob", {"drivers/knob/knob.c": KNOB})
        check = repo.run_cli("check", "--git", "HEAD", "--no-compat")
        convert = repo.run_cli("convert", "--no-compat", ".")
        self.assertEqual(convert.returncode, 0, convert.stdout + convert.stderr)
        return check.stdout, convert.stdout + convert.stderr

    def test_a_variable_no_makefile_assigns_is_empty_in_both(self):
        for flags in ("EXTRA_CFLAGS += $(KNOB_USER_CFLAGS)", "ccflags-y += ${KNOB_USER_CFLAGS} -O2",
                      "CFLAGS_knob.o += $(KNOB_USER_CFLAGS)"):
            with self.subTest(flags=flags):
                check, convert = self.both(flags)
                self.assertIn("1 converted", convert)
                self.assertIn(CONVERTED, check)
                self.assertNotIn("brings in what the rules do not read", check)
                self.assertNotIn("NOT_CHECKED", check)

    def test_a_variable_the_tree_assigns_is_refused_in_both(self):
        for flags, named in (("EXTRA_CFLAGS += $(DRV_FLAGS)", "$(DRV_FLAGS)"),
                             ("KNOB_FLAGS = $(DRV_FLAGS)\nccflags-y += $(KNOB_FLAGS)",
                              "$(DRV_FLAGS)")):
            with self.subTest(flags=flags):
                check, convert = self.both(flags)
                self.assertIn("0 converted, 1 skipped", convert)
                self.assertIn(REFUSED % named, convert)
                self.assertIn(REFUSED % named, check)
                self.assertNotIn(CONVERTED, check)


if __name__ == "__main__":
    unittest.main()

"""A make variable that no Makefile of the tree assigns is empty in the
build the tree describes (make expands it so when the environment does not
set it): 2.6.9's drivers/message/fusion/Makefile adds `${MPT_CFLAGS}`, a
knob for the user's environment.  Read as an unknown flag, it contested
every `ioc->ioctl` member of mptctl.c and so denied every conversion of
2.6.9's drivers/.  One the tree assigns anywhere stays unknown unless the
Makefile read defines it, and outside a tree nothing is known unset."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.ctext import include_search

SPELLINGS = {
    "EXTRA_CFLAGS += ${DRV_CFLAGS}": "drv.o",
    "EXTRA_CFLAGS += $(DRV_CFLAGS) -O2": "drv.o",
    "ccflags-y := $(DRV_CFLAGS)": "drv.o",
    "CFLAGS_drv.o += ${DRV_CFLAGS}": "drv.o",
}


class UnsetVariableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="kbuild-unset-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def flags(self, makefile: str, top: bool = True, elsewhere: str = ""):
        tree = self.tmp / "tree"
        shutil.rmtree(tree, ignore_errors=True)
        (tree / "drivers/drv").mkdir(parents=True)
        if top:
            (tree / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        if elsewhere:
            (tree / "arch/i386").mkdir(parents=True)
            (tree / "arch/i386/Makefile").write_text(elsewhere)
        (tree / "drivers/drv/Makefile").write_text("obj-m += drv.o\n" + makefile + "\n")
        (tree / "drivers/drv/drv.c").write_text("int x;\n")
        include_search._assigned_in.clear()
        return include_search.kbuild_flags(tree, "drivers/drv/drv.c")

    def test_a_variable_the_tree_never_assigns_is_empty(self):
        for makefile in SPELLINGS:
            with self.subTest(makefile=makefile):
                self.assertEqual(self.flags(makefile).unexpanded, ())

    def test_a_variable_the_tree_assigns_elsewhere_stays_unknown(self):
        for elsewhere in ("DRV_CFLAGS := -DDRV_ioctl=1\n", "export DRV_CFLAGS ?= -Dx\n",
                          "DRV_CFLAGS += -Dy\n", "define DRV_CFLAGS\n-Dz\nendef\n"):
            with self.subTest(elsewhere=elsewhere):
                self.assertTrue(self.flags("EXTRA_CFLAGS += ${DRV_CFLAGS}",
                                           elsewhere=elsewhere).unexpanded)

    def test_its_own_makefile_still_defines_it(self):
        found = self.flags("DRV_CFLAGS = -DUSE_INODE\nEXTRA_CFLAGS += $(DRV_CFLAGS)")
        self.assertEqual((found.named, found.unexpanded), (("USE_INODE",), ()))

    def test_outside_a_tree_nothing_is_known_unset(self):
        self.assertTrue(self.flags("EXTRA_CFLAGS += ${DRV_CFLAGS}", top=False).unexpanded)


if __name__ == "__main__":
    unittest.main()

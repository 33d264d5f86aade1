"""Tests for applying the kernel shims (ioctl_rework.fixture.shims).

A small fake tree and shim directory stand in for linux-source-6.1; one
test checks the real shims against the real tree when it is unpacked.
"""

import os
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.fixture import kernel, shims

EDIT = """\
# give struct ops a legacy member
=== include/ops.h
--- the member
	long (*unlocked)(void);
+++
	int (*legacy)(void);
	long (*unlocked)(void);
=== fs/Makefile
--- one more object
obj-y := a.o
+++
obj-y := a.o b.o
"""


class ShimTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.tree, self.pristine, self.shims = root / "tree", root / "pristine", root / "shims"
        (self.tree / "include").mkdir(parents=True)
        (self.tree / "fs").mkdir()
        (self.tree / "include" / "ops.h").write_text("struct ops {\n\tlong (*unlocked)(void);\n};\n")
        (self.tree / "fs" / "Makefile").write_text("obj-y := a.o\n")
        (self.shims / "edits").mkdir(parents=True)
        (self.shims / "new" / "include").mkdir(parents=True)
        (self.shims / "edits" / "10-ops.edit").write_text(EDIT)
        (self.shims / "new" / "include" / "lock.h").write_text("/* lock */\n")

    def tearDown(self):
        self.tmp.cleanup()

    def apply(self):
        return shims.apply(self.tree, self.pristine, self.shims)


class ApplyTest(ShimTestCase):
    def test_edits_and_new_files(self):
        result = self.apply()
        self.assertEqual(sorted(result.changed), ["fs/Makefile", "include/lock.h", "include/ops.h"])
        self.assertEqual((self.tree / "include" / "ops.h").read_text(),
                         "struct ops {\n\tint (*legacy)(void);\n\tlong (*unlocked)(void);\n};\n")
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o b.o\n")
        self.assertEqual((self.tree / "include" / "lock.h").read_text(), "/* lock */\n")

    def test_second_apply_changes_nothing_and_keeps_times(self):
        self.apply()
        header = self.tree / "include" / "ops.h"
        os.utime(header, (1, 1))
        self.assertEqual(self.apply().changed, ())
        self.assertEqual(header.stat().st_mtime, 1)

    def test_changed_shim_reapplies_from_the_pristine_file(self):
        self.apply()
        edit = self.shims / "edits" / "10-ops.edit"
        edit.write_text(EDIT.replace("b.o", "c.o"))
        self.assertEqual(self.apply().changed, ("fs/Makefile",))
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o c.o\n")

    def test_hunk_that_no_longer_applies_names_file_and_hunk(self):
        (self.tree / "include" / "ops.h").write_text("struct ops {\n\tlong (*renamed)(void);\n};\n")
        with self.assertRaises(shims.ShimError) as caught:
            self.apply()
        message = str(caught.exception)
        self.assertIn("10-ops.edit: include/ops.h: hunk 'the member' no longer applies", message)
        self.assertIn("not found", message)
        # Nothing was written: the Makefile hunk would have applied.
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o\n")

    def test_ambiguous_hunk(self):
        (self.tree / "fs" / "Makefile").write_text("obj-y := a.o\nobj-y := a.o\n")
        with self.assertRaisesRegex(shims.ShimError, "'one more object'.*found 2 times"):
            self.apply()

    def test_missing_file(self):
        (self.tree / "fs" / "Makefile").unlink()
        with self.assertRaisesRegex(shims.ShimError, "fs/Makefile: no such file"):
            self.apply()


class ParseTest(ShimTestCase):
    def test_hunk_without_replacement(self):
        (self.shims / "edits" / "20-bad.edit").write_text("=== a.c\n--- broken\nfoo\n")
        with self.assertRaisesRegex(shims.ShimError, "20-bad.edit:4: hunk 'broken' has no \\+\\+\\+"):
            self.apply()

    def test_text_outside_a_hunk(self):
        (self.shims / "edits" / "20-bad.edit").write_text("=== a.c\nstray\n")
        with self.assertRaisesRegex(shims.ShimError, "20-bad.edit:2: text outside a hunk"):
            self.apply()


@unittest.skipUnless((kernel.DEFAULT_CACHE / "src" / "pristine").is_dir(),
                     "the fixture source tree is not unpacked (make fixture-build)")
class RealTreeTest(unittest.TestCase):
    def test_real_shims_apply_to_the_pristine_files(self):
        pristine = kernel.DEFAULT_CACHE / "src" / "pristine"
        for edit in shims.load_edits():
            original = pristine / edit.path
            shims.apply_hunks(original.read_text(), edit)


if __name__ == "__main__":
    unittest.main()

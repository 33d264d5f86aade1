"""Tests for applying the kernel shims (ioctl_rework.fixture.shims).

A small fake tree and shim directory stand in for linux-source-6.1; one
test checks the real series against the real tree when it is unpacked.
"""

import os
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.fixture import kernel, shims

PATCH = """\
Give struct ops a legacy member, and build one more object.

--- a/include/ops.h
+++ b/include/ops.h
@@ -1,3 +1,4 @@
 struct ops {
+\tint (*legacy)(void);
 \tlong (*unlocked)(void);
 };
--- a/fs/Makefile
+++ b/fs/Makefile
@@ -1 +1 @@
-obj-y := a.o
+obj-y := a.o b.o
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
        self.patches = self.shims / "patches"
        self.patches.mkdir(parents=True)
        (self.shims / "new" / "include").mkdir(parents=True)
        (self.patches / "ops.patch").write_text(PATCH)
        (self.patches / "series").write_text("# the order\nops.patch\n")
        (self.shims / "new" / "include" / "lock.h").write_text("/* lock */\n")

    def tearDown(self):
        self.tmp.cleanup()

    def apply(self):
        return shims.apply(self.tree, self.pristine, self.shims)


class ApplyTest(ShimTestCase):
    def test_patches_and_new_files(self):
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
        (self.patches / "ops.patch").write_text(PATCH.replace("b.o", "c.o"))
        self.assertEqual(self.apply().changed, ("fs/Makefile",))
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o c.o\n")

    def test_series_order_later_patches_see_earlier_ones(self):
        (self.patches / "more.patch").write_text(
            "--- a/fs/Makefile\n+++ b/fs/Makefile\n@@ -1 +1 @@\n-obj-y := a.o b.o\n"
            "+obj-y := a.o b.o d.o\n")
        (self.patches / "series").write_text("ops.patch\nmore.patch\n")
        self.apply()
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o b.o d.o\n")

    def test_a_file_no_patch_touches_any_more_gets_its_original_back(self):
        self.apply()
        (self.patches / "ops.patch").write_text(PATCH.split("--- a/fs/Makefile")[0])
        self.assertEqual(self.apply().changed, ("fs/Makefile",))
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o\n")

    def test_hunk_that_no_longer_applies_names_patch_file_and_hunk(self):
        (self.tree / "include" / "ops.h").write_text("struct ops {\n\tlong (*renamed)(void);\n};\n")
        with self.assertRaises(shims.ShimError) as caught:
            self.apply()
        message = str(caught.exception)
        self.assertIn("ops.patch: include/ops.h: hunk #1 (line 1) no longer applies", message)
        self.assertIn("not found", message)
        # Nothing was written: the Makefile hunk would have applied.
        self.assertEqual((self.tree / "fs" / "Makefile").read_text(), "obj-y := a.o\n")

    def test_ambiguous_hunk(self):
        """patch(1) would take the copy nearest line 1; we refuse to guess."""
        (self.tree / "fs" / "Makefile").write_text("obj-y := a.o\nobj-y := a.o\n")
        with self.assertRaisesRegex(shims.ShimError, "fs/Makefile: hunk #1 .*found 2 times"):
            self.apply()
        self.assertEqual((self.tree / "include" / "ops.h").read_text(),
                         "struct ops {\n\tlong (*unlocked)(void);\n};\n")

    def test_missing_file(self):
        (self.tree / "fs" / "Makefile").unlink()
        with self.assertRaisesRegex(shims.ShimError, "fs/Makefile: no such file"):
            self.apply()


class SeriesTest(ShimTestCase):
    def test_malformed_patch_says_where(self):
        (self.patches / "ops.patch").write_text("--- a/a.c\n+++ b/a.c\n@@ -1,2 +1,2 @@\n foo\n")
        with self.assertRaisesRegex(shims.ShimError, "ops.patch: line"):
            self.apply()

    def test_every_patch_is_in_the_series(self):
        (self.patches / "stray.patch").write_text(PATCH)
        with self.assertRaisesRegex(shims.ShimError, "series: does not name stray.patch"):
            self.apply()

    def test_a_series_line_is_one_name(self):
        (self.patches / "series").write_text("ops.patch -p0\n")
        with self.assertRaisesRegex(shims.ShimError, "one patch name per line"):
            self.apply()

    def test_new_files_belong_in_new(self):
        (self.patches / "ops.patch").write_text(
            "--- /dev/null\n+++ b/include/extra.h\n@@ -0,0 +1 @@\n+int extra;\n")
        with self.assertRaisesRegex(shims.ShimError, "include/extra.h: .*put new files in new/"):
            self.apply()

    def test_the_old_edit_format_fails_loudly(self):
        (self.shims / "edits").mkdir()
        (self.shims / "edits" / "50-late.edit").write_text("=== a.c\n--- x\na\n+++\nb\n")
        with self.assertRaisesRegex(shims.ShimError, "50-late.edit: the .edit format is no longer"):
            self.apply()


@unittest.skipUnless((kernel.DEFAULT_CACHE / "src" / "pristine").is_dir(),
                     "the fixture source tree is not unpacked (make fixture-build)")
class RealTreeTest(unittest.TestCase):
    def test_real_shims_apply_to_the_pristine_files(self):
        cache = kernel.DEFAULT_CACHE / "src"
        patched = shims._patched(cache / "linux-source-6.1", cache / "pristine",
                                 shims.load_series())
        self.assertIn("include/linux/fs.h", patched)
        self.assertIn(b"int (*ioctl) (struct inode *", patched["include/linux/fs.h"])


if __name__ == "__main__":
    unittest.main()

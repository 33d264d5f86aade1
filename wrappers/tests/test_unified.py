"""Tests for ioctl_rework.patches.unified.apply_hunks (spatch's diffs, read by
python3-unidiff), and for why patch_parser keeps a reader of its own."""

import unittest
from pathlib import Path

import unidiff

from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.patches.unified import apply_hunks

DATA = Path(__file__).resolve().parent / "test_data" / "check"

OLD = b"int a;\n\x0cint b;\nint c;\n"
# As spatch prints it, with a report line before the diff (convert runs
# -D patch and -D report at once).
SPATCH = ("x.c:2: x_fops: .ioctl = x_ioctl: convert (pushdown)\n"
          "--- x.c\n+++ /tmp/cocci-output-1-x.c\n@@ -1,3 +1,3 @@\n"
          " int a;\n-\x0cint b;\n+\x0clong b;\n int c;\n")


class ApplyHunksTest(unittest.TestCase):
    def test_applies_spatch_s_diff_to_the_bytes_read(self):
        applied = apply_hunks(OLD, SPATCH)
        self.assertEqual(applied.new, b"int a;\n\x0clong b;\nint c;\n")
        self.assertEqual(applied.added, {2})
        self.assertEqual(applied.removed, [b"\x0cint b;"])

    def test_crlf_file_keeps_its_line_ends(self):
        applied = apply_hunks(OLD.replace(b"\n", b"\r\n"), SPATCH)
        self.assertEqual(applied.new, b"int a;\r\n\x0clong b;\r\nint c;\r\n")

    def test_crlf_line_spatch_extends_gets_a_space_not_a_lone_cr(self):
        old = b"\tif (cmd == 2)\r\n\t\treturn -EINVAL;\r\n"
        diff = ("--- x.c\n+++ y.c\n@@ -1,2 +1,4 @@\n-\tif (cmd == 2)\r\n+\tif (cmd == 2)\r{\n"
                "+\t\tunlock_kernel();\n \t\treturn -EINVAL;\r\n+\t}\n")
        self.assertEqual(apply_hunks(old, diff).new,
                         b"\tif (cmd == 2) {\r\n\t\tunlock_kernel();\r\n"
                         b"\t\treturn -EINVAL;\r\n\t}\r\n")

    def test_a_lone_cr_of_an_lf_file_stays_part_of_its_line(self):
        diff = "--- x.c\n+++ y.c\n@@ -1 +1 @@\n-int a;\n+int a;\r/* x */\n"
        self.assertEqual(apply_hunks(b"int a;\n", diff).new, b"int a;\r/* x */\n")

    def test_bytes_that_are_not_utf8(self):
        old = b"/* \xe9 */\nint b;\n"
        diff = ("--- x.c\n+++ y.c\n@@ -1,2 +1,2 @@\n /* \udce9 */\n-int b;\n+long b;\n")
        self.assertEqual(apply_hunks(old, diff).new, b"/* \xe9 */\nlong b;\n")

    def test_no_newline_at_end_of_file(self):
        diff = ("--- x.c\n+++ y.c\n@@ -3 +3 @@\n-int c;\n+int d;\n"
                "\\ No newline at end of file\n")
        self.assertEqual(apply_hunks(OLD, diff).new, b"int a;\n\x0cint b;\nint d;")

    def test_a_hunk_that_does_not_match_is_an_error(self):
        with self.assertRaises(ValueError) as caught:
            apply_hunks(b"int a;\nint x;\nint c;\n", SPATCH)
        self.assertIn("line 2 does not match the hunk at line 1", str(caught.exception))

    def test_a_broken_diff_is_an_error(self):
        with self.assertRaises(ValueError) as caught:
            apply_hunks(OLD, "--- x.c\n+++ y.c\n@@ -1,3 +1,3 @@\n int a;\n")
        self.assertIn("spatch's diff cannot be read", str(caught.exception))


class WhyPatchParserIsOurOwnTest(unittest.TestCase):
    """What unidiff 0.7.3 cannot read of the patches check is given (the
    module doc of patch_parser).  When one of these starts to pass, that
    part of patch_parser can go."""

    def test_crlf_mail(self):
        text = ("diff --git a/f.c b/f.c\nnew file mode 100644\n--- /dev/null\n+++ b/f.c\n"
                "@@ -0,0 +1 @@\n+int a;\n").replace("\n", "\r\n")
        names = [f.target_file for f in unidiff.PatchSet(text)]
        self.assertTrue(any(name.endswith("\r") for name in names))
        self.assertEqual([f.path for f in patch_parser.parse(text).files], ["f.c"])

    def test_quoted_names(self):
        text = ('diff --git "a/..\\057x.c" "b/..\\057x.c"\nnew file mode 100644\n'
                '--- /dev/null\n+++ "b/..\\057x.c"\n@@ -0,0 +1 @@\n+int a;\n')
        self.assertIn('"b/..\\057x.c"', [f.target_file for f in unidiff.PatchSet(text)])
        self.assertEqual([f.path for f in patch_parser.parse(text).files], ["../x.c"])

    def test_a_space_in_a_name_adds_a_file(self):
        text = ("diff --git a/x y.c b/x y.c\nindex 1..2 100644\n--- a/x y.c\t\n+++ b/x y.c\t\n"
                "@@ -1 +1 @@\n-a\n+b\n")
        self.assertEqual(len(unidiff.PatchSet(text)), 2)
        self.assertEqual([f.path for f in patch_parser.parse(text).files], ["x y.c"])

    def test_format_patch_with_a_binary_file(self):
        text = (DATA / "mixed.patch").read_text()
        with self.assertRaises(unidiff.UnidiffParseError):
            unidiff.PatchSet(text)
        self.assertEqual(len(patch_parser.parse(text).files), 5)

    def test_hunks_out_of_order(self):
        text = "--- a/f.c\n+++ b/f.c\n@@ -5 +5 @@\n-a\n+b\n@@ -1 +1 @@\n-c\n+d\n"
        self.assertEqual(len(unidiff.PatchSet(text)[0]), 2)
        with self.assertRaises(patch_parser.MalformedPatch):
            patch_parser.parse(text)


if __name__ == "__main__":
    unittest.main()

"""Tests for ioctl_rework.patches.parser, on recorded patches in test_data/check/."""

import unittest
from pathlib import Path

from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.patches.parser import MalformedPatch, Status

DATA = Path(__file__).resolve().parent / "test_data" / "check"


def read(name: str) -> str:
    return (DATA / name).read_text()


class MixedPatchTest(unittest.TestCase):
    """git format-patch of one commit that renames, deletes, adds, and changes a binary."""

    @classmethod
    def setUpClass(cls):
        cls.patch = patch_parser.parse(read("mixed.patch"))
        cls.by_path = {f.path: f for f in cls.patch.files}

    def test_every_file_is_found_in_order(self):
        self.assertEqual([f.path for f in self.patch.files],
                         ["after name.c", "blob.bin", "list.c", "new.c", "old.h"])

    def test_rename_keeps_both_names_and_the_added_line(self):
        renamed = self.by_path["after name.c"]
        self.assertEqual(renamed.status, Status.RENAMED)
        self.assertEqual(renamed.old_path, "before.c")
        self.assertEqual({n: ln.text for n, ln in renamed.added().items()}, {3: "and another"})

    def test_binary_file_has_no_hunks(self):
        blob = self.by_path["blob.bin"]
        self.assertTrue(blob.binary)
        self.assertEqual(blob.hunks, ())
        self.assertEqual(blob.status, Status.MODIFIED)

    def test_added_lines_carry_new_and_patch_line_numbers(self):
        added = self.by_path["list.c"].added()
        self.assertEqual(sorted(added), [2, 12])
        self.assertEqual(added[2].text, "TWO")
        self.assertEqual(added[2].patch_line, 44)
        self.assertEqual(added[12].text, "eleven and a half")
        self.assertEqual(added[12].patch_line, 52)

    def test_new_and_deleted_files(self):
        new, old = self.by_path["new.c"], self.by_path["old.h"]
        self.assertEqual((new.status, new.old_path, new.new_path), (Status.ADDED, None, "new.c"))
        self.assertEqual((old.status, old.old_path, old.new_path), (Status.DELETED, "old.h", None))
        self.assertEqual(old.added(), {})

    def test_total_lines_counts_the_whole_input(self):
        self.assertEqual(self.patch.total_lines, len(read("mixed.patch").splitlines()))

    def test_line_map_through_hunks(self):
        change = self.by_path["list.c"]
        self.assertEqual(change.new_line_map(1), 1)
        self.assertIsNone(change.new_line_map(2))       # "two" was replaced
        self.assertEqual(change.new_line_map(8), 8)
        self.assertEqual(change.new_line_map(12), 13)   # after the insertion


class SeriesTest(unittest.TestCase):
    """Two mails, the second moving and replacing lines the first added."""

    def test_added_lines_after_the_whole_series(self):
        finals = patch_parser.parse(read("series.patch")).final_files()
        self.assertEqual([f.path for f in finals], ["list.c"])
        added = finals[0].added
        self.assertEqual({n: ln.text for n, ln in added.items()},
                         {1: "zero", 7: "five.1", 8: "FIVE.2"})
        self.assertEqual(added[7].patch_line, 18)   # still shown where the first mail added it
        self.assertEqual(added[7].new, 7)           # but numbered as the series leaves it
        self.assertEqual(added[1].patch_line, 41)

    def test_deleted_lines_leave_a_gap_at_the_line_that_follows_them(self):
        text = ("--- a/f.c\n+++ b/f.c\n@@ -1,5 +1,3 @@\n"
                " a\n-b\n-c\n d\n e\n"
                "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,3 @@\n+z\n a\n d\n")
        final = patch_parser.parse(text).final_files()[0]
        # "d" was line 2 after the first patch, line 3 after the second.
        self.assertEqual({n: line.text for n, line in final.gaps.items()}, {3: "b"})
        self.assertEqual(sorted(final.added), [1])

    def test_reconstruct_keeps_line_numbers(self):
        final = patch_parser.parse(read("series.patch")).final_files()[0]
        lines = final.reconstruct().splitlines()
        self.assertEqual(lines[:8], ["zero", "one", "TWO", "three", "four", "five",
                                     "five.1", "FIVE.2"])


class PathsTest(unittest.TestCase):
    def test_plain_diff_u_strips_timestamps_and_first_component(self):
        patch = patch_parser.parse(read("plain.diff"))
        (change,) = patch.files
        self.assertEqual((change.old_path, change.new_path), ("drivers/x.c", "drivers/x.c"))
        self.assertEqual({n: ln.text for n, ln in change.added().items()}, {2: "B", 4: "d"})

    def test_quoted_git_path(self):
        text = ('diff --git a/list.c "b/tab\\tname.c"\n'
                'similarity index 100%\nrename from list.c\nrename to "tab\\tname.c"\n')
        (change,) = patch_parser.parse(text).files
        self.assertEqual(change.status, Status.RENAMED)
        self.assertEqual((change.old_path, change.new_path), ("list.c", "tab\tname.c"))

    def test_octal_escapes_are_utf8(self):
        text = ('diff --git "a/caf\\303\\251.c" "b/caf\\303\\251.c"\n'
                'new file mode 100644\n--- /dev/null\n+++ "b/caf\\303\\251.c"\n'
                '@@ -0,0 +1 @@\n+int x;\n')
        (change,) = patch_parser.parse(text).files
        self.assertEqual(change.new_path, "caf\u00e9.c")
        self.assertEqual(change.status, Status.ADDED)

    def test_blank_context_line_stripped_by_a_mailer(self):
        text = "--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,4 @@\n a\n\n+b\n c\n"
        (change,) = patch_parser.parse(text).files
        self.assertEqual({n: ln.text for n, ln in change.added().items()}, {3: "b"})

    def test_form_feed_and_carriage_return_do_not_end_lines(self):
        # 2.6-era sources put ^L between sections; some files have CRLF.
        text = "--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,4 @@\n a\n+\x0c\n+b\r\n c\n"
        patch = patch_parser.parse(text)
        (change,) = patch.files
        self.assertEqual({n: ln.text for n, ln in change.added().items()},
                         {2: "\x0c", 3: "b\r"})
        self.assertEqual(patch.total_lines, 7)

    def test_empty_input_is_an_empty_patch(self):
        self.assertEqual(patch_parser.parse("").files, ())


class MalformedTest(unittest.TestCase):
    CASES = {
        "truncated hunk": ("--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,4 @@\n a\n+b\n", "ends early"),
        "bad hunk header": ("--- a/f.c\n+++ b/f.c\n@@ -1,x +1 @@\n a\n", "bad hunk header"),
        "hunk without header": ("@@ -1 +1 @@\n-a\n+b\n", "without a file header"),
        "no diff at all": ("Subject: hello\n\njust words\n", "no diff found"),
        "too many lines": ("--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n-b\n+c\n",
                           "does not match its header"),
        "header without hunk": ("--- a/f.c\n+++ b/f.c\nplain text\n", "without any hunk"),
        "hunks out of order": ("--- a/f.c\n+++ b/f.c\n@@ -5 +5 @@\n-a\n+b\n"
                               "@@ -1 +1 @@\n-c\n+d\n", "out of order"),
        "broken binary data": ("diff --git a/b.bin b/b.bin\nGIT binary patch\nliteral 4\n"
                               "this is not base85 !\n\n", "binary"),
        "octal escape with a 9": ('diff --git "a/\\09.c" "b/\\09.c"\n', "bad octal escape \\09."),
        "octal escape over 377": ('diff --git "a/\\400.c" "b/\\400.c"\n', "bad octal escape \\400"),
        "octal escape cut short": ('--- "a/x\\1"\n+++ "b/x\\1"\n@@ -1 +1 @@\n-a\n+b\n',
                                   "bad octal escape \\1"),
    }

    def test_each_malformed_input_names_the_problem(self):
        for name, (text, words) in self.CASES.items():
            with self.subTest(name):
                with self.assertRaises(MalformedPatch) as caught:
                    patch_parser.parse(text)
                self.assertIn(words, str(caught.exception))

    def test_the_line_of_the_problem_is_given(self):
        with self.assertRaises(MalformedPatch) as caught:
            patch_parser.parse("intro\n--- a/f.c\n+++ b/f.c\n@@ -1,2 +1,2 @@\n a\n?b\n")
        self.assertEqual(caught.exception.line, 6)


class ForeignPartTest(unittest.TestCase):
    """Diff parts git does not apply but GNU patch does (patch_parser.foreign_part)."""

    UNIFIED = "--- a/r\n+++ b/r\n@@ -0,0 +1 @@\n+x\n"
    PARTS = {
        "context diff": "*** a/f.c\n--- b/f.c\n***************\n*** 1 ****\n--- 1,2 ----\n",
        "normal diff": "3a4,5\n> .ioctl = h,\n> };\n",
        "indented diff": "  --- a/f.c\n  +++ b/f.c\n  @@ -1 +1,2 @@\n   x\n  +y\n",
        "quoted diff": "> --- a/f.c\n> +++ b/f.c\n> @@ -1 +1,2 @@\n",
    }

    def test_each_is_found_after_a_unified_part(self):
        for name, part in self.PARTS.items():
            with self.subTest(name):
                text = self.UNIFIED + part
                found = patch_parser.foreign_part(text, patch_parser.parse(self.UNIFIED))
                self.assertEqual(found[0] if found else None, 5, name)   # its first line

    def test_hunk_lines_that_look_like_one_are_not(self):
        # A patch of a patch: its context lines are a diff's lines.
        text = ("--- a/p.patch\n+++ b/p.patch\n@@ -1,4 +1,5 @@\n --- a/f.c\n +++ b/f.c\n"
                " @@ -1 +1 @@\n 3a4,5\n+> y\n")
        self.assertIsNone(patch_parser.foreign_part(text, patch_parser.parse(text)))


if __name__ == "__main__":
    unittest.main()

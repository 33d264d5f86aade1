"""verify_diagnostics: reading make's output, and which messages a rewrite added.

The outputs below are written as kbuild 6.1 prints them in quiet mode
with LC_ALL=C (one target's output at a time, make -Otarget).
"""

import unittest

from ioctl_rework.verify.diagnostics import Diagnostic, added, describe, parse

SCRATCH = "/tmp/ioctl-rework-kdir.x/tree"

LEGACY_OUTPUT = f"""\
make: Entering directory '/src/obj'
  CC      {SCRATCH}/drivers/char/foo.o
{SCRATCH}/drivers/char/foo.c: In function 'foo_ioctl':
{SCRATCH}/drivers/char/foo.c:40:13: warning: unused variable 'minor' [-Wunused-variable]
   40 |         int minor;
      |             ^~~~~
  CHECK   {SCRATCH}/drivers/char/foo.c
{SCRATCH}/drivers/char/foo.c:12:14: warning: symbol 'foo_count' was not declared. Should it be static?
  CPP     {SCRATCH}/drivers/char/foo.i
  CC      {SCRATCH}/drivers/char/bar.o
In file included from {SCRATCH}/drivers/char/bar.c:5:
{SCRATCH}/drivers/char/bar.h:3:12: error: conflicting types for 'bar_ioctl'; have 'long int(struct file *, unsigned int,  long unsigned int)'
{SCRATCH}/drivers/char/bar.c:20:5: note: previous definition of 'bar_ioctl' with type 'int(struct inode *, struct file *, unsigned int,  long unsigned int)'
make[2]: *** [/src/linux/scripts/Makefile.build:250: {SCRATCH}/drivers/char/bar.o] Error 1
make: Leaving directory '/src/obj'
"""


def diagnostic(text, line=10, tool="gcc", function="foo_ioctl", severity="warning",
               file="drivers/char/foo.c") -> Diagnostic:
    return Diagnostic(tool, file, line, 5, function, severity, text)


class ParseTest(unittest.TestCase):
    def setUp(self):
        self.found = parse(LEGACY_OUTPUT, SCRATCH)

    def test_each_message_belongs_to_the_file_whose_command_printed_it(self):
        self.assertEqual(sorted(self.found), ["drivers/char/bar.c", "drivers/char/foo.c"])
        self.assertEqual(len(self.found["drivers/char/foo.c"]), 2)
        self.assertEqual(len(self.found["drivers/char/bar.c"]), 1)

    def test_gcc_messages_carry_their_function_and_sparse_ones_the_tool(self):
        gcc, sparse = self.found["drivers/char/foo.c"]
        self.assertEqual((gcc.tool, gcc.function, gcc.line, gcc.severity),
                         ("gcc", "foo_ioctl", 40, "warning"))
        self.assertEqual(gcc.text, "unused variable 'minor' [-Wunused-variable]")
        self.assertEqual((sparse.tool, sparse.function, sparse.line), ("sparse", "", 12))

    def test_a_message_in_a_header_is_the_including_files_and_names_the_header(self):
        (error,) = self.found["drivers/char/bar.c"]
        self.assertEqual((error.file, error.line, error.severity),
                         ("drivers/char/bar.h", 3, "error"))
        self.assertTrue(error.text.startswith("conflicting types for 'bar_ioctl'"))

    def test_notes_source_lines_and_makes_own_lines_are_not_messages(self):
        texts = [d.text for ds in self.found.values() for d in ds]
        self.assertFalse(any("previous definition" in t or "Error 1" in t for t in texts))

    def test_a_message_names_its_file_relative_to_the_copy(self):
        self.assertEqual(str(self.found["drivers/char/foo.c"][0]),
                         "drivers/char/foo.c:40:13: warning: unused variable 'minor' "
                         "[-Wunused-variable]")
        self.assertEqual(str(self.found["drivers/char/foo.c"][1]),
                         "drivers/char/foo.c:12:14: sparse: warning: symbol 'foo_count' was "
                         "not declared. Should it be static?")

    def test_a_utf8_locale_s_quotes_still_name_the_function(self):
        output = (f"  CC      {SCRATCH}/a/x.o\n{SCRATCH}/a/x.c: In function \u2018x_ioctl\u2019:\n"
                  f"{SCRATCH}/a/x.c:9:6: warning: unused variable \u2018i\u2019\n")
        (found,) = parse(output, SCRATCH)["a/x.c"]
        self.assertEqual(found.function, "x_ioctl")

    def test_fatal_errors_are_errors(self):
        output = (f"  CC      {SCRATCH}/a/x.o\n"
                  f"{SCRATCH}/a/x.c:3:10: fatal error: linux/smp_lock.h: No such file\n")
        (error,) = parse(output, SCRATCH)["a/x.c"]
        self.assertEqual(error.severity, "error")


class AddedTest(unittest.TestCase):
    def test_a_message_that_only_moved_is_not_new(self):
        before = [diagnostic("unused variable 'minor'", line=40)]
        after = [diagnostic("unused variable 'minor'", line=47)]
        self.assertEqual(added(before, after), [])

    def test_a_new_warning_error_and_context_imbalance_are_new(self):
        before = [diagnostic("unused variable 'minor'")]
        after = [diagnostic("unused variable 'minor'", line=12),
                 diagnostic("unused variable 'inode'", line=30),
                 diagnostic("conflicting types for 'foo_ioctl'", severity="error"),
                 diagnostic("context imbalance in 'foo_ioctl' - wrong count at exit",
                            tool="sparse", function="")]
        self.assertEqual([d.text for d in added(before, after)],
                         ["unused variable 'inode'", "conflicting types for 'foo_ioctl'",
                          "context imbalance in 'foo_ioctl' - wrong count at exit"])

    def test_sparses_other_warnings_do_not_count(self):
        after = [diagnostic("obsolete struct initializer, use C99 syntax", tool="sparse",
                            function="")]
        self.assertEqual(added([], after), [])

    def test_a_message_that_appears_more_often_is_new_that_many_times(self):
        one = diagnostic("comparison is always false")
        self.assertEqual(added([one], [one, one, one]), [one, one])

    def test_the_same_text_in_another_function_is_new(self):
        before = [diagnostic("unused variable 'ret'", function="foo_open")]
        after = [diagnostic("unused variable 'ret'", function="foo_ioctl")]
        self.assertEqual(len(added(before, after)), 1)

    def test_line_numbers_inside_a_message_do_not_make_it_new(self):
        before = [diagnostic("label 'out' defined but not used (see line 40)")]
        after = [diagnostic("label 'out' defined but not used (see line 52)")]
        self.assertEqual(added(before, after), [])

    def test_describe_gives_the_first_and_the_count_of_the_rest(self):
        new = [diagnostic("a", line=1), diagnostic("b", line=2), diagnostic("c", line=3)]
        self.assertEqual(describe(new), "drivers/char/foo.c:1:5: warning: a (and 2 more)")
        self.assertEqual(describe(new[:1]), "drivers/char/foo.c:1:5: warning: a")


if __name__ == "__main__":
    unittest.main()

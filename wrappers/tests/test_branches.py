"""Entries and handlers under #if/#else, converted by one run per branch.

test_data/branches/ holds small drivers written for these tests: an fops
whose `.ioctl` is under #if and another spelling of it under #else
(init_*), a handler defined under #ifdef and under #else (twice_*), and
shapes that must be refused in words (refused_*).  NAME.res is the file
convert must write.  Each configuration of every input and output is
compiled against the stub headers of test_data/branches_include/, so a
branch left with the old entry or a definition added twice fails.
"""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import branches as convert_branches
from ioctl_rework.convert.branches import BranchError, Conditional
from ioctl_rework.convert.summary import HandlerStatus
from test_convert import parse_args

DATA = Path(__file__).resolve().parent / "test_data" / "branches"
STUBS = Path(__file__).resolve().parent / "test_data" / "branches_include"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None
HAVE_GCC = shutil.which("gcc") is not None

VERSIONS = ["-DLINUX_VERSION_CODE=0x020614", "-DLINUX_VERSION_CODE=0x020412"]
# Converted cases: the compiler flags of each configuration.
CONFIGURATIONS = {
    "init_c99_gnu": VERSIONS,
    "init_address_cast": ["-DCONFIG_LAMP_STRICT", "-UCONFIG_LAMP_STRICT"],
    "init_two_handlers": ["-DCONFIG_SENSOR_TINY", "-UCONFIG_SENSOR_TINY"],
    "init_unlocked_in_other": ["-DCONFIG_RELAY_NEW_API", "-UCONFIG_RELAY_NEW_API"],
    "init_wrapper": VERSIONS,
    "twice_pushdown": ["-DCONFIG_LAMP_DIMMER", "-UCONFIG_LAMP_DIMMER"],
    "twice_switch": ["-DCONFIG_FAN_FIXED", "-UCONFIG_FAN_FIXED"],
}
# Refused cases: what their reason must say.
REFUSED = {
    "refused_elif": "the #if at line 15 has an #elif, not one #else",
    "refused_strategies": "the branches need different conversions of valve_ioctl: "
                          "wrapper and pushdown",
    "refused_inode_written": "the branches need different conversions of dial_ioctl: "
                             "pushdown and left alone (the inode parameter is written",
}


def compile_errors(path: Path, flag: str) -> str:
    """gcc's complaints about one configuration of PATH ('' when none)."""
    proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function",
                           "-I", str(STUBS), flag, "-x", "c", str(path)],
                          capture_output=True, text=True)
    return proc.stderr if proc.returncode else ""


def convert_tree(tree: Path, *argv: str):
    # A scratch directory, no kernel tree: run without a kernel's headers.
    args = parse_args(["--no-cache", "--target", "2.6.20", "--in-place", "--no-kernel-headers",
                       *argv, "--", str(tree)])
    request = convert.request_from_args(args)
    result = convert.convert(request)
    convert.write_in_place(result, request.root)
    return result


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class BranchRunsTest(unittest.TestCase):
    """One convert over every case, then a second over its output."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="branches-test-"))
        cls.tree = cls.tmp / "tree"
        cls.tree.mkdir()
        for case in DATA.glob("*.c"):
            shutil.copy(case, cls.tree)
        cls.first = convert_tree(cls.tree)
        cls.output = {p.name: p.read_bytes() for p in cls.tree.iterdir()}
        cls.second = convert_tree(cls.tree)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def records(self, summary, name):
        return [h for h in summary.handlers if h.file == name + ".c"]

    def test_every_case_is_written_as_its_res(self):
        for res in sorted(DATA.glob("*.res")):
            with self.subTest(case=res.stem):
                self.assertEqual(self.output[res.stem + ".c"].decode(), res.read_text())

    def test_both_branches_converted_alike(self):
        for name in CONFIGURATIONS:
            records = self.records(self.first.summary, name)
            with self.subTest(case=name):
                self.assertTrue(records)
                self.assertEqual({h.status for h in records}, {HandlerStatus.CONVERTED},
                                 [h.reason for h in records])
                self.assertEqual(len({h.strategy for h in records}), 1)
        # Both entries of an initializer under #if/#else are in the summary.
        self.assertEqual([h.line for h in self.records(self.first.summary, "init_c99_gnu")],
                         [21, 24])

    def test_refusals_say_why_in_words(self):
        for name, why in REFUSED.items():
            records = self.records(self.first.summary, name)
            with self.subTest(case=name):
                self.assertTrue(records)
                for record in records:
                    self.assertEqual(record.status, HandlerStatus.SKIPPED)
                    self.assertIn(why, record.reason)
                    self.assertNotIn("internal", record.reason)

    def test_a_second_run_finds_nothing_new_and_fails_nothing(self):
        self.assertEqual({p.name: p.read_bytes() for p in self.tree.iterdir()}, self.output)
        again = {(h.file, h.line, h.handler, h.status, h.reason)
                 for h in self.second.summary.handlers}
        before = {(h.file, h.line, h.handler, h.status, h.reason)
                  for h in self.first.summary.handlers if h.status is not HandlerStatus.CONVERTED}
        self.assertEqual(again, before)
        self.assertEqual([f for f in self.second.summary.files if f.status.value == "failed"], [])

    @unittest.skipUnless(HAVE_GCC, "gcc is not installed")
    def test_every_configuration_compiles_before_and_after(self):
        for name, flags in CONFIGURATIONS.items():
            for flag in flags:
                for path in (DATA / (name + ".c"), self.tree / (name + ".c")):
                    with self.subTest(file=str(path), configuration=flag):
                        self.assertEqual(compile_errors(path, flag), "")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class BranchRunsUnderMutexTest(unittest.TestCase):
    def test_initializer_converts_and_a_mutex_defined_twice_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            for name in ("init_c99_gnu", "twice_pushdown"):
                shutil.copy(DATA / (name + ".c"), tree)
            result = convert_tree(tree, "--lock", "mutex")
            records = {(h.file, h.line): h for h in result.summary.handlers}
            self.assertEqual(records["init_c99_gnu.c", 21].status, HandlerStatus.CONVERTED)
            self.assertEqual(records["init_c99_gnu.c", 24].status, HandlerStatus.CONVERTED)
            text = (tree / "init_c99_gnu.c").read_text()
            self.assertEqual(text.count("static DEFINE_MUTEX(init_c99_gnu_mutex);"), 1)
            self.assertEqual(text.count(".unlocked_ioctl\t= joy_ioctl,"), 2)
            # Each run has only the definition inside its #ifdef and no function
            # ahead of it that both configurations compile: the mutex has no
            # place (a place inside the #ifdef would define it twice in the merge).
            twice = records["twice_pushdown.c", 24]
            self.assertEqual(twice.status, HandlerStatus.SKIPPED)
            self.assertIn("no function ahead of the converted handlers is compiled wherever "
                          "they are, to put the private mutex before", twice.reason)
            self.assertEqual((tree / "twice_pushdown.c").read_text(),
                             (DATA / "twice_pushdown.c").read_text())
            if HAVE_GCC:
                for flag in VERSIONS:
                    self.assertEqual(compile_errors(tree / "init_c99_gnu.c", flag), "")


class CompileCheckTest(unittest.TestCase):
    @unittest.skipUnless(HAVE_GCC, "gcc is not installed")
    def test_a_branch_left_with_the_old_entry_does_not_compile(self):
        half = (DATA / "init_c99_gnu.res").read_text().replace(
            "\towner:\t\tTHIS_MODULE,\n\t.unlocked_ioctl\t= joy_ioctl,",
            "\towner:\t\tTHIS_MODULE,\n\tioctl:\t\tjoy_ioctl,")
        with tempfile.NamedTemporaryFile("w", suffix=".c") as out:
            out.write(half)
            out.flush()
            self.assertEqual(compile_errors(Path(out.name), VERSIONS[0]), "")
            self.assertIn("incompatible pointer type", compile_errors(Path(out.name), VERSIONS[1]))


MARKED = "#ifdef IOCTL_REWORK_BRANCH_2"


class MarkersTest(unittest.TestCase):
    TEXT = "int a;\n#if X && \\\n    Y\nint b;\n#else\nint c;\n#endif\n"

    def test_markers_keep_every_line_and_come_back(self):
        found = [Conditional(2, 5, 7)]
        marked = convert_branches.with_markers(self.TEXT, found)
        self.assertEqual(marked.split("\n"),
                         ["int a;", MARKED, "", "int b;", "#else", "int c;", "#endif", ""])
        changed = marked.replace("int a;", "int a;\nlong added;")
        self.assertEqual(convert_branches.without_markers(changed, self.TEXT, found),
                         self.TEXT.replace("int a;", "int a;\nlong added;"))

    def test_crlf_directive_comes_back_with_its_ending(self):
        text = self.TEXT.replace("\n", "\r\n")
        found = [Conditional(2, 5, 7)]
        marked = convert_branches.with_markers(text, found)
        self.assertIn(MARKED + "\r\n\r\n", marked)
        self.assertEqual(convert_branches.without_markers(marked, text, found), text)

    def test_a_lost_marker_is_an_error(self):
        with self.assertRaisesRegex(BranchError, "did not come through the runs unchanged"):
            convert_branches.without_markers("int a;\n", self.TEXT, [Conditional(2, 5, 7)])

    def test_elif_and_missing_else_are_refused(self):
        decisions = [_Decision("in the preprocessor branch of line 1, which spatch does not read")]
        for text, why in (("#if A\nx\n#elif B\ny\n#endif\n", "has an #elif"),
                          ("#if A\nx\n#endif\n", "has no #else")):
            with self.subTest(why=why), self.assertRaisesRegex(BranchError, why):
                convert_branches.branch_conditionals(text, decisions)

    def test_an_if_in_a_comment_is_no_conditional(self):
        decisions = [_Decision("in the preprocessor branch of line 2, which spatch does not read")]
        text = "/*\n#if A\nx\n#else\ny\n#endif\n*/\n"
        with self.assertRaisesRegex(BranchError, "no #if ... #endif starts at line 2"):
            convert_branches.branch_conditionals(text, decisions)

    def test_two_definitions_find_their_conditional(self):
        text = "#ifdef A\n#ifdef B\nx\n#endif\nint h;\n#else\nint h;\n#endif\n"
        decisions = [_Decision("it is defined twice, at lines 5 and 7 (under #if and #else)")]
        self.assertEqual(convert_branches.branch_conditionals(text, decisions),
                         [Conditional(1, 6, 8)])


class MergeChecksTest(unittest.TestCase):
    BASE = (MARKED + "\nint first;\n#else\nint second;\n#endif\nint shared;\n").encode()
    NAMES = ["IOCTL_REWORK_BRANCH_2"]

    def test_changes_on_both_sides_merge(self):
        ours = self.BASE.replace(b"int first;", b"long first;")
        theirs = self.BASE.replace(b"int second;", b"long second;")
        merged = convert_branches.merge3(ours, self.BASE, theirs)
        self.assertIn(b"long first;", merged)
        self.assertIn(b"long second;", merged)
        convert_branches._check_projections(self.BASE, [ours, theirs], merged, self.NAMES)

    def test_different_changes_of_one_line_conflict(self):
        ours = self.BASE.replace(b"int shared;", b"long shared;")
        theirs = self.BASE.replace(b"int shared;", b"short shared;")
        with self.assertRaisesRegex(BranchError, "change the same lines differently"):
            convert_branches.merge3(ours, self.BASE, theirs)

    def test_a_run_that_changes_the_branch_it_did_not_read_is_refused(self):
        ours = self.BASE.replace(b"int second;", b"long second;")
        with self.assertRaisesRegex(BranchError, "reads the #if branches changed code in the "
                                                 "#else ones"):
            convert_branches._check_projections(self.BASE, [ours, self.BASE], ours, self.NAMES)

    def test_a_definition_added_twice_to_one_configuration_is_refused(self):
        # Each run adds the definition at its own place: the #if
        # configuration of the merge sees both.
        ours = self.BASE.replace(b"int first;", b"int first;\nstatic int m;")
        theirs = self.BASE.replace(b"int shared;", b"static int m;\nint shared;")
        merged = convert_branches.merge3(ours, self.BASE, theirs)
        with self.assertRaisesRegex(BranchError, "`static int m;` twice at file scope"):
            convert_branches._check_projections(self.BASE, [ours, theirs], merged, self.NAMES)

    def test_a_prototype_and_its_definition_may_share_a_first_line(self):
        # As 2.6.9's gdth.c: a prototype at file scope, the fops entries
        # under #if/#else; both runs rewrite the prototype alike.
        base = (b"static int h(struct inode *i, struct file *f,\n\tint c);\n" + self.BASE +
                b"static int h(struct inode *i, struct file *f,\n\tint c)\n{\n}\n")
        run = base.replace(b"static int h(struct inode *i, struct file *f,",
                           b"static long h(struct file *f,")
        merged = convert_branches.merge3(run, base, run)
        convert_branches._check_projections(base, [run, run], merged, self.NAMES)


class _Decision:
    """The fields convert_branches reads of a rules.HandlerDecision."""

    convert = False
    handler = "h"

    def __init__(self, reason: str):
        self.reason = reason


if __name__ == "__main__":
    unittest.main()

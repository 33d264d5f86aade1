"""check judges what a patch does to an old legacy driver, the same way
through --git, --diff --tree and a bare --diff (where its hunks show
enough; where they do not, the code is NOT_CHECKED, an error)."""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.check.judge import cosmetic_lines
from test_check import types
from test_check_repo import ENTRY, GitRepo, fixture
from tiers import cover

LEGACY = fixture("legacy_driver.c")
TRACED = LEGACY.replace("\tdefault:\n", "\tdefault:\n\t\tpr_debug(\"thermo: %u\\n\", cmd);\n")


class ThreeWays:
    """A commit changing drivers/misc/thermo.c from BEFORE to AFTER, checked
    with --git, with --diff --tree (at the tree before the patch), and as a
    bare --diff of `git format-patch` (with CONTEXT lines of context)."""

    def __init__(self, before: str, after: str, context: int = 3):
        self.repo = GitRepo()
        self.repo.commit("base", {"drivers/misc/thermo.c": before})
        self.repo.commit("change", {"drivers/misc/thermo.c": after})
        self.patch = self.repo.path.parent / "0001-change.patch"
        self.patch.write_text(self.repo.git("format-patch", f"-U{context}", "-1",
                                            "--stdout").stdout)

    def git(self) -> subprocess.CompletedProcess:
        return self.repo.run_cli("check", "--git", "HEAD")

    def tree(self) -> subprocess.CompletedProcess:
        self.repo.git("checkout", "-q", "HEAD~1")
        try:
            return self.repo.run_cli("check", "--diff", str(self.patch), "--tree", ".")
        finally:
            self.repo.git("checkout", "-q", "main")

    def bare(self, patch: Path | None = None) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as tmp:
            return subprocess.run(
                [sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                 "--diff", str(patch or self.patch)], cwd=tmp, capture_output=True,
                text=True, check=False)

    def all(self) -> dict[str, subprocess.CompletedProcess]:
        return {"git": self.git(), "tree": self.tree(), "bare": self.bare()}

    def close(self):
        self.repo.__exit__()


class JudgeTestCase(unittest.TestCase):
    def ways(self, before: str, after: str, context: int = 3) -> ThreeWays:
        ways = ThreeWays(before, after, context)
        self.addCleanup(ways.close)
        return ways

    def assertPasses(self, out: subprocess.CompletedProcess):
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [])

    def assertError(self, out: subprocess.CompletedProcess, kind: str, where: str):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [f"ERROR:{kind}"])
        self.assertIn(where, out.stdout)


class CommentsAndWhitespaceTest(JudgeTestCase):
    """Not a code change: the hook must not block an unrelated commit."""

    CASES = {
        "a comment in the fops": LEGACY.replace(
            "\t.ioctl\t= thermo_ioctl,\n",
            "\t/* still the legacy entry: see the 2.6.11 notes */\n\t.ioctl\t= thermo_ioctl,\n"),
        "the fops entry re-indented": LEGACY.replace("\t.ioctl\t= thermo_ioctl,",
                                                     "\t.ioctl = thermo_ioctl,"),
        "a comment in the handler": LEGACY.replace(
            "\tswitch (cmd) {", "\t/*\n\t * Every command answers at once.\n\t */\n"
                                "\tswitch (cmd) {"),
        "a comment at the end of a line of the handler": LEGACY.replace(
            "\t\treturn -ENOTTY;", "\t\treturn -ENOTTY;\t/* unknown */"),
    }

    def test_every_way_passes(self):
        # make check: each case and each way at least once, a check run
        # each; make test: every case every way (tiers.cover).
        made = {}
        for (name, after), way in cover(self.CASES.items(), ("git", "tree", "bare")):
            if name not in made:
                made[name] = self.ways(LEGACY, after)
            with self.subTest(name, way=way):
                self.assertPasses(getattr(made[name], way)())


class HandlerCodeChangeTest(JudgeTestCase):
    def test_a_change_in_the_handler_is_an_error_every_way(self):
        ways = self.ways(LEGACY, TRACED)
        where = "FILE: drivers/misc/thermo.c:27:\n+\t\tpr_debug("
        self.assertError(ways.git(), "LEGACY_IOCTL", where)
        self.assertError(ways.tree(), "LEGACY_IOCTL", where)
        # The bare hunk shows the handler (its header, in git's function
        # context) but not the fops that names it.
        out = ways.bare()
        self.assertError(out, "NOT_CHECKED", where)
        self.assertIn("the patch changes thermo_ioctl, which has the signature of a legacy "
                      ".ioctl handler, but does not show the file_operations that names it; "
                      "give the tree the patch applies to (--tree DIR)", out.stdout)

    def test_a_bare_patch_that_shows_enough_is_judged_as_with_its_tree(self):
        ways = self.ways(LEGACY, TRACED, context=40)
        self.assertError(ways.bare(), "LEGACY_IOCTL",
                         "FILE: drivers/misc/thermo.c:27:\n+\t\tpr_debug(")

    def test_a_bare_hunk_inside_the_handler_shown_with_the_fops(self):
        # Two hunks: one in the handler's body below its first line (only
        # git's function context names it), one that shows the fops entry.
        after = TRACED.replace('.name\t= "thermo"', '.name\t= "thermo0"')
        ways = self.ways(LEGACY, after, context=5)
        hunks = [line for line in ways.patch.read_text().splitlines() if line.startswith("@@")]
        self.assertEqual(len(hunks), 2)
        self.assertTrue(hunks[0].endswith("static int thermo_ioctl(struct inode *inode, "
                                          "struct file *file,"))
        self.assertError(ways.bare(), "LEGACY_IOCTL",
                         "FILE: drivers/misc/thermo.c:27:\n+\t\tpr_debug(")

    def test_a_change_elsewhere_in_a_bare_patch_passes(self):
        after = LEGACY.replace('.name\t= "thermo"', '.name\t= "thermo0"')
        for way, out in self.ways(LEGACY, after).all().items():
            with self.subTest(way):
                self.assertPasses(out)

    def test_a_change_in_an_open_function_is_not_taken_for_a_handler(self):
        before = LEGACY.replace(
            "static const struct file_operations",
            "static int thermo_open(struct inode *inode, struct file *file)\n{\n"
            "\treturn 0;\n}\n\nstatic const struct file_operations")
        after = before.replace("\treturn 0;\n}\n\nstatic const",
                               "\tthermo_value = 0;\n\treturn 0;\n}\n\nstatic const")
        self.assertPasses(self.ways(before, after).bare())


class DeletionTest(JudgeTestCase):
    def test_a_deletion_is_shown_at_the_entry_not_at_the_closing_brace(self):
        # Dropping the .unlocked_ioctl that made .ioctl dead makes it live:
        # the deletion is the change, the entry is where it shows.
        both = LEGACY.replace("\t.ioctl\t= thermo_ioctl,\n",
                              "\t.ioctl\t= thermo_ioctl,\n\t.unlocked_ioctl\t= thermo_unlocked,\n")
        ways = self.ways(both, LEGACY)
        for way, out in ways.all().items():
            with self.subTest(way):
                self.assertError(out, "LEGACY_IOCTL", "FILE: drivers/misc/thermo.c:33:\n"
                                                      "-\t.unlocked_ioctl\t= thermo_unlocked,")


    def test_deleting_compat_ioctl_is_shown_at_the_unlocked_entry(self):
        warned = fixture("warning_driver.c")
        both = warned.replace("\t.unlocked_ioctl\t= hygro_ioctl,\n",
                              "\t.unlocked_ioctl\t= hygro_ioctl,\n\t.compat_ioctl\t= hygro_ioctl,\n")
        self.assertNotEqual(both, warned)
        for way, out in self.ways(both, warned).all().items():
            with self.subTest(way):
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                # Only what the deletion changes: the handler's own BKL and
                # -ENOIOCTLCMD are not this patch's.
                self.assertEqual(types(out.stdout), ["WARNING:MISSING_COMPAT"])
                self.assertIn("FILE: drivers/misc/thermo.c:36:\n-\t.compat_ioctl\t= hygro_ioctl,",
                              out.stdout)


class FopsHunkBelowItsOpeningTest(JudgeTestCase):
    """A bare hunk that adds `.ioctl = h` but starts below the fops' first line."""

    BEFORE = LEGACY.replace(
        "\t.owner\t= THIS_MODULE,\n\t.ioctl\t= thermo_ioctl,\n",
        "\t.owner\t= THIS_MODULE,\n\t.llseek\t= no_llseek,\n\t.read\t= thermo_read,\n"
        "\t.write\t= thermo_write,\n\t.open\t= thermo_open,\n\t.release\t= thermo_release,\n")
    AFTER = BEFORE.replace("\t.release\t= thermo_release,\n",
                           "\t.release\t= thermo_release,\n\t.ioctl\t= thermo_ioctl,\n")

    def test_git_function_context_is_no_evidence_in_a_bare_patch(self):
        # Anyone can write anything after `@@ ... @@` (issue 23): the bare
        # patch does not show the fops, so it is not checked; with whole
        # files it is an error.
        ways = self.ways(self.BEFORE, self.AFTER)
        self.assertIn("@@ static const struct file_operations thermo_fops = {\n",
                      ways.patch.read_text().replace(" @@ ", " @@\n@@ "))
        where = "FILE: drivers/misc/thermo.c:38:\n+\t.ioctl\t= thermo_ioctl,"
        outs = ways.all()
        for way, out in outs.items():
            with self.subTest(way):
                self.assertError(out, "NOT_CHECKED" if way == "bare" else "LEGACY_IOCTL",
                                 where)
        self.assertIn("the patch sets a legacy .ioctl, but its hunk does not show the "
                      "structure it is in", outs["bare"].stdout)

    def test_without_function_context_it_is_not_checked(self):
        ways = self.ways(self.BEFORE, self.AFTER)
        with tempfile.TemporaryDirectory() as tmp:
            patch = Path(tmp) / "plain.diff"
            patch.write_text(plain_diff(self.BEFORE, self.AFTER))
            out = ways.bare(patch)
        self.assertError(out, "NOT_CHECKED", "FILE: drivers/misc/thermo.c:38:\n"
                                             "+\t.ioctl\t= thermo_ioctl,")
        self.assertIn("the patch sets a legacy .ioctl, but its hunk does not show the "
                      "structure it is in", out.stdout)


def plain_diff(before: str, after: str, *options: str) -> str:
    """`diff -u` (with OPTIONS) of drivers/misc/thermo.c from BEFORE to AFTER."""
    with tempfile.TemporaryDirectory() as tmp:
        old, new = Path(tmp) / "old.c", Path(tmp) / "new.c"
        old.write_text(before)
        new.write_text(after)
        return subprocess.run(["diff", "-u", *options, "--label", "a/drivers/misc/thermo.c",
                               "--label", "b/drivers/misc/thermo.c", str(old), str(new)],
                              capture_output=True, text=True, check=False).stdout


class PlainDiffTest(JudgeTestCase):
    """`diff -u` says nothing of the function a hunk is in; `diff -up` does."""

    def bare_plain(self, before: str, after: str, *options: str) -> subprocess.CompletedProcess:
        ways = self.ways(before, after)
        with tempfile.TemporaryDirectory() as tmp:
            patch = Path(tmp) / "plain.diff"
            patch.write_text(plain_diff(before, after, *options))
            return ways.bare(patch)

    def test_a_change_in_a_body_without_function_context_is_not_checked(self):
        out = self.bare_plain(LEGACY, TRACED)
        self.assertError(out, "NOT_CHECKED", "FILE: drivers/misc/thermo.c:27:\n+\t\tpr_debug(")
        self.assertIn("the patch does not say which function or structure this hunk changes "
                      "(a diff without function context, or with a goto label for it: `git "
                      "diff` gives it for C files with `*.c diff=cpp` in .gitattributes, `diff "
                      "-up` gives it); give the tree the patch applies to (--tree DIR)",
                      out.stdout)

    def test_a_hunk_named_by_a_goto_label_is_not_checked(self):
        before = LEGACY.replace("\tdefault:\n\t\treturn -ENOTTY;",
                                "\tdefault:\n\t\tgoto out;\n\t}\nout:\n\t{\n\t\tint i;\n"
                                "\t\tfor (i = 0; i < 4; i++)\n\t\t\tthermo_value++;\n"
                                "\t\treturn -ENOTTY;")
        after = before.replace("\t\t\tthermo_value++;\n",
                               "\t\t\tthermo_value++;\n\t\tpr_debug(\"thermo\\n\");\n")
        ways = self.ways(before, after)
        hunk = next(line for line in ways.patch.read_text().splitlines()
                    if line.startswith("@@"))
        self.assertTrue(hunk.endswith("@@ out:"), hunk)
        self.assertError(ways.bare(), "NOT_CHECKED", "the patch does not say which function")
        self.assertError(ways.git(), "LEGACY_IOCTL", "+\t\tpr_debug(")

    def test_with_function_context_the_handler_is_named(self):
        out = self.bare_plain(LEGACY, TRACED, "-p")
        self.assertError(out, "NOT_CHECKED", "the patch changes thermo_ioctl, which has the "
                                             "signature of a legacy .ioctl handler")

    def test_a_change_at_the_top_level_passes(self):
        after = LEGACY.replace("#define THERMO_SET\t_IOW('t', 2, int)\n",
                               "#define THERMO_SET\t_IOW('t', 2, int)\n"
                               "#define THERMO_MAX\t100\n")
        self.assertPasses(self.bare_plain(LEGACY, after))


class CosmeticLinesTest(unittest.TestCase):
    """The runs of changes that change no code, by their lines in the patch."""

    def test_comments_whitespace_and_code(self):
        text = ("--- a/f.c\n+++ b/f.c\n@@ -1,8 +1,10 @@\n"
                " int a;\n"                       # 4
                "-int b;\n"                       # 5  re-indented: no code change
                "+int  b;\n"                      # 6
                " /*\n"                           # 7
                "+ * a line inside a comment\n"    # 8
                "  */\n"                          # 9
                "-f(\"x\");\n"                    # 10 a literal changed: code
                "+f(\"y\");\n"                    # 11
                " int c;\n"                       # 12
                "+/* added */ int d;\n"           # 13 code after a comment: code
                " int e;\n"                       # 14
                "-int g; // old\n"                # 15 only the comment changed
                "+int g; // new\n")               # 16
        found = cosmetic_lines(patch_parser.parse(text))
        self.assertEqual(sorted(found), [5, 6, 8, 15, 16])


if __name__ == "__main__":
    unittest.main()

"""convert/macro_sites.py: the headers a run's files include are read for
their forwarding macros once, then kept in a stat index; a warm re-run
reads none of them, a changed header is read again, and the sites found
are the same either way (the spellings are test_macro_forwarding's)."""

import shutil
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.cache import Cache
from ioctl_rework.convert import macro_bodies, macro_sites
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.convert.tree import Tree

FORWARDING = ("#define STACK_PASS(lf, c, a) \\\n"
              "\t((lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))\n")
MEMBER_ARGUMENT = ("#define LOWER_OP(l, op, c, a) ((l)->f_op->op(0, l, c, a))\n"
                   "#define LOWER_IOCTL(l, c, a) LOWER_OP(l, ioctl, c, a)\n")
PLAIN = "#define STACK_PASS(lf, c, a) (-ENOTTY)\n"

UPPER = """\
#include "stackhelp.h"
#include "regs.h"
#include <linux/ops.h>

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd)
		return STACK_PASS(up_lower, cmd, arg);
	return LOWER_OP(up_lower, ioctl, cmd, arg);
}
"""


class MacroSitesTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="macro-sites-"))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        self.driver = self.root / "drivers/x"
        self.driver.mkdir(parents=True)
        (self.driver / "upper.c").write_text(UPPER)
        (self.driver / "stackhelp.h").write_text(FORWARDING)
        (self.driver / "regs.h").write_text("#define REG_CTL 0x10\n")
        (self.root / "include/linux").mkdir(parents=True)
        (self.root / "include/linux/ops.h").write_text(MEMBER_ARGUMENT)
        self.cache = Cache(self.root / ".cache")

    def run_sites(self, cache):
        """(the records, the headers read) of one run over upper.c."""
        tree = Tree(self.root, ["drivers/x/upper.c"], {}, {}, [])
        reads = []

        def counted(root, rel):
            reads.append(rel)
            return read(root, rel)
        read = macro_sites.header_macros
        with mock.patch.object(macro_sites, "header_macros", counted):
            records = macro_sites.refused_sites(self.root, tree, {"drivers/x/upper.c"},
                                                Sources(self.root), cache)
        return [(r.file, r.line, r.handler, r.status) for r in records], sorted(reads)

    HEADERS = ["drivers/x/regs.h", "drivers/x/stackhelp.h", "include/linux/ops.h"]

    def test_both_kinds_of_macro_are_refused_sites(self):
        records, _ = self.run_sites(self.cache)
        self.assertEqual(records, [
            ("drivers/x/upper.c", 9, "STACK_PASS", HandlerStatus.FAILED),
            ("drivers/x/upper.c", 10, "LOWER_OP", HandlerStatus.FAILED)])

    def test_a_warm_run_reads_none_of_the_headers(self):
        cold, read_cold = self.run_sites(self.cache)
        warm, read_warm = self.run_sites(self.cache)
        self.assertEqual(read_cold, self.HEADERS)
        self.assertEqual(read_warm, [])
        self.assertEqual(warm, cold)

    def test_a_changed_header_is_read_again(self):
        self.run_sites(self.cache)
        for text, kept in [(PLAIN, ["LOWER_OP"]), (FORWARDING, ["STACK_PASS", "LOWER_OP"])]:
            with self.subTest(header=text):
                (self.driver / "stackhelp.h").write_text(text)
                records, read = self.run_sites(self.cache)
                self.assertEqual(read, ["drivers/x/stackhelp.h"])
                self.assertEqual([handler for _, _, handler, _ in records], kept)

    def test_a_new_include_is_read(self):
        self.run_sites(self.cache)
        (self.driver / "upper.c").write_text('#include "more.h"\n' + UPPER)
        (self.driver / "more.h").write_text(FORWARDING.replace("STACK_PASS", "MORE_PASS"))
        _, read = self.run_sites(self.cache)
        self.assertEqual(read, ["drivers/x/more.h"])

    def test_a_macro_of_a_header_a_header_includes_is_a_site(self):
        # hole27: the compiler expands a macro of any header it reaches; one
        # reached only through another header was not read, and the call it
        # spells was left on a NULL .ioctl in silence.
        deeper = FORWARDING.replace("STACK_PASS", "DEEP_PASS")
        use = "\tif (cmd == 2)\n\t\treturn DEEP_PASS(up_lower, cmd, arg);\n"
        for chain in [{"drivers/x/regs.h": '#include "deep.h"\n', "drivers/x/deep.h": deeper},
                      {"drivers/x/regs.h": "#include <linux/deep.h>\n",
                       "include/linux/deep.h": deeper},
                      {"drivers/x/regs.h": "#include <linux/mid.h>\n",
                       "include/linux/mid.h": '#include "deep.h"\n',
                       "include/linux/deep.h": deeper}]:
            with self.subTest(chain=sorted(chain)):
                for rel, text in chain.items():
                    (self.root / rel).write_text(text)
                (self.driver / "upper.c").write_text(UPPER.replace("\tif (cmd)\n", use + "\tif (cmd)\n"))
                records, _ = self.run_sites(Cache(None))
                self.assertIn(("drivers/x/upper.c", 9, "DEEP_PASS", HandlerStatus.FAILED), records)
                for rel in chain:
                    if rel != "drivers/x/regs.h":
                        (self.root / rel).unlink()

    def test_a_macro_expanding_another_headers_forwarding_macro_is_a_site(self):
        # hole27: STK_FWD's own body names no ioctl; LOWER_PASS, of another
        # header (or of its own), calls through ->ioctl.  Its use was no site.
        lower = FORWARDING.replace("STACK_PASS", "LOWER_PASS")
        for files in [
                {"include/linux/lower.h": lower,
                 "drivers/x/regs.h": "#include <linux/lower.h>\n"
                                     "#define STK_FWD(d, c, a) LOWER_PASS((d)->lower, c, a)\n"},
                {"drivers/x/regs.h": lower + "#define STK_FWD(d, c, a) LOWER_PASS(d, c, a)\n"},
                {"include/linux/lower.h": lower,
                 "include/linux/mid.h": "#include <linux/lower.h>\n"
                                        "#define MID(d, c, a) LOWER_PASS(d, c, a)\n",
                 "drivers/x/regs.h": "#include <linux/mid.h>\n"
                                     "#define STK_FWD(d, c, a) (MID(d, c, a))\n"}]:
            with self.subTest(files=sorted(files)):
                for rel, text in files.items():
                    (self.root / rel).write_text(text)
                (self.driver / "upper.c").write_text(UPPER.replace(
                    "\tif (cmd)\n", "\tif (cmd == 2)\n\t\treturn STK_FWD(up, cmd, arg);\n\tif (cmd)\n"))
                records, _ = self.run_sites(Cache(None))
                self.assertIn(("drivers/x/upper.c", 9, "STK_FWD", HandlerStatus.FAILED), records)
                for rel in files:
                    if rel.startswith("include/linux/") and rel != "include/linux/ops.h":
                        (self.root / rel).unlink()
        # A macro expanding one that calls another member is no site.
        (self.driver / "regs.h").write_text(
            FORWARDING.replace("STACK_PASS", "LOWER_PASS").replace("ioctl((lf)->f_dentry->d_inode, ",
                                                                   "flush(") +
            "#define STK_FWD(d, c, a) LOWER_PASS(d, c, a)\n")
        records, _ = self.run_sites(Cache(None))
        self.assertNotIn("STK_FWD", [handler for _, _, handler, _ in records])

    def test_without_a_cache_every_run_reads_them(self):
        for _ in range(2):
            records, read = self.run_sites(Cache(None))
            self.assertEqual(read, self.HEADERS)
            self.assertEqual(len(records), 2)


# A third header whose pastes may spell ioctl (paste_spelling.py), and two
# uses: OP's paste is in the header's macro (a macro site), ___PASTE's
# halves are named by the use (a paste site: the file's closure).
PASTING = ("#define ___PASTE(a,b) a##b\n#define OP(x) ___PASTE(i, x)\n"
           "#define drv_member ioctl\n")
PASTED_USE = ("\tif (cmd == 3)\n\t\treturn OP(octl)(0, up_lower, cmd, arg);\n"
              "\tif (cmd == 4)\n"
              "\t\treturn up_lower->f_op->___PASTE(drv_, member)(0, up_lower, cmd, arg);\n")


class SecondPassTest(unittest.TestCase):
    """A rejected pushdown's second pass (plan.py) hands refused_sites the
    first pass's SitesMemo: a file whose text is the same is neither read
    for its headers nor asked for its sites again, and the records are
    those of a fresh run, the three kinds of site (a forwarding macro, a
    member named by an argument, a paste) among them."""

    def setUp(self):
        MacroSitesTest.setUp(self)      # the same tree, and a paste
        (self.driver / "paste.h").write_text(PASTING)
        (self.driver / "upper.c").write_text(
            '#include "paste.h"\n' + UPPER.replace("\tif (cmd)\n", PASTED_USE + "\tif (cmd)\n"))
        (self.driver / "lower.c").write_text(
            '#include "stackhelp.h"\nint lower_pass(struct file *lf)\n'
            '{\n\treturn STACK_PASS(lf, 1, 0);\n}\n')
        self.tree = Tree(self.root, ["drivers/x/upper.c"], {}, {}, [])

    def sites(self, files, memo=None):
        """(the records of FILES, the work done: a count per kind)."""
        work = {"headers read": [], "macro sites": [], "pastes": [], "header macros": []}

        def counting(kind, real):
            def counted(*args, **kwargs):
                # refused_sites' own calls (member_types reads headers too)
                if sys._getframe(1).f_code.co_name in ("refused_sites", "_pasted_sites",
                                                       "_header_macros_of", "<lambda>"):
                    work[kind].append(args[1])
                return real(*args, **kwargs)
            return counted
        search = macro_sites.include_search
        with mock.patch.object(search, "read_headers",
                               counting("headers read", search.read_headers)), \
                mock.patch.object(macro_sites.macro_forwarding, "sites",
                                  counting("macro sites", macro_sites.macro_forwarding.sites)), \
                mock.patch.object(macro_sites.paste_spelling, "pastes_of",
                                  counting("pastes", macro_sites.paste_spelling.pastes_of)), \
                mock.patch.object(macro_sites, "header_macros",
                                  counting("header macros", macro_sites.header_macros)):
            records = macro_sites.refused_sites(self.root, self.tree, set(files),
                                                Sources(self.root), Cache(None), memo)
        return ([(r.file, r.line, r.handler, r.reason) for r in records],
                {kind: len(done) for kind, done in work.items()})

    FILES = ["drivers/x/upper.c", "drivers/x/lower.c"]
    NONE = {"headers read": 0, "macro sites": 0, "pastes": 0, "header macros": 0}

    def test_the_second_pass_does_nothing_again_and_finds_the_same(self):
        fresh, _ = self.sites(self.FILES)
        self.assertEqual(sorted((f, line, h) for f, line, h, _ in fresh), [
            ("drivers/x/lower.c", 4, "STACK_PASS"), ("drivers/x/upper.c", 10, "OP"),
            ("drivers/x/upper.c", 12, "___PASTE"), ("drivers/x/upper.c", 14, "STACK_PASS"),
            ("drivers/x/upper.c", 15, "LOWER_OP")])
        memo = macro_sites.SitesMemo()
        first, work = self.sites(self.FILES, memo)
        self.assertEqual(work, {"headers read": 2, "macro sites": 2, "pastes": 2,
                                "header macros": 4})
        second, work = self.sites(self.FILES, memo)
        self.assertEqual(work, self.NONE)
        self.assertEqual(first, fresh)
        self.assertEqual(second, fresh)

    def test_a_file_new_in_the_second_pass_alone_is_read(self):
        memo = macro_sites.SitesMemo()
        self.sites(self.FILES[:1], memo)
        second, work = self.sites(self.FILES, memo)
        # lower.c's own headers are upper.c's already: the macros read are
        # the same, so upper.c's macro sites are kept too.
        self.assertEqual(work, {"headers read": 1, "macro sites": 1, "pastes": 1,
                                "header macros": 0})
        self.assertEqual(second, self.sites(self.FILES)[0])

    def test_a_file_reaching_a_new_header_asks_every_files_macro_sites_again(self):
        (self.driver / "lower.c").write_text('#include "more.h"\n' +
                                             (self.driver / "lower.c").read_text())
        (self.driver / "more.h").write_text(FORWARDING.replace("STACK_PASS", "MORE_PASS"))
        memo = macro_sites.SitesMemo()
        self.sites(self.FILES[:1], memo)
        second, work = self.sites(self.FILES, memo)
        # A macro of more.h may be used in upper.c too: its sites are asked
        # again; its headers and pastes depend on its own texts alone.
        self.assertEqual(work, {"headers read": 1, "macro sites": 2, "pastes": 1,
                                "header macros": 5})
        self.assertEqual(second, self.sites(self.FILES)[0])

    def test_a_changed_text_is_read_again(self):
        memo = macro_sites.SitesMemo()
        self.sites(self.FILES, memo)
        for text, handlers in [(UPPER, ["STACK_PASS", "LOWER_OP"]),
                               (UPPER.replace("STACK_PASS", "REG_CTL"), ["LOWER_OP"])]:
            with self.subTest(text=text[-40:]):
                (self.driver / "upper.c").write_text(text)
                records, work = self.sites(self.FILES[:1], memo)
                self.assertEqual(work["headers read"], 1)
                self.assertEqual(work["pastes"], 1)
                self.assertEqual([h for f, _, h, _ in records if f.endswith("upper.c")],
                                 handlers)
                self.assertEqual(records, self.sites(self.FILES[:1])[0])


class WrittenHeadersTest(unittest.TestCase):
    """macro_sites.written_headers: a header of the run whose every use of
    the member is in forwarding macros is rewritten; the helper's name is
    free in every file that includes it, in the run or beside it."""

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="written-headers-"))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        self.driver = self.root / "drivers/x"
        self.driver.mkdir(parents=True)
        (self.driver / "stackhelp.h").write_text(FORWARDING)
        (self.driver / "upper.c").write_text('#include "stackhelp.h"\n')

    def written(self, files=("drivers/x/stackhelp.h", "drivers/x/upper.c")):
        return macro_sites.written_headers(self.root, set(files), {}, Sources(self.root),
                                           True, False)

    def test_the_helper_name_is_free_in_every_including_file(self):
        stem = macro_bodies.MACRO_HELPER
        cases = {"none taken": ({}, stem),
                 "taken in a file of the run": ({"upper.c": stem}, stem + "2"),
                 "taken in a file beside it, not in the run": ({"other.c": stem}, stem + "2"),
                 "taken in both": ({"upper.c": stem, "other.c": stem + "2"}, stem + "3")}
        for case, (taken, expected) in cases.items():
            with self.subTest(case=case):
                for name in ("upper.c", "other.c"):
                    (self.driver / name).write_text(
                        '#include "stackhelp.h"\n' +
                        (f"static int {taken[name]};\n" if name in taken else ""))
                done = self.written()
                new = done.texts["drivers/x/stackhelp.h"][1].decode()
                self.assertIn(f"static inline int {expected}(", new)
                self.assertEqual(done.refused, [])
                self.assertEqual([(c.line, c.handler) for c in done.changes],
                                 [(2, "STACK_PASS")])

    def test_a_header_with_a_use_outside_its_macros_is_left_to_the_rule(self):
        (self.driver / "stackhelp.h").write_text(
            FORWARDING + "static inline int has(struct file *f) { return !!f->f_op->ioctl; }\n")
        done = self.written()
        self.assertEqual((done.texts, done.refused), ({}, []))

    def test_a_macro_that_cannot_be_rewritten_is_a_refused_record(self):
        (self.driver / "stackhelp.h").write_text(FORWARDING.replace(
            "(lf)->f_dentry->d_inode, (lf), (c), (a)", "(lf), (c), (a)"))
        done = self.written()
        self.assertEqual(done.texts, {})
        self.assertEqual([(r.file, r.line, r.handler, r.status) for r in done.refused],
                         [("drivers/x/stackhelp.h", 1, "STACK_PASS", HandlerStatus.FAILED)])
        self.assertIn("four arguments", done.refused[0].reason)

    def test_a_header_not_of_the_run_is_not_written(self):
        self.assertEqual(self.written(files=("drivers/x/upper.c",)).texts, {})


if __name__ == "__main__":
    unittest.main()

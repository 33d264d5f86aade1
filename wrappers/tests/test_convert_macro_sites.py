"""convert/macro_sites.py: the headers a run's files include are read for
their forwarding macros once, then kept in a stat index; a warm re-run
reads none of them, a changed header is read again, and the sites found
are the same either way (the spellings are test_macro_forwarding's)."""

import shutil
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

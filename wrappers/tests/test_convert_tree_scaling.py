"""Issue 26 (3): the cost of a run grows with its candidates, not with the
tree.  The one read of a file that is no candidate is the prefilter's
(tree.scan); a run whose lock proof rejects a pushdown runs its stages
again (plan.py), and the scan's answers do not depend on the wrapper, so
the tree is read once a run.  A tree with a renamed copy of its drivers/
less the files that name ioctl (the issue's measure) reads each added
file once, runs the rule on the same files and gives the same result.
Files read are counted, not time."""

import os
import tempfile
import unittest
from collections import Counter
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import rule_spatch, tree, verification

from test_convert_fallback_reruns import DRIVER, HAVE_SPATCH, rejecting_first_pass

# Files that are no candidate, in several spellings: none names ioctl, so
# a copy of the tree's drivers/ less its ioctl files keeps them all.
OTHERS = {
    "drivers/a/helper.c": "int board_level;\nint board_get(void) { return board_level; }\n",
    "drivers/a/regs.h": "#define REG_CTL 0x10\n#define REG_SET(r, v) ((r) = (v))\n",
    "drivers/a/reader.c": ("#include <linux/fs.h>\n\nstatic ssize_t rd_read(struct file *f, "
                           "char *b, size_t n, loff_t *o)\n{\n\treturn 0;\n}\n\n"
                           "static struct file_operations rd_fops = {\n"
                           "\t.read = rd_read,\n};\n"),
    "drivers/a/gnu.c": ("#include <linux/fs.h>\n\nstatic int g_open(struct inode *i, "
                        "struct file *f)\n{\n\treturn 0;\n}\n\n"
                        "static struct file_operations g_fops = {\n\topen: g_open,\n};\n"),
    "drivers/a/Makefile": "obj-y += bd.o ok.o helper.o reader.o gnu.o\n",
}
CANDIDATES = {f"drivers/a/{n}.c": DRIVER.format(name=n) for n in ("bd", "ok")}


@unittest.skipUnless(HAVE_SPATCH, "spatch not installed")
class ReadOnceARunTest(unittest.TestCase):

    def convert(self, files: dict[str, str], rejected: set[str]):
        """A run over the tree FILES whose verify stage rejects, on its first
        pass, the pushdown of every handler in REJECTED: (summary, passes,
        the files the prefilter read with how often, the files the rule ran on)."""
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        real_read, real_run_all = tree._read_verdict, rule_spatch.run_all
        passes, read, ran = [], Counter(), set()

        def counted_read(path):
            read[path] += 1
            return real_read(path)

        def counted_runs(todo, *args, **kwargs):
            ran.update(pending.task.file for pending in todo)
            return real_run_all(todo, *args, **kwargs)

        verify = rejecting_first_pass(rejected, passes)
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(verification, "verify", verify), \
                mock.patch.object(tree, "_read_verdict", counted_read), \
                mock.patch.object(rule_spatch, "run_all", counted_runs):
            root = Path(tmp)
            (root / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            args = parse_args(["--no-cache", "--target", "2.6.20", "--", tmp])
            result = convert.convert(convert.request_from_args(args))
        reads = Counter({os.path.relpath(path, tmp): n for path, n in read.items()})
        return result.summary, len(passes), reads, ran

    def test_a_second_pass_reads_no_file_of_the_tree_again(self):
        files = {**CANDIDATES, **OTHERS}
        summary, passes, reads, _ = self.convert(files, {"bd_ioctl"})
        self.assertEqual(passes, 2)
        sources = sorted(rel for rel in files if rel.endswith((".c", ".h")))
        self.assertEqual(reads, Counter({rel: 1 for rel in sources}))
        self.assertEqual({h.handler: h.strategy for h in summary.handlers},
                         {"bd_ioctl": "wrapper", "ok_ioctl": "pushdown"})

    def test_a_renamed_copy_of_drivers_is_read_once_and_changes_nothing(self):
        files = {**CANDIDATES, **OTHERS}
        copy = {rel.replace("drivers/", "drivers2/", 1): text for rel, text in files.items()
                if "ioctl" not in text}
        self.assertEqual(len(copy), len(OTHERS))
        alone, _, alone_reads, alone_ran = self.convert(files, {"bd_ioctl"})
        doubled, _, reads, ran = self.convert({**files, **copy}, {"bd_ioctl"})
        self.assertEqual(ran, alone_ran)
        self.assertEqual(ran, set(CANDIDATES))
        added = sorted(rel for rel in copy if rel.endswith((".c", ".h")))
        self.assertEqual(reads - alone_reads, Counter({rel: 1 for rel in added}))
        for field in ("handlers", "files", "changes", "tokens"):
            self.assertEqual(getattr(doubled, field), getattr(alone, field), field)


if __name__ == "__main__":
    unittest.main()

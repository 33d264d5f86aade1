"""Issue 26 (1): an unchanged re-run of a convert command reads the last
run's result whole (convert/run_memo.py), and is never silently wrong:
every file the run read or searched that changes, appears or goes sends
it back to a cold run, whose result is then a run's without any cache.

Each case converts a small 2.6 tree twice (or more) with one cache and
compares the second run with a --no-cache run of the same tree: a warm
run only where nothing it could read changed."""

import os
import shutil
import stat
import tempfile
import time
import unittest
from dataclasses import replace
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import rule_spatch, run_memo
from ioctl_rework.spatch import runner as spatch

from test_convert_fallback_reruns import HAVE_SPATCH

DRIVER = """#include <linux/fs.h>
#include "bd_regs.h"

struct bd_dev {
\tint level;
};

static int bd_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{
\tstruct bd_dev *dev = file->private_data;

\tBD_GUARD(dev);
\tdev->level = 2;
\treturn dev->level;
}

static struct file_operations bd_fops = {
\t.ioctl = bd_ioctl,
};
"""
QUIET_GUARD = "#define BD_GUARD(d) do { } while (0)\n"
# The same macro, now returning: the pushdown becomes the wrapper.
RETURNING_GUARD = "#define BD_GUARD(d) do { if (!(d)) return -ENODEV; } while (0)\n"
# A file that calls through ->ioctl: it may reach bd_fops, so nothing is converted.
FORWARDER = ("#include <linux/fs.h>\n\nint fw_pass(struct inode *i, struct file *f,\n"
             "\t    unsigned int c, unsigned long a)\n{\n\treturn f->f_op->ioctl(i, f, c, a);\n}\n")
TREE = {
    "Makefile": "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n",
    "drivers/a/Makefile": "obj-y += bd.o\n",
    "drivers/a/bd.c": DRIVER,
    "drivers/a/bd_regs.h": QUIET_GUARD,
    "Documentation/bd.txt": "The board driver.\n",
}
# Every file's stat is older than this: not racy.
OLD_NS = time.time_ns() - 3600 * 10**9


def record(result) -> tuple:
    s = result.summary
    return (s.handlers, s.files, s.changes, s.tokens, s.warnings, result.changes)


@unittest.skipUnless(HAVE_SPATCH, "spatch not installed")
class RunMemoTest(unittest.TestCase):

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="run-memo-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.root = self.tmp / "linux"
        self.cache = self.tmp / "cache"
        for rel, text in TREE.items():
            self.write(rel, text)

    def write(self, rel: str, text: str, ns: int = OLD_NS) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, ns=(ns, ns))

    def convert(self, *options: str, cache: bool = True, memo: bool = True):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        more = ["--cache-dir", str(self.cache)] if cache else ["--no-cache"]
        args = parse_args([*more, "--target", "2.6.20", *options, "--", str(self.root)])
        return convert.convert(replace(convert.request_from_args(args), run_memo=memo))

    def assertCold(self, result, why: str = "cold", *options: str):
        """RESULT came from the stages, and is what a run with OPTIONS
        without a cache gives."""
        self.assertFalse(result.summary.warm, result.summary.memo)
        self.assertIn(why, result.summary.memo)
        self.assertIn("prefilter", result.summary.stage_seconds)
        self.assertEqual(record(result), record(self.convert(*options, cache=False)))

    def assertWarm(self, result, first):
        self.assertTrue(result.summary.warm, result.summary.memo)
        self.assertEqual(list(result.summary.stage_seconds), ["run memo"])
        self.assertEqual(record(result), record(first))

    def test_an_unchanged_re_run_is_warm_and_the_same(self):
        first = self.convert()
        self.assertCold(first, "no earlier run")
        self.assertTrue(first.summary.memo.endswith("kept"))
        self.assertEqual([h.strategy for h in first.summary.handlers], ["pushdown"])
        self.assertWarm(self.convert(), first)
        self.assertWarm(self.convert(), first)

    def test_a_changed_header_the_run_read_is_cold(self):
        first = self.convert()
        self.write("drivers/a/bd_regs.h", RETURNING_GUARD)
        second = self.convert()
        self.assertCold(second, "bd_regs.h changed")
        self.assertEqual([h.strategy for h in second.summary.handlers], ["wrapper"])
        self.assertNotEqual(record(second), record(first))
        self.assertWarm(self.convert(), second)

    def test_a_change_that_keeps_size_and_mtime_but_not_the_inode_is_cold(self):
        first = self.convert()
        # Written beside and renamed over, as editors and git do: a new inode.
        text = RETURNING_GUARD.replace("ENODEV", "EIO").ljust(len(QUIET_GUARD) + 22)
        self.write("drivers/a/new.h", text)
        os.replace(self.root / "drivers/a/new.h", self.root / "drivers/a/bd_regs.h")
        self.assertCold(self.convert(), "bd_regs.h changed")
        self.assertNotEqual(record(self.convert()), record(first))

    def test_a_racy_file_is_compared_by_content(self):
        # An mtime not older than the run (a file changed as it started, or
        # a server's clock ahead of ours): a change within the same tick
        # keeps size and mtime, so its content is read every time.
        now = time.time_ns() + 600 * 10**9
        self.write("drivers/a/bd_regs.h", QUIET_GUARD, ns=now)
        self.convert()
        self.assertWarm(self.convert(), self.convert())
        changed = QUIET_GUARD.replace("do { }", "do {;}")
        self.assertEqual(len(changed), len(QUIET_GUARD))
        self.write("drivers/a/bd_regs.h", changed, ns=now)
        self.assertCold(self.convert(), "bd_regs.h changed")

    def test_an_added_file_the_run_may_read_is_cold(self):
        for rel, text, strategies in (
                # a caller through ->ioctl: the forwarding stage refuses the run
                ("drivers/b/fw.c", FORWARDER, [None, None]),
                # a header beside the driver, found before the old one? not
                # included: only searched (the greps read every .c and .h)
                ("drivers/c/bd_ioctl_user.h", "extern int bd_ioctl(void);\n", None),
                # a file no reader names: the tree's file list is what changed
                ("drivers/a/README", "notes\n", ["pushdown"])):
            with self.subTest(rel):
                self.setUp()
                self.convert()
                self.write(rel, text)
                second = self.convert()
                self.assertCold(second, f"{rel.split('/')[0]}/")
                if strategies is not None:
                    self.assertEqual([h.strategy for h in second.summary.handlers], strategies)

    def test_a_removed_file_is_cold(self):
        self.write("drivers/b/fw.c", FORWARDER)
        first = self.convert()
        (self.root / "drivers/b/fw.c").unlink()
        second = self.convert()
        self.assertCold(second, "drivers/b/fw.c removed")
        self.assertNotEqual(record(second), record(first))

    def test_a_touch_without_a_change_stays_warm_and_is_kept_again(self):
        first = self.convert()
        for rel in ("drivers/a/bd_regs.h", "drivers/a/bd.c", "Makefile"):
            self.write(rel, TREE[rel], ns=OLD_NS + 10**9)
        read = []
        real = run_memo._content_digest

        def counted(path, stamp):
            read.append(os.path.relpath(path, self.root))
            return real(path, stamp)
        with mock.patch.object(run_memo, "_content_digest", counted):
            self.assertWarm(self.convert(), first)
            self.assertEqual(sorted(read), ["Makefile", "drivers/a/bd.c", "drivers/a/bd_regs.h"])
            read.clear()
            self.assertWarm(self.convert(), first)
            self.assertEqual(read, [])

    def test_a_mode_change_is_cold(self):
        self.convert()
        path = self.root / "drivers/a/bd.c"
        path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)
        self.assertCold(self.convert(), "mode")

    def test_other_options_and_targets_keep_their_own_runs(self):
        first = self.convert()
        wrapper = self.convert("--strategy", "wrapper")
        self.assertCold(wrapper, "no earlier run", "--strategy", "wrapper")
        self.assertEqual([h.strategy for h in wrapper.summary.handlers], ["wrapper"])
        self.assertWarm(self.convert(), first)
        self.assertWarm(self.convert("--strategy", "wrapper"), wrapper)

    def test_a_run_spatch_timed_out_in_is_not_kept(self):
        real = rule_spatch.run_all

        def one_timeout(todo, *args, **kwargs):
            spatch.SpatchResult(Path("x.c"), spatch.Outcome.TIMEOUT, "", "", 1.0)
            return real(todo, *args, **kwargs)
        with mock.patch.object(rule_spatch, "run_all", one_timeout):
            first = self.convert()
        self.assertIn("not kept: spatch timed out", first.summary.memo)
        self.assertCold(self.convert(), "no earlier run")

    def test_a_link_out_of_the_tree(self):
        outside = self.tmp / "elsewhere"
        outside.mkdir()
        (outside / "bd_regs.h").write_text(QUIET_GUARD)
        os.utime(outside / "bd_regs.h", ns=(OLD_NS, OLD_NS))
        (self.root / "drivers/a/bd_regs.h").unlink()
        (self.root / "drivers/a/bd_regs.h").symlink_to(outside / "bd_regs.h")
        first = self.convert()
        self.assertWarm(self.convert(), first)
        (outside / "bd_regs.h").write_text(RETURNING_GUARD)
        self.assertCold(self.convert(), "bd_regs.h changed")
        (self.root / "drivers/d").symlink_to(outside, target_is_directory=True)
        self.assertIn("not used", self.convert().summary.memo)
        self.assertFalse(self.convert().summary.warm)

    def test_not_asked_or_without_a_cache_it_is_not_used(self):
        self.convert()
        unasked = self.convert(memo=False).summary
        self.assertEqual((unasked.warm, unasked.memo), (False, ""))
        self.assertNotIn("run memo", unasked.stage_seconds)
        self.assertIn("not used: no cache", self.convert(cache=False).summary.memo)
        self.assertTrue(self.convert().summary.warm)

    def test_the_code_and_rules_are_watched(self):
        import ioctl_rework
        from ioctl_rework import paths
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        args = parse_args(["--cache-dir", str(self.cache), "--target", "2.6.20", "--",
                           str(self.root)])
        memo = run_memo.RunMemo(replace(convert.request_from_args(args), run_memo=True))
        roots = memo._roots()
        for needed in (self.root, Path(ioctl_rework.__file__).parent, paths.rules_dir()):
            self.assertTrue(any(run_memo._within(os.path.realpath(needed), r) for r in roots),
                            needed)


if __name__ == "__main__":
    unittest.main()

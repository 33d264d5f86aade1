"""merge and the summary format, on hand-made summaries (no spatch)."""

import argparse
import contextlib
import io
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import merge
from ioctl_rework.convert import shard
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import FileRecord, FileStatus, HandlerRecord, HandlerStatus, Summary
from ioctl_rework.convert import series


def part(index: int | None, files: list[str], count: int = 3) -> Summary:
    s = Summary(root="/src/linux", target="2.6.9", options={"lock": "bkl"},
                spatch_version="1.1.1", started=100.0 + (index or 0), wall_seconds=10.0,
                shard=f"{index}/{count}" if index else None)
    for name in files:
        s.files.append(FileRecord(name, FileStatus.CONVERTED, None,
                                  f"diff --git a/{name} b/{name}\n--- a/{name}\n+++ b/{name}\n"
                                  "@@ -1 +1 @@\n-int\n+long\n"))
        s.handlers.append(HandlerRecord(name, 3, "f_fops", "f_ioctl", HandlerStatus.CONVERTED,
                                        strategy="pushdown"))
    return s


class MergeTest(unittest.TestCase):
    def test_three_shards_become_one_sorted_run(self):
        merged = merge.merge([part(2, ["b.c"]), part(1, ["c.c", "a.c"]), part(3, [])])
        self.assertIsNone(merged.shard)
        self.assertEqual([f.file for f in merged.files], ["a.c", "b.c", "c.c"])
        self.assertEqual([h.file for h in merged.handlers], ["a.c", "b.c", "c.c"])
        self.assertEqual(merged.started, 101.0)
        self.assertEqual(merged.wall_seconds, 30.0)
        self.assertEqual(merged.totals()["handlers"]["converted"], 3)

    def test_missing_duplicate_and_mixed_shards_are_refused(self):
        with self.assertRaisesRegex(summary_mod.SummaryError, "missing shard 2/3"):
            merge.merge([part(1, []), part(3, [])])
        with self.assertRaisesRegex(summary_mod.SummaryError, "shard 1/3 is given twice"):
            merge.merge([part(1, []), part(1, []), part(2, []), part(3, [])])
        with self.assertRaisesRegex(summary_mod.SummaryError, "different splits"):
            merge.merge([part(1, [], 2), part(2, [], 3)])
        self.assertEqual(len(merge.merge([part(1, ["a.c"]), part(3, [])],
                                         allow_partial=True).files), 1)

    def test_a_file_with_two_different_results_is_refused(self):
        a, b = part(None, ["a.c"]), part(None, ["a.c"])
        b.files[0] = FileRecord("a.c", FileStatus.FAILED, "spatch timed out after 120 s")
        with self.assertRaisesRegex(summary_mod.SummaryError, "a.c is in two runs"):
            merge.merge([a, b])


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class MergeSeriesTest(unittest.TestCase):
    """`merge --series` writes the series one whole run would have written."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="merge-series-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        self.tree.mkdir()
        for name in ("a.c", "b.c", "c.c"):
            (self.tree / name).write_text("int\n")
        self.shards = []
        for k, files in ((1, ["a.c"]), (2, ["b.c", "c.c"]), (3, [])):
            path = self.tmp / f"s{k}.json"
            summary_mod.write(part(k, files), path)
            self.shards.append(str(path))

    def merge_main(self, *argv: str) -> tuple[int, str]:
        parser = argparse.ArgumentParser()
        merge.add_arguments(parser)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = merge.main(parser.parse_args([*argv, *self.shards]))
        return status, err.getvalue()

    def test_the_series_of_the_shards_is_the_series_of_one_run(self):
        env = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org"}
        with mock.patch.dict(os.environ, env):
            status, err = self.merge_main("--series", str(self.tmp / "out"),
                                          "--tree", str(self.tree))
            whole = part(None, ["a.c", "b.c", "c.c"])
            whole.started = 101.0
            expected = series.render(whole, series.Split.FILE, None, tree=self.tree)
        self.assertEqual(status, 0, err)
        self.assertIn(f"merge: series of 3 patches in {self.tmp / 'out'}", err)
        written = {p.name: p.read_text() for p in (self.tmp / "out").iterdir()}
        self.assertEqual(written, expected)
        self.assertIn("Subject: [PATCH 3/3] c: convert to unlocked_ioctl", written[
            "0003-c-convert-to-unlocked_ioctl.patch"])

    def test_without_an_author_nothing_is_written(self):
        (self.tmp / "gitconfig").write_text("[user]\n\tuseConfigOnly = true\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "EMAIL"}
        env.update(HOME=str(self.tmp), GIT_CONFIG_NOSYSTEM="1",
                   GIT_CONFIG_GLOBAL=str(self.tmp / "gitconfig"))
        with mock.patch.dict(os.environ, env, clear=True):
            status, err = self.merge_main("--series", str(self.tmp / "out"), "--json",
                                          str(self.tmp / "all.json"), "--tree", str(self.tree))
        self.assertEqual(status, 2)
        self.assertIn("ioctl-rework merge: error: no author for the series", err)
        self.assertFalse((self.tmp / "out").exists())
        self.assertFalse((self.tmp / "all.json").exists())


class SummaryFormatTest(unittest.TestCase):
    def test_json_round_trip_keeps_bytes_that_are_not_utf8(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        original = part(None, ["caf\udce9.c"])
        summary_mod.write(original, tmp / "s.json")
        loaded = summary_mod.load(tmp / "s.json")
        self.assertEqual(loaded.files, original.files)
        self.assertEqual(loaded.handlers, original.handlers)

    def test_a_run_on_a_directory_of_its_own_says_so(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        original = part(None, ["a.c"])
        original.tree_top = False
        summary_mod.write(original, tmp / "s.json")
        self.assertFalse(summary_mod.load(tmp / "s.json").tree_top)
        self.assertFalse(merge.merge([summary_mod.load(tmp / "s.json")]).tree_top)

    def test_a_file_that_is_not_a_summary_is_a_clear_error(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "x.json").write_text('{"format": "something else"}')
        with self.assertRaisesRegex(summary_mod.SummaryError, "not an ioctl-rework convert summary"):
            summary_mod.load(tmp / "x.json")

    def test_reasons_are_counted_without_their_line_numbers(self):
        s = part(None, [])
        for line in (3, 9):
            s.handlers.append(HandlerRecord("x.c", line, "f", f"h{line}", HandlerStatus.SKIPPED,
                                            reason=f"the inode parameter is written at line {line}"))
        self.assertEqual(s.totals()["skipped_by_reason"],
                         {"the inode parameter is written at line N": 2})


class ShardTest(unittest.TestCase):
    def test_parse_and_a_split_that_covers_every_file_once(self):
        self.assertEqual(str(shard.Shard.parse("2/3")), "2/3")
        for bad in ("0/3", "4/3", "x", "1/0"):
            with self.assertRaises(shard.ShardError):
                shard.Shard.parse(bad)
        names = [f"drivers/x/f{i}.c" for i in range(300)]
        owners = [[k for k in (1, 2, 3) if shard.Shard(k, 3).owns(n)] for n in names]
        self.assertTrue(all(len(o) == 1 for o in owners))
        sizes = [sum(1 for o in owners if o == [k]) for k in (1, 2, 3)]
        self.assertTrue(all(60 < size < 140 for size in sizes), sizes)


if __name__ == "__main__":
    unittest.main()

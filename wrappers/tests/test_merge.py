"""merge and the summary format, on hand-made summaries (no spatch)."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import merge
from ioctl_rework.convert import shard
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import FileRecord, FileStatus, HandlerRecord, HandlerStatus, Summary


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


class SummaryFormatTest(unittest.TestCase):
    def test_json_round_trip_keeps_bytes_that_are_not_utf8(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        original = part(None, ["caf\udce9.c"])
        summary_mod.write(original, tmp / "s.json")
        loaded = summary_mod.load(tmp / "s.json")
        self.assertEqual(loaded.files, original.files)
        self.assertEqual(loaded.handlers, original.handlers)

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

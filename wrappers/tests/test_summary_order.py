"""A summary's records come out in one order whatever the process: records
that tie on file, line and kind are ordered by the rest of their fields,
not by the order of a set (which changes with the string hash per process;
fast31 saw two tokens of tty_io.c:2705 swap between two runs)."""

import itertools
import subprocess
import sys
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import ChangeRecord, Summary, TokenRecord

WRAPPERS = Path(__file__).resolve().parent.parent

REASONS = ["a member of struct tty_driver", "data: a string", "legacy half: #ifdef",
           "another structure's member", "written by a macro", "a comment-like token"]


def summary(tokens, changes) -> Summary:
    made = Summary(root="/tree", target="2.6.11", options={}, spatch_version="1.1.1",
                   started=0.0)
    made.tokens, made.changes = list(tokens), list(changes)
    made.sort()
    return made


def tied_records():
    tokens = [TokenRecord("drivers/char/tty_io.c", 2705, "other-structure", r) for r in REASONS]
    changes = [ChangeRecord("drivers/char/x.c", 10, "changed-caller", f"h{n}", f"f{n}", r)
               for n, r in enumerate(REASONS)]
    return tokens, changes


class TiedRecordsTest(unittest.TestCase):

    def test_tied_records_are_ordered_by_their_other_fields(self):
        tokens, changes = tied_records()
        for order in itertools.islice(itertools.permutations(range(len(REASONS))), 0, 720, 97):
            with self.subTest(order=order):
                made = summary([tokens[i] for i in order], [changes[i] for i in order])
                self.assertEqual([t.reason for t in made.tokens], sorted(REASONS))
                # file, line and kind tie: the handler decides
                self.assertEqual([c.handler for c in made.changes],
                                 [f"h{n}" for n in range(len(REASONS))])

    def test_the_same_order_under_other_string_hashes(self):
        script = ("import sys; sys.path.insert(0, sys.argv[1]); import test_summary_order as t; "
                  "m = t.summary(*t.tied_records()); print([x.reason for x in m.tokens])")
        seen = set()
        for seed in ("1", "2", "3", "4"):
            out = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent)],
                                 env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(WRAPPERS)},
                                 capture_output=True, text=True, check=True).stdout
            seen.add(out)
        self.assertEqual(len(seen), 1, seen)


if __name__ == "__main__":
    unittest.main()

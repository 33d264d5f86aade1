"""lockproof.memo: a file proven before with the same inputs is not proven again."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import lockproof
from ioctl_rework.cache import Cache
from ioctl_rework.lockproof import changes as changes_mod
from test_lockproof_macros import HEADER, HEADER_USER, pushdown_of

BROKEN = pushdown_of(HEADER_USER, "sq_ioctl", "\tIOCTL_IN(arg, val);",
                     {"\treturn sq_set_speed(val);":
                      "\tret = sq_set_speed(val);\n\tunlock_kernel();\n\treturn ret;"}
                     ).replace("\tint val;", "\tlong ret;\n\tint val;") + \
    "\nstatic struct file_operations sq_fops = {\n\t.unlocked_ioctl = sq_ioctl,\n};\n"
LEGACY = HEADER_USER + "\nstatic struct file_operations sq_fops = {\n\t.ioctl = sq_ioctl,\n};\n"


class MemoTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name) / "tree"
        (self.root / "sound").mkdir(parents=True)
        (self.root / "sound/sndq.h").write_text(HEADER)
        self.cache = Cache(Path(tmp.name) / "cache", "lockproof")
        self.changes = {"sound/sq.c": (LEGACY.encode(), BROKEN.encode())}

    def prove(self):
        found = lockproof.prove_changes(self.root, self.changes, lambda rel: lockproof.LockCalls.bkl(),
                                        cache=self.cache)
        return [str(p) for r in found for p in r.proof.problems]

    def test_a_second_run_reuses_the_verdicts(self):
        first = self.prove()
        self.assertEqual(len(first), 1)
        with mock.patch.object(changes_mod, "prove_each", side_effect=AssertionError("proved")):
            self.assertEqual(self.prove(), first)

    def test_a_changed_header_is_proven_again(self):
        self.assertEqual(len(self.prove()), 1)
        # The macro no longer returns: the pushdown is now right.
        (self.root / "sound/sndq.h").write_text(HEADER.replace("return __err;", "val = 0;"))
        self.assertEqual(self.prove(), [])


if __name__ == "__main__":
    unittest.main()

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


class MemoOfTreeHeadersTest(unittest.TestCase):
    """The verdict depends on every header the proof reads: a tree header
    (<sound/sndq.h>), one on the kbuild include path, one included in the
    body, and the Makefile that says where they are."""

    TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name) / "tree"
        self.cache = Cache(Path(tmp.name) / "cache", "lockproof")

    def write(self, files: dict[str, str]) -> None:
        for path, text in files.items():
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            (self.root / path).write_text(text)

    def prove(self, legacy: str, converted: str) -> list[str]:
        changes = {"sound/oss/sq.c": (legacy.encode(), converted.encode())}
        found = lockproof.prove_changes(self.root, changes, lambda rel: lockproof.LockCalls.bkl(),
                                        cache=self.cache)
        return [str(p) for r in found for p in r.proof.problems]

    def check(self, include: str, header: str, makefile: str = "") -> None:
        """A changed HEADER (where INCLUDE finds it) is proven again."""
        legacy, broken = (text.replace('#include "sndq.h"', include) for text in (LEGACY, BROKEN))
        self.write({"Makefile": self.TOP, "sound/oss/Makefile": makefile, header: HEADER})
        self.assertEqual(len(self.prove(legacy, broken)), 1)
        self.write({header: HEADER.replace("return __err;", "val = 0;")})
        self.assertEqual(self.prove(legacy, broken), [])
        self.write({header: HEADER})
        self.assertEqual(len(self.prove(legacy, broken)), 1)

    def test_a_changed_tree_header_is_proven_again(self):
        self.check("#include <sound/sndq.h>", "include/sound/sndq.h")

    def test_a_changed_header_on_the_kbuild_path_is_proven_again(self):
        self.check('#include "sndq.h"', "sound/common/sndq.h",
                   "EXTRA_CFLAGS += -Isound/common\n")

    def test_a_changed_makefile_is_proven_again(self):
        legacy, broken = (text.replace('#include "sndq.h"', '#include "sndq_io.h"')
                          for text in (LEGACY, BROKEN))
        self.write({"Makefile": self.TOP, "sound/oss/Makefile": "obj-m += sq.o\n",
                    "sound/common/sndq_io.h": HEADER})
        # Not found: a name not read; found on the new path: its return.
        found = self.prove(legacy, broken)
        self.assertEqual(len(found), 1)
        self.assertIn("IOCTL_IN at line 13 runs with the BKL held and may be a macro", found[0])
        self.write({"sound/oss/Makefile": "obj-m += sq.o\nccflags-y += -I$(src)/../common\n"})
        found = self.prove(legacy, broken)
        self.assertEqual(len(found), 1)
        self.assertIn("(in macro IOCTL_IN) leaves the BKL held", found[0])

    def test_a_changed_file_included_in_the_body_is_proven_again(self):
        legacy, broken = (text.replace("\tIOCTL_IN(arg, val);", '#include "sq_in.h"')
                          for text in (LEGACY, BROKEN))
        self.write({"Makefile": self.TOP, "sound/oss/sndq.h": HEADER,
                    "sound/oss/sq_in.h": "\tIOCTL_IN(arg, val);\n"})
        self.assertEqual(len(self.prove(legacy, broken)), 1)
        self.write({"sound/oss/sq_in.h": "\tval = arg;\n"})
        self.assertEqual(self.prove(legacy, broken), [])


if __name__ == "__main__":
    unittest.main()


class ProverSourcesTest(unittest.TestCase):
    """A change to any module a proof's result depends on proves every file again."""

    def test_the_header_reading_modules_are_in_the_prover_digest(self):
        from ioctl_rework.lockproof import memo
        names = {path.name for path in memo.prover_sources()}
        self.assertIn("include_search.py", names)
        self.assertIn("header_cache.py", names)   # how include_search reads a header's text
        self.assertIn("memo.py", names)
        self.assertTrue(all(path.is_file() for path in memo.prover_sources()))


class RememberedInTheProcessTest(unittest.TestCase):
    """Without a cache, a file proven earlier in the process with the same
    inputs keeps its verdicts (convert's second pass after a fallback);
    any input changed (its texts, another file's, a header, the lock)
    proves it again."""

    def setUp(self):
        changes_mod._REMEMBERED.clear()
        self.addCleanup(changes_mod._REMEMBERED.clear)
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        (self.root / "sound").mkdir(parents=True)
        (self.root / "sound/sndq.h").write_text(HEADER)
        self.proven = []
        real = changes_mod.prove_each

        def counted(rel, *args):
            self.proven.append(rel)
            return real(rel, *args)

        patcher = mock.patch.object(changes_mod, "prove_each", side_effect=counted)
        patcher.start()
        self.addCleanup(patcher.stop)

    def prove(self, changes, lock=None):
        found = lockproof.prove_changes(self.root, changes,
                                        lambda rel: lock or lockproof.LockCalls.bkl())
        return [(r.file, r.proof) for r in found]

    def test_unchanged_files_are_not_proven_again(self):
        other = LEGACY.replace("sq_", "sr_"), BROKEN.replace("sq_", "sr_")
        first = {"sound/sq.c": (LEGACY.encode(), BROKEN.encode()),
                 "sound/sr.c": tuple(t.encode() for t in other)}
        verdicts = self.prove(first)
        self.assertEqual(self.prove(first), verdicts)
        self.assertEqual(self.proven, ["sound/sq.c", "sound/sr.c"])
        # The second pass of a fallback: one file's text changed.
        fixed = BROKEN.replace("\treturn ret;", "\treturn ret;\n")
        self.prove({**first, "sound/sq.c": (LEGACY.encode(), fixed.encode())})
        self.assertEqual(self.proven, ["sound/sq.c", "sound/sr.c", "sound/sq.c"])

    def test_a_changed_header_or_lock_proves_again(self):
        changes = {"sound/sq.c": (LEGACY.encode(), BROKEN.encode())}
        broken = self.prove(changes)
        self.assertTrue(broken[0][1].problems)
        (self.root / "sound/sndq.h").write_text(HEADER.replace("return __err;", "val = 0;"))
        self.assertFalse(self.prove(changes)[0][1].problems)
        self.prove(changes, lockproof.LockCalls("mutex_lock", "mutex_unlock", "&sq_mutex"))
        self.assertEqual(self.proven, ["sound/sq.c"] * 3)

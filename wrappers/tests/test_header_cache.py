"""ctext/header_cache.py: one memory a run of what headers read and reduce to.

What must hold: a file changed during the run is never answered from the
memory (in place, same size, by rename, deleted, just written), a function
remembered by content answers for that content only, and the memory stays
under its bound.  Then member_types through it: a header changed between
two files of one run changes the proof.
"""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.ctext import header_cache, member_types

OLD = 1_000_000_000_000_000_000     # a modification time long past (ns)


class Scratch(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="header-cache-"))
        self.addCleanup(shutil.rmtree, self.dir)
        header_cache.clear()
        self.addCleanup(header_cache.clear)

    def write(self, name, text, racy=False):
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if not racy:
            os.utime(path, ns=(OLD, OLD))
        return path

    def without_racy_window(self):
        """Keep texts whatever their age (their change time is always now
        in a test): each case below then proves the key, not the window."""
        racy, header_cache.RACY_NS = header_cache.RACY_NS, -(1 << 62)
        self.addCleanup(setattr, header_cache, "RACY_NS", racy)


class TextTest(Scratch):
    def test_kept_and_read_again_after_each_kind_of_change(self):
        self.without_racy_window()
        path = self.write("a.h", "struct a { int x; };\n")
        self.assertEqual(header_cache.text(path), "struct a { int x; };\n")
        self.assertIs(header_cache.text(path), header_cache.text(path))   # kept

        path.write_text("struct b { int x; };\n")      # same size, in place
        os.utime(path, ns=(OLD, OLD))                  # even with the old mtime
        self.assertEqual(header_cache.text(path), "struct b { int x; };\n")

        path.write_text("struct c { long y; };\n")     # another size
        self.assertEqual(header_cache.text(path), "struct c { long y; };\n")

        other = self.write("b.h.new", "struct d { int x; };\n")
        os.replace(other, path)                        # renamed over it
        self.assertEqual(header_cache.text(path), "struct d { int x; };\n")

        path.unlink()
        self.assertIsNone(header_cache.text(path))

    def test_a_file_just_changed_is_not_kept(self):
        path = self.write("a.h", "int a;\n", racy=True)
        self.assertEqual(header_cache.text(path), "int a;\n")
        self.assertIsNot(header_cache.text(path), header_cache.text(path))

    def test_unreadable_and_odd_bytes(self):
        self.assertIsNone(header_cache.text(self.dir / "missing.h"))
        self.assertIsNone(header_cache.text(self.dir))            # a directory
        path = self.dir / "bytes.h"
        path.write_bytes(b"int \xff;\r\n")
        self.assertEqual(header_cache.text(path), "int \ufffd;\r\n")   # newline as written


class ByContentTest(Scratch):
    def setUp(self):
        super().setUp()
        self.calls = []

        @header_cache.by_content
        def upper(text, *rest):
            self.calls.append((text, rest))
            return text.upper() + "".join(rest)

        self.upper = upper

    def test_once_per_content_and_arguments(self):
        self.assertEqual(self.upper("ab"), "AB")
        self.assertEqual(self.upper("a" + "b"), "AB")          # equal text, another object
        self.assertEqual(self.upper("ab", "!"), "AB!")         # other arguments
        self.assertEqual(self.upper("ac"), "AC")
        self.assertEqual(self.calls, [("ab", ()), ("ab", ("!",)), ("ac", ())])

    def test_two_functions_never_share_an_entry(self):
        lower = header_cache.by_content(str.lower)
        self.assertEqual(self.upper("Ab"), "AB")
        self.assertEqual(lower("Ab"), "ab")

    def test_bounded(self):
        limit, header_cache.LIMIT = header_cache.LIMIT, 100
        self.addCleanup(setattr, header_cache, "LIMIT", limit)
        first = "a" * 20
        self.upper(first)                     # 40 characters held
        self.upper("b" * 20)                  # 80
        self.upper("c" * 20)                  # 120: the oldest goes
        self.upper("b" * 20)                  # still there
        self.upper(first)                     # computed again
        self.assertEqual([t[0] for t, _ in self.calls],
                         ["a", "b", "c", "a"])
        self.upper("d" * 200)                 # larger than the bound: not kept
        self.upper("d" * 200)
        self.assertEqual(sum(1 for t, _ in self.calls if t[0] == "d"), 2)


TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"
OPS_H = """struct gadget_ops {
	int (*ioctl)(void *, unsigned, unsigned long);
};
struct gadget {
	const struct %s *ops;
};
"""
DRIVER = """#include <linux/gadget.h>
static int f(struct gadget *g)
{
	return g->ops->ioctl(g, 0, 0);
}
"""


class MemberTypesThroughTheCacheTest(Scratch):
    def test_a_header_changed_between_two_files_changes_the_proof(self):
        self.without_racy_window()
        self.write("Makefile", TOP)
        header = self.write("include/linux/gadget.h", OPS_H % "gadget_ops")
        for rel in ("drivers/a.c", "drivers/b.c"):
            self.write(rel, DRIVER)
        proven = member_types.corpus(self.dir, "drivers/a.c", DRIVER)
        self.assertEqual(member_types.other_structures(proven, 4), {"gadget_ops"})

        # The member now comes from a file_operations (same length as written).
        header.write_text(OPS_H % "file_ops__")
        os.utime(header, ns=(OLD, OLD))
        again = member_types.corpus(self.dir, "drivers/b.c", DRIVER)
        self.assertIsNone(member_types.other_structures(again, 4))   # file_ops__ has no body
        header.write_text((OPS_H % "gadget_ops").replace("gadget_ops {", "file_operations {")
                          .replace("struct gadget_ops *", "struct file_operations *"))
        third = member_types.corpus(self.dir, "drivers/a.c", DRIVER)
        self.assertIsNone(member_types.other_structures(third, 4))   # a file_operations


if __name__ == "__main__":
    unittest.main()

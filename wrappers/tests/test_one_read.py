"""Issue 26 sections 2 and 3: the prefilter reads each file of the tree
once, for the candidates and for the files with an ioctl member, which
accounting asked grep for in a third pass over the tree; the answers are
grep's, spelling by spelling, and a re-run reads none of it again."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert import accounting, tree

# name -> text; the names ending in + have an ioctl member as grep -E reads it.
SHAPES = {
    "init.c+": "static struct file_operations f = {\n\t.ioctl = h,\n};\n",
    "tabs.c+": "static struct file_operations f = {\n\t.ioctl\t\t= h,\n};\n",
    "arrow.h+": "#define CALL(f) (f)->f_op->ioctl(i, f, 0, 0)\n",
    "arrow_spaced.c+": "int x(struct file *f) { return f->f_op-> \tioctl != 0; }\n",
    "line_end.c+": "int y(struct s *p) { return p->\nioctl(0); }\nint z = q->ioctl\n;\n",
    "gnu.c+": "static struct file_operations f = {\n\tioctl: h,\n};\n",
    "gnu_start.c+": "ioctl\t:\n",
    "gnu_brace.c+": "static struct file_operations f = {ioctl: h};\n",
    "paren.c": "static int (ioctl): 0;\n",
    "member_cr.c+": "int w = a.ioctl\r\n;\n",
    "longer.c": "int v = a.ioctl_count + b->ioctls;\n",
    "prefixed.c": "my_ioctl: return 0;\nx>ioctl :\n",
    "word.c": "/* ioctl */ int ioctl_table;\n",
    "dot_other.c": "int u = a.unlocked_ioctl;\n",
    "text.txt": ".ioctl = h,\n",
    "sub/deep.c+": "\t.ioctl = deep,\n",
    ".hidden/x.c": "\t.ioctl = hidden,\n",
}


class MemberIndexTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="one-read-"))
        for name, text in SHAPES.items():
            path = self.root / "drivers" / name.rstrip("+")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode())
        # A link met in the walk is no file of the tree (grep -r does not follow it).
        os.symlink("init.c", self.root / "drivers" / "link.c")

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_the_member_files_are_greps_spelling_by_spelling(self):
        expected = {f"drivers/{n.rstrip('+')}" for n in SHAPES if n.endswith("+")}
        self.assertEqual(set(accounting.files_with_members([self.root], self.root)), expected)
        found = tree.scan([self.root], self.root).member_files
        self.assertEqual(found, expected)

    def test_paths_naming_files_are_read_as_grep_reads_them(self):
        named = [self.root / "drivers/link.c", self.root / "drivers/text.txt",
                 self.root / "drivers/word.c", self.root / "drivers/sub"]
        self.assertEqual(tree.scan(named, self.root).member_files,
                         set(accounting.files_with_members(named, self.root)))
        self.assertEqual(tree.scan(named, self.root).member_files,
                         {"drivers/link.c", "drivers/sub/deep.c"})

    def test_a_rerun_over_an_unchanged_tree_reads_no_file_and_runs_no_grep(self):
        store = cache_mod.Cache(self.root / ".cache", "convert")
        first = tree.scan([self.root], self.root, store)
        opened = mock.Mock(side_effect=AssertionError("a file was read again"))
        with mock.patch.object(tree, "_read_verdict", opened), \
                mock.patch.object(tree, "_mentions", opened):
            again = tree.scan([self.root], self.root, store)
        self.assertEqual(again.member_files, first.member_files)
        self.assertEqual(again.fops_files, first.fops_files)
        self.assertEqual(again.mentions, first.mentions)


if __name__ == "__main__":
    unittest.main()

"""tidy: kernel style for the lines spatch adds, and only for those."""

import unittest

from ioctl_rework import tidy
from ioctl_rework.unified import apply_hunks, git_diff

OLD = b"""static int joy_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static struct file_operations joy_fops = {
\t.owner\t\t= THIS_MODULE,
\t.read = joy_read,
\t.ioctl\t\t= joy_ioctl,
\t.release\t= joy_release,
};

static struct file_operations gnu_fops = {
\towner:\t\tTHIS_MODULE,
\tioctl:\t\tjoy_ioctl,
};
"""

# What spatch prints for -D wrapper -D compat, and for a multi-kernel GNU entry.
SPATCH = b"""static long joy_ioctl(struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static long joy_unlocked_ioctl(struct file *file, unsigned int cmd,
    unsigned long arg)
{
\treturn 0;
}

static struct file_operations joy_fops = {
\t.owner\t\t= THIS_MODULE,
\t.read = joy_read,
\t.unlocked_ioctl = joy_unlocked_ioctl,
\t.compat_ioctl = joy_unlocked_ioctl,
\t.release\t= joy_release,
};

static struct file_operations gnu_fops = {
\towner:\t\tTHIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
\t.unlocked_ioctl = joy_unlocked_ioctl,
#else
ioctl:\t\tjoy_ioctl,
#endif
};
"""


class TidyTest(unittest.TestCase):
    def setUp(self):
        self.applied = apply_hunks(OLD, git_diff("joy.c", OLD, SPATCH))
        self.lines = tidy.tidy(self.applied).split(b"\n")

    def line(self, start: bytes) -> list[bytes]:
        return [line for line in self.lines if line.lstrip().startswith(start)]

    def test_the_applied_diff_says_which_lines_it_added_and_removed(self):
        self.assertEqual(self.applied.new, SPATCH)
        spatch_lines = SPATCH.split(b"\n")
        self.assertIn(spatch_lines.index(b"\t.unlocked_ioctl = joy_unlocked_ioctl,") + 1,
                      self.applied.added)
        self.assertNotIn(spatch_lines.index(b"\t.read = joy_read,") + 1, self.applied.added)
        self.assertIn(b"\tioctl:\t\tjoy_ioctl,", self.applied.removed)

    def test_new_entries_take_the_alignment_of_their_neighbours(self):
        self.assertEqual(self.line(b".unlocked_ioctl")[0], b"\t.unlocked_ioctl\t= joy_unlocked_ioctl,")
        self.assertEqual(self.line(b".compat_ioctl")[0], b"\t.compat_ioctl\t= joy_unlocked_ioctl,")

    def test_an_entry_with_no_tab_aligned_neighbour_keeps_one_space(self):
        # In gnu_fops the only neighbours are GNU-style and preprocessor lines.
        self.assertEqual(self.line(b".unlocked_ioctl")[1], b"\t.unlocked_ioctl = joy_unlocked_ioctl,")

    def test_a_kept_line_gets_its_indentation_back(self):
        self.assertIn(b"\tioctl:\t\tjoy_ioctl,", self.lines)
        self.assertNotIn(b"ioctl:\t\tjoy_ioctl,", self.lines)

    def test_a_continued_parameter_list_lines_up_with_the_parenthesis(self):
        index = self.lines.index(b"static long joy_unlocked_ioctl(struct file *file, unsigned int cmd,")
        # "static long joy_unlocked_ioctl(" is 31 columns: three tabs, seven spaces.
        self.assertEqual(self.lines[index + 1], b"\t\t\t       unsigned long arg)")

    def test_lines_the_diff_does_not_add_are_never_touched(self):
        self.assertIn(b"\t.read = joy_read,", self.lines)
        self.assertIn(b"\t\t     unsigned int cmd, unsigned long arg)", self.lines)
        self.assertEqual(tidy.tidy(apply_hunks(OLD, git_diff("joy.c", OLD, OLD))), OLD)


if __name__ == "__main__":
    unittest.main()

"""tidy: kernel style for the lines spatch adds, and only for those."""

import unittest

from ioctl_rework.patches import tidy
from ioctl_rework.patches.unified import apply_hunks, git_diff

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
        self.assertEqual(tidy.tidy(apply_hunks(OLD, git_diff("joy.c", OLD, OLD))), OLD)

    def test_parameters_follow_the_parenthesis_when_int_becomes_long(self):
        # "static long joy_ioctl(" is 22 columns, one more than with int.
        index = self.lines.index(b"static long joy_ioctl(struct file *file,")
        self.assertEqual(self.lines[index + 1], b"\t\t      unsigned int cmd, unsigned long arg)")

    def test_a_crlf_file_is_tidied_the_same_and_keeps_its_crlf(self):
        # Entries, a new function's continuation, kept lines, retyped
        # parameters: each as in the LF file, each line still ending CRLF.
        old, new = OLD.replace(b"\n", b"\r\n"), SPATCH.replace(b"\n", b"\r\n")
        out = tidy.tidy(apply_hunks(old, git_diff("joy.c", old, new)))
        self.assertEqual(out, tidy.tidy(self.applied).replace(b"\n", b"\r\n"))


def tidied(old: bytes, new: bytes) -> bytes:
    return tidy.tidy(apply_hunks(old, git_diff("t.c", old, new)))


class SignatureTest(unittest.TestCase):
    OLD = (b"static int t_ioctl(struct inode *inode, struct file *file,\n"
           b"\t\t   unsigned int cmd,\n"
           b"\t\t   unsigned long arg)\n{\n\treturn 0;\n}\n")

    def test_every_parameter_line_moves_one_column(self):
        new = self.OLD.replace(b"int t_ioctl(struct inode *inode, ", b"long t_ioctl(")
        self.assertEqual(tidied(self.OLD, new).split(b"\n")[1:3],
                         [b"\t\t    unsigned int cmd,", b"\t\t    unsigned long arg)"])

    def test_a_line_that_was_not_lined_up_stays_where_it_was(self):
        old = self.OLD.replace(b"\t\t   unsigned int cmd", b"\tunsigned int cmd")
        new = old.replace(b"int t_ioctl(struct inode *inode, ", b"long t_ioctl(")
        self.assertEqual(tidied(old, new).split(b"\n")[1], b"\tunsigned int cmd,")

    def test_a_long_that_was_always_long_moves_nothing(self):
        old = self.OLD.replace(b"static int", b"static long")
        new = old.replace(b"t_ioctl(struct inode *inode, ", b"t_ioctl(")
        self.assertEqual(tidied(old, new).split(b"\n")[1], b"\t\t   unsigned int cmd,")

    def test_crlf_lines_move_and_keep_their_crlf(self):
        old = self.OLD.replace(b"\n", b"\r\n")
        new = old.replace(b"int t_ioctl(struct inode *inode, ", b"long t_ioctl(")
        out = tidied(old, new)
        self.assertIn(b"\r\n\t\t    unsigned int cmd,\r\n", out)
        self.assertEqual(out.count(b"\n"), out.count(b"\r\n"))


class LabelTest(unittest.TestCase):
    OLD = (b"static int t_ioctl(struct file *file)\n{\n\tint err;\n\n"
           b"again:\n\terr = t_try();\n\tif (err == -EAGAIN)\n\t\tgoto again;\n"
           b"\treturn err;\n}\n")

    def with_lock(self, old: bytes, lock: bytes, eol: bytes = b"\n") -> bytes:
        # spatch puts a statement it adds before a label at column 0.
        return old.replace(b"again:" + eol, lock + eol + b"again:" + eol)

    def test_a_lock_before_a_label_is_indented_like_the_code_it_guards(self):
        for lock in (b"lock_kernel();", b"mutex_lock(&t_mutex);"):
            with self.subTest(lock=lock):
                out = tidied(self.OLD, self.with_lock(self.OLD, lock))
                self.assertIn(b"\n\t" + lock + b"\nagain:\n", out)

    def test_crlf_keeps_its_crlf(self):
        old = self.OLD.replace(b"\n", b"\r\n")
        out = tidied(old, self.with_lock(old, b"lock_kernel();", b"\r\n"))
        self.assertIn(b"\r\n\tlock_kernel();\r\nagain:\r\n", out)
        self.assertEqual(out.count(b"\n"), out.count(b"\r\n"))

    def test_other_column_zero_lines_stay(self):
        new = self.OLD.replace(b"again:\n", b"#ifdef T_RETRY\nagain:\n#endif\n")
        self.assertIn(b"\n#ifdef T_RETRY\nagain:\n#endif\n", tidied(self.OLD, new))


class LegacyHalfTest(unittest.TestCase):
    """The #else half the multi-kernel forwarding adds is an old statement
    spatch printed again: it gets the old layout back, token for token."""
    OLD = (b"\tif (!lower->f_op ||\n\t    !lower->f_op->ioctl)\n\t\treturn -ENOTTY;\n"
           b"\treturn 0;\n")

    def halves(self, new: bytes) -> bytes:
        applied = apply_hunks(self.OLD, git_diff("t.c", self.OLD, new))
        return tidy.legacy_halves(self.OLD, applied).new

    def test_the_old_layout_comes_back_and_the_added_blank_line_goes(self):
        new = (b"#ifdef HAVE_UNLOCKED_IOCTL\n\tif (!lower->f_op ||\n"
               b"\t    !lower->f_op->unlocked_ioctl)\n\t\treturn -ENOTTY;\n#else\n"
               b"\tif (!lower->f_op || !lower->f_op->ioctl) return -ENOTTY;\n#endif\n\t\n"
               b"\treturn 0;\n")
        self.assertEqual(self.halves(new),
                         b"#ifdef HAVE_UNLOCKED_IOCTL\n\tif (!lower->f_op ||\n"
                         b"\t    !lower->f_op->unlocked_ioctl)\n\t\treturn -ENOTTY;\n#else\n"
                         b"\tif (!lower->f_op ||\n\t    !lower->f_op->ioctl)\n"
                         b"\t\treturn -ENOTTY;\n#endif\n\treturn 0;\n")

    def test_a_kept_legacy_half_loses_the_blank_line_added_before_it(self):
        old = b"\tret = lower->f_op->ioctl(inode, file, cmd, arg);\n\treturn ret;\n"
        new = (b"#ifdef HAVE_UNLOCKED_IOCTL\n\tret = (int)lower->f_op->unlocked_ioctl(file, cmd, "
               b"arg);\n\t\n#else\n\tret = lower->f_op->ioctl(inode, file, cmd, arg);\n"
               b"#endif\n\treturn ret;\n")
        applied = apply_hunks(old, git_diff("t.c", old, new))
        self.assertEqual(tidy.legacy_halves(old, applied).new, new.replace(b"\t\n#else", b"#else"))

    def test_a_half_that_is_not_old_text_is_kept(self):
        new = (b"#ifdef HAVE_UNLOCKED_IOCTL\n\tif (!lower->f_op->unlocked_ioctl)\n"
               b"\t\treturn -ENOTTY;\n#else\n\tif (!lower->f_op->ioctl) return -EINVAL;\n"
               b"#endif\n\treturn 0;\n")
        self.assertEqual(self.halves(new), new)


if __name__ == "__main__":
    unittest.main()


class ContinuationTest(unittest.TestCase):
    """hole27: every new function's parameter list spatch continues with one
    to four spaces (the forward helper's one) lines up with its parenthesis,
    on every line of it; a list it did not add, or indented with tabs, stays."""

    OLD = b"struct lower;\n\nstatic int up(int a)\n{\n\treturn a;\n}\n"

    def tidied(self, added: bytes) -> list[bytes]:
        new = self.OLD.replace(b"\nstatic int up", b"\n" + added + b"\nstatic int up")
        return tidy.tidy(apply_hunks(self.OLD, git_diff("up.c", self.OLD, new))).split(b"\n")

    def test_each_spelling_lines_up(self):
        # "static int forward_ioctl(" is 25 columns: three tabs, one space.
        for added, want in [
                (b"static int forward_ioctl(const struct file_operations *fops, struct inode *inode,\n"
                 b" struct file *file, unsigned int cmd, unsigned long arg)\n{\n\treturn 0;\n}\n",
                 [b"\t\t\t struct file *file, unsigned int cmd, unsigned long arg)"]),
                (b"static inline int forward_ioctl(const struct file_operations *fops,\n"
                 b"  struct inode *inode,\n   struct file *file, unsigned int cmd,\n"
                 b"    unsigned long arg)\n{\n\treturn 0;\n}\n",
                 # "static inline int forward_ioctl(" is 32 columns: four tabs.
                 [b"\t\t\t\tstruct inode *inode,", b"\t\t\t\tstruct file *file, unsigned int cmd,",
                  b"\t\t\t\tunsigned long arg)"]),
                (b"static long up_unlocked(struct file *file, unsigned int cmd,\n"
                 b" unsigned long arg);\n",
                 [b"\t\t\tunsigned long arg);"])]:
            with self.subTest(added=added.split(b"\n")[0]):
                lines = self.tidied(added)
                start = lines.index(added.split(b"\n")[0])
                self.assertEqual(lines[start + 1:start + 1 + len(want)], want)

    def test_what_is_not_a_continued_new_signature_stays(self):
        for added in [b"static int helper(int a)\n{\n return a;\n}\n",
                      b"static int forward(int a,\n\t\t   int b)\n{\n\treturn a;\n}\n",
                      b"int f = g(1,\n 2);\n"]:
            with self.subTest(added=added.split(b"\n")[0]):
                lines = self.tidied(added)
                start = lines.index(added.split(b"\n")[0])
                self.assertEqual(lines[start + 1], added.split(b"\n")[1])

"""ctext/member_calls.py: the calls through a member named ioctl that may
run a handler (what -D mutex refuses), in several spellings each, and the
uses that run none."""

import unittest

from ioctl_rework.ctext.member_calls import calls_through_member

FUNCTION = """static int up(struct inode *inode, struct file *file, unsigned cmd, unsigned long arg)
{
%s
}
"""


def sites(body: str, before: str = "") -> list[str]:
    return [site.member for site in calls_through_member(before + FUNCTION % body)]


class MemberCallsTest(unittest.TestCase):
    def test_calls_in_every_spelling(self):
        for body, member in [
                ("\treturn fp_lower->ioctl(inode, file, cmd, arg);", "fp_lower->ioctl"),
                ("\treturn file->f_op->ioctl(inode, file, cmd, arg);", "file->f_op->ioctl"),
                ("\treturn (*ops->ioctl)(inode, file, cmd, arg);", "ops->ioctl"),
                ("\treturn fops[minor].ioctl(inode, file, cmd, arg);", "fops[minor].ioctl"),
                ("\treturn (&fops[0])->ioctl(inode, file, cmd, arg);", "(&fops[0])->ioctl"),
                ("\treturn lower -> f_op -> ioctl (inode, file, cmd, arg);",
                 "lower->f_op->ioctl"),
                ("\treturn ok ? dev->fops->ioctl(inode, file, cmd, arg) : 0;",
                 "dev->fops->ioctl"),
                ("\tfn = file->f_op->ioctl;", "file->f_op->ioctl"),
                ("\tkeep(1, file->f_op->ioctl);", "file->f_op->ioctl")]:
            with self.subTest(body=body):
                self.assertEqual(sites(body), [member])

    def test_a_call_in_a_macro_names_the_macro(self):
        found = calls_through_member("#define PASS(f) (f)->f_op->ioctl(0, (f), 0, 0)\n")
        self.assertEqual([(s.macro, s.function, s.line) for s in found], [("PASS", None, 1)])

    def test_tests_comparisons_and_assignments_run_nothing(self):
        for body in ["\tif (!file->f_op || !file->f_op->ioctl)\n\t\treturn 1;",
                     "\tif (fp && fp->ioctl)\n\t\treturn 1;",
                     "\tif (fp &&\n\t    fp->ioctl)\n\t\treturn 1;",
                     "\tif (file->f_op->ioctl != tty_ioctl)\n\t\treturn 1;",
                     "\tif (up == file->f_op->ioctl)\n\t\treturn 1;",
                     "\treturn file->f_op->ioctl ? 1 : 0;",
                     "\tif (fp->ioctl)\n\t\treturn 1;",
                     "\tops->ioctl = up;"]:
            with self.subTest(body=body):
                self.assertEqual(sites(body), [])

    def test_initializers_and_other_structures_are_no_site(self):
        before = ("static struct file_operations fo = {\n\t.owner = THIS_MODULE,\n"
                  "\t.ioctl = up,\n};\n")
        self.assertEqual(sites("\treturn 0;", before), [])
        self.assertEqual(sites("\tstruct tty_driver *drv = x;\n"
                               "\treturn drv->ioctl(tty, file, cmd, arg);"), [])

    def test_code_never_compiled_or_for_old_kernels_only_is_no_site(self):
        call = "\treturn file->f_op->ioctl(inode, file, cmd, arg);\n"
        self.assertEqual(sites("#if 0\n" + call + "#endif\n\treturn 0;"), [])
        self.assertEqual(sites("#ifdef HAVE_UNLOCKED_IOCTL\n\treturn 0;\n#else\n" + call +
                               "#endif"), [])
        self.assertEqual(sites("/* " + call + " */\n\treturn 0;"), [])


if __name__ == "__main__":
    unittest.main()

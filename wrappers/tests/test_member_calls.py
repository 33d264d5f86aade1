"""ctext/member_calls.py: the calls through a member named ioctl that may
run a handler (what -D mutex refuses), in several spellings each, and the
uses that run none."""

import unittest

from ioctl_rework.ctext.member_calls import (calls_through_macros, calls_through_member,
                                              falls_back)

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
                # A subscript is part of the object whatever it holds (the
                # adversarial red_fops_index_array was named "3].ioctl").
                ("\treturn ria_ports[arg % 3].ioctl(inode, file, cmd, arg) * 10;",
                 "ria_ports[arg%3].ioctl"),
                ("\treturn (*ops[n - 1].ioctl)(inode, file, cmd, arg);", "ops[n-1].ioctl"),
                ("\treturn a->b[x[1] + 2].c->ioctl(inode, file, cmd, arg);",
                 "a->b[x[1]+2].c->ioctl"),
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



HEADER = {"drivers/x/stack.h": "#define PASS(lf, c, a) \\\n"
                               "\t((lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))\n"
                               "#define HAS(lf) ((lf)->f_op && (lf)->f_op->ioctl)\n"
                               "#define NOT_IT(lf) ((lf)->f_op->read)\n"}


class MacroCallsTest(unittest.TestCase):
    """Sites the file's text does not spell: a macro of an included header
    (a call or a test), a macro of the file whose argument names the member."""

    def macro_sites(self, body: str, before: str = "") -> list[tuple[str, str]]:
        text = before + FUNCTION % body
        return [(site.function, site.member)
                for site in calls_through_macros(text, "drivers/x/up.c", HEADER)]

    def test_a_header_macro_is_a_site_at_its_use(self):
        for body, macro in [("\treturn PASS(file->private_data, cmd, arg);", "PASS"),
                            ("\tif (!HAS(file))\n\t\treturn -ENOTTY;", "HAS"),
                            ("\tint r = PASS (file, cmd, arg);\n\treturn r;", "PASS")]:
            with self.subTest(body=body):
                self.assertEqual(self.macro_sites(body),
                                 [("up", f"the macro {macro} of drivers/x/stack.h")])

    def test_a_macro_naming_the_member_by_an_argument(self):
        before = "#define LOWER_OP(f, op, ...) ((f)->f_op->op(__VA_ARGS__))\n"
        self.assertEqual(self.macro_sites("\treturn LOWER_OP(file, ioctl, inode, file, cmd, arg);",
                                          before),
                         [("up", "the macro LOWER_OP (its argument ioctl names the member)")])
        self.assertEqual(self.macro_sites("\treturn LOWER_OP(file, read, file, 0, 0, 0);",
                                          before), [])

    def test_other_macros_and_comments_are_no_site(self):
        for body in ["\treturn NOT_IT(file) ? 0 : 1;", "\t/* PASS(file, cmd, arg) */\n\treturn 0;"]:
            with self.subTest(body=body):
                self.assertEqual(self.macro_sites(body), [])


class FallbackTest(unittest.TestCase):
    """The ->ioctl the forwarding fallback writes (f_op_ioctl_forwarding.cocci,
    -D legacy_ioctl) is told from a legacy use (convert's accounting)."""

    HELPER = """static int forward_ioctl2(const struct file_operations *fops, struct inode *inode,
 struct file *file, unsigned int cmd, unsigned long arg)
{
\t/* why */
\tint ret;

\tif (fops->unlocked_ioctl)
\t\treturn (int)fops->unlocked_ioctl(file, cmd, arg);
\tlock_kernel();
\tret = fops->ioctl(inode, file, cmd, arg);
\tunlock_kernel();
\treturn ret;
}
"""

    def test_the_helper_and_tests_of_either_member(self):
        text = self.HELPER + FUNCTION % (
            "\tif (!(lower->f_op->unlocked_ioctl || lower->f_op->ioctl))\n\t\treturn -1;\n"
            "\tif (a.f->unlocked_ioctl || a.f->ioctl)\n\t\treturn 0;\n"
            # A macro's test, its parameter parenthesized (macro_bodies.py).
            "\tif (((lf)->f_op->unlocked_ioctl || (lf)->f_op->ioctl) ? 1 : 0)\n\t\treturn 0;\n"
            "\tif (!((p[1])->f_op->unlocked_ioctl || (p[1])->f_op->ioctl))\n\t\treturn 0;")
        lines = text.split("\n")
        for number, line in enumerate(lines, 1):
            if "->ioctl" in line:
                with self.subTest(line=line):
                    self.assertTrue(falls_back(text, number))

    # --multi-kernel's helper: the legacy call only below 2.6.36.
    VERSIONED = HELPER.replace(
        "\tlock_kernel();\n",
        "\tret = -ENOTTY;\n#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\n\tlock_kernel();\n"
    ).replace("\tunlock_kernel();\n", "\tunlock_kernel();\n#endif\n")

    def test_the_multi_kernel_helper_in_several_layouts(self):
        spaced = self.VERSIONED.replace("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)",
                                        "# if LINUX_VERSION_CODE<KERNEL_VERSION(2,6,36)")
        spaced = spaced.replace("#endif", "#  endif")
        for text in (self.VERSIONED, spaced, "#include <linux/version.h>\n" + self.VERSIONED):
            number = next(n for n, line in enumerate(text.split("\n"), 1) if "->ioctl" in line)
            with self.subTest(text=text):
                self.assertTrue(falls_back(text, number))

    def test_a_helper_guarded_otherwise_is_not_the_fallback(self):
        # Half a version test, another version, or the call kept above it.
        for text in (self.VERSIONED.replace("#endif\n", ""),
                     self.VERSIONED.replace("2, 6, 36", "2, 6, 40"),
                     self.VERSIONED.replace(" < KERNEL_VERSION", " >= KERNEL_VERSION"),
                     self.VERSIONED.replace("\tret = -ENOTTY;\n", "")):
            number = next(n for n, line in enumerate(text.split("\n"), 1) if "->ioctl" in line)
            with self.subTest(text=text):
                self.assertFalse(falls_back(text, number))

    def test_legacy_uses_are_not_the_fallback(self):
        without_lock = self.HELPER.replace("\tlock_kernel();\n", "")
        for text in [FUNCTION % "\tif (!lower->f_op->ioctl)\n\t\treturn -1;",
                     FUNCTION % "\treturn lower->f_op->ioctl(inode, lower, cmd, arg);",
                     FUNCTION % "\tif (x->unlocked_ioctl || y->ioctl)\n\t\treturn 0;",
                     FUNCTION % "\tif (a.x->unlocked_ioctl || x->ioctl)\n\t\treturn 0;",
                     FUNCTION % "\tif ((a)->unlocked_ioctl || (b)->ioctl)\n\t\treturn 0;",
                     FUNCTION % "\tif (f(a)->unlocked_ioctl || (a)->ioctl)\n\t\treturn 0;",
                     without_lock]:
            number = next(n for n, line in enumerate(text.split("\n"), 1) if "->ioctl" in line)
            with self.subTest(text=text):
                self.assertFalse(falls_back(text, number))


if __name__ == "__main__":
    unittest.main()

"""The proof rejects, on its own, a pushdown that runs a name it did not
read with the lock held: a call whose value is used (an initializer split
under the lock, an assignment, a returned expression, a condition, an
argument of another call, a switch) or a statement may be a macro of a
header not found that returns from inside it (a GNU statement expression
`({ ... return __r; ... })`), leaving the lock held.  The same body behind
a wrapper, a name the file declares or defines, a macro the file defines
that does not return, a local function pointer and a kernel interface are
accepted; a name used before the lock is taken or after it is released
does not matter."""

import unittest

from lockproof_helpers import line_of, messages, prove

HEAD = "#include <linux/fs.h>\n#include <linux/redstack.h>\n\n"
LEGACY = HEAD + """{decl}static int sa_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{legacy}
}}

static struct file_operations sa_fops = {{ .ioctl = sa_ioctl, }};
"""
PUSHED = HEAD + """{decl}static long sa_ioctl(struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{pushed}
}}

static struct file_operations sa_fops = {{ .unlocked_ioctl = sa_ioctl, }};
"""
WRAPPED = HEAD + """{decl}static long sa_ioctl(struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{legacy}
}}

static long sa_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{{
\tint ret;

\tlock_kernel();
\tret = sa_ioctl(file, cmd, arg);
\tunlock_kernel();
\treturn ret;
}}

static struct file_operations sa_fops = {{ .unlocked_ioctl = sa_unlocked_ioctl, }};
"""

# (legacy body, its pushdown): each spelling runs stk_try with the lock held.
SPELLINGS = {
    "initializer split": ("\tint v = stk_try(arg);\n\n\treturn v;",
                          "\tint v;\n\n\tlock_kernel();\n\tv = stk_try(arg);\n"
                          "\tunlock_kernel();\n\treturn v;"),
    "assignment": ("\tint v;\n\n\tv = stk_try(arg);\n\treturn v + 1;",
                   "\tint v;\n\n\tlock_kernel();\n\tv = stk_try(arg);\n"
                   "\tunlock_kernel();\n\treturn v + 1;"),
    "returned expression": ("\treturn stk_try(arg) * 2;",
                            "\tint ret;\n\n\tlock_kernel();\n\tret = stk_try(arg) * 2;\n"
                            "\tunlock_kernel();\n\treturn ret;"),
    "condition": ("\tif (stk_try(arg))\n\t\treturn 1;\n\treturn 0;",
                  "\tlock_kernel();\n\tif (stk_try(arg)) {\n\t\tunlock_kernel();\n"
                  "\t\treturn 1;\n\t}\n\tunlock_kernel();\n\treturn 0;"),
    "argument": ("\treturn sa_check(stk_try(arg));",
                 "\tint ret;\n\n\tlock_kernel();\n\tret = sa_check(stk_try(arg));\n"
                 "\tunlock_kernel();\n\treturn ret;"),
    "switch": ("\tswitch (stk_try(arg)) {\n\tcase 1:\n\t\treturn 1;\n\t}\n\treturn 0;",
               "\tlock_kernel();\n\tswitch (stk_try(arg)) {\n\tcase 1:\n\t\tunlock_kernel();\n"
               "\t\treturn 1;\n\t}\n\tunlock_kernel();\n\treturn 0;"),
    "statement": ("\tstk_enter;\n\treturn 0;",
                  "\tlock_kernel();\n\tstk_enter;\n\tunlock_kernel();\n\treturn 0;"),
    "call statement": ("\tstk_need(arg);\n\treturn 0;",
                       "\tlock_kernel();\n\tstk_need(arg);\n\tunlock_kernel();\n\treturn 0;"),
    "compound assignment": ("\tint v = 0;\n\n\tv += stk_try(arg) ? 1 : 2;\n\treturn v;",
                            "\tint v = 0;\n\n\tlock_kernel();\n\tv += stk_try(arg) ? 1 : 2;\n"
                            "\tunlock_kernel();\n\treturn v;"),
    "loop condition": ("\tint v = 0;\n\n\twhile (stk_try (arg))\n\t\tv++;\n\treturn v;",
                       "\tint v = 0;\n\n\tlock_kernel();\n\twhile (stk_try (arg))\n\t\tv++;\n"
                       "\tunlock_kernel();\n\treturn v;"),
    "upper case": ("\tint v = STK_TRY(arg);\n\n\treturn v;",
                   "\tint v;\n\n\tlock_kernel();\n\tv = STK_TRY(arg);\n"
                   "\tunlock_kernel();\n\treturn v;"),
}
NAMES = {"statement": "stk_enter", "call statement": "stk_need", "upper case": "STK_TRY"}
CHECK = "static int sa_check(int v)\n{\n\treturn v;\n}\n\n"


def pushdown(legacy: str, pushed: str, decl: str = CHECK):
    old = LEGACY.format(decl=decl, legacy=legacy)
    new = PUSHED.format(decl=decl, pushed=pushed)
    return new, messages(prove(old, new, {"sa_ioctl": "sa_ioctl"}))


class UnreadNameUnderTheLock(unittest.TestCase):
    def test_every_spelling_is_rejected_with_the_name(self):
        for spelling, (legacy, pushed) in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                new, found = pushdown(legacy, pushed)
                name = NAMES.get(spelling, "stk_try")
                line = line_of(new, name)
                self.assertEqual(found, [
                    f"{line}: {name} at line {line} runs with the BKL held and may be a "
                    "macro that returns: its definition was not read (not in the file, in a "
                    "header found, or among the kernel interfaces known not to return)"])

    def test_an_initializer_left_before_the_lock_is_refused_too(self):
        # Not under the lock, the call ran under the BKL before: refused as
        # moved out of the lock, whatever it is.
        found = pushdown("\tint v = stk_try(arg);\n\n\treturn v;",
                         "\tint v = stk_try(arg);\n\tint ret;\n\n\tlock_kernel();\n"
                         "\tret = v;\n\tunlock_kernel();\n\treturn ret;")[1]
        self.assertEqual(len(found), 1)
        self.assertIn("now runs before lock_kernel() (it calls stk_try())", found[0])

    def test_through_a_macro_of_the_file(self):
        legacy = "\treturn SA_TRY(arg);"
        pushed = "\tint ret;\n\n\tlock_kernel();\n\tret = SA_TRY(arg);\n" \
                 "\tunlock_kernel();\n\treturn ret;"
        new, found = pushdown(legacy, pushed, CHECK + "#define SA_TRY(a) stk_try(a)\n\n")
        self.assertEqual(len(found), 1)
        self.assertIn("stk_try at line %d (in macro SA_TRY) runs with the BKL held"
                      % line_of(new, "SA_TRY(arg)"), found[0])

    def test_the_same_bodies_behind_a_wrapper_are_accepted(self):
        for spelling, (legacy, _) in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                old = LEGACY.format(decl=CHECK, legacy=legacy)
                new = WRAPPED.format(decl=CHECK, legacy=legacy)
                self.assertEqual(messages(prove(old, new, {"sa_ioctl": "sa_unlocked_ioctl"})),
                                 [])

    def test_names_that_were_read_are_accepted(self):
        for decl in ["int stk_try(int v);\n\n", "extern long stk_try(unsigned long);\n\n",
                     "static int stk_try(unsigned long a)\n{\n\treturn a;\n}\n\n",
                     "#define stk_try(a) ((a) + 1)\n\n"]:
            with self.subTest(decl=decl):
                legacy, pushed = SPELLINGS["returned expression"]
                self.assertEqual(pushdown(legacy, pushed, CHECK + decl)[1], [])

    def test_locals_and_kernel_interfaces_are_accepted(self):
        legacy = "\tint (*fn)(unsigned long) = file->private_data;\n\n" \
                 "\tif (!capable(CAP_SYS_ADMIN))\n\t\treturn -EPERM;\n\treturn fn(arg);"
        pushed = "\tint (*fn)(unsigned long) = file->private_data;\n\tint ret;\n\n" \
                 "\tlock_kernel();\n\tif (!capable(CAP_SYS_ADMIN)) {\n\t\tunlock_kernel();\n" \
                 "\t\treturn -EPERM;\n\t}\n\tret = fn(arg);\n\tunlock_kernel();\n\treturn ret;"
        self.assertEqual(pushdown(legacy, pushed)[1], [])

    def test_a_member_called_is_not_a_name(self):
        legacy = "\tstruct sa_ops *ops = file->private_data;\n\n\treturn ops->stk_try(arg);"
        pushed = "\tstruct sa_ops *ops = file->private_data;\n\tint ret;\n\n" \
                 "\tlock_kernel();\n\tret = ops->stk_try(arg);\n\tunlock_kernel();\n" \
                 "\treturn ret;"
        self.assertEqual(pushdown(legacy, pushed)[1], [])


# (legacy body, its pushdown): a variable standing alone as the whole
# condition of an if, a switch, a while (red33_spin_ret: `if (sr_busy)`).
ALONE = {
    "if": ("\tif (sa_busy)\n\t\treturn -EBUSY;\n\treturn 0;",
           "\tlock_kernel();\n\tif (sa_busy) {\n\t\tunlock_kernel();\n\t\treturn -EBUSY;\n"
           "\t}\n\tunlock_kernel();\n\treturn 0;"),
    "switch": ("\tswitch (sa_busy) {\n\tcase 1:\n\t\treturn 1;\n\t}\n\treturn 0;",
               "\tlock_kernel();\n\tswitch (sa_busy) {\n\tcase 1:\n\t\tunlock_kernel();\n"
               "\t\treturn 1;\n\t}\n\tunlock_kernel();\n\treturn 0;"),
    "while": ("\tint v = 0;\n\n\twhile (sa_busy)\n\t\tv++;\n\treturn v;",
              "\tint v = 0;\n\n\tlock_kernel();\n\twhile (sa_busy)\n\t\tv++;\n"
              "\tunlock_kernel();\n\treturn v;"),
}


class VariablesOfTheFile(unittest.TestCase):
    """A variable declared at top level is no macro (the declaration would
    not compile): standing alone as a condition under the lock it is read.
    Undeclared, or declared only as a member or a tag, it is not."""

    def test_a_declared_variable_is_read(self):
        for decl in ["static int sa_busy;\n\n", "static int sa_mode, sa_busy = 3;\n\n",
                     "int sa_busy;\n\n", "extern int sa_busy;\n\n",
                     "static volatile unsigned long sa_busy __attribute_used__ = 0;\n\n",
                     "static struct sa_state *sa_busy;\n\n",
                     "static int sa_slots[4], sa_busy;\n\n"]:
            for spelling, (legacy, pushed) in ALONE.items():
                with self.subTest(decl=decl, spelling=spelling):
                    self.assertEqual(pushdown(legacy, pushed, CHECK + decl)[1], [])

    def test_a_name_declared_otherwise_is_not(self):
        for decl in ["", "struct sa_busy;\n\n", "struct sa_dev {\n\tint sa_busy;\n};\n\n",
                     "int sa_get(int sa_busy);\n\n", "typedef int sa_busy;\n\n"]:
            for spelling, (legacy, pushed) in ALONE.items():
                with self.subTest(decl=decl, spelling=spelling):
                    new, found = pushdown(legacy, pushed, CHECK + decl)
                    line = line_of(new, "(sa_busy)")
                    self.assertEqual(found, [
                        f"{line}: sa_busy at line {line} runs with the BKL held and may be a "
                        "macro that returns: its definition was not read (not in the file, in "
                        "a header found, or among the kernel interfaces known not to return)"])


if __name__ == "__main__":
    unittest.main()

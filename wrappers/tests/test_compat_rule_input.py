"""What the facts rule is given (compat.rule_input): the bodies of the
functions no file_operations can name are blanked, every line and column
kept; a handler, however the file names it, keeps its body, and so does
every body whose shape is not certain."""

import unittest

from ioctl_rework.compat import rule_input

HANDLER = ("static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)\n"
           "{\n\tswitch (cmd) {\n\tcase FOO_RESET:\n\t\treturn foo_reset(arg);\n\t}\n"
           "\treturn -ENOTTY;\n}\n")
HELPER = "static int foo_reset(unsigned long how)\n{\n\treturn how ? -EINVAL : 0;\n}\n"


def body(text: str, name: str) -> str:
    """The text between the braces of NAME's definition, the first place
    TEXT names it."""
    start = text.index("{", text.index(name))
    depth = 0
    for at in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[at], 0)
        if depth == 0:
            return text[start + 1:at]
    raise AssertionError(f"{name}: no end")


class Blanked(unittest.TestCase):
    def given(self, text: str, listed: tuple[str, ...] = ()) -> str:
        found = rule_input.for_rule(text, listed)
        self.assertEqual(len(found), len(text))
        self.assertEqual([len(line) for line in found.splitlines()],
                         [len(line) for line in text.splitlines()])
        return found

    def assert_kept(self, text: str, name: str, listed: tuple[str, ...] = ()):
        self.assertEqual(body(self.given(text, listed), name), body(text, name))

    def assert_blanked(self, text: str, name: str, listed: tuple[str, ...] = ()):
        found = body(self.given(text, listed), name)
        self.assertEqual(found.strip(), "", found)
        self.assertEqual(found.count("\n"), body(text, name).count("\n"))

    def test_a_helper_only_called_is_blanked(self):
        for fops in ("static const struct file_operations foo_fops = {\n"
                     "\t.unlocked_ioctl = foo_ioctl,\n};\n",
                     "static struct file_operations foo_fops = {\n\tioctl: foo_ioctl,\n};\n",
                     "static struct file_operations foo_fops = {\n"
                     "\t.ioctl\t\t= (foo_ioctl),\n};\n",
                     "static struct file_operations foo_fops = {\n\t.unlocked_ioctl = "
                     "(long (*)(struct file *, unsigned int, unsigned long))foo_ioctl,\n};\n"):
            with self.subTest(fops=fops):
                text = HELPER + HANDLER + fops
                self.assert_kept(text, "foo_ioctl")
                self.assert_blanked(text, "foo_reset")

    def test_a_handler_that_never_uses_arg_is_kept(self):
        text = ("static long foo_ioctl(struct file *file, unsigned int cmd, unsigned long arg)\n"
                "{\n\treturn cmd == FOO_RESET ? 0 : -ENOTTY;\n}\n"
                "static const struct file_operations foo_fops = {\n"
                "\t.unlocked_ioctl = foo_ioctl,\n};\n")
        self.assert_kept(text, "foo_ioctl")

    def test_a_handler_named_only_in_a_macro_is_kept(self):
        text = (HELPER + HANDLER + "#define FOO_HANDLER foo_ioctl\n"
                "static const struct file_operations foo_fops = {\n"
                "\t.unlocked_ioctl = FOO_HANDLER,\n};\n")
        self.assert_kept(text, "foo_ioctl")
        self.assert_blanked(text, "foo_reset")

    def test_a_function_another_member_names_is_blanked(self):
        text = (HELPER + HANDLER + "static int foo_open(struct inode *inode, struct file *f)\n"
                "{\n\treturn 0;\n}\n"
                "static const struct file_operations foo_fops = {\n\t.open = foo_open,\n"
                "\t.compat_ioctl = foo_reset,\n\t.unlocked_ioctl = foo_ioctl,\n};\n")
        self.assert_blanked(text, "foo_open")
        self.assert_blanked(text, "foo_reset")
        self.assert_kept(text, "foo_ioctl")

    def test_a_body_that_may_make_an_alias_is_kept(self):
        # The rule keeps alias names per file: `p = (T)arg` anywhere makes
        # p an alias in the handler too, and so does `T *q = p;` after it.
        fops = ("static const struct file_operations foo_fops = {\n"
                "\t.unlocked_ioctl = foo_ioctl,\n};\n")
        for helper in (
                "static int foo_reset(unsigned long arg)\n{\n"
                "\tvoid __user *p = (void __user *)arg;\n\treturn p != NULL;\n}\n",
                "static int foo_reset(unsigned long how)\n{\n\treturn arg;\n}\n",
                "static int foo_reset(unsigned long how)\n{\n\tu32 *q = up;\n"
                "\treturn q != NULL;\n}\n"
                "static int foo_get(unsigned long arg)\n{\n"
                "\tu32 __user *up = (u32 __user *)arg;\n\treturn up != NULL;\n}\n"):
            with self.subTest(helper=helper):
                self.assert_kept(helper + HANDLER + fops, "foo_reset")

    def test_a_handler_defined_in_an_uncertain_shape_blanks_nothing(self):
        text = (HELPER + "static long (foo_ioctl)(struct file *f, unsigned int cmd, "
                "unsigned long arg)\n{\n\treturn foo_reset(arg);\n}\n"
                "static const struct file_operations foo_fops = {\n"
                "\t.unlocked_ioctl = foo_ioctl,\n};\n")
        self.assert_kept(text, "foo_reset")

    def test_listed_callees_alone_are_kept(self):
        text = HELPER + HANDLER + ("static const struct file_operations foo_fops = {\n"
                                   "\t.unlocked_ioctl = foo_ioctl,\n};\n")
        self.assert_kept(text, "foo_reset", ("foo_reset",))
        self.assert_blanked(text, "foo_ioctl", ("foo_reset",))

    def test_uncertain_shapes_keep_their_bodies(self):
        for helper in (
                # A directive inside the body.
                "static int foo_reset(unsigned long how)\n{\n#ifdef CONFIG_FOO\n"
                "\treturn how;\n#endif\n\treturn 0;\n}\n",
                # A macro call without a semicolon before the definition.
                "__setup(\"foo=\", foo_setup)\nstatic int foo_reset(unsigned long how)\n"
                "{\n\treturn how;\n}\n",
                # K&R parameters.
                "static int foo_reset(how)\n\tunsigned long how;\n{\n\treturn how;\n}\n",
                # A declarator in parentheses.
                "static int (foo_reset)(unsigned long how)\n{\n\treturn how;\n}\n"):
            with self.subTest(helper=helper):
                self.assert_kept(helper + HANDLER, "foo_reset")

    def test_a_body_that_may_set_an_ioctl_member_is_kept(self):
        for local in ("\tstatic const struct file_operations fops = {\n"
                      "\t\t.unlocked_ioctl = foo_ioctl,\n\t};\n",
                      "\tstatic struct file_operations fops = { ioctl: foo_ioctl };\n",
                      "\tfoo_fops.unlocked_ioctl = foo_ioctl;\n"):
            with self.subTest(local=local):
                text = (HELPER + HANDLER + "static int __init foo_init(void)\n{\n" + local
                        + "\treturn register_chrdev(0, \"foo\", &fops);\n}\n")
                self.assert_kept(text, "foo_init")

    def test_a_handler_whose_name_a_macro_pastes_keeps_every_body(self):
        text = (HELPER + HANDLER + "#define FOO_FOPS(n) static const struct file_operations "
                "n##_fops = { .unlocked_ioctl = n##_ioctl }\nFOO_FOPS(foo);\n")
        self.assert_kept(text, "foo_reset")

    def test_attributes_after_the_parameters(self):
        text = ("static int foo_reset(unsigned long how) __acquires(foo_lock)\n"
                "{\n\treturn how;\n}\n" + HANDLER)
        self.assert_blanked(text, "foo_reset")
        text = ("static int foo_reset(unsigned long how) foo_extra\n"
                "{\n\treturn how;\n}\n" + HANDLER)
        self.assert_kept(text, "foo_reset")

    def test_braces_that_do_not_balance_blank_no_body(self):
        text = (HELPER + "#ifdef CONFIG_FOO\nstatic int foo_open(int how) {\n#else\n"
                "static int foo_open(long how) {\n#endif\n\treturn 0;\n}\n")
        self.assertIsNone(rule_input.function_bodies(text))
        self.assert_kept(text, "foo_reset")

    def test_braces_in_comments_strings_and_macros_do_not_count(self):
        text = ("/* } */\n#define FOO_INIT { 0 }\nstatic const char *foo_name = \"}\";\n"
                + HELPER + "// {\n" + HANDLER)
        self.assert_blanked(text, "foo_reset")

    def test_include_lines_are_blanked_comments_after_them_kept(self):
        text = ("#include <linux/fs.h>\n#include \"foo.h\" /* the\n  registers */\n"
                "#include FOO_HEADER\n" + HELPER)
        found = self.given(text)
        self.assertEqual(found.splitlines()[0].strip(), "")
        self.assertEqual(found.splitlines()[1].strip(), "/* the")
        self.assertEqual(found.splitlines()[3], "#include FOO_HEADER")


if __name__ == "__main__":
    unittest.main()

"""Tests for ioctl_rework.ctext.spans: where definitions and ioctl code are, by text."""

import re
import unittest

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.patches import parser as patch_parser
from test_check_repo import fixture

LEGACY = fixture("legacy_driver.c")


class DefinitionSpansTest(unittest.TestCase):
    def test_struct_and_function_spans(self):
        self.assertEqual(c_spans.definition_spans(LEGACY, "thermo_fops"), [range(31, 35)])
        self.assertEqual(c_spans.definition_spans(LEGACY, "thermo_ioctl"), [range(16, 30)])

    def test_prototypes_calls_comments_and_strings_are_not_definitions(self):
        text = ("/* foo_ioctl(x) { */\n"
                "static long foo_ioctl(struct file *, unsigned int, unsigned long);\n"
                "static const char *s = \"foo_ioctl(1) {\";\n"
                "static int bar(void)\n{\n\treturn foo_ioctl(0, 0, 0);\n}\n")
        self.assertEqual(c_spans.definition_spans(text, "foo_ioctl"), [])
        self.assertEqual(c_spans.definition_spans(text, "bar"), [range(4, 8)])

    def test_which_added_lines_need_spatch(self):
        def added(*numbers):
            lines = LEGACY.split("\n")
            return {n: patch_parser.Line("+", lines[n - 1], None, n, n) for n in numbers}
        self.assertEqual(c_spans.ioctl_lines(LEGACY, added(42, 44)), [])   # thermo_init
        self.assertEqual(c_spans.ioctl_lines(LEGACY, added(13)), [])       # a variable
        self.assertEqual(c_spans.ioctl_lines(LEGACY, added(13, 24, 42)), [24])  # in the handler
        self.assertTrue(c_spans.ioctl_lines(LEGACY, added(32)))        # .owner, in the fops
        self.assertTrue(c_spans.ioctl_lines(LEGACY, added(16)))        # names an ioctl

    def test_gnu_initializers_and_bkl_lines_need_spatch(self):
        text = ("static int h(void)\n{\n\treturn 0;\n}\n\n"
                "static struct file_operations f = {\n\towner: THIS_MODULE,\n\tioctl: h,\n};\n"
                "static void other(void)\n{\n\tlock_kernel();\n}\n")
        line = lambda n: {n: patch_parser.Line("+", text.split("\n")[n - 1], None, n, n)}
        self.assertTrue(c_spans.ioctl_lines(text, line(3)))     # h's body
        self.assertTrue(c_spans.ioctl_lines(text, line(7)))     # owner: in f
        self.assertTrue(c_spans.ioctl_lines(text, line(12)))    # lock_kernel()
        self.assertEqual(c_spans.ioctl_lines(text, line(11)), [])

    def test_return_type_on_its_own_line_belongs_to_the_function(self):
        text = "int x;\n\nstatic long\nfoo_ioctl(struct file *f,\n\t  unsigned int c)\n{\n}\n"
        self.assertEqual(c_spans.definition_spans(text, "foo_ioctl"), [range(3, 8)])


if __name__ == "__main__":
    unittest.main()


class IsStaticTest(unittest.TestCase):
    def test_static_declarations_and_definitions(self):
        for text in ["static int h(struct inode *i);",
                     "static long\nh (struct file *f)\n{\n}",
                     "static inline int __init h(void) { return 0; }",
                     "static const struct x *h(void);"]:
            with self.subTest(text=text):
                self.assertTrue(c_spans.is_static(text, "h"))

    def test_what_is_no_static_function_of_that_name(self):
        for text in ["int h(struct inode *i);",
                     "static int other(void);\nint h(void);",
                     "/* static int h(void); */ int h(void);",
                     "static int hh(void);",
                     "static struct file_operations fops = { .ioctl = h, };"]:
            with self.subTest(text=text):
                self.assertFalse(c_spans.is_static(text, "h"))


class NamedAroundTest(unittest.TestCase):
    """spans.named_around: a name used in the top-level declaration around
    a line spatch could not parse (the rule runs and the records ask it)."""

    TEXT = (b"static int wd_ioctl(struct inode *inode, struct file *file,\n"  # 1
            b"\t\t    unsigned int cmd, unsigned long arg)\n"              # 2
            b"{\n"                                                          # 3
            b"\tWD_CHECK(cmd);\t/* wd_open too */\n"                       # 4
            b"\treturn 0;\n"                                                # 5
            b"}\n"                                                          # 6
            b"\n"                                                           # 7
            b"static struct file_operations wd_fops = {\n"                  # 8
            b"\t.ioctl\t\t= wd_ioctl,\n"                                    # 9
            b"};\n")                                                        # 10

    def test_a_name_of_the_declaration_around_a_line(self):
        for lines, names, found in [((4,), ["wd_ioctl"], "wd_ioctl"),
                                    ((5,), ["cmd", "wd_ioctl"], "cmd"),
                                    ((9,), ["wd_fops"], "wd_fops"),
                                    ((7, 9), ["wd_ioctl"], "wd_ioctl")]:
            with self.subTest(lines=lines, names=names):
                self.assertEqual(c_spans.named_around(self.TEXT, lines, names), found)

    def test_what_names_nothing_there(self):
        for lines, names in [((4,), ["wd_open"]),       # in a comment only
                             ((4,), ["wd_fops"]),       # in another declaration
                             ((9,), ["wd_ioct"]),       # part of a word
                             ((), ["wd_ioctl"]),
                             ((4,), [])]:
            with self.subTest(lines=lines, names=names):
                self.assertIsNone(c_spans.named_around(self.TEXT, lines, names))


class InitializerTypeTest(unittest.TestCase):
    TEXT = ("static struct tty_operations sx_ops = {\n"
            "\t.open = sx_open,\n\t.ioctl = sx_ioctl,\n};\n"
            "static const struct file_operations sx_fw_fops = {\n"
            "\t/* { not a brace */ .ioctl = sx_fw_ioctl,\n};\n"
            "struct file_operations table[2] = {\n"
            "\t{ .ioctl = a_ioctl },\n\t{ .ioctl = b_ioctl },\n};\n"
            "#define FOPS(h) { .ioctl = h }\n")

    def type_at(self, member):
        code = c_spans.code_only(self.TEXT)
        return c_spans.initializer_type(code, self.TEXT.index(member))

    def test_the_struct_around_an_ioctl_member(self):
        self.assertEqual(self.type_at(".ioctl = sx_ioctl"), "tty_operations")
        self.assertEqual(self.type_at(".ioctl = sx_fw_ioctl"), "file_operations")

    def test_array_elements_take_the_array_type(self):
        self.assertEqual(self.type_at(".ioctl = b_ioctl"), "file_operations")

    def test_an_initializer_not_written_as_a_declaration_is_unknown(self):
        self.assertIsNone(self.type_at(".ioctl = h"))


class EnclosingBracketsTest(unittest.TestCase):
    """The one backward scan own_inode's callers and null_inode's callee share."""

    def opened(self, code, word):
        """The word before each bracket left open at WORD, and the bracket."""
        return [re.search(r"\w*\s*$", code[:i]).group().strip() + code[i]
                for i in c_spans.enclosing_brackets(code, code.index(word))]

    def test_every_open_bracket_innermost_first(self):
        self.assertEqual(self.opened("\tret = outer(a, inner(b, node), c);", "node"),
                         ["inner(", "outer("])
        self.assertEqual(self.opened("\tx = table[pick(node)];", "node"), ["pick(", "table["])
        self.assertEqual(self.opened("\tx = walk(table[node]);", "node"), ["table[", "walk("])
        self.assertEqual(self.opened("\tx = (*fn)(a, (node));", "node"), ["(", "("])

    def test_closed_brackets_are_passed_over(self):
        self.assertEqual(self.opened("\tx = walk(f(a), t[i], (b), node);", "node"), ["walk("])
        self.assertEqual(self.opened("\tf(a); g(b)[2]; node = 0;", "node"), [])

    def test_the_statement_ends_the_scan_but_not_a_block_inside_brackets(self):
        self.assertEqual(self.opened("{ if (a) { b; } call(node); }", "node"), ["call("])
        self.assertEqual(self.opened("x = wrap(({ int y; use(node); }));", "node"), ["use("])
        self.assertEqual(self.opened("x = wrap(({ int y; y = node; }));", "node"), [])
        self.assertEqual(self.opened("x = wrap(({ y }), node);", "node"), ["wrap("])


class ToplevelSpanTest(unittest.TestCase):
    TEXT = ("extern int foo_ioctl(struct inode *, struct file *, unsigned int,\n"   # 1
            "\t\t     unsigned long);\n"                                           # 2
            "extern void foo_error(const char *, ...)\n"                            # 3
            "\t__attribute__ ((format (printf, 1, 2)));\n"                           # 4
            "#define FOO_TRACE(a) \\\n"                                             # 5
            "\t{ if (foo_debug) printk a; }\n"                                       # 6
            "static int foo_compat(struct file *file)\n"                            # 7
            "{\n"                                                                    # 8
            "\tif (file) {\n"                                                        # 9
            "\t\treturn foo_ioctl(0, file, 0, 0);\n"                                 # 10
            "\t}\n"                                                                  # 11
            "\treturn 0;\n"                                                          # 12
            "}\n")                                                                   # 13

    def span(self, line):
        return c_spans.toplevel_span(c_spans.code_only(self.TEXT), line)

    def test_a_declaration_is_its_own_span(self):
        self.assertEqual(self.span(4), range(3, 5))

    def test_a_macro_spans_its_continuation_lines(self):
        self.assertEqual(self.span(6), range(5, 7))

    def test_a_line_in_a_function_spans_the_whole_function(self):
        self.assertEqual(self.span(10), range(7, 14))
        code = c_spans.code_only(self.TEXT)
        self.assertEqual(c_spans.named_in(code, self.span(10), ["foo_ioctl", "bar"]), ["foo_ioctl"])
        self.assertEqual(c_spans.named_in(code, self.span(4), ["foo_ioctl"]), [])


class LegacyHalfTest(unittest.TestCase):
    def test_only_the_branch_without_have_unlocked_ioctl_is_the_legacy_half(self):
        text = ("#ifdef HAVE_UNLOCKED_IOCTL\nA\n#else\nB\n#endif\n"
                "#ifndef HAVE_UNLOCKED_IOCTL /* old */\nC\n#else\nD\n#endif\n"
                "#ifdef X\nE\n#else\nF\n#endif\n#ifdef HAVE_UNLOCKED_IOCTL\n#elif Y\nG\n#endif\n")
        lines = text.split("\n")
        self.assertEqual({n: c_spans.legacy_half(text, lines.index(n) + 1) for n in "ABCDEFG"},
                         {"A": False, "B": True, "C": True, "D": False, "E": False, "F": False,
                          "G": False})


class ReadOnceTest(unittest.TestCase):
    """What the accounting asks of one text for each of its members is
    read once: the brace depths of toplevel_span, and no #if at all for
    never_compiled where no #if 0 or #if 1 is written."""

    def test_the_depths_of_one_text_are_read_once_for_every_line(self):
        code = c_spans.code_only(ToplevelSpanTest.TEXT + "/* once */\n")
        before = c_spans._brace_depths.cache_info().misses
        spans = [c_spans.toplevel_span(code, line) for line in (4, 6, 10, 12, 2)]
        self.assertEqual(spans, [range(3, 5), range(5, 7), range(7, 14), range(7, 14),
                                 range(1, 3)])
        self.assertEqual(c_spans._brace_depths.cache_info().misses - before, 1)

    def test_no_branch_is_read_where_no_if_0_or_1_is_written(self):
        read = []
        dead_branches = c_spans.dead_branches

        def counting(lines):
            read.append(len(lines))
            return dead_branches(lines)
        c_spans.dead_branches = counting
        self.addCleanup(setattr, c_spans, "dead_branches", dead_branches)
        where = NeverCompiledTest().where
        for text in ("#ifdef X\nA\n#else\nB\n#endif\nC\n",
                     "#if 10\nA\n#else\nB\n#endif\nC\n",
                     "#if 01\nA\n#elif 0\nB\n#endif\nC\n",
                     "/* #if 0 */\nA\n#if X /* 1 */\nB\n#endif\nC\n",
                     "A\nB\nC"):
            with self.subTest(text=text):
                self.assertEqual(where(text, "ABC"), dict.fromkeys("ABC"))
        self.assertEqual(read, [])
        for text, dead in (("#if 0\nA\n#endif\nB\nC\n", {"A": 1, "B": None, "C": None}),
                           ("  #\tif 1 /* on */\nA\n#else\nB\n#endif\nC\n",
                            {"A": None, "B": 1, "C": None})):
            with self.subTest(text=text):
                self.assertEqual(where(text, "ABC"), dead)
        self.assertEqual(len(read), 2)


class NeverCompiledTest(unittest.TestCase):
    TEXT = "#if 0\nA\n#else\nB\n#endif\n#ifdef X\n#if 0 /* later */\nC\n#endif\nD\n#endif\nE\n"

    def where(self, text: str, names: str) -> dict:
        lines = text.split("\n")
        return {name: c_spans.never_compiled(text, lines.index(name) + 1) for name in names}

    def test_only_the_dead_branch_of_an_if_0_is_inside(self):
        self.assertEqual(self.where(self.TEXT, "ABCDE"),
                         {"A": 1, "B": None, "C": 7, "D": None, "E": None})

    def test_the_else_of_if_1_is_dead(self):
        self.assertEqual(self.where("#if 1\nA\n#else\nB\n#endif\nC", "ABC"),
                         {"A": None, "B": 1, "C": None})

    def test_a_version_test_is_not_dead_even_for_2_4(self):
        # convert runs the rule on each branch of it, so the 2.4 entry
        # converts with the other; taking it for dead would leave it naming
        # a function whose signature changed.
        text = ("#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)\nA\n#else\nB\n#endif\n"
                "#if KERNEL_VERSION(2,6,11) > LINUX_VERSION_CODE\nC\n#else\nD\n#endif\n"
                "#if LINUX_VERSION_CODE < 0x020600 /* 2.4 */\nE\n#endif\n")
        self.assertEqual(self.where(text, "ABCDE"), dict.fromkeys("ABCDE"))

    def test_an_elif_is_not_known(self):
        text = "#if 1\nA\n#elif X\nB\n#else\nC\n#endif\n"
        self.assertEqual(self.where(text, "ABC"), dict.fromkeys("ABC"))

    def test_a_test_later_kernels_decide_otherwise_or_an_elif_is_not_known(self):
        text = ("#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)\nA\n#else\nB\n#endif\n"
                "#if LINUX_VERSION_CODE > KERNEL_VERSION(2,6,11)\nC\n#else\nD\n#endif\n"
                "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)\nE\n#elif X\nF\n#else\nG\n#endif\n"
                "#if defined(X) && LINUX_VERSION_CODE < 0x020600\nH\n#endif\n")
        self.assertEqual(self.where(text, "ABCDEFGH"), dict.fromkeys("ABCDEFGH"))

"""ctext.conditionals: which lines the preprocessor keeps on the target,
in three values, and check.compiled's reading of entries gcc accepts."""

import unittest

from ioctl_rework.ctext.conditionals import compiled_lines, target_macros
from ioctl_rework.ctext.spans import join_splices

TARGET = target_macros((6, 1, 0))


def status(text: str, marker: str) -> bool | None:
    """Whether the line of TEXT holding MARKER is compiled."""
    lines = text.split("\n")
    return compiled_lines(text, TARGET)[next(i for i, ln in enumerate(lines) if marker in ln)]


class CompiledLinesTest(unittest.TestCase):
    def test_the_legacy_half_of_a_multi_kernel_driver_is_dead(self):
        for text in ("#ifdef HAVE_UNLOCKED_IOCTL\nnew\n#else\nold\n#endif",
                     "#ifndef HAVE_UNLOCKED_IOCTL\nold\n#else\nnew\n#endif",
                     "#if defined(HAVE_UNLOCKED_IOCTL)\nnew\n#else\nold\n#endif",
                     "#if !defined HAVE_COMPAT_IOCTL\nold\n#endif",
                     "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\nold\n#endif",
                     "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,36)\nnew\n#elif 1\nold\n"
                     "#endif",
                     "#if 0\nold\n#endif",
                     "#if 1\nnew\n#else\nold\n#endif"):
            with self.subTest(text):
                self.assertIs(status(text, "old"), False)
                if "new" in text:
                    self.assertIs(status(text, "new"), True)

    def test_what_makes_it_live_whatever_the_macro_is_called(self):
        for text in ("#undef HAVE_UNLOCKED_IOCTL\n#ifndef HAVE_UNLOCKED_IOCTL\nold\n#endif",
                     "#ifdef HAVE_UNLOCKED_IOCTL\n#else\n#endif\nold",
                     "#if 1 || HAVE_X\nold\n#endif",
                     "#undef LINUX_VERSION_CODE\n#define LINUX_VERSION_CODE 0\n"
                     "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\nold\n#endif",
                     "#define OLD 1\n#if OLD\nold\n#endif"):
            with self.subTest(text):
                self.assertIs(status(text, "old"), True)

    def test_what_no_one_here_knows_is_unknown_not_dead(self):
        for text in ("#ifdef HAVE_UNLOCKED_IOCTL_RENAMED\nx\n#else\nold\n#endif",
                     "#ifdef CONFIG_COMPAT\nold\n#endif",
                     "#if SOME_HEADER_MACRO(3) > 2\nold\n#endif",
                     "#if defined(X) && defined(HAVE_UNLOCKED_IOCTL)\nold\n#endif",
                     "#ifdef CONFIG_X\n#undef HAVE_UNLOCKED_IOCTL\n#endif\n"
                     "#ifndef HAVE_UNLOCKED_IOCTL\nold\n#endif",
                     "#if 1 +\nold\n#endif"):
            with self.subTest(text):
                self.assertIsNone(status(text, "old"))

    def test_short_circuits_decide_despite_the_unknown(self):
        self.assertIs(status("#if defined(X) && 0\nold\n#endif", "old"), False)
        self.assertIs(status("#if defined(X) || 1\nold\n#endif", "old"), True)

    def test_a_continued_directive_is_read_whole(self):
        text = "#if defined(HAVE_UNLOCKED_IOCTL) && \\\n    1\nnew\n#else\nold\n#endif"
        self.assertIs(status(text, "old"), False)
        self.assertIs(status(text, "new"), True)


class SplicedTest(unittest.TestCase):
    def test_splices_are_joined_and_each_character_keeps_its_line(self):
        text = "a\n.io\\\nctl = h,\nb\\\n\\\nc\nd\r\ne\\\r\nf"
        joined = join_splices(text)
        self.assertEqual(joined.text, "a\n.ioctl = h,\nbc\nd\r\nef")
        lines = {char: joined.line(i) for i, char in enumerate(joined.text) if char.strip()}
        # Lines: 1 a, 2 .io\, 3 ctl = h, 4 b\, 5 \, 6 c, 7 d, 8 e\, 9 f ("c": the last one).
        self.assertEqual(lines, {"a": 1, ".": 2, "i": 2, "o": 2, "c": 6, "t": 3, "l": 3,
                                 "=": 3, "h": 3, ",": 3, "b": 4, "d": 7, "e": 8, "f": 9})
        for i, char in enumerate(joined.text):
            self.assertEqual(text[joined.original(i)], char)
        self.assertTrue(joined.spliced(1, 8))
        self.assertFalse(joined.spliced(8, 14))


if __name__ == "__main__":
    unittest.main()

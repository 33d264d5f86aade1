"""ctext.conditionals: which lines the preprocessor keeps on the target,
in three values, and check.compiled's reading of entries gcc accepts."""

import unittest

from ioctl_rework.check.compiled import spliced
from ioctl_rework.ctext.conditionals import compiled_lines, target_macros

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
    def test_a_splice_is_joined_and_lines_keep_their_numbers(self):
        text = "a\n.io\\\nctl = h,\nb\\\n\\\nc\nd"
        joined = spliced(text).split("\n")
        self.assertEqual(len(joined), len(text.split("\n")))
        self.assertEqual(joined[1], ".ioctl = h,")
        self.assertEqual(joined[3], "bc")
        self.assertEqual(joined[6], "d")


if __name__ == "__main__":
    unittest.main()

"""Issue 26 (2): what ctext/macro_forwarding.forwarding_macros costs a
header of many #defines.  Its fixed point asks _unprovable of every
#define on every round, and again when it yields; a body's words are read
once (_words), and a pattern that needs a name, `##` or ioctl is not run
on a body without it.  That the answers are the same was measured on
every header of 2.6.9 (bench/convert.md); the finding itself is
test_macro_forwarding's."""

import re
import unittest
from unittest import mock

from ioctl_rework.ctext import macro_forwarding

# A chain of macros using one another, one of them unprovable (the token
# ioctl other than as a member): each round of the fixed point finds one more.
CHAIN = "#define BD_BASE(f) ioctl(f)\n" + "".join(
    f"#define BD_STEP{n}(f) BD_{'BASE' if n == 0 else f'STEP{n - 1}'}(f)\n" for n in range(8))
WORDS = r"\b\w+\b"


class WordsOnceTest(unittest.TestCase):

    def test_each_body_is_split_into_words_once(self):
        macro_forwarding._words.cache_clear()
        real, calls = re.findall, []

        def counted(pattern, string, flags=0):
            if pattern == WORDS:
                calls.append(string)
            return real(pattern, string, flags)
        with mock.patch.object(re, "findall", counted):
            found = list(macro_forwarding.forwarding_macros(CHAIN, "include/linux/bd.h"))
        self.assertEqual(sorted(m.name for m in found),
                         ["BD_BASE", *(f"BD_STEP{n}" for n in range(8))])
        self.assertEqual(len(calls), len(set(calls)))
        self.assertLessEqual(len(calls), CHAIN.count("#define"))


if __name__ == "__main__":
    unittest.main()

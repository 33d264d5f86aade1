"""lockproof: each header is lexed once per run, not once per file.

convert proves every rewritten file of a run, and proves them all again
when a pushdown falls back to the wrapper (plan.py); the files of one
driver include mostly the same headers.  A header's tokens and what a
file takes from it (headers.Summary) are kept by its text for the whole
process: here two files include the same headers in every spelling the
prover follows (a tree header by <>, a quoted one beside the file, one
included by another header, one included inside the handler's body) and
are proven twice, and each header's text is lexed once.  The proof still
reads them (a return hidden in a header's macro is found on both
passes), and a header whose text changes is lexed again.
"""

import tempfile
import unittest
from collections import Counter
from pathlib import Path
from unittest import mock

from ioctl_rework import lockproof
from ioctl_rework.ctext import header_cache
from ioctl_rework.lockproof import changes as changes_mod
from ioctl_rework.lockproof import headers as headers_mod
from lockproof_helpers import BKL

TREE = {
    "Makefile": "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\nEXTRAVERSION =\n",
    "include/linux/demo_lock.h": "#ifndef _LINUX_DEMO_LOCK_H\n#define _LINUX_DEMO_LOCK_H\n"
                                 "#define DEMO_MAGIC 0x44\n#endif\n",
    "drivers/char/demo/demo_regs.h": "#ifndef DEMO_REGS_H\n#define DEMO_REGS_H\n"
                                     "#include \"demo_bits.h\"\n#define DEMO_RESET 0x01\n"
                                     "#endif\n",
    "drivers/char/demo/demo_bits.h": "#ifndef DEMO_BITS_H\n#define DEMO_BITS_H\n"
                                     "#define DEMO_CHECK(dev) do { if (!(dev)) "
                                     "return -ENODEV; } while (0)\n#endif\n",
    "drivers/char/demo/demo_body.h": "\tdemo_count++;\n",
}
FILES = ("drivers/char/demo/demo_a.c", "drivers/char/demo/demo_b.c")
LEGACY = ("#include <linux/fs.h>\n#include <linux/demo_lock.h>\n#include \"demo_regs.h\"\n\n"
          "int demo_command(void *dev, unsigned int cmd, unsigned long arg);\n"
          "static int demo_count;\n\n"
          "static int demo_ioctl(struct inode *inode, struct file *file,\n"
          "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
          "\tvoid *dev = file->private_data;\n\n"
          "#include \"demo_body.h\"\n"
          "\tDEMO_CHECK(dev);\n\treturn demo_command(dev, cmd, arg);\n}\n\n"
          "static struct file_operations demo_fops = {\n\t.ioctl\t\t= demo_ioctl,\n};\n")
# A pushdown blind to the return in DEMO_CHECK (demo_bits.h): the lock stays held.
PUSHDOWN = LEGACY.replace(
    "static int demo_ioctl(struct inode *inode, struct file *file,",
    "static long demo_ioctl(struct file *file,").replace(
    "\tvoid *dev = file->private_data;\n\n",
    "\tvoid *dev = file->private_data;\n\tlong ret;\n\n\tlock_kernel();\n").replace(
    "\treturn demo_command(dev, cmd, arg);",
    "\tret = demo_command(dev, cmd, arg);\n\tunlock_kernel();\n\treturn ret;").replace(
    ".ioctl\t\t= demo_ioctl", ".unlocked_ioctl\t= demo_ioctl")

# The same pushdown written otherwise: another text to prove.
AGAIN = PUSHDOWN.replace("\tlong ret;\n", "\tlong ret = 0;\n")


class HeaderLexedOncePerRunTest(unittest.TestCase):

    def setUp(self):
        header_cache.clear()
        self.addCleanup(header_cache.clear)
        # Verdicts kept by an earlier test of the same texts would skip the proof.
        changes_mod._REMEMBERED.clear()
        self.addCleanup(changes_mod._REMEMBERED.clear)
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        for rel, text in {**TREE, **{rel: LEGACY for rel in FILES}}.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)
        self.lexed = Counter()
        real = headers_mod.tokenize

        def counted(text):
            self.lexed[text] += 1
            return real(text)

        patcher = mock.patch.object(headers_mod, "tokenize", side_effect=counted)
        patcher.start()
        self.addCleanup(patcher.stop)

    def prove(self, converted: str = PUSHDOWN) -> list[tuple[str, list[str]]]:
        """One pass of convert's proof over both files (no cache: a cold run)."""
        changes = {rel: (LEGACY.encode(), converted.encode()) for rel in FILES}
        found = lockproof.prove_changes(self.root, changes, lambda rel: BKL)
        return [(item.file, [p.message for p in item.proof.problems]) for item in found]

    def header_lexes(self) -> dict[str, int]:
        texts = {(self.root / rel).read_text(): rel for rel in TREE if rel.endswith(".h")}
        return {texts[text]: n for text, n in self.lexed.items() if text in texts}

    def test_two_files_two_passes_lex_each_header_once(self):
        # The second pass proves other texts, as after a fallback (a file
        # proven with the same texts keeps its verdicts: changes.py).
        first = self.prove()
        second = self.prove(AGAIN)
        self.assertEqual(self.header_lexes(), {rel: 1 for rel in TREE if rel.endswith(".h")})
        self.assertEqual([rel for rel, _ in first], [rel for rel, _ in second])

    def test_the_headers_are_still_read_on_every_pass(self):
        for found in (self.prove(), self.prove(AGAIN)):
            self.assertEqual([rel for rel, _ in found], list(FILES))
            for _, problems in found:
                self.assertTrue(any("DEMO_CHECK" in m or "returns" in m for m in problems),
                                problems)

    def test_a_header_whose_text_changes_is_lexed_again(self):
        self.prove()
        bits = self.root / "drivers/char/demo/demo_bits.h"
        bits.write_text(bits.read_text().replace("return -ENODEV;", "dev = 0;"))
        found = self.prove(AGAIN)
        self.assertEqual(self.header_lexes()["drivers/char/demo/demo_bits.h"], 1)
        self.assertEqual(self.lexed[bits.read_text()], 1)
        self.assertEqual([problems for _, problems in found], [[], []])


if __name__ == "__main__":
    unittest.main()

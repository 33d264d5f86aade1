"""convert's text summary names file:line and handler for every skipped
and failed entry (issue 22, the records), whatever made the record: the
rule (a parameter of a helper), the accounting pass (an entry written by a
macro of the file, a run-time assignment with a conditional, a call
through ->ioctl that stays), a file kept back for its glue (bkl_glue), a
forwarding site.  Each line is `status: FILE:LINE: FOPS: HANDLER: why`
with the line of the entry, never 0, and the handler by its name."""

import re
import unittest

from ioctl_rework.convert import summary as summary_mod
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

FILES = {
    # An entry written by a macro of the file.
    "drivers/char/m.c": "#include <linux/fs.h>\n\n#define M_IOCTL\t.ioctl = m_ioctl,\n\n"
                        "static int m_ioctl(struct inode *inode, struct file *file,\n"
                        "\t\t   unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
                        "static struct file_operations m_fops = {\n\tM_IOCTL\n};\n",
    # A run-time assignment with a conditional.
    "drivers/char/r.c": "#include <linux/fs.h>\n\nstatic int fast;\n"
                        "static struct file_operations r_fops;\n\n"
                        "static int r_a_ioctl(struct inode *inode, struct file *file,\n"
                        "\t\t     unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
                        "static int r_init(void)\n{\n"
                        "\tr_fops.ioctl = fast ? r_a_ioctl : NULL;\n\treturn 0;\n}\n",
    # An entry set from a helper's parameter.
    "drivers/char/p.c": "#include <linux/fs.h>\n\n"
                        "static void p_set(struct file_operations *fops,\n"
                        "\t\t  int (*fn)(struct inode *, struct file *, unsigned int, "
                        "unsigned long))\n{\n\tfops->ioctl = fn;\n}\n",
    # Glue the target cannot build keeps the file, and its plain entry.
    "drivers/char/g.c": "#include <linux/fs.h>\n#include <linux/smp_lock.h>\n\n"
                        "static int g_ioctl(struct inode *inode, struct file *file,\n"
                        "\t\t   unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
                        "#ifdef HAVE_UNLOCKED_IOCTL\n"
                        "static long g_unlocked(struct file *file, unsigned int cmd,\n"
                        "\t\t       unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
                        "\tret = g_ioctl(NULL, file, cmd, arg);\n\tunlock_kernel();\n"
                        "\treturn ret;\n}\n#endif\n\n"
                        "static struct file_operations g_fops = {\n\t.ioctl\t\t= g_ioctl,\n};\n",
}
# file -> (line, handler) of each record expected.
EXPECTED = {("drivers/char/m.c", 3, "m_ioctl"), ("drivers/char/r.c", 14,
                                                 "fast ? r_a_ioctl : NULL"),
            ("drivers/char/p.c", 6, "fn"), ("drivers/char/g.c", 24, "g_ioctl")}
LINE = re.compile(r"^  (skipped|failed): (?P<file>[\w/.]+):(?P<line>[1-9]\d*): (?P<fops>[^:]+): "
                  r"(?P<rest>.*)$")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class TextSummaryTest(CrossFileCase):
    def test_every_skipped_and_failed_entry_is_named_where_it_is(self):
        self.write({**FILES, "drivers/char/Makefile": "obj-m += m.o r.o p.o g.o\n"})
        result = self.run_convert("--target", "2.6.39", "--no-compat", "--no-kernel-headers")
        lines = [line for line in summary_mod.text_report(result.summary).splitlines()
                 if re.match(r"  (skipped|failed): ", line)]
        named = set()
        for line in lines:
            match = LINE.match(line)
            self.assertIsNotNone(match, line)
            # The handler by name, then why (a conditional's value has colons).
            handler = next((h for f, n, h in EXPECTED if (f, n) == (match["file"],
                                                                     int(match["line"]))), "")
            if handler and match["rest"].startswith(handler + ": "):
                named.add((match["file"], int(match["line"]), handler))
            else:
                named.add((match["file"], int(match["line"]), match["rest"]))
        self.assertEqual(named, EXPECTED, "\n".join(lines))


if __name__ == "__main__":
    unittest.main()

"""convert's records are exact (issue 22 section 6): a dead or NULL .ioctl
entry the rule removes is a change, never also an entry left alone to
convert by hand, whatever the layout of its initializer."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

HANDLERS = """#include <linux/fs.h>

static int dd_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static long dd_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

"""
# Each: a .ioctl beside an .unlocked_ioctl (dead), or a NULL one.
LAYOUTS = [
    "static struct file_operations dd_fops =\n{\n\t.ioctl\t\t= dd_ioctl,\n"
    "\t.unlocked_ioctl\t= dd_unlocked,\n};\n",
    "static struct file_operations dd_fops = {\n\t.ioctl\t\t= dd_ioctl,\n"
    "\t.unlocked_ioctl\t= dd_unlocked,\n};\n",
    "static struct file_operations dd_fops\n\t= {\n\tioctl: dd_ioctl,\n"
    "\tunlocked_ioctl: dd_unlocked,\n};\n",
    "static struct file_operations dd_fops =\n{\n\t.ioctl = NULL,\n"
    "\t.unlocked_ioctl = dd_unlocked,\n};\n",
]


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class RemovedEntryTest(unittest.TestCase):
    def test_a_removed_entry_is_a_change_and_nothing_else(self):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        for layout in LAYOUTS:
            with self.subTest(layout=layout), tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "dd.c").write_text(HANDLERS + layout)
                args = parse_args(["--no-cache", "--target", "2.6.20", "--no-kernel-headers",
                                   "--", tmp])
                result = convert.convert(convert.request_from_args(args))
                self.assertEqual(result.summary.handlers, [])
                kinds = [c.kind for c in result.summary.changes]
                self.assertIn("removed-entry", kinds)
                removed = [line for line in result.diff.splitlines()
                           if line.startswith("-") and not line.startswith("---")]
                self.assertTrue(any("ioctl" in line and "unlocked" not in line
                                    for line in removed), result.diff)
                self.assertFalse(result.failed)


if __name__ == "__main__":
    unittest.main()

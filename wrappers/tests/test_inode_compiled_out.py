"""An inode whose every use is inside an #if of the handler's body (issue 22
section 6): the conversion must not declare a local inode, which would be
`unused variable 'inode'` wherever that #if is compiled out; each use names
the inode expression instead.  A use outside any #if keeps the local.  Both
strategies, several spellings of the #if, and the lock proof passes."""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

DRIVER = """#include <linux/fs.h>
#include <linux/kernel.h>

static int ic_ioctl(struct inode *{ino}, struct file *{filp},
\t\t    unsigned int cmd, unsigned long arg)
{{
\tic_go({filp});
{uses}\treturn 0;
}}

static struct file_operations ic_fops = {{
\t.ioctl = ic_ioctl,
}};
"""
ONLY_CONDITIONAL = (
    "#ifdef DEBUG\n\tprintk(\"ic: %d\\n\", iminor({ino}));\n#endif\n",
    "#if IC_LEVEL > 1\n\tic_log(MINOR({ino}->i_rdev));\n#elif defined(IC_CHECK)\n"
    "\tBUG_ON(!{ino});\n#endif\n",
    "#ifndef NDEBUG\n\tif (imajor({ino}) != 10)\n\t\treturn -ENODEV;\n#else\n"
    "\tic_log(iminor({ino}));\n#endif\n",
)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class InodeCompiledOutTest(unittest.TestCase):
    def convert(self, source: str, *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "ic.c").write_text(source)
            args = parse_args(["--no-cache", "--no-compat", "--target", "2.6.20",
                               "--no-kernel-headers", *extra, "--", os.path.join(tmp, "ic.c")])
            return convert.convert(convert.request_from_args(args))

    def test_uses_only_under_an_if_name_the_inode_expression(self):
        for strategy in ("auto", "wrapper"):
            for ino, filp in (("inode", "file"), ("ip", "filp")):
                for uses in ONLY_CONDITIONAL:
                    with self.subTest(strategy=strategy, ino=ino, uses=uses):
                        result = self.convert(DRIVER.format(ino=ino, filp=filp,
                                                            uses=uses.format(ino=ino)),
                                              "--strategy", strategy)
                        record = result.summary.handlers[0]
                        self.assertEqual(record.status, HandlerStatus.CONVERTED, record)
                        added = [line for line in result.diff.splitlines()
                                 if line.startswith("+")]
                        self.assertFalse([line for line in added if "struct inode *" in line],
                                         result.diff)
                        self.assertFalse([line for line in added
                                          if re.search(r"\b%s\b" % ino, line)], result.diff)
                        self.assertIn("%s->f_path.dentry->d_inode" % filp, result.diff)

    def test_a_use_outside_the_if_keeps_the_local(self):
        uses = ONLY_CONDITIONAL[0] + "\tic_log(iminor({ino}));\n"
        result = self.convert(DRIVER.format(ino="inode", filp="file",
                                            uses=uses.format(ino="inode")))
        self.assertIn("+\tstruct inode *inode = file->f_path.dentry->d_inode;\n", result.diff)
        self.assertNotIn("iminor(file->", result.diff)


if __name__ == "__main__":
    unittest.main()

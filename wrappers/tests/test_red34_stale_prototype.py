"""red34: an exported handler declared in a kernel header the run never
writes (bench/adversarial red34_export, run outside the tree with the
tree as --kernel-headers).  On main the handler was converted, exit 0,
and the driver no longer built against its own kernel: `conflicting types
for 'ex_ioctl'` with the header's legacy prototype.  Convert's verify
stage now looks for the legacy prototype of every converted handler that
is not static in the headers its file includes; one in a header the run
did not rewrite puts the handler's files back, failed, with the header,
its line and the declaration.  Spellings: extern with names, a bare
prototype without names, an asm header, a header reached through
another; a header naming only a longer name, and a handler --multi-kernel
keeps with its legacy signature (its wrapper calls it), pass."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus
from test_convert import HAVE_SPATCH, parse_args

DRIVER = """/* sp_clock: a clock chip whose handler other modules call. */
#include <linux/fs.h>
#include <{header}>

static int sp_ticks;

{storage}int sp_ioctl(struct inode *inode, struct file *file,
\t     unsigned int cmd, unsigned long arg)
{{
\tif (cmd != 1)
\t\treturn -ENOTTY;
\treturn ++sp_ticks;
}}

static struct file_operations sp_fops = {{
\t.ioctl\t= sp_ioctl,
}};
"""
PROTOTYPES = {
    "extern with names": ("linux/sp_clock.h", "extern int sp_ioctl(struct inode *inode, "
                          "struct file *file,\n\t\t    unsigned int cmd, unsigned long arg);\n"),
    "bare prototype": ("linux/sp_clock.h", "int sp_ioctl(struct inode *, struct file *, "
                       "unsigned int, unsigned long);\n"),
    "asm header": ("asm/sp_clock.h", "extern int sp_ioctl(struct inode *, struct file *,"
                   " unsigned int, unsigned long);\n"),
    "through another header": ("linux/sp_outer.h", None),
}
INNER = ("linux/sp_clock.h", "int sp_ioctl(struct inode *, struct file *, unsigned int, "
         "unsigned long);\n")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class StalePrototypeTest(unittest.TestCase):
    def run_convert(self, header: str, text: str, storage: str = "", more=None,
                    options: tuple = ()):
        from ioctl_rework.convert import cli as convert
        tmp = Path(tempfile.mkdtemp(prefix="red34-proto-"))
        self.addCleanup(shutil.rmtree, tmp)
        kernel = tmp / "linux"
        (kernel / "include" / "linux").mkdir(parents=True)
        (kernel / "arch" / "x86" / "include" / "asm").mkdir(parents=True)
        (kernel / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n")
        (kernel / "include" / "linux" / "fs.h").write_text("/* fs */\n")
        for rel, body in [(header, text), *(more or [])]:
            where = kernel / ("arch/x86/include" if rel.startswith("asm/") else "include") / rel
            where.write_text(body)
        drivers = tmp / "drv"
        drivers.mkdir()
        (drivers / "sp.c").write_text(DRIVER.format(header=header, storage=storage))
        args = parse_args(["--no-cache", "-q", "--kernel-headers", str(kernel), "--target",
                           "2.6.20", *options, "--", str(drivers / "sp.c")])
        result = convert.convert(convert.request_from_args(args))
        [record] = [h for h in result.summary.handlers if h.handler == "sp_ioctl"]
        return result, record

    def test_a_legacy_prototype_in_a_kernel_header_fails_the_handler(self):
        for spelling, (header, text) in PROTOTYPES.items():
            with self.subTest(spelling):
                more = None
                if text is None:
                    text = f"#include <{INNER[0]}>\n"
                    more = [INNER]
                result, record = self.run_convert(header, text, more=more)
                self.assertIs(record.status, HandlerStatus.FAILED, record.reason)
                self.assertIn("sp_ioctl is declared with the legacy signature in", record.reason)
                self.assertIn("sp_clock.h:1", record.reason)
                self.assertEqual(result.changes, {})

    def test_a_static_handler_is_not_looked_for(self):
        header, text = PROTOTYPES["bare prototype"]
        _, record = self.run_convert(header, text.replace("sp_ioctl", "sp_other"), "static ")
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)

    def test_a_handler_multi_kernel_keeps_as_it_was_passes(self):
        # --multi-kernel: the wrapper calls the legacy handler, which keeps
        # the signature the header declares
        header, text = PROTOTYPES["extern with names"]
        _, record = self.run_convert(header, text, options=("--multi-kernel",))
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)

    def test_a_longer_name_is_not_the_handler(self):
        header, text = PROTOTYPES["bare prototype"]
        _, record = self.run_convert(header, text.replace("sp_ioctl", "sp_ioctl_compat"))
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)


if __name__ == "__main__":
    unittest.main()

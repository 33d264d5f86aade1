"""red34: a handler called from the body of a #define (bench/adversarial
red34_rw_call: `#define RW_DO(f, c, a) rw_ioctl((f)->f_dentry->d_inode,
...)`, used by .write).  spatch names code outside any function
"something_else", and the records said so: "it calls or is called by
rw_read, something_else directly" under --lock mutex, "rw_ioctl
(something_else): the inode argument goes" with the BKL.  They now name
"a macro body (line N)", the line of the call; in each mode, and for a
macro of one line and of several (whose call the BKL run refuses, in
words of its own)."""

import shutil
import tempfile
import unittest
from pathlib import Path

from test_convert import HAVE_SPATCH, parse_args

DRIVER = (Path(__file__).resolve().parents[2] / "bench" / "adversarial" / "tree" / "drivers" /
          "adv" / "red34_rw_call.c").read_text()
SPELLINGS = {
    "one line": (DRIVER, 35),
    "several lines": (DRIVER.replace(
        "#define RW_DO(f, c, a)\trw_ioctl((f)->f_dentry->d_inode, (f), (c), (a))",
        "#define RW_DO(f, c, a)\t\\\n\trw_ioctl((f)->f_dentry->d_inode, \\\n"
        "\t\t (f), (c), (a))"), 36),
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MacroCallerTest(unittest.TestCase):
    def records(self, text: str, target: str) -> str:
        from ioctl_rework.convert import cli as convert
        tmp = Path(tempfile.mkdtemp(prefix="red34-caller-"))
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "rw.c").write_text(text)
        args = parse_args(["--no-cache", "-q", "--no-kernel-headers", "--target", target,
                           "--", str(tmp / "rw.c")])
        summary = convert.convert(convert.request_from_args(args)).summary
        return "\n".join([str(h.reason) for h in summary.handlers] +
                         [repr(c) for c in summary.changes])

    def test_the_caller_is_named_by_its_line(self):
        for spelling, (text, line) in SPELLINGS.items():
            for target in ("2.6.11", "6.1"):
                with self.subTest(spelling=spelling, target=target):
                    said = self.records(text, target)
                    self.assertNotIn("something_else", said)
                    if (spelling, target) != ("several lines", "2.6.11"):
                        # (with the BKL that call is refused: the argument
                        # spans a line of the macro)
                        self.assertIn(f"a macro body (line {line})", said)


if __name__ == "__main__":
    unittest.main()

"""Mutex mode and calls that end the task (issue 22, red33_noret): the BKL
was released when its holder exited (or BUG() killed it), a private mutex
is not, so a handler that may end the task holding it is refused, with the
call and its line, in auto, pushdown and wrapper alike; under the BKL the
same driver converts as before.  Spellings: do_exit(code) ending a case,
BUG() inside an if, panic() after a printk, a static helper of the file
declared noreturn, BUG_ON(cond); BUG_ON(0) never fires and converts."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

SOURCE = """\
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>

static int tx_state;

static void tx_fatal(const char *why) __attribute__((noreturn));

static void tx_fatal(const char *why)
{
\tpanic("tx: %s", why);
}
"""

# Handler name -> (body, the call the refusal names, its line's text).
ENDING = {
    "ta_ioctl": ("\tswitch (cmd) {\n\tcase 1:\n\t\ttx_state = arg;\n\t\treturn 0;\n"
                 "\tcase 2:\n\t\tdo_exit(arg);\n\t}\n\treturn -ENOTTY;\n",
                 "do_exit()", "\t\tdo_exit(arg);"),
    "tb_ioctl": ("\tif (tx_state < 0)\n\t\tBUG();\n\ttx_state = arg;\n\treturn 0;\n",
                 "BUG()", "\t\tBUG();"),
    "tc_ioctl": ('\tif (arg == 3) {\n\t\tprintk("tc: crash\\n");\n\t\tpanic("tc");\n\t}\n'
                 "\ttx_state = arg;\n\treturn 0;\n", "panic()", '\t\tpanic("tc");'),
    "td_ioctl": ('\tif (arg > 3)\n\t\ttx_fatal("bad");\n\ttx_state = arg;\n\treturn 0;\n',
                 "tx_fatal()", '\t\ttx_fatal("bad");'),
    "te_ioctl": ("\tBUG_ON(arg == 3);\n\ttx_state = arg;\n\treturn 0;\n",
                 "BUG_ON()", "\tBUG_ON(arg == 3);"),
}
SAFE = {"tf_ioctl": "\tBUG_ON(0);\n\ttx_state = arg;\n\treturn 0;\n"}


def driver() -> str:
    bodies = {name: body for name, (body, _, _) in ENDING.items()} | SAFE
    return SOURCE + "".join(
        "\nstatic int %s(struct inode *inode, struct file *file,\n"
        "\t\tunsigned int cmd, unsigned long arg)\n{\n%s}\n" % (name, body)
        for name, body in bodies.items()) + "".join(
        "\nstatic struct file_operations %s_fops = {\n\t.ioctl = %s,\n};\n" % (name[:2], name)
        for name in bodies)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MutexNoreturnTest(unittest.TestCase):
    def convert(self, *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "tx.c").write_text(driver())
            args = parse_args(["--no-cache", "--target", "2.6.39", "--no-kernel-headers", *extra,
                               "--", os.path.join(tmp, "tx.c")])
            result = convert.convert(convert.request_from_args(args))
            return result, {h.handler: h for h in result.summary.handlers}

    def test_every_strategy_refuses_a_handler_that_may_end_the_task(self):
        text = driver()
        for strategy in ("auto", "pushdown", "wrapper"):
            with self.subTest(strategy=strategy):
                _, records = self.convert("--lock", "mutex", "--strategy", strategy)
                for name, (_, call, line_text) in ENDING.items():
                    line = text[:text.index(line_text + "\n")].count("\n") + 1
                    self.assertEqual(records[name].status, HandlerStatus.SKIPPED, records[name])
                    self.assertIn("it can end the task (%s at line %d) with the private mutex "
                                  "held" % (call, line), records[name].reason)
                # tf_ioctl may convert alone, but it writes tx_state, which the
                # handlers left on .ioctl (under the BKL) write too: the private
                # mutex would not exclude them, so it goes back (entries_left).
                self.assertEqual(records["tf_ioctl"].status, HandlerStatus.FAILED,
                                 records["tf_ioctl"])
                self.assertIn("the BKL check failed", records["tf_ioctl"].reason)
                self.assertIn("under the BKL, which does not exclude tf_ioctl",
                              records["tf_ioctl"].reason)

    def test_under_the_bkl_every_handler_converts(self):
        for strategy, shape in (("auto", "pushdown"), ("wrapper", "wrapper")):
            with self.subTest(strategy=strategy):
                result, records = self.convert("--lock", "bkl", "--strategy", strategy)
                for name in list(ENDING) + list(SAFE):
                    self.assertEqual((records[name].status, records[name].strategy),
                                     (HandlerStatus.CONVERTED, shape), records[name])
                self.assertNotIn("mutex", result.diff)


if __name__ == "__main__":
    unittest.main()

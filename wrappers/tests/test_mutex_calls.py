"""Mutex mode and handlers that call handlers (issue 22 section 4): under
the private mutex a handler called directly by handlers of its file gets
the wrapper, so the body its callers run under the mutex they hold does
not take it again, and the VFS gets the wrapper that takes it.  The lock
proof must accept the result.  A caller that would not hold that mutex (a
compat function under the BKL, a helper no fops names) keeps the whole
group as it was, with the reason.  And a poll loop whose condition is not
proven local is refused (default-deny).  Several spellings of each."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

HEAD = "#include <linux/fs.h>\n#include <linux/delay.h>\n\nvoid ca_reset(void);\n\n"
HANDLER = """static int {name}(struct inode *inode, struct file *file,
\t\tunsigned int cmd, unsigned long arg)
{{
{body}}}

"""
FOPS = "static struct file_operations {name}_fops = {{\n\t.ioctl = {name},\n}};\n"

# (bodies of ca_ioctl and cb_ioctl): each calls the other, or itself.
CALL_SPELLINGS = (
    ("\tif (cmd == 2)\n\t\treturn cb_ioctl(inode, file, 1, arg);\n\treturn 0;\n",
     "\tca_reset();\n\treturn 0;\n"),
    ("\tint err = 0;\n\n\tif (cmd == 2)\n\t\terr = ca_ioctl(inode, file, 1, arg);\n"
     "\tif (!err && cmd == 3)\n\t\terr = cb_ioctl(inode, file, 1, arg);\n\treturn err;\n",
     "\tif (cmd != 1)\n\t\treturn cb_ioctl(inode, file, 1, 0) ?: -ENOTTY;\n\treturn 0;\n"),
    ("\tswitch (cmd) {\n\tcase 1:\n\t\treturn 0;\n\tdefault:\n"
     "\t\treturn ca_ioctl(inode, file, 1, arg) + cb_ioctl(inode, file, 1, arg);\n\t}\n",
     "\treturn cmd == 1 ? 0 : ca_ioctl(inode, file, 1, arg);\n"),
)


def driver(bodies: dict[str, str], extra: str = "") -> str:
    prototypes = "".join("static int %s(struct inode *, struct file *, unsigned int,\n"
                         "\t\tunsigned long);\n" % name for name in bodies)
    return HEAD + prototypes + "\n" + extra + \
        "".join(HANDLER.format(name=n, body=b) for n, b in bodies.items()) + \
        "".join(FOPS.format(name=n) for n in bodies)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MutexCallsTest(unittest.TestCase):
    def convert(self, source: str, *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "cg.c").write_text(source)
            args = parse_args(["--no-cache", "--target", "2.6.39", "--no-kernel-headers", *extra,
                               "--", os.path.join(tmp, "cg.c")])
            return convert.convert(convert.request_from_args(args))

    def records(self, result):
        return {h.handler: h for h in result.summary.handlers}

    def test_calls_between_handlers_go_through_the_wrapper(self):
        for ca, cb in CALL_SPELLINGS:
            with self.subTest(ca=ca, cb=cb):
                result = self.convert(driver({"ca_ioctl": ca, "cb_ioctl": cb}))
                records = self.records(result)
                for name in ("ca_ioctl", "cb_ioctl"):
                    self.assertEqual(records[name].status, HandlerStatus.CONVERTED,
                                     records[name])
                called = {"cb_ioctl"} | ({"ca_ioctl"} if "ca_ioctl(inode" in ca + cb else set())
                for name in called:
                    self.assertEqual(records[name].strategy, "wrapper", records[name])
                    self.assertIn("holds the private mutex", records[name].reason)
                    self.assertIn("%s_unlocked_ioctl" % name[:2], result.diff)
                # Every call lost its inode; only the uncalled handler's body
                # and the wrappers take the mutex.
                added = "\n".join(line for line in result.diff.splitlines()
                                  if line.startswith("+"))
                self.assertNotIn("(inode, file", added)
                self.assertEqual(added.count("mutex_lock("),
                                 len(called) + (1 if called == {"cb_ioctl"} else 0))

    def test_forced_pushdown_refuses_the_group(self):
        ca, cb = CALL_SPELLINGS[0]
        result = self.convert(driver({"ca_ioctl": ca, "cb_ioctl": cb}),
                              "--strategy", "pushdown")
        for record in self.records(result).values():
            self.assertEqual(record.status, HandlerStatus.SKIPPED, record)
            self.assertIn("would take again", record.reason)

    def test_a_caller_outside_the_mutex_keeps_the_group(self):
        compat = ("static long cc_compat(struct file *file, unsigned int cmd,\n"
                  "\t\tunsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
                  "\tret = ca_ioctl(file->f_dentry->d_inode, file, cmd, arg);\n"
                  "\tunlock_kernel();\n\treturn ret;\n}\n\n")
        helper = ("static int cc_helper(struct inode *inode, struct file *file,\n"
                  "\t\tunsigned int cmd, unsigned long arg)\n{\n"
                  "\treturn ca_ioctl(inode, file, cmd, arg);\n}\n\n")
        for caller, name in ((compat, "cc_compat"), (helper, "cc_helper")):
            with self.subTest(caller=name):
                source = driver({"ca_ioctl": "\treturn 0;\n",
                                 "cb_ioctl": "\treturn ca_ioctl(inode, file, cmd, arg);\n"})
                source = source.replace("static struct file_operations ca_ioctl_fops",
                                        caller + "static struct file_operations ca_ioctl_fops")
                records = self.records(self.convert(source))
                for handler in ("ca_ioctl", "cb_ioctl"):
                    self.assertEqual(records[handler].status, HandlerStatus.SKIPPED,
                                     records[handler])
                    self.assertIn(name, records[handler].reason)

    def test_a_poll_loop_not_proven_local_is_refused(self):
        for condition, loop in (("!pl_header_flag", "while (%s)\n\t\tmsleep(10);\n"),
                                ("!pl_done(arg)", "while (%s)\n\t\tssleep(1);\n"),
                                ("!(PL_STATUS & 1)", "do {\n\t\tmsleep(5);\n\t} while (%s);\n"),
                                ("!seen", "while (%s) {\n\t\tmsleep(1);\n"
                                          "\t\tseen = pl_header_flag;\n\t}\n")):
            with self.subTest(condition=condition):
                body = "\tint seen = 0;\n\n\t" + loop % condition + "\treturn seen;\n"
                source = driver({"pl_ioctl": body}, "#define PL_STATUS inb(0x300)\n"
                                "extern int pl_header_flag;\n\n")
                record = self.records(self.convert(source))["pl_ioctl"]
                self.assertEqual(record.status, HandlerStatus.SKIPPED, record)
                self.assertIn("polls shared state", record.reason)
        # A counter bounded by a number macro or an enumerator polls nothing.
        body = ("\tint i, phase = PL_IDLE;\n\n\tfor (i = 0; i < PL_TRIES; i++)\n"
                "\t\tudelay(10);\n\twhile (phase != PL_DONE) {\n\t\tmsleep(1);\n"
                "\t\tphase = i > 3 ? PL_DONE : PL_IDLE;\n\t}\n\treturn 0;\n")
        source = driver({"pl_ioctl": body}, "#define PL_TRIES (2 * 10)\n"
                        "enum { PL_IDLE, PL_DONE = 3 };\n\n")
        record = self.records(self.convert(source))["pl_ioctl"]
        self.assertEqual((record.status, record.strategy),
                         (HandlerStatus.CONVERTED, "pushdown"), record)

    def test_a_busy_wait_on_a_register_is_no_poll_of_shared_state(self):
        # udelay() does not sleep, so the BKL was never dropped in it either:
        # another ioctl could not run during the loop before the conversion.
        body = ("\tint seen = 0;\n\n\tdo {\n\t\tudelay(5);\n"
                "\t} while (!(PL_STATUS & 1));\n\treturn seen;\n")
        source = driver({"pl_ioctl": body}, "#define PL_STATUS inb(0x300)\n\n")
        record = self.records(self.convert(source))["pl_ioctl"]
        self.assertEqual(record.status, HandlerStatus.CONVERTED, record)


if __name__ == "__main__":
    unittest.main()

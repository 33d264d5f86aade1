"""verify on a port: `convert --kdir` against a kernel the legacy driver
does not build on.  The conversion stays when the new build's messages
are API drift or outside the ioctl path, and says so; a message in the
ioctl path, or one naming what the rewrite removed, still puts it back.
Builds are faked (tests.test_verify.FakeBuilder); run-stock builds real ones."""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import settings
from ioctl_rework.convert import verification as verify
from ioctl_rework.verify import port as verify_port
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, VerifyOptions
from ioctl_rework.convert.summary import FileRecord, FileStatus, HandlerStatus, Summary
from ioctl_rework.verify.build import KernelDir
from ioctl_rework.verify.diagnostics import Diagnostic
from test_verify import FakeBuilder, handler

LEGACY = b"""#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/timer.h>

static struct timer_list drv_timer;

static int drv_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn drv_legacy_cmd(inode, cmd);
}

static const struct file_operations drv_fops = {
\t.ioctl = drv_ioctl,
};

int drv_probe(void)
{
\tinit_timer(&drv_timer);
\treturn 0;
}
"""
# The conversion's output (lines numbered as the messages below name them).
CONVERTED = b"""#include <linux/fs.h>
#include <linux/timer.h>

static DEFINE_MUTEX(drv_mutex);
static struct timer_list drv_timer;

static long drv_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tlong ret;

\tmutex_lock(&drv_mutex);
\tret = drv_cmd(file->f_dentry, cmd);
\tmutex_unlock(&drv_mutex);
\treturn ret;
}

static const struct file_operations drv_fops = {
\t.unlocked_ioctl = drv_ioctl,
};

int drv_probe(void)
{
\tinit_timer(&drv_timer);
\treturn 0;
}
"""
SMP_LOCK_MISSING = Diagnostic("gcc", "drv.c", 2, 10, "", "error",
                              "linux/smp_lock.h: No such file or directory")


def error(line: int, function: str, text: str, severity: str = "error") -> Diagnostic:
    return Diagnostic("gcc", "drv.c", line, 2, function, severity, text)


INIT_TIMER = error(23, "drv_probe", "implicit declaration of function 'init_timer'")
NO_PROTOTYPE = error(21, "", "no previous prototype for 'drv_probe'", "warning")
IN_HANDLER = error(11, "drv_ioctl", "passing argument 1 of 'mutex_lock' from incompatible "
                   "pointer type")
REMOVED_NAME = error(24, "drv_probe", "'inode' undeclared (first use in this function)")
DRIFT_ON_A_CHANGED_LINE = error(12, "drv_ioctl", "'struct file' has no member named 'f_dentry'")


class PortVerifyTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-port-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        summary = Summary(str(self.tmp), "6.1.0", {}, "spatch", 0.0)
        summary.handlers = [handler("drv.c", "drv_ioctl")]
        summary.files = [FileRecord("drv.c", FileStatus.CONVERTED, None, "diff of drv.c")]
        self.result = ConversionResult(summary, {"drv.c": (LEGACY, CONVERTED)})
        options = settings.ConversionOptions.for_target(settings.Target.parse("6.1"))
        self.request = ConvertRequest((self.tmp,), options, self.tmp, verify=VerifyOptions(
            prove=False, kdir=KernelDir(self.tmp, False, "k")))

    def run_with(self, after: list[Diagnostic], legacy_builds: bool = False):
        builder = FakeBuilder({"drv.c": [] if legacy_builds else [SMP_LOCK_MISSING]},
                              {"drv.c": after}, () if legacy_builds else ["drv.c"])
        with mock.patch("ioctl_rework.verify.build.Builder", builder):
            found = verify.verify(self.request, self.result)
        verify.apply(found, self.result)
        return self.result.summary.files[0], self.result.summary.handlers[0]

    def test_drift_and_messages_outside_the_ioctl_path_keep_the_conversion(self):
        file, converted = self.run_with([NO_PROTOTYPE, INIT_TIMER])
        self.assertIs(converted.status, HandlerStatus.CONVERTED)
        self.assertIs(file.status, FileStatus.CONVERTED)
        self.assertIn("drv.c", self.result.changes)
        self.assertFalse(self.result.failed)
        self.assertEqual(file.reason, (
            "--kdir: a port (drv.c does not build against KDIR before the rewrite: "
            "drv.c:2:10: error: linux/smp_lock.h: No such file or directory); kept, since its "
            "2 new message(s) are API drift or outside the ioctl path, first: "
            "drv.c:21:2: warning: no previous prototype for 'drv_probe' "
            "(outside the ioctl path)"))

    def test_a_message_in_the_converted_handler_puts_it_back(self):
        file, converted = self.run_with([INIT_TIMER, IN_HANDLER])
        self.assertIs(converted.status, HandlerStatus.FAILED)
        self.assertIs(file.status, FileStatus.FAILED)
        self.assertNotIn("drv.c", self.result.changes)
        self.assertEqual(file.reason, "not rewritten: the build (--kdir) of drv.c: new in drv.c: "
                         "drv.c:11:2: error: passing argument 1 of 'mutex_lock' from "
                         "incompatible pointer type")
        self.assertTrue(self.result.failed)

    def test_a_message_naming_what_the_rewrite_removed_puts_it_back(self):
        file, converted = self.run_with([REMOVED_NAME])
        self.assertIs(converted.status, HandlerStatus.FAILED)
        self.assertIn("'inode' undeclared", file.reason)

    def test_drift_on_a_line_the_rewrite_changed_is_the_conversions(self):
        file, converted = self.run_with([DRIFT_ON_A_CHANGED_LINE])
        self.assertIs(converted.status, HandlerStatus.FAILED)
        self.assertIn("no member named 'f_dentry'", file.reason)

    def test_not_a_port_when_the_legacy_text_builds(self):
        file, converted = self.run_with([NO_PROTOTYPE], legacy_builds=True)
        self.assertIs(converted.status, HandlerStatus.FAILED)
        self.assertIn("no previous prototype for 'drv_probe'", file.reason)


class JudgeTest(unittest.TestCase):
    """verify_port.judge on its own: why each message is excused or not."""

    def judge(self, *diagnostics, changes=None):
        return verify_port.judge(list(diagnostics), changes or {"drv.c": (LEGACY, CONVERTED)},
                                 Path("/nonexistent"), frozenset({"drv_ioctl"}),
                                 settings.Target.parse("6.1"))

    def test_drift_says_what_changed_and_when(self):
        judged = self.judge(INIT_TIMER)
        self.assertEqual(judged.caused, ())
        self.assertEqual(judged.excused[0].why, "API drift: init_timer(), changed in 4.15.0; "
                         "use timer_setup(timer, callback, flags); the callback gets the "
                         "timer_list")

    def test_the_fops_and_the_mutex_are_on_the_ioctl_path(self):
        fops = error(18, "", "initialization of 'long int (*)(void)' from incompatible type")
        mutex = error(4, "", "type defaults to 'int' in declaration of 'DEFINE_MUTEX'")
        self.assertEqual(self.judge(fops, mutex).caused, (fops, mutex))

    def test_anything_in_the_converted_handler(self):
        blank = error(9, "drv_ioctl", "unused variable 'ret'", "warning")
        self.assertEqual(self.judge(blank).caused, (blank,))

    def test_a_message_in_a_file_that_is_not_the_drivers_is_the_conversions(self):
        header = Diagnostic("gcc", "/kdir/include/linux/fs.h", 40, 1, "", "error", "bad")
        self.assertEqual(self.judge(header).caused, (header,))


if __name__ == "__main__":
    unittest.main()

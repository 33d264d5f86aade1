"""convert: the code a conversion adds, as a reviewer reads it.

CRLF files keep CRLF on every added line, whatever the strategy and the
lock (the header, the mutex, the wrapper, the lock statements), with the
lock before a label indented and the parameters lined up after int becomes
long.  A private mutex with no place compiled wherever a handler uses it
fails the file with that reason and writes nothing.
"""

import unittest

from ioctl_rework.convert.summary import FileStatus, HandlerStatus
from test_convert import ConvertCase

# A 2.6-era buzzer whose handler retries from a label at its very top, so
# the lock goes before that label.
BUZZ = b"""/* A buzzer that retries while the hardware is busy. */
#include <linux/fs.h>
#include <linux/miscdevice.h>

int buzz_busy(void);
int buzz_set(unsigned int cmd, unsigned long arg);

static int buzz_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
again:
	if (buzz_busy())
		goto again;
	return buzz_set(cmd, arg);
}

static const struct file_operations buzz_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= buzz_ioctl,
};
"""

# "static long buzz_ioctl(" is 23 columns: two tabs and seven spaces.
LONG_SIGNATURE = (b"static long buzz_ioctl(struct file *file,\r\n"
                  b"\t\t       unsigned int cmd, unsigned long arg)\r\n")

# The first converted handler is inside an #ifdef that leaves out the
# second one, and no function ahead of it is compiled everywhere.
NO_MUTEX_SITE = b"""/* A fan with an optional second node. */
#include <linux/fs.h>

#ifdef CONFIG_FAN_EXTRA
static int fan_extra_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return fan_extra(cmd);
}

static struct file_operations fan_extra_fops = {
	.ioctl		= fan_extra_ioctl,
};
#endif

static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return fan_set(cmd);
}

static struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};
"""


class CrlfTest(ConvertCase):
    def converted(self, *argv: str) -> bytes:
        path = self.tree / "drivers/char/buzz.c"
        path.write_bytes(BUZZ.replace(b"\n", b"\r\n"))
        result = self.run_convert("--in-place", "--target", "2.6.20", *argv, paths=[path])
        self.assertEqual({h.handler: h.status for h in result.summary.handlers},
                         {"buzz_ioctl": HandlerStatus.CONVERTED})
        new = path.read_bytes()
        self.assertEqual(new.count(b"\n"), new.count(b"\r\n"), new.decode())
        return new

    def test_pushdown_with_the_bkl(self):
        new = self.converted("--strategy", "pushdown")
        self.assertIn(b"#include <linux/miscdevice.h>\r\n#include <linux/smp_lock.h>\r\n", new)
        self.assertIn(LONG_SIGNATURE, new)
        self.assertIn(b"\r\n\tlock_kernel();\r\nagain:\r\n\tif (buzz_busy())\r\n", new)
        self.assertIn(b"\tunlock_kernel();\r\n", new)

    def test_pushdown_with_the_mutex(self):
        new = self.converted("--strategy", "pushdown", "--lock", "mutex")
        self.assertIn(b"#include <linux/miscdevice.h>\r\n#include <linux/mutex.h>\r\n", new)
        self.assertIn(b"static DEFINE_MUTEX(buzz_mutex);\r\n", new)
        self.assertIn(LONG_SIGNATURE, new)
        self.assertIn(b"\r\n\tmutex_lock(&buzz_mutex);\r\nagain:\r\n", new)
        self.assertIn(b"\tmutex_unlock(&buzz_mutex);\r\n", new)

    def test_wrapper_with_the_bkl(self):
        new = self.converted("--strategy", "wrapper")
        self.assertIn(b"#include <linux/smp_lock.h>\r\n", new)
        self.assertIn(LONG_SIGNATURE, new)
        # "static long buzz_unlocked_ioctl(" is 32 columns: four tabs.
        self.assertIn(b"static long buzz_unlocked_ioctl(struct file *file, unsigned int cmd,\r\n"
                      b"\t\t\t\tunsigned long arg)\r\n{\r\n\tint ret;\r\n\r\n"
                      b"\tlock_kernel();\r\n\tret = buzz_ioctl(file, cmd, arg);\r\n"
                      b"\tunlock_kernel();\r\n\treturn ret;\r\n}\r\n", new)
        self.assertIn(b"\t.unlocked_ioctl\t= buzz_unlocked_ioctl,\r\n", new)

    def test_wrapper_with_the_mutex(self):
        new = self.converted("--strategy", "wrapper", "--lock", "mutex")
        self.assertIn(b"static DEFINE_MUTEX(buzz_mutex);\r\n", new)
        self.assertIn(b"\tmutex_lock(&buzz_mutex);\r\n\tret = buzz_ioctl(file, cmd, arg);\r\n"
                      b"\tmutex_unlock(&buzz_mutex);\r\n", new)


class MutexPlacementTest(ConvertCase):
    def test_a_mutex_with_no_place_compiled_everywhere_fails_the_file_unchanged(self):
        path = self.tree / "drivers/char/fan.c"
        path.write_bytes(NO_MUTEX_SITE)
        result = self.run_convert("--in-place", "--target", "2.6.20", "--lock", "mutex",
                                  paths=[path])
        record = {f.file: f for f in result.summary.files}["drivers/char/fan.c"]
        self.assertEqual(record.status, FileStatus.FAILED)
        self.assertIn("no function ahead of the converted handlers is compiled wherever "
                      "they are, to put the private mutex before", record.reason)
        self.assertEqual(path.read_bytes(), NO_MUTEX_SITE)
        self.assertTrue(result.failed)


if __name__ == "__main__":
    unittest.main()

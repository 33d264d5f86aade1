"""convert: an entry in the #else of a LINUX_VERSION_CODE test that only
kernels before 2.6.11 compile (a driver that still builds for 2.4, as
2.6.9's gdth.c), in a file spatch reads only in part: the rule is run on
each branch, so both entries follow the handler; with --multi-kernel the
2.4 entry keeps the legacy handler under #ifndef HAVE_UNLOCKED_IOCTL."""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import CrossFileCase

# Written here in the style of a 2.6 driver that still built for 2.4: a
# debug macro spatch cannot parse, and fops whose #else is for 2.4.
SCSI_C = """#include <linux/fs.h>
#include <linux/version.h>

#define TRACE(a)	{if (debug_state == 1) {printk a;}}

static int debug_state;

static int raid_ioctl(struct inode *inode, struct file *filep,
		      unsigned int cmd, unsigned long arg)
{
	TRACE(("raid_ioctl() cmd 0x%x\\n", cmd));
	if (cmd != RAID_RESCAN)
		return -EINVAL;
	return 0;
}

static struct file_operations raid_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)
	.ioctl	 = raid_ioctl,
	.owner	 = THIS_MODULE,
#else
	ioctl:raid_ioctl,
	owner:THIS_MODULE,
#endif
};
"""
ELSE_LINE = "\tioctl:raid_ioctl,\n"


class VersionBranchTest(CrossFileCase):
    def test_both_entries_follow_the_handler(self):
        self.write({"drivers/scsi/raid.c": SCSI_C})
        result = self.run_convert()
        new = self.new(result, "drivers/scsi/raid.c")
        records = sorted((h for h in result.summary.handlers if h.handler == "raid_ioctl"),
                         key=lambda h: h.line)
        self.assertEqual([(h.line, h.status) for h in records],
                         [(19, HandlerStatus.CONVERTED), (22, HandlerStatus.CONVERTED)])
        self.assertIn("static long raid_ioctl(struct file *filep,", new)
        self.assertIn("#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0)\n"
                      "\t.unlocked_ioctl = raid_ioctl,\n", new)
        self.assertIn("#else\n\t.unlocked_ioctl = raid_ioctl,\n\towner:THIS_MODULE,\n", new)
        self.assertNotIn(ELSE_LINE, new)
        self.assertEqual(new.count("lock_kernel();"), 3)     # one lock, two unlocks

    def test_with_multi_kernel_the_2_4_entry_keeps_the_legacy_handler(self):
        self.write({"drivers/scsi/raid.c": SCSI_C})
        result = self.run_convert("--multi-kernel")
        new = self.new(result, "drivers/scsi/raid.c")
        self.assertIn("static int raid_ioctl(struct inode *inode, struct file *filep,", new)
        self.assertIn("static long raid_unlocked_ioctl(struct file *filep,", new)
        self.assertIn("#else\n#ifdef HAVE_UNLOCKED_IOCTL\n"
                      "\t.unlocked_ioctl = raid_unlocked_ioctl,\n#else\n" + ELSE_LINE
                      + "#endif\n", new)
        self.assertEqual(new.count("#ifdef HAVE_UNLOCKED_IOCTL"), 3)


if __name__ == "__main__":
    unittest.main()

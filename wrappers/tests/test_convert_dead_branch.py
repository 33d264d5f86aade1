"""convert: an entry in a branch that is never compiled with the converted
file (the #else of a LINUX_VERSION_CODE test only kernels before 2.6.11
compile, as in 2.6.9's gdth.c) no longer stops its handler, even in a file
spatch reads only in part; the entry stays, and the summary says why."""

import unittest

from ioctl_rework.summary import HandlerStatus
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


class DeadBranchTest(CrossFileCase):
    def test_the_handler_converts_and_the_2_4_entry_stays(self):
        self.write({"drivers/scsi/raid.c": SCSI_C})
        result = self.run_convert()
        new = self.new(result, "drivers/scsi/raid.c")
        records = sorted((h for h in result.summary.handlers if h.handler == "raid_ioctl"),
                         key=lambda h: h.line)
        self.assertEqual([h.line for h in records], [19, 22])
        self.assertEqual(records[0].status, HandlerStatus.CONVERTED)
        self.assertIn("static long raid_ioctl(struct file *filep,", new)
        self.assertIn("\t.unlocked_ioctl = raid_ioctl,\n", new)
        self.assertIn("#else\n" + ELSE_LINE, new)
        self.assertEqual(records[1].status, HandlerStatus.SKIPPED)
        self.assertIn("#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,0) at line 18 that only "
                      "kernels before 2.6.11 compile", records[1].reason)

    def test_with_multi_kernel_the_2_4_branch_is_live_and_the_handler_left_alone(self):
        self.write({"drivers/scsi/raid.c": SCSI_C})
        result = self.run_convert("--multi-kernel")
        self.assertNotIn("drivers/scsi/raid.c", result.changes)
        records = [h for h in result.summary.handlers if h.handler == "raid_ioctl"]
        self.assertEqual(len(records), 2)
        for record in records:
            self.assertNotEqual(record.status, HandlerStatus.CONVERTED)
            self.assertIn("which spatch does not read", record.reason)


if __name__ == "__main__":
    unittest.main()

"""convert --lock mutex: a .compat_ioctl of the file that takes the BKL
itself keeps the handler legacy, with the reason.

Found by red33 (red33_ioc_table, reduced): the compat handler takes
lock_kernel() around a helper the legacy handler also calls.  Both ran
under the BKL; pushed down under the private mutex, the handler and the
compat handler no longer exclude each other, and a 32-bit and a 64-bit
caller race on what the helper counts.  Spellings of the compat entry:
C99, C99 with &, GNU.  With --lock bkl the same driver converts.  A
handler of another fops of the file proven to share nothing with the
compat handler (ctext.shared_state) converts beside it; one that shares a
variable, directly, through a macro or a helper of the file, or calls
what the file does not define, is refused, with the name.
"""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

DRIVER = """#include <linux/fs.h>
#include <linux/smp_lock.h>

static int cb_count;

static int cb_read(unsigned int cmd)
{
	cb_count++;
	return cmd == 1 ? cb_count : -ENOTTY;
}

static int cb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cb_read(cmd);
}

static long cb_compat_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = cb_read(cmd);
	unlock_kernel();
	return ret;
}

static struct file_operations cb_fops = {
	%s,
	%s,
};
"""
# A second device of the file: its handler reads state of its own, or
# what the body given says.
OTHER = """
#define CB_PEEK()	(cb_count + 0)

static int cd_value;

static int cd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
%s}

static struct file_operations cd_fops = {
	.ioctl		= cd_ioctl,
};
"""
OWN = "\tif (cmd != 2)\n\t\treturn -ENOTTY;\n\treturn put_user(cd_value, (int __user *)arg);\n"
SPELLINGS = {
    "C99": (".ioctl\t\t= cb_ioctl", ".compat_ioctl\t= cb_compat_ioctl"),
    "C99 with &": (".ioctl\t\t= cb_ioctl", ".compat_ioctl\t= &cb_compat_ioctl"),
    "GNU": ("ioctl:\t\tcb_ioctl", "compat_ioctl:\tcb_compat_ioctl"),
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class CompatUnderTheBklTest(CrossFileCase):
    def test_the_handler_stays_legacy_under_the_mutex(self):
        for spelling, entries in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                text = DRIVER % entries
                self.write({"drivers/char/cb.c": text})
                result = self.run_convert("--target", "2.6.36", "--lock", "mutex")
                record = self.handler(result, "cb_ioctl")
                lock = text.split("\n").index("\tlock_kernel();") + 1
                self.assertEqual(record.status, HandlerStatus.SKIPPED)
                self.assertEqual(record.reason,
                                 f"drivers/char/cb.c:{lock}: cb_compat_ioctl, the .compat_ioctl "
                                 "of its file, takes the BKL, and both reach cb_count; under "
                                 "the private mutex the two "
                                 "would no longer exclude each other (--lock bkl keeps them "
                                 "together); converted nowhere")
                self.assertEqual(result.changes, {})

    def test_a_handler_that_shares_nothing_with_it_converts(self):
        for spelling, entries in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                self.write({"drivers/char/cb.c": DRIVER % entries + OTHER % OWN})
                result = self.run_convert("--target", "2.6.36", "--lock", "mutex")
                self.assertEqual(self.handler(result, "cb_ioctl").status,
                                 HandlerStatus.SKIPPED)
                self.assertEqual(self.handler(result, "cd_ioctl").status,
                                 HandlerStatus.CONVERTED)
                new = self.new(result, "drivers/char/cb.c")
                self.assertIn("static long cd_ioctl(struct file *file,", new)
                self.assertIn("static int cb_ioctl(struct inode *inode,", new)

    def test_a_handler_that_may_share_state_with_it_is_refused_with_the_name(self):
        for body, why in (("\treturn cb_count;\n", "both reach cb_count"),
                          ("\treturn CB_PEEK();\n", "both reach cb_count"),
                          ("\treturn cb_read(cmd);\n", "both reach cb_count"),
                          ("\treturn inb(0x2f8);\n",
                           "inb, defined outside the file, may reach the state of either")):
            with self.subTest(body=body):
                self.write({"drivers/char/cb.c": DRIVER % SPELLINGS["C99"] + OTHER % body})
                result = self.run_convert("--target", "2.6.36", "--lock", "mutex")
                record = self.handler(result, "cd_ioctl")
                self.assertEqual(record.status, HandlerStatus.SKIPPED)
                self.assertIn(f"cb_compat_ioctl, the .compat_ioctl of its file, takes the "
                              f"BKL, and {why};", record.reason)
                self.assertEqual(result.changes, {})

    def test_under_the_bkl_it_converts(self):
        self.write({"drivers/char/cb.c": DRIVER % SPELLINGS["C99"]})
        result = self.run_convert("--target", "2.6.36", "--lock", "bkl")
        self.assertEqual(self.handler(result, "cb_ioctl").status, HandlerStatus.CONVERTED)


if __name__ == "__main__":
    unittest.main()

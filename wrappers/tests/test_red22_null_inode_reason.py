"""Red team red22: ctext/null_inode.py calls a local NULL when it is not.

Finding class: a local `struct inode *none = NULL;` that is given the
file's inode later by an assignment inside a condition
(`if ((none = file->f_dentry->d_inode) != NULL)`), or a parameter `none`
while an unrelated inner block declares its own `none = NULL`, is read as
"set only to NULL": a handler that uses its inode is then skipped with the
reason "passes NULL as its inode", which is false.  Not silently wrong
(the handler is left alone and listed), but a false refusal with a wrong
record.  expectedFailure until fixed.
"""

import unittest

from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

HANDLER = """#include <linux/fs.h>

static int nd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		return iminor(inode);
	return -ENOTTY;
}

%s

static struct file_operations nd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nd_ioctl,
};
"""
CALLERS = {
    "assigned in a condition": """static int nd_reset(struct file *file)
{
	struct inode *none = NULL;

	if ((none = file->f_dentry->d_inode) != NULL)
		return nd_ioctl(none, file, 1, 0);
	return 0;
}""",
    "a parameter beside an inner NULL local": """static int nd_reset(struct inode *none, struct file *file)
{
	if (file->f_flags) {
		struct inode *none = NULL;
		(void)none;
	}
	return nd_ioctl(none, file, 1, 0);
}""",
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class NullLocalMisreadTest(CrossFileCase):
    @unittest.expectedFailure
    def test_no_call_is_said_to_pass_null(self):
        for spelling, caller in CALLERS.items():
            with self.subTest(spelling=spelling):
                self.write({"drivers/adv/nd.c": HANDLER % caller,
                            "drivers/adv/Makefile": "obj-m += nd.o\n"})
                record = self.handler(self.run_convert("--target", "2.6.11"), "nd_ioctl")
                self.assertNotIn("passes NULL", record.reason or "")


if __name__ == "__main__":
    unittest.main()

"""ctext.shared_state: may two functions of a file reach the same state?

Under the private mutex, a handler converts beside a .compat_ioctl of its
file that takes the BKL only when the two are proven to share nothing
(convert/groups.py); everything the text cannot prove is shared or
unknown.  Spellings of each way to share: a variable of the file read
directly, through a helper, through a macro of the file; a static local;
a member; a function or macro of another file; a port."""

import unittest

from ioctl_rework.ctext import shared_state

HEAD = """#include <linux/fs.h>
#include <linux/smp_lock.h>

#define SS_GET	_IOR('s', 1, int)
#define SS_BUMP()	(ss_count++)

struct ss_dev {
	int users;
};

static int ss_value;
static int ss_count;
static DEFINE_MUTEX(ss_lock);

static int ss_helper(unsigned int cmd)
{
	static int calls;

	calls++;
	return cmd == 1 ? ss_count : -ENOTTY;
}

static long ss_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = ss_helper(cmd);
	unlock_kernel();
	return ret;
}

"""


def handler(body: str, locals_: str = "\tint v, *p = NULL;\n") -> str:
    return HEAD + ("static int ss_ioctl(struct inode *inode, struct file *file,\n"
                   "\t\t    unsigned int cmd, unsigned long arg)\n{\n" + locals_ + "\n"
                   + body + "}\n")


class ReachTest(unittest.TestCase):
    def reach(self, text: str) -> shared_state.Reach:
        return shared_state.reach(text, "ss_ioctl", "ss_compat_ioctl")

    def test_a_handler_of_its_own_state_shares_nothing(self):
        for body in ("\tif (cmd != SS_GET)\n\t\tgoto bad;\n\tv = ss_value;\n"
                     "\treturn put_user(v, (int __user *)arg);\nbad:\n\treturn -ENOTTY;\n",
                     "\tss_value = arg;\n\treturn 0;\n",
                     "\tif (!capable(CAP_SYS_ADMIN))\n\t\treturn -EPERM;\n"
                     "\treturn copy_to_user((void __user *)arg, &ss_value, sizeof(int)) ?"
                     " -EFAULT : 0;\n"):
            with self.subTest(body=body):
                self.assertTrue(self.reach(handler(body)).disjoint, self.reach(handler(body)))

    def test_each_way_to_share_state_is_seen(self):
        for body, name in (("\treturn ss_count;\n", "ss_count"),
                           ("\treturn ss_helper(cmd);\n", "calls"),
                           ("\tSS_BUMP();\n\treturn 0;\n", "ss_count"),
                           ("\tss_count = 0;\n\treturn 0;\n", "ss_count")):
            with self.subTest(body=body):
                self.assertIn(name, self.reach(handler(body)).shared)
        # A member both reach: the same object may be behind both.
        text = handler("\tstruct ss_dev *dev = file->private_data;\n\treturn dev->users;\n")
        text = text.replace("\tcalls++;\n", "\tcalls++;\n\tss_devs[0].users++;\n")
        self.assertIn("users", self.reach(text).shared)

    def test_what_the_file_does_not_define_is_unknown(self):
        for body, name in (("\treturn inb(0x300);\n", "inb"),
                           ("\treturn other_file_read(cmd);\n", "other_file_read"),
                           ("\treturn HW_STATUS;\n", "HW_STATUS"),
                           ("\treturn some_global;\n", "some_global")):
            with self.subTest(body=body):
                reach = self.reach(handler(body))
                self.assertEqual(reach.unknown, {name})
                self.assertFalse(reach.disjoint)

    def test_a_local_named_like_a_variable_of_the_file_is_not_trusted(self):
        # `int ss_count` in the handler shadows the file's in that block
        # only; the text does not say which block a use is in.
        text = handler("\tss_count = 1;\n\treturn 0;\n", "\tint ss_count;\n")
        self.assertIn("ss_count", self.reach(text).shared)

    def test_labels_types_and_locals_are_the_functions_own(self):
        text = handler("\tmy_len_t n = 0;\n\tif (!n)\n\t\tgoto out;\nout:\n\treturn n;\n")
        text = text.replace("struct ss_dev {", "typedef int my_len_t;\nstruct ss_dev {")
        self.assertTrue(self.reach(text).disjoint, self.reach(text))


if __name__ == "__main__":
    unittest.main()

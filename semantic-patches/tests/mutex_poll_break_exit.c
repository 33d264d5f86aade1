// options: -D mutex
/*
 * -D mutex, a poll loop with no condition of its own: the loop is
 * for (;;), while (1) or do ... while (1), and its exit is a break or a
 * return under a test of shared state in its body.  Another call sets
 * that state; under the private mutex it never can (a HANG; red_mx_poll_member
 * of the adversarial measure, mutex-auto, converted by pushdown).  Each
 * spelling is refused like a loop whose condition reads the state.  A
 * loop whose break tests a local counter only polls nothing: it converts.
 */
#include <linux/fs.h>
#include <linux/delay.h>

struct pk_box {
	int full;
	int word;
};

static int pk_flag;

static int pk_wait_full(struct pk_box *box)
{
	for (;;) {
		if (box->full)
			break;
		if (msleep_interruptible(5))
			return -EINTR;
	}
	return 0;
}

static int pa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct pk_box *box = file->private_data;

	if (cmd == 1) {
		box->full = 1;
		return 0;
	}
	return pk_wait_full(box);
}

static int pb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 1) {
		pk_flag = 1;
		return 0;
	}
	while (1) {
		if (pk_flag)
			return 1;
		msleep(10);
	}
}

static int pc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct pk_box *box = file->private_data;

	do {
		ssleep(1);
		if (box->word != 0)
			break;
	} while (1);
	return box->word;
}

static int pd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int tries = 0;

	for (;;) {
		if (++tries > 5)
			break;
		msleep(1);
	}
	return tries;
}

static struct file_operations pa_fops = { .ioctl = pa_ioctl, };
static struct file_operations pb_fops = { .ioctl = pb_ioctl, };
static struct file_operations pc_fops = { .ioctl = pc_ioctl, };
static struct file_operations pd_fops = { .ioctl = pd_ioctl, };

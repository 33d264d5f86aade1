// options: -D mutex
// Expected: mutex_poll_loop_refused.report.res (what report mode prints).
/*
 * With -D mutex, a handler that waits or delays in a loop until shared
 * state changes deadlocks: the BKL was dropped while its holder slept,
 * the private mutex is not, and the ioctl that would set the state waits
 * for the mutex.  Each spelling is refused: msleep() on a file-scope flag,
 * ssleep() on a member through a pointer, a udelay() busy loop in a do/while
 * in a helper of the file, mdelay() in a for loop on an element.
 * A loop over a local counter polls nothing: that handler converts.
 */
#include <linux/fs.h>
#include <linux/delay.h>

struct pl_dev {
	int ready;
	int done;
};

static int pl_flag;
static int pl_state[4];

static int pa_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		pl_flag = 1;
	while (!pl_flag)
		msleep(10);
	return 0;
}

static int pb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct pl_dev *dev = file->private_data;

	while (!dev->ready) {
		ssleep(1);
	}
	return 0;
}

static void pc_wait_done(struct pl_dev *dev)
{
	do {
		udelay(50);
	} while (!dev->done);
}

static int pc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	pc_wait_done(file->private_data);
	return 0;
}

static int pd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int i;

	for (i = 0; !pl_state[arg & 3]; i++)
		mdelay(1);
	return i;
}

static int pe_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int tries;

	for (tries = 0; tries < 3; tries++)
		udelay(10);
	return 0;
}

static struct file_operations pa_fops = { .ioctl = pa_ioctl, };
static struct file_operations pb_fops = { .ioctl = pb_ioctl, };
static struct file_operations pc_fops = { .ioctl = pc_ioctl, };
static struct file_operations pd_fops = { .ioctl = pd_ioctl, };
static struct file_operations pe_fops = { .ioctl = pe_ioctl, };

// options: -D mutex
// variant pushdown: -D pushdown
/*
 * -D mutex and handlers that call themselves or each other directly: a
 * called handler gets the wrapper, so the body its callers call under the
 * private mutex does not take it again; -D pushdown refuses the group.
 */
#include <linux/fs.h>
void st_aux_reset();
void st_hw_reset();

#define ST_RESET	_IO('S', 1)
#define ST_RETRY	_IO('S', 2)
#define ST_BOTH		_IO('S', 3)

static int st_aux_ioctl(struct inode *, struct file *, unsigned int,
			unsigned long);

static int st_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int err;

	switch (cmd) {
	case ST_RETRY:
		err = st_ioctl(inode, file, ST_RESET, 0);
		if (err)
			return err;
		return st_ioctl(inode, file, ST_RESET, arg);
	case ST_RESET:
		st_hw_reset(iminor(inode));
		return 0;
	}
	return -ENOTTY;
}

static int st_ctl_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd == ST_BOTH && st_ioctl(inode, file, ST_RESET, 0) == 0)
		return st_aux_ioctl(inode, file, ST_RESET, arg);
	return -ENOTTY;
}

static int st_aux_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	if (cmd != ST_RESET)
		return st_ctl_ioctl(inode, file, cmd, arg);
	st_aux_reset();
	return 0;
}

static struct file_operations st_fops = {
	.ioctl		= st_ioctl,
};

static struct file_operations st_ctl_fops = {
	.ioctl		= st_ctl_ioctl,
};

static struct file_operations st_aux_fops = {
	.ioctl		= st_aux_ioctl,
};

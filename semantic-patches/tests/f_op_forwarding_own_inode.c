// rule: f_op_ioctl_forwarding.cocci
// A handler that forwards its own inode and file (as a stacking driver
// may): the VFS called it with the inode of that file, so the unlocked
// call loses nothing.  Proven for a static handler that the VFS (a fops
// entry) and its wrapper alone call, and for a converted handler whose
// inode local comes from its file.  Refused: the inode written first, a
// handler other files may call, one called here with another inode.
#include <linux/fs.h>

static int st_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	if (!lower->f_op || !lower->f_op->ioctl)
		return -ENOTTY;
	return lower->f_op->ioctl(inode, file, cmd, arg);
}

static long st_unlocked_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	int ret;

	lock_kernel();
	ret = st_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}

static long pushed_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *ino = file_inode(file);
	struct file *lower = file->private_data;

	return (*lower->f_op->ioctl)(ino, file, cmd, arg);
}

static int rewritten_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	inode = lower->f_dentry->d_inode;
	return lower->f_op->ioctl(inode, file, cmd, arg);
}

int global_ioctl(struct inode *inode, struct file *file,
		 unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return lower->f_op->ioctl(inode, file, cmd, arg);
}

static int called_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct file *lower = file->private_data;

	return lower->f_op->ioctl(inode, file, cmd, arg);
}

static int peek(struct inode *other, struct file *file)
{
	return called_ioctl(other, file, 0, 0);
}

static struct file_operations st_fops = {
	.unlocked_ioctl = st_unlocked_ioctl,
};

static struct file_operations pushed_fops = {
	.unlocked_ioctl = pushed_ioctl,
};

static struct file_operations rest_fops = {
	.ioctl = rewritten_ioctl,
};

static struct file_operations called_fops = {
	.ioctl = called_ioctl,
};

/*
 * Every call of the explicit list of pure calls (PURE_CALLS in the rule),
 * with current->..., sizeof and casts, may stay in the declarations before
 * the lock: auto picks pushdown.  A call added to the list must be added
 * here.
 */
#include <linux/fs.h>
void all_command();

static int all_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned int unit = iminor(inode);
	unsigned int major = imajor(inode);
	unsigned int minor = MINOR(inode->i_rdev);
	unsigned int dev_major = MAJOR(inode->i_rdev);
	struct inode *same = file_inode(file);
	struct proc_dir_entry *entry = PDE(inode);
	struct proc_inode *pi = PROC_I(inode);
	struct all_dev *dev = container_of(inode->i_cdev, struct all_dev, cdev);
	struct all_req *req = list_entry(file->private_data, struct all_req, list);
	struct delayed_work *dw = to_delayed_work(&dev->work);
	struct all_priv *priv = dev_get_drvdata(&dev->dev);
	pid_t pid = current->pid;
	size_t size = sizeof(struct all_req);
	void __user *argp = (void __user *)arg;

	all_command(unit, major, minor, dev_major, same, entry, pi,
		    req, dw, priv, pid, size, argp, cmd);
	return 0;
}

static struct file_operations all_fops = {
	.ioctl		= all_ioctl,
};

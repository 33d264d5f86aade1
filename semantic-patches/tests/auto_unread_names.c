// Expected: auto_unread_names.report.res (what report mode prints).
/*
 * Default-deny auto: a name a handler uses whose definition was not read
 * may be a macro that returns: a lower-case name standing alone as a
 * statement, an upper-case call and, in a tree or not (here not), a
 * lower-case call whose value is used (returned, or in an initializer)
 * get the wrapper.  What the file declares or defines, a macro of it that
 * does not return, or a kernel interface is read: those handlers are
 * pushed down.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

#define GF_LEVEL(dev)	((dev)->level * 2)

struct gz_dev {
	int level;
};

int ge_command(struct gz_dev *dev, unsigned int cmd);

static int gf_helper(struct gz_dev *dev)
{
	return dev->level;
}

static int ga_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct gz_dev *dev = file->private_data;

	ga_enter;
	return dev->level;
}

static int gb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct gz_dev *dev = file->private_data;

	GB_CHECK(dev);
	return dev->level;
}

static int gc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct gz_dev *dev = file->private_data;

	return gc_command(dev, cmd, arg);
}

static int gd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int status = gd_status(file->private_data);

	return status;
}

static int ge_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct gz_dev *dev = file->private_data;

	if (copy_to_user((void __user *)arg, &dev->level, sizeof(int)))
		return -EFAULT;
	return ge_command(dev, cmd);
}

static int gf_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct gz_dev *dev = file->private_data;

	if (GF_LEVEL(dev) > 4)
		return -EBUSY;
	return gf_helper(dev);
}

static struct file_operations ga_fops = { .ioctl = ga_ioctl, };
static struct file_operations gb_fops = { .ioctl = gb_ioctl, };
static struct file_operations gc_fops = { .ioctl = gc_ioctl, };
static struct file_operations gd_fops = { .ioctl = gd_ioctl, };
static struct file_operations ge_fops = { .ioctl = ge_ioctl, };
static struct file_operations gf_fops = { .ioctl = gf_ioctl, };

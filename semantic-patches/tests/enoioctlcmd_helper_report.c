// Expected: enoioctlcmd_helper_report.report.res (what report mode prints).
/*
 * A handler that passes back the -ENOIOCTLCMD of a helper of its file
 * changes what userspace sees as much as one that returns it itself:
 * report mode says so, whether it returns the helper's value, keeps it in
 * a local first, or reaches the helper through another (the one that
 * returns it is named).  A handler whose helpers never return it is not
 * flagged.
 */
#include <linux/fs.h>

static int hx_common(unsigned int cmd)
{
	if (cmd == 1)
		return 0;
	return -ENOIOCTLCMD;
}

static int hx_outer(unsigned int cmd)
{
	return hx_common(cmd + 1);
}

static int hx_plain(unsigned int cmd)
{
	return cmd ? -EINVAL : 0;
}

static int ha_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return hx_common(cmd);
}

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret;

	ret = hx_outer(cmd);
	return ret;
}

static int hc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return hx_plain(cmd);
}

static struct file_operations ha_fops = { .ioctl = ha_ioctl, };
static struct file_operations hb_fops = { .ioctl = hb_ioctl, };
static struct file_operations hc_fops = { .ioctl = hc_ioctl, };

/*
 * Default-deny auto: where a declaration's initializer is the only thing
 * that must not run before the lock, the declaration stays without it and
 * the assignment follows the lock (the ext2/ext3/ncpfs/smbfs class): a
 * function that looks up the inode's private part, a macro of the file
 * that reads through the inode, a read-modify-write of shared state.
 */
#include <linux/fs.h>
#include <asm/uaccess.h>

struct sp_info {
	int flags;
};

struct sp_dev {
	int users;
};

struct sp_info *sp_info_of(struct inode *inode);

#define SP_SERVER(inode)	((struct sp_dev *)(inode)->i_sb->s_fs_info)

static int sa_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct sp_info *si = sp_info_of(inode);
	unsigned int flags;

	if (cmd != 1)
		return -ENOTTY;
	flags = si->flags;
	return put_user(flags, (int __user *)arg);
}

static int sb_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct sp_dev *server = SP_SERVER(inode);

	server->users = 0;
	return 0;
}

static int sc_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long arg)
{
	struct sp_dev *dev = filp->private_data;
	int users = dev->users;

	dev->users = users + 1;
	return users;
}

static struct file_operations sa_fops = { .ioctl = sa_ioctl, };
static struct file_operations sb_fops = { .ioctl = sb_ioctl, };
static struct file_operations sc_fops = { .ioctl = sc_ioctl, };

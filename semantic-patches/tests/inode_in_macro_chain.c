/*
 * The handlers reach their inode only through a macro that names another
 * macro (to depth three, object-like through function-like, and a pair
 * naming each other, which the preprocessor stops at the second): every
 * link is the file's and outside every #if, so the derived local is a
 * use in every build.
 */
#include <linux/fs.h>
int lamp_set();

#define LAMP_UNIT_OF(i)	iminor(i)
#define LAMP_RAW()	LAMP_UNIT_OF(inode)
#define LAMP_UNIT()	LAMP_RAW()
#define LAMP_SLOT	(&lamps[LAMP_UNIT()])
#define LAMP_PING()	(LAMP_PONG + iminor(inode))
#define LAMP_PONG	LAMP_PING()

static int lamp_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return lamp_set(LAMP_UNIT(), arg);
}

static int lamp_slot_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return lamp_set(LAMP_SLOT, arg);
}

static int lamp_pong_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	return lamp_set(LAMP_PONG, arg);
}

static struct file_operations lamp_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_ioctl,
};

static struct file_operations lamp_slot_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_slot_ioctl,
};

static struct file_operations lamp_pong_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= lamp_pong_ioctl,
};

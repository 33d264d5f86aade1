/* hb_body.h: the handler and fops of hb_main.c, kept in its header. */
#define HB_GET		_IO('h', 0x31)

static int hb_value;

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd != HB_GET)
		return -ENOTTY;
	return hb_value++;
}

static struct file_operations hb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hb_ioctl,
};

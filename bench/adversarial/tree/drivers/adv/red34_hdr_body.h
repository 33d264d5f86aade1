/*
 * red34_hdr_body.h: the handler and the fops of red34_hdr_body, kept in a
 * header of the driver that only red34_hdr_body.c includes.
 */
#define HB_GET		_IO('h', 0x31)
#define HB_SET		_IO('h', 0x32)

static int hb_value;

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case HB_GET:
		return hb_value;
	case HB_SET:
		hb_value = arg;
		return 0;
	}
	return -ENOTTY;
}

static struct file_operations hb_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= hb_ioctl,
};

/*
 * A driver macro returns from the handler: pushdown cannot see that exit,
 * so auto picks the wrapper, whose unlock runs however the body returns.
 */
#include <linux/fs.h>

#define CHECK_CARD(c)				\
	do {					\
		if (!(c)->present)		\
			return -ENODEV;		\
	} while (0)

static int isdn_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct isdn_card *card = &isdn_cards[iminor(inode)];

	CHECK_CARD(card);
	return isdn_command(card, cmd, arg);
}

static struct file_operations isdn_fops = {
	.ioctl		= isdn_ioctl,
};

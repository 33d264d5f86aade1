/*
 * card.c: a card whose ioctl validates it through VALIDATE_CARD, a macro
 * that calls CARD_CHECK, which returns.
 */
#include <linux/fs.h>
#include <linux/module.h>

#define CARD_MAGIC	0x4341
#define CARD_CHECK(c, magic)					\
	do {							\
		if (!(c) || (c)->magic_nr != (magic))		\
			return -ENXIO;				\
	} while (0)
#define VALIDATE_CARD(c)	CARD_CHECK(c, CARD_MAGIC)

struct card {
	int magic_nr;
};

static int card_command(struct card *card, unsigned int cmd, unsigned long arg);

static int card_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct card *card = file->private_data;

	VALIDATE_CARD(card);
	return card_command(card, cmd, arg);
}

static struct file_operations card_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= card_ioctl,
};

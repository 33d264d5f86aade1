/*
 * red_fwd_ptr_table: one control node in front of two unit drivers,
 * chosen by a table of pointers to their fops.
 * Shape: static const struct file_operations *tab[] = { &a, &b };
 * tab[i]->ioctl(inode, file, cmd, arg), the index from the argument.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define RPT_UNIT0	_IO('d', 1)
#define RPT_UNIT1	_IO('d', 2)
#define RPT_PORT	0x3b8

static int rpt_a_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	outb(0xa0, RPT_PORT);
	return 10;
}

static int rpt_b_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return inb(RPT_PORT + 1) + 20;
}

static struct file_operations rpt_a_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpt_a_ioctl,
};

static struct file_operations rpt_b_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpt_b_ioctl,
};

static const struct file_operations *rpt_units[] = {
	&rpt_a_fops,
	&rpt_b_fops,
};

static int rpt_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	unsigned int unit;

	if (cmd == RPT_UNIT0)
		unit = 0;
	else if (cmd == RPT_UNIT1)
		unit = 1;
	else
		return -ENOTTY;
	return rpt_units[unit]->ioctl(inode, file, cmd, arg);
}

static struct file_operations rpt_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= rpt_ioctl,
};

static struct miscdevice rpt_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red_fwd_ptr_table",
	.fops	= &rpt_fops,
};

static int __init rpt_init(void)
{
	return misc_register(&rpt_misc);
}
module_init(rpt_init);
MODULE_LICENSE("GPL");

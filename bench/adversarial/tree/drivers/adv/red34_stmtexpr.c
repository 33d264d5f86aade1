/*
 * red34_stmtexpr: a thermometer with a validated reading.
 * Shape: a statement-expression macro of the file, ({ ... return ...; }),
 * used as an if condition, as a return value and as a function argument,
 * each after the handler's first write to shared state; and the tree
 * header's r34_gate_read() beside it.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <linux/r34gate.h>

#define SE_PORT		0x310
#define SE_READ		_IO('t', 0xc1)
#define SE_CHECK	_IO('t', 0xc2)
#define SE_GATE		_IO('t', 0xc3)

#define se_sample() ({ \
	int __s = inb(SE_PORT); \
	if (__s & 0x80) \
		return -EAGAIN; \
	__s; })

static int se_reads;

static int se_scale(int v)
{
	return v * 2;
}

static int se_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	se_reads++;
	outb(arg, SE_PORT);
	if (cmd == SE_CHECK && se_sample() > 2)
		return 1;
	if (cmd == SE_READ)
		return se_scale(se_sample()) + se_reads;
	if (cmd == SE_GATE)
		return r34_gate_read(0);
	if (cmd == SE_CHECK)
		return 0;
	return -ENOTTY;
}

static struct file_operations se_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= se_ioctl,
};

static struct miscdevice se_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_stmtexpr",
	.fops	= &se_fops,
};

static int __init se_init(void)
{
	return misc_register(&se_misc);
}
module_init(se_init);
MODULE_LICENSE("GPL");

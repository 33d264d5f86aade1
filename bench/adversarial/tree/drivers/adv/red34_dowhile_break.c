/*
 * red34_dowhile_break: a motor controller whose error macro records the
 * error and "breaks" out of a do { } while (0), not out of the switch.
 * Shape: DB_FAIL(r) = do { ret = (r); break; } while (0) used inside the
 * cases (the break ends only the macro's loop, so the case goes on and
 * writes the hardware); a do { if (...) break; ... } while (0) block of
 * the handler itself before the switch, touching shared state.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>

#define DB_PORT		0x320
#define DB_RUN		_IO('m', 0xd1)
#define DB_STOP		_IO('m', 0xd2)

#define DB_FAIL(r)	do { ret = (r); break; } while (0)

static int db_speed;
static int db_errors;

static int db_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret = 0;

	do {
		if (arg == 0)
			break;
		db_speed = arg;
	} while (0);

	switch (cmd) {
	case DB_RUN:
		if (db_speed > 2)
			DB_FAIL(-ERANGE);
		outb(db_speed, DB_PORT);
		break;
	case DB_STOP:
		if (inb(DB_PORT) & 0x80)
			DB_FAIL(-EIO);
		outb(0, DB_PORT);
		break;
	default:
		return -ENOTTY;
	}
	if (ret)
		db_errors++;
	return ret ? ret - db_errors : db_speed;
}

static struct file_operations db_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= db_ioctl,
};

static struct miscdevice db_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "red34_dowhile_break",
	.fops	= &db_fops,
};

static int __init db_init(void)
{
	return misc_register(&db_misc);
}
module_init(db_init);
MODULE_LICENSE("GPL");

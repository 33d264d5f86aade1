/*
 * sly_goto_macro: a relay card with a command latch and a queue under the
 * driver's own semaphore.
 * Shape: macros that jump out of a locked region.  GM_FAIL jumps to the
 * exit label from before the first hardware access and from after it, so
 * a lock pushed down between the two reaches one label held on one path
 * and free on the other; GM_DROP gives the driver's semaphore back and
 * jumps out of its region from inside a loop.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <asm/io.h>
#include <asm/semaphore.h>

#define GM_PORT		0x2f0
#define GM_LATCH	_IO('g', 1)
#define GM_QUEUE	_IO('g', 2)

#define GM_FAIL(e)	do { ret = (e); goto out; } while (0)
#define GM_DROP(e)	do { ret = (e); up(&gm_sem); goto out; } while (0)

static DECLARE_MUTEX(gm_sem);
static int gm_latched;
static int gm_queue[4];

static int gm_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int ret = 0;
	int i;

	if (cmd != GM_LATCH && cmd != GM_QUEUE)
		GM_FAIL(-ENOTTY);
	outb(arg & 0xff, GM_PORT + 1);
	if (cmd == GM_LATCH) {
		if (inb(GM_PORT + 1) & 1)
			GM_FAIL(-EIO);
		ret = ++gm_latched;
		goto out;
	}
	down(&gm_sem);
	for (i = 0; i < 4; i++) {
		if (gm_queue[i] == (int)(arg & 0xff))
			GM_DROP(-EBUSY);
		if (!gm_queue[i]) {
			gm_queue[i] = (int)(arg & 0xff);
			GM_DROP(i);
		}
	}
	up(&gm_sem);
	ret = -ENOSPC;
out:
	return ret;
}

static struct file_operations gm_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= gm_ioctl,
};

static struct miscdevice gm_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "sly_goto_macro",
	.fops	= &gm_fops,
};

static int __init gm_init(void)
{
	return misc_register(&gm_misc);
}
module_init(gm_init);
MODULE_LICENSE("GPL");

// options: -D mutex
/*
 * Handlers that reach the BKL through a helper of the file: one drops
 * it around a sleep, one takes it through a second helper.  Under the
 * private mutex the BKL is not held where the helper unlocks it, and the
 * mutex is not dropped where the BKL was: each handler is refused, with
 * the helper named.  A handler whose helpers leave the BKL alone is
 * converted.
 */
#include <linux/fs.h>
#include <linux/smp_lock.h>
#include <linux/delay.h>

static void bh_sleep_unlocked(unsigned int ms)
{
	unlock_kernel();
	msleep(ms);
	lock_kernel();
}

static void bh_locked_poke(void)
{
	lock_kernel();
	bh_poke_hardware();
	unlock_kernel();
}

static void bh_poke(void)
{
	bh_locked_poke();
}

static int bh_count(void)
{
	return bh_events;
}

static int bh_wait_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	bh_sleep_unlocked(arg);
	return 0;
}

static int bh_poke_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	bh_poke();
	return 0;
}

static int bh_count_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	return bh_count();
}

static struct file_operations bh_wait_fops = {
	.ioctl		= bh_wait_ioctl,
};

static struct file_operations bh_poke_fops = {
	.ioctl		= bh_poke_ioctl,
};

static struct file_operations bh_count_fops = {
	.ioctl		= bh_count_ioctl,
};

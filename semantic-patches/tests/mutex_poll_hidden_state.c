// options: -D mutex
/*
 * -D mutex, default-deny on a poll loop's condition: it is local only when
 * it names locals and parameters (set in the loop from such values alone)
 * and constants.  A global a header declares, a function that reads the
 * device or shared state, a macro that reads a register, and a local
 * copied from shared state in the loop are all polls: refused.  A counter
 * bounded by a number macro or an enumerator, and a local set from
 * another local, poll nothing: those convert.
 */
#include <linux/fs.h>
#include <linux/delay.h>
#include "mutex_poll_hidden_state.h"

#define HS_TRIES	(10 * 2)
#define HS_STATUS	inb(hs_base + 1)

enum hs_phase { HS_IDLE, HS_BUSY = 4, HS_DONE };

static int hs_flag;

static int ha_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	while (!hs_ready_from_header)
		msleep(10);
	return 0;
}

static int hb_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	while (!hs_done(arg))
		msleep_interruptible(5);
	return 0;
}

static int hc_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	do {
		udelay(20);
	} while (!(HS_STATUS & 1));
	return 0;
}

static int hd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int seen = 0;

	while (!seen) {
		ssleep(1);
		seen = hs_flag;
	}
	return 0;
}

static int he_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int i, phase = HS_IDLE, step;

	for (i = 0; i < HS_TRIES; i++)
		udelay(10);
	while (phase != HS_DONE) {
		step = i + 1;
		phase = step > 3 ? HS_DONE : HS_BUSY;
		msleep(1);
	}
	return 0;
}

static struct file_operations ha_fops = { .ioctl = ha_ioctl, };
static struct file_operations hb_fops = { .ioctl = hb_ioctl, };
static struct file_operations hc_fops = { .ioctl = hc_ioctl, };
static struct file_operations hd_fops = { .ioctl = hd_ioctl, };
static struct file_operations he_fops = { .ioctl = he_ioctl, };

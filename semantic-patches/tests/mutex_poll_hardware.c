// options: -D mutex
/*
 * With -D mutex, a busy-wait loop (udelay, ndelay, mdelay, cpu_relax) on a
 * device register at a fixed or local address polls the device, not state
 * another call sets; the BKL was never dropped in such a loop, so the
 * private mutex changes nothing there: each of hw_a..hw_e converts, the
 * register read through inb, readl at a local address, ioread8 at a cast
 * constant, a function-like register macro and an object-like one.  Still
 * refused (default-deny): a loop that sleeps (msleep: under the BKL another
 * call could set the device meanwhile), a busy loop on memory, a busy loop
 * on a register whose address is read through a pointer or from a global
 * (through a macro), and a busy loop that calls a function of the file.
 */
#include <linux/fs.h>
#include <linux/delay.h>
#include <asm/io.h>

#define HW_STATUS	0x1f7
#define HW_READY	0x80
#define HW_IS_READY()	(inb(HW_STATUS) & HW_READY)
#define HW_BUSY		(inb(HW_STATUS + 2) & 1)
#define HW_GLOBAL_BUSY	(ioread8(hw_regs) & 1)

struct hw_dev {
	int ready;
	void __iomem *base;
};

static void __iomem *hw_regs;

static int hw_a_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	while (!(inb(HW_STATUS) & HW_READY))
		udelay(10);
	return inb(HW_STATUS + 1);
}

static int hw_b_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	unsigned long base = arg;
	int n = 0;

	do {
		ndelay(100);
		n++;
	} while (!(readl((void __iomem *)base + 4) & 1) && n < 50);
	return n;
}

static int hw_c_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	int i;

	for (i = 0; i < 1000 && !(ioread8((void __iomem *)0x40) & 1); i++)
		mdelay(1);
	return i;
}

static int hw_d_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	while (!HW_IS_READY())
		udelay(2);
	return 0;
}

static int hw_e_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	int tries = 100;

	while (tries-- && HW_BUSY)
		udelay(1);
	return tries;
}

static int hw_sleep_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	while (!(inb(HW_STATUS) & HW_READY))
		msleep(10);
	return 0;
}

static int hw_mem_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct hw_dev *dev = file->private_data;

	if (cmd == 1)
		dev->ready = 1;
	while (!dev->ready)
		udelay(10);
	return 0;
}

static int hw_ptr_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct hw_dev *dev = file->private_data;

	while (!(readl(dev->base) & 1))
		udelay(1);
	return 0;
}

static int hw_glob_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	while (HW_GLOBAL_BUSY)
		udelay(1);
	return 0;
}

static void hw_kick(void)
{
	outb(1, HW_STATUS);
}

static int hw_call_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	while (!(inb(HW_STATUS) & HW_READY)) {
		hw_kick();
		udelay(1);
	}
	return 0;
}

static struct file_operations hw_a_fops = { .ioctl = hw_a_ioctl, };
static struct file_operations hw_b_fops = { .ioctl = hw_b_ioctl, };
static struct file_operations hw_c_fops = { .ioctl = hw_c_ioctl, };
static struct file_operations hw_d_fops = { .ioctl = hw_d_ioctl, };
static struct file_operations hw_e_fops = { .ioctl = hw_e_ioctl, };
static struct file_operations hw_sleep_fops = { .ioctl = hw_sleep_ioctl, };
static struct file_operations hw_mem_fops = { .ioctl = hw_mem_ioctl, };
static struct file_operations hw_ptr_fops = { .ioctl = hw_ptr_ioctl, };
static struct file_operations hw_glob_fops = { .ioctl = hw_glob_ioctl, };
static struct file_operations hw_call_fops = { .ioctl = hw_call_ioctl, };

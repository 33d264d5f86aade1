// SPDX-License-Identifier: GPL-2.0
/*
 * fx_regs: a register file of FX_REGS_NR 32-bit registers; register 0
 * holds a read-only ID.
 *
 * Point: a switch with many returns, several of them computed, such as
 * "return copy_to_user(...) ? -EFAULT : 0;": a pushed-down unlock must come
 * after the copy the return expression performs, not before it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fixture/fx_regs.h>
#include "fixture_observer.h"

static u32 fx_regs_file[FX_REGS_NR] = {
	[FX_REGS_ID] = FX_REGS_ID_VALUE,
};

static int fx_regs_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_reg reg;

	fixture_observe(inode);
	switch (cmd) {
	case FX_REGS_READ:
		if (copy_from_user(&reg, argp, sizeof(reg)))
			return -EFAULT;
		if (reg.index >= FX_REGS_NR)
			return -EINVAL;
		reg.value = fx_regs_file[reg.index];
		return copy_to_user(argp, &reg, sizeof(reg)) ? -EFAULT : 0;
	case FX_REGS_WRITE:
		if (copy_from_user(&reg, argp, sizeof(reg)))
			return -EFAULT;
		if (reg.index >= FX_REGS_NR)
			return -EINVAL;
		if (reg.index == FX_REGS_ID)
			return -EPERM;
		fx_regs_file[reg.index] = reg.value;
		return 0;
	case FX_REGS_COUNT:
		return put_user(FX_REGS_NR, (u32 __user *)argp);
	case FX_REGS_CLEAR:
		memset(&fx_regs_file[FX_REGS_ID + 1], 0,
		       sizeof(fx_regs_file) - sizeof(fx_regs_file[0]));
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_regs_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_regs_ioctl,
};

static struct miscdevice fx_regs_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_regs",
	.fops	= &fx_regs_fops,
};
module_misc_device(fx_regs_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl with many and computed returns");
MODULE_LICENSE("GPL");

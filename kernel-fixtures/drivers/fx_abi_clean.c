// SPDX-License-Identifier: GPL-2.0
/*
 * fx_abi_clean: a window and its limit, moved through user pointers.
 *
 * Point: the compat classifier's compat-ptr class.  arg is only ever a
 * user pointer, and struct fx_abi_window has the same size and member
 * offsets for i386 and x86_64 (its __u64 is naturally aligned), so a
 * 32-bit caller needs only compat_ptr() applied to its pointer.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_abi_clean.h>
#include "fixture_observer.h"

static struct fx_abi_window fx_abi_clean_window;

static int fx_abi_clean_ioctl(struct inode *inode, struct file *file,
			      unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_abi_window window;

	fixture_observe(inode);
	switch (cmd) {
	case FX_ABI_CLEAN_SET_WINDOW:
		if (copy_from_user(&window, argp, sizeof(window)))
			return -EFAULT;
		if (window.size > FX_ABI_CLEAN_LIMIT ||
		    window.base > FX_ABI_CLEAN_LIMIT - window.size)
			return -EINVAL;
		fx_abi_clean_window = window;
		return 0;
	case FX_ABI_CLEAN_GET_WINDOW:
		if (copy_to_user(argp, &fx_abi_clean_window,
				 sizeof(fx_abi_clean_window)))
			return -EFAULT;
		return 0;
	case FX_ABI_CLEAN_GET_LIMIT:
		return put_user(FX_ABI_CLEAN_LIMIT, (u32 __user *)arg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_abi_clean_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_abi_clean_ioctl,
};

static struct miscdevice fx_abi_clean_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_abi_clean",
	.fops	= &fx_abi_clean_fops,
};
module_misc_device(fx_abi_clean_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl whose pointer arguments are 32/64-bit clean");
MODULE_LICENSE("GPL");

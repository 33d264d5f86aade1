// SPDX-License-Identifier: GPL-2.0
/*
 * fx_buffer: copies a user buffer in, reverses it, copies it back and
 * returns the sum of its bytes.
 *
 * Point: goto unwinding.  Every failure after the first jumps to a label
 * that frees what was allocated, and the handler leaves through one final
 * return, where a pushed-down unlock belongs.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <fixture/fx_buffer.h>
#include "fixture_observer.h"

static struct fx_buffer_last fx_buffer_last;

static u32 fx_buffer_reverse(u8 *data, u32 len)
{
	u32 i, sum = 0;

	for (i = 0; i < len; i++)
		sum += data[i];
	for (i = 0; i < len / 2; i++)
		swap(data[i], data[len - 1 - i]);
	return sum;
}

static int fx_buffer_ioctl(struct inode *inode, struct file *file,
			   unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_buffer_xfer xfer;
	u8 *data = NULL;
	int ret;

	fixture_observe(inode);
	switch (cmd) {
	case FX_BUFFER_XFER:
		break;
	case FX_BUFFER_GET_LAST:
		ret = copy_to_user(argp, &fx_buffer_last,
				   sizeof(fx_buffer_last)) ? -EFAULT : 0;
		goto out;
	default:
		ret = -ENOTTY;
		goto out;
	}

	ret = -EFAULT;
	if (copy_from_user(&xfer, argp, sizeof(xfer)))
		goto out;
	ret = -EINVAL;
	if (!xfer.len || xfer.len > FX_BUFFER_MAX)
		goto out;
	ret = -ENOMEM;
	data = kmalloc(xfer.len, GFP_KERNEL);
	if (!data)
		goto out;

	ret = -EFAULT;
	if (copy_from_user(data, u64_to_user_ptr(xfer.data), xfer.len))
		goto out_free;
	xfer.sum = fx_buffer_reverse(data, xfer.len);
	if (copy_to_user(u64_to_user_ptr(xfer.data), data, xfer.len))
		goto out_free;
	if (copy_to_user(argp, &xfer, sizeof(xfer)))
		goto out_free;

	fx_buffer_last.len = xfer.len;
	fx_buffer_last.sum = xfer.sum;
	ret = 0;
out_free:
	kfree(data);
out:
	return ret;
}

static const struct file_operations fx_buffer_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_buffer_ioctl,
};

static struct miscdevice fx_buffer_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_buffer",
	.fops	= &fx_buffer_fops,
};
module_misc_device(fx_buffer_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl unwinding with goto");
MODULE_LICENSE("GPL");

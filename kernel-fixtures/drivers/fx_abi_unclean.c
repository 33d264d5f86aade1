// SPDX-License-Identifier: GPL-2.0
/*
 * fx_abi_unclean: a timeout, a checksum over a user buffer, a time stamp
 * and a ping.
 *
 * Point: the compat classifier's needs-translation class.  struct
 * fx_abi_timeout holds a long, struct fx_abi_chunk a pointer, and struct
 * fx_abi_stamp a __u64 after a __u32: each is laid out differently for
 * i386, so sharing the handler would hand it 32-bit structures it reads
 * as 64-bit ones.  The handler must get no .compat_ioctl: 32-bit callers
 * keep failing with EINVAL and the "Unknown cmd" log line, even for the
 * ping, which alone would be clean.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <fixture/fx_abi_unclean.h>
#include "fixture_observer.h"

static long fx_abi_unclean_msecs;

static int fx_abi_unclean_ioctl(struct inode *inode, struct file *file,
				unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct fx_abi_timeout timeout;
	struct fx_abi_chunk chunk;
	struct fx_abi_stamp stamp;
	u8 data[FX_ABI_UNCLEAN_CHUNK_MAX];
	u32 sum = 0, i;

	fixture_observe(inode);
	switch (cmd) {
	case FX_ABI_UNCLEAN_SET_TIMEOUT:
		if (copy_from_user(&timeout, argp, sizeof(timeout)))
			return -EFAULT;
		if (timeout.msecs < 0)
			return -EINVAL;
		fx_abi_unclean_msecs = timeout.msecs;
		return 0;
	case FX_ABI_UNCLEAN_SUM_CHUNK:
		if (copy_from_user(&chunk, argp, sizeof(chunk)))
			return -EFAULT;
		if (!chunk.len || chunk.len > FX_ABI_UNCLEAN_CHUNK_MAX)
			return -EINVAL;
		if (copy_from_user(data, (void __user *)chunk.data, chunk.len))
			return -EFAULT;
		for (i = 0; i < chunk.len; i++)
			sum += data[i];
		chunk.sum = sum;
		if (copy_to_user(argp, &chunk, sizeof(chunk)))
			return -EFAULT;
		return 0;
	case FX_ABI_UNCLEAN_GET_STAMP:
		memset(&stamp, 0, sizeof(stamp));
		stamp.seq = FX_ABI_UNCLEAN_SEQ;
		stamp.when = fx_abi_unclean_msecs;
		if (copy_to_user(argp, &stamp, sizeof(stamp)))
			return -EFAULT;
		return 0;
	case FX_ABI_UNCLEAN_PING:
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fx_abi_unclean_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= fx_abi_unclean_ioctl,
};

static struct miscdevice fx_abi_unclean_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fx_abi_unclean",
	.fops	= &fx_abi_unclean_fops,
};
module_misc_device(fx_abi_unclean_misc);

MODULE_DESCRIPTION("Fixture: legacy ioctl whose structures differ for 32-bit callers");
MODULE_LICENSE("GPL");

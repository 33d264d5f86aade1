/*
 * Errors unwind through labels to a single return of a local: the lock
 * is released once, just before it.
 */
int fw_write();
#include <linux/fs.h>
#include <linux/slab.h>
#include <asm/uaccess.h>

struct fw_chunk {
	unsigned int len;
	unsigned char data[256];
};

#define FW_LOAD		_IOW('F', 1, struct fw_chunk)

static int fw_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	struct fw_chunk *chunk;
	int err;

	if (cmd != FW_LOAD)
		return -ENOTTY;
	chunk = kmalloc(sizeof(*chunk), GFP_KERNEL);
	if (!chunk)
		return -ENOMEM;
	err = -EFAULT;
	if (copy_from_user(chunk, (void __user *)arg, sizeof(*chunk)))
		goto out_free;
	err = -EINVAL;
	if (chunk->len > sizeof(chunk->data))
		goto out_free;
	err = fw_write(chunk->data, chunk->len);
out_free:
	kfree(chunk);
	return err;
}

static struct file_operations fw_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fw_ioctl,
};

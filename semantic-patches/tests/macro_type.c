// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "type" of semantic-patches/macros.h: macros used as a type, for
 * a local variable and for a structure member.  Without the hints spatch
 * cannot parse the handler or the structure, and the handler's
 * -ENOIOCTLCMD is not reported.
 */
#include <linux/fs.h>
#include <linux/kfifo.h>

#define RADIO_SEND	_IOW('R', 1, int)

struct radio_ops {
	int (*send)(int byte);
};

struct radio_device {
	const struct radio_ops *ops;
	STRUCT_KFIFO_REC_1(64) tx_fifo;
};

static struct radio_device radio;

static long radio_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	typeof_member(struct radio_ops, send) send;

	if (cmd != RADIO_SEND)
		return -ENOIOCTLCMD;
	send = radio.ops->send;
	return send(arg);
}

static const struct file_operations radio_fops = {
	.unlocked_ioctl	= radio_ioctl,
	.compat_ioctl	= radio_ioctl,
};

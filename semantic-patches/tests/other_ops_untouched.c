/*
 * .ioctl members of other operations structures keep their own
 * signatures and locking rules: none of them is touched.
 */
#include <linux/fs.h>
#include <linux/tty.h>
#include <linux/blkdev.h>
#include <linux/net.h>
#include <sound/pcm.h>

static int rs_ioctl(struct tty_struct *tty, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static struct tty_operations rs_ops = {
	.ioctl		= rs_ioctl,
};

static int fd_ioctl(struct inode *inode, struct file *filp,
		    unsigned int cmd, unsigned long param)
{
	return fd_locked_ioctl(inode, cmd, param);
}

static struct block_device_operations floppy_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= fd_ioctl,
};

static struct proto_ops econet_ops = {
	.family		= PF_ECONET,
	.ioctl		= econet_ioctl,
};

static struct snd_pcm_ops card_playback_ops = {
	.open		= card_pcm_open,
	.ioctl		= snd_pcm_lib_ioctl,
};

static struct v4l2_file_operations cam_fops = {
	.ioctl		= video_ioctl2,
};

static struct usb_serial_driver pl2303_device = {
	.ioctl		= pl2303_ioctl,
};

/*
 * The device state hangs off inode->i_private, as debugfs-style drivers
 * do; the inode comes back through file_inode().
 */
#include <linux/fs.h>

struct sensor {
	int threshold;
};

#define SENSOR_SET_THRESHOLD	_IOW('s', 1, int)

static int sensor_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	struct sensor *sensor = inode->i_private;

	switch (cmd) {
	case SENSOR_SET_THRESHOLD:
		sensor->threshold = (int)arg;
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations sensor_fops = {
	.ioctl = sensor_ioctl,
};

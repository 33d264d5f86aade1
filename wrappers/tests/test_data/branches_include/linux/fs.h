/* Just enough of <linux/fs.h> for test_branches.py to compile each
 * configuration of the test_data/branches drivers (written for it). */
#define EPERM	1
#define ENOTTY	25
#define CAP_SYS_ADMIN	21

struct module;
#define THIS_MODULE ((struct module *)0)

struct inode { unsigned int i_rdev; };
struct dentry { struct inode *d_inode; };
struct path { struct dentry *dentry; };
struct file { struct path f_path; struct dentry *f_dentry; };

struct file_operations {
	struct module *owner;
	int (*ioctl)(struct inode *, struct file *, unsigned int, unsigned long);
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
	int (*open)(struct inode *, struct file *);
};

static inline unsigned int iminor(struct inode *inode)
{
	return inode->i_rdev & 0xff;
}

int capable(int cap);

/* What the drivers call. */
enum { JOY_RESET = 1, SENSOR_READ, SENSOR_CALIBRATE, FAN_SET_SPEED,
	FAN_GET_SPEED, FAN_FIXED_SPEED };
void joy_reset(void);
int lamp_set(unsigned int minor, unsigned long arg);
int lamp_dim(unsigned int minor, unsigned long arg);
int lamp_open(struct inode *inode, struct file *file);
int sensor_read(unsigned long arg);
int sensor_calibrate(unsigned long arg);
int relay_set(unsigned long arg);
int modem_command(unsigned int cmd, unsigned long arg);
int fan_set_speed(unsigned long arg);

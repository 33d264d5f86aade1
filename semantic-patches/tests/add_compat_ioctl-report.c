// rule: add_compat_ioctl.cocci
// options: -D same_handler=a_fops -D compat_ptr=b_fops -D needs_translation=c_fops -D unknown=d_fops
/* Report mode lists every class, and fops nobody classified. */
#include <linux/fs.h>

static const struct file_operations a_fops = { .unlocked_ioctl = a_ioctl, };
static const struct file_operations b_fops = { .unlocked_ioctl = b_ioctl, };
static const struct file_operations c_fops = { .unlocked_ioctl = c_ioctl, };
static const struct file_operations d_fops = { .unlocked_ioctl = d_ioctl, };
static const struct file_operations e_fops = { .unlocked_ioctl = e_ioctl, };
static const struct file_operations f_fops = { .unlocked_ioctl = f_ioctl, .compat_ioctl = f_ioctl, };

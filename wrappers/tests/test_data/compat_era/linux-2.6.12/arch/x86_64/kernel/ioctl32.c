/* The architecture's own 32-bit ioctl entries. */
#include <linux/types.h>
#include <linux/ioctl.h>

#define FXA_OLD_LEVEL32	_IOW('f', 6, unsigned int)

static int fxa_old_level(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	return 0;
}

#define HANDLE_IOCTL(cmd,handler) { (cmd), (ioctl_trans_handler_t)(handler), NULL },
#define COMPATIBLE_IOCTL(cmd) HANDLE_IOCTL(cmd,sys_ioctl)

struct ioctl_trans ioctl_start[] = {
HANDLE_IOCTL(FXA_OLD_LEVEL32, fxa_old_level)
};

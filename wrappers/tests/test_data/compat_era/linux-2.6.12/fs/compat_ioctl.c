/*
 * The generic 32-bit ioctl table of this fixture tree: what compat_sys_ioctl
 * does for a file without .compat_ioctl.
 */
#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/watchdog.h>
#include <linux/fxa.h>

struct fxa_timeout32 {
	compat_long_t msecs;
};

#define FXA_GET_TIMEOUT32	_IOR('f', 1, struct fxa_timeout32)

static int fxa_get_timeout(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int fxa_set_flags(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	return 0;
}

#define HANDLE_IOCTL(cmd,handler) \
	{ (cmd), (ioctl_trans_handler_t)(handler) },

struct ioctl_trans ioctl_start[] = {
#include <linux/compat_ioctl.h>
HANDLE_IOCTL(FXA_GET_TIMEOUT32, fxa_get_timeout)
HANDLE_IOCTL(FXA_SET_FLAGS, fxa_set_flags)
ULONG_IOCTL(FXA_SET_MODE)
};

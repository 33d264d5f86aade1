// rule: unlocked_ioctl_returns_enoioctlcmd.cocci
/*
 * Family "definer" of semantic-patches/macros.h: a macro that defines a
 * whole function and takes no ';'.  Without the hint spatch reads it and
 * the handler after it as one definition it cannot parse, and the
 * handler's -ENOIOCTLCMD is not reported.
 */
#include <linux/fs.h>
#include <scsi/scsi_host.h>

#define TAPE_GET_POS	_IOR('T', 1, int)

static int tape_position;

static int tape_queuecommand_lck(struct scsi_cmnd *cmd)
{
	scsi_done(cmd);
	return 0;
}

static DEF_SCSI_QCMD(tape_queuecommand)

static long tape_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == TAPE_GET_POS)
		return put_user(tape_position, (int __user *)arg);
	return -ENOIOCTLCMD;
}

static const struct file_operations tape_fops = {
	.unlocked_ioctl	= tape_ioctl,
	.compat_ioctl	= tape_ioctl,
};

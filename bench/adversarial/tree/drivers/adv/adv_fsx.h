/* Shared by the two files of adv_fsx.ko, laid out like ext2's ioctl.c and file.c. */
#ifndef ADV_FSX_H
#define ADV_FSX_H

#define FSX_GETFLAGS	_IOR('f', 0x51, long)
#define FSX_SETFLAGS	_IOW('f', 0x52, long)

struct fsx_inode_info {
	unsigned long flags;
	int generation;
};
extern struct fsx_inode_info fsx_info;
int fsx_ioctl(struct inode *inode, struct file *filp, unsigned int cmd,
	      unsigned long arg);
struct fsx_inode_info *FSX_I(struct inode *inode);

#endif

/* The prototype of a handler defined in nwflash_ops.c. */
int flash_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
		unsigned long arg);

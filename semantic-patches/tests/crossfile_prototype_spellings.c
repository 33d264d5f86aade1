// options: -D handlers=a_ioctl,b_ioctl,c_ioctl,d_ioctl,e_ioctl
/*
 * A header's prototypes of handlers converted in another file follow the
 * new signature whatever the spelling of their parameters: unnamed,
 * uint/ulong, u_int/u_long, typedefs, "struct inode*" without a space,
 * static or extern.  A prototype of a function not listed stays.
 */
#ifndef _SPELL_H
#define _SPELL_H

static int a_ioctl(struct inode *, struct file *, uint, ulong);
extern int b_ioctl(struct inode*, struct file*, u_int, u_long);
int c_ioctl(struct inode *ip, struct file *fp, my_cmd_t cmd, my_arg_t arg);
int d_ioctl(struct inode *inode, struct file *file,
	    unsigned int cmd, unsigned long arg);
extern int e_ioctl(struct inode *, struct file *, unsigned, unsigned long);
int f_ioctl(struct inode *, struct file *, unsigned int, unsigned long);

#endif /* _SPELL_H */

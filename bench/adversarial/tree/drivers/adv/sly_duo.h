/* Shared by the three files of sly_duo.ko. */
#ifndef SLY_DUO_H
#define SLY_DUO_H

#define DUO_POST	_IO('d', 1)
#define DUO_COUNT	_IO('d', 2)

extern int duo_posted;
int duo_ioctl(struct inode *inode, struct file *file,
	      unsigned int cmd, unsigned long arg);
int duo_main_init(void);
int duo_aux_init(void);

#endif

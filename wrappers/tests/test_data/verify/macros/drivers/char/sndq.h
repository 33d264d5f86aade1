#ifndef _SNDQ_H
#define _SNDQ_H

/* Reads an int argument; returns from the caller when it cannot. */
#define IOCTL_IN(arg, val)					\
	do {							\
		int __err = get_user(val, (int __user *)(arg));	\
		if (__err)					\
			return __err;				\
	} while (0)

#endif

/* The driver's own header, as exit_header_macro.c includes it. */
#define IOCTL_IN(arg, val)					\
	do {							\
		int error = get_user(val, (int __user *)(arg));	\
		if (error)					\
			return error;				\
	} while (0)

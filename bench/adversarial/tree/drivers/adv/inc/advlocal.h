/* Found only through the directory's kbuild include path (EXTRA_CFLAGS += -I$(src)/inc). */
#ifndef ADVLOCAL_H
#define ADVLOCAL_H

#define LOCAL_VALIDATE(x) \
	do { if ((x) < 0 || (x) >= 8) return -EINVAL; } while (0)
#define local_fail_if_closed(d) \
	if (!(d)->open_count) return -ENODEV

#endif

/* red34: found only through the directory's kbuild include path. */
#ifndef RED34LOCAL_H
#define RED34LOCAL_H

/* the next sequence number of a device: a write as well as a read */
#define R34_NEXT_SEQ(d)		(++(d)->seq)
/* the latched status of a device: reads the hardware and keeps it */
#define R34_LATCH(d)		((d)->latched = inb((d)->port))

/* leave the caller unless C holds; the dangling else takes the next statement */
#define r34_ret_unless(c, r)	if (!(c)) return (r); else

struct r34_dev {
	int seq;
	int latched;
	int port;
	int users;
};

#endif

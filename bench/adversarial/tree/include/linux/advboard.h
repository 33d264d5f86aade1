/* A board header of the tree: statement macros that return from their caller. */
#ifndef _LINUX_ADVBOARD_H
#define _LINUX_ADVBOARD_H

#define ADVBOARD_BASE		0x340
#define ADVBOARD_STATUS_REG	(ADVBOARD_BASE + 1)
#define ADVBOARD_DATA_REG	(ADVBOARD_BASE + 2)
#define BOARD_STATUS		inb(ADVBOARD_STATUS_REG)

/* lower case, as real drivers spell them: each may leave the caller */
#define adv_need_ready(dev) \
	do { if (!(dev)->ready) return -EAGAIN; } while (0)
#define adv_check_range(v) \
	if ((v) > 100) return -ERANGE

struct advboard_info {
	int ready;
	int value;
};

#endif

/* Shared state of adv_twin.ko: its two files each register a device. */
#ifndef ADV_TWIN_H
#define ADV_TWIN_H

#define TWIN_PUT	_IOW('T', 1, int)
#define TWIN_TAKE	_IOR('T', 2, int)
#define TWIN_PEEK	_IO('T', 3)

struct twin_fifo {
	int items[16];
	int head, tail;
};
extern struct twin_fifo twin_fifo;
int twin_ctl_register(void);

#endif

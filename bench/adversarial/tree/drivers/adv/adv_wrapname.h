/* Names adv_wrapname.c shares with a debug helper of the driver. */
#ifndef ADV_WRAPNAME_H
#define ADV_WRAPNAME_H

#define WN_PING	_IO('N', 1)

/* statistics the debug build prints; named after the entry points */
extern int wn_unlocked_ioctl;
extern int wn_ioctl_unlocked;
extern int wn_locked_ioctl;

#endif

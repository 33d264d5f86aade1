/* red33_knr: what the front file knows of the core (an old-style header). */
#ifndef RED33_KNR_H
#define RED33_KNR_H

extern int kn_core_ioctl();
extern int kn_core_calls;
extern struct miscdevice kn_core_misc;

#endif

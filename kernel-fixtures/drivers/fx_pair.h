/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fx_pair: one module (fx_pair-y in Kbuild) of two files whose handlers
 * share the total; under the BKL, one lock covers both.
 */
#ifndef _FX_PAIR_H
#define _FX_PAIR_H

#include <linux/types.h>

struct miscdevice;

struct fx_pair_state {
	u32 total;
	u32 adds;
};

/* fx_pair_main.c; read and written by both handlers under the BKL. */
extern struct fx_pair_state fx_pair_state;
/* fx_pair_ctl.c; registered by fx_pair_main.c's init. */
extern struct miscdevice fx_pair_ctl_misc;

#endif /* _FX_PAIR_H */

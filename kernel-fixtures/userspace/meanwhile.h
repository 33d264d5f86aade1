/* SPDX-License-Identifier: GPL-2.0 */
/* Another task's call, made while a case sleeps in the driver. */
#ifndef MEANWHILE_H
#define MEANWHILE_H

#include <sys/types.h>

#include "ioctl_test.h"

/* The processes a call that waits for another started: 0 for none. */
struct meanwhile {
	pid_t helper;		/* makes the other call */
	pid_t watchdog;		/* interrupts the waiting call if it hangs */
};

struct meanwhile meanwhile_start(const struct fx_case *call);
void meanwhile_finish(struct meanwhile started);

#endif /* MEANWHILE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Another task's call, made while a case sleeps in the driver. */
#ifndef MEANWHILE_H
#define MEANWHILE_H

#include <sys/types.h>

#include "ioctl_test.h"

pid_t meanwhile_start(const struct fx_case *call);
void meanwhile_finish(pid_t helper);

#endif /* MEANWHILE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace side of /dev/fixture_observer. */
#ifndef OBSERVER_H
#define OBSERVER_H

#include <fixture/observer.h>

int observer_open(void);
int observer_reset(int fd);
int observer_read(int fd, struct fixture_observation *seen);

#endif /* OBSERVER_H */

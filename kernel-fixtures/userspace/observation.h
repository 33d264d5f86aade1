/* SPDX-License-Identifier: GPL-2.0 */
/* The test programs' side of the fixture observer device. */
#ifndef OBSERVATION_H
#define OBSERVATION_H

#include <fixture/observer.h>

int observer_open(void);
int observer_reset(int fd);
int observer_read(int fd, struct fixture_observation *seen);

#endif /* OBSERVATION_H */

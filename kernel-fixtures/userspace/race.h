/* SPDX-License-Identifier: GPL-2.0 */
/* Calls other tasks race through before a case reads what they left. */
#ifndef RACE_H
#define RACE_H

#include "ioctl_test.h"

/* RACERS processes, each making CALL's call TIMES times, all at once. */
void race_run(const struct fx_race *race);

#endif /* RACE_H */

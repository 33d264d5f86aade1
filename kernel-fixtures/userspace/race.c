// SPDX-License-Identifier: GPL-2.0
/*
 * A race before a case: several processes make the same call many times
 * at once, then the case reads what they left (a count that must be
 * exact).  A lock a conversion moved off part of a read-modify-write loses
 * some of their updates, which the case's output then shows.
 *
 * The racers start together: each waits on a pipe the parent closes once
 * all are forked.  Their own results are not judged; a call that fails
 * (a 32-bit call no conversion reaches) changes the count the case reads,
 * the same way before and after conversion.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "race.h"

#define RACE_MAX_RACERS		8

static void racer(const struct fx_call *call, unsigned int times, int start)
{
	unsigned char buf[64];
	char path[64], go;
	unsigned int i;
	int fd;

	snprintf(path, sizeof(path), "/dev/%s", call->device);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (read(start, &go, 1) < 0 || fd < 0)
		_exit(1);
	for (i = 0; i < times; i++) {
		memset(buf, 0, sizeof(buf));
		ioctl(fd, call->cmd, call->arg == FX_ARG_VALUE ? call->value :
		      (unsigned long)buf);
	}
	_exit(0);
}

void race_run(const struct fx_race *race)
{
	pid_t racers[RACE_MAX_RACERS];
	unsigned int n, started = 0;
	int start[2];

	if (!race || pipe(start))
		return;
	fflush(stdout);
	for (n = 0; n < race->racers && n < RACE_MAX_RACERS; n++) {
		racers[started] = fork();
		if (racers[started] == 0) {
			close(start[1]);
			racer(&race->call, race->times, start[0]);
		}
		if (racers[started] > 0)
			started++;
	}
	close(start[0]);
	close(start[1]);		/* every racer's read() returns: go */
	for (n = 0; n < started; n++)
		waitpid(racers[n], NULL, 0);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What the last fixture handler run by this process saw: reset before each
 * call, read after it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>

#include "observation.h"

int observer_open(void)
{
	return open("/dev/fixture_observer", O_RDONLY | O_CLOEXEC);
}

int observer_reset(int fd)
{
	return ioctl(fd, FIXTURE_OBSERVER_RESET, 0);
}

int observer_read(int fd, struct fixture_observation *seen)
{
	memset(seen, 0, sizeof(*seen));
	return ioctl(fd, FIXTURE_OBSERVER_GET, seen);
}

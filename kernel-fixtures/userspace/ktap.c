// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP for the boot-time parser: "KTAP version 1", the plan, and for each
 * case "ok N - desc" or "not ok N - desc: why".
 */
#include <errno.h>
#include <stdio.h>

#include "ktap.h"

/* The kernel's internal "no such ioctl", which legacy handlers leak. */
#define ENOIOCTLCMD	515

void ktap_plan(unsigned int count)
{
	printf("KTAP version 1\n1..%u\n", count);
}

bool ktap_result(unsigned int number, const char *desc, const char *why)
{
	if (why)
		printf("not ok %u - %s: %s\n", number, desc, why);
	else
		printf("ok %u - %s\n", number, desc);
	return !why;
}

const char *errno_name(int err)
{
	static char unnamed[16];

	switch (err) {
	case 0:			return "0";
	case EPERM:		return "EPERM";
	case ENOENT:		return "ENOENT";
	case EIO:		return "EIO";
	case ENXIO:		return "ENXIO";
	case EBADF:		return "EBADF";
	case ENOMEM:		return "ENOMEM";
	case EACCES:		return "EACCES";
	case EFAULT:		return "EFAULT";
	case EBUSY:		return "EBUSY";
	case ENODEV:		return "ENODEV";
	case EINVAL:		return "EINVAL";
	case ENOTTY:		return "ENOTTY";
	case ENOSPC:		return "ENOSPC";
	case ERANGE:		return "ERANGE";
	case ENODATA:		return "ENODATA";
	case EOPNOTSUPP:	return "EOPNOTSUPP";
	case ENOIOCTLCMD:	return "ENOIOCTLCMD";
	}
	snprintf(unnamed, sizeof(unnamed), "E%d", err);
	return unnamed;
}

// SPDX-License-Identifier: GPL-2.0
/* fx_enoioctl: -ENOIOCTLCMD for unknown commands; the serial query works from 32 bits. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_enoioctl.h>
#include "ioctl_test.h"

/* What a legacy handler's -ENOIOCTLCMD becomes in userspace. */
#define ENOIOCTLCMD	515

static const struct fx_case cases[] = {
	FX_OUTPUT("fx_enoioctl", FX_ENOIOCTL_GET_SERIAL, "valid",
		  FX_LIT(__u64, FX_ENOIOCTL_SERIAL)),
	FX_BADPTR("fx_enoioctl", FX_ENOIOCTL_GET_SERIAL),
	FX_IN("fx_enoioctl", FX_ENOIOCTL_SET_LABEL, "valid",
	      FX_LIT(struct fx_enoioctl_label, "fixture-label"), 0),
	FX_IN("fx_enoioctl", FX_ENOIOCTL_SET_LABEL, "invalid",
	      FX_LIT(struct fx_enoioctl_label, ""), EINVAL),
	FX_BADPTR("fx_enoioctl", FX_ENOIOCTL_SET_LABEL),
	FX_OUTPUT("fx_enoioctl", FX_ENOIOCTL_GET_LABEL, "valid",
		  FX_LIT(struct fx_enoioctl_label, "fixture-label")),
	FX_BADPTR("fx_enoioctl", FX_ENOIOCTL_GET_LABEL),
	/*
	 * The legacy VFS path passes -ENOIOCTLCMD through; the unlocked path
	 * turns it into -EINVAL.  Both are the driver's design.
	 */
	{ "fx_enoioctl", "UNKNOWN", "unknown", _IO('e', 0x7f), FX_ARG_NONE,
	  .err = ENOIOCTLCMD, .alt_err = EINVAL },
};

static const unsigned long compat32[] = { FX_ENOIOCTL_GET_SERIAL, 0 };

FX_SUITE(fx_enoioctl, cases, compat32);

// SPDX-License-Identifier: GPL-2.0
/* fx_rmw: the count of joins, exact after four processes race 100 joins each. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_rmw.h>
#include "ioctl_test.h"

/*
 * Four racers, not two: with a mutex a wrongly placed read leaves all the
 * callers waiting for it with the same stale count, so every race loses.
 */
#define FX_RMW_RACERS	4
#define FX_RMW_TIMES	100

static const struct fx_race joins = {
	{ "fx_rmw", FX_RMW_JOIN, FX_ARG_NONE, 0 }, FX_RMW_RACERS, FX_RMW_TIMES
};

static const struct fx_case cases[] = {
	FX_NONE("fx_rmw", FX_RMW_RESET, "valid", 0),
	FX_NONE("fx_rmw", FX_RMW_JOIN, "valid", 0),
	FX_NONE("fx_rmw", FX_RMW_JOIN, "again", 0),
	FX_OUTPUT("fx_rmw", FX_RMW_COUNT, "valid", FX_LIT(__u32, 2)),
	FX_BADPTR("fx_rmw", FX_RMW_COUNT),
	FX_NONE("fx_rmw", FX_RMW_RESET, "raced", 0),
	{ "fx_rmw", "FX_RMW_COUNT", "raced", FX_RMW_COUNT, FX_ARG_BUF,
	  .size = sizeof(__u32), .expect = FX_LIT(__u32, FX_RMW_RACERS * FX_RMW_TIMES),
	  .flags = FX_OUT, .race = &joins },
	FX_UNKNOWN("fx_rmw", _IO('n', 0x7f), ENOTTY),
};

FX_SUITE(fx_rmw, cases, NULL);

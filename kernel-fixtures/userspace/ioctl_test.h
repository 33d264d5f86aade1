/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boot-time ioctl tests: each suite is a table of calls on one fixture
 * driver, each call with what the driver is designed to answer.
 */
#ifndef IOCTL_TEST_H
#define IOCTL_TEST_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* Never mapped: low memory below mmap_min_addr, for both ABIs. */
#define FX_BAD_ADDRESS		16UL

enum fx_arg {
	FX_ARG_NONE,		/* the argument is 0 */
	FX_ARG_VALUE,		/* the argument is .value */
	FX_ARG_BUF,		/* a pointer to a buffer of .size bytes */
	FX_ARG_BAD,		/* a pointer to unmapped memory */
};

/* The buffer holds what the call returns. */
#define FX_OUT			(1U << 0)

/* In a suite's compat32 list: every command of the device. */
#define FX_ALL_COMMANDS		(~0UL)

struct fx_case {
	const char *device;		/* node under /dev */
	const char *command;		/* as named in the uapi header */
	const char *variant;		/* valid, invalid, unknown, badptr, ... */
	unsigned long cmd;
	enum fx_arg arg;
	unsigned long value;		/* FX_ARG_VALUE */
	const void *in;			/* FX_ARG_BUF: contents before the call */
	size_t size;			/* FX_ARG_BUF: buffer size */
	void (*prepare)(void *buf);	/* FX_ARG_BUF: fill in user pointers */
	size_t digest_from;		/* skip user pointers in the digest */
	const void *expect;		/* FX_OUT: buffer from .digest_from */
	int err;			/* expected errno, 0 for success */
	int alt_err;			/* another errno the design allows */
	unsigned int flags;
	/*
	 * Another task's call, made once this one sleeps in the driver
	 * (meanwhile.c); this call waits for it.
	 */
	const struct fx_case *meanwhile;
	/* Other tasks' calls, all made (race.c) before this one. */
	const struct fx_race *race;
};

/* A call racing tasks make: the device, the command and its argument. */
struct fx_call {
	const char *device;
	unsigned long cmd;
	enum fx_arg arg;		/* FX_ARG_NONE, FX_ARG_VALUE or FX_ARG_BUF */
	unsigned long value;
};

struct fx_race {
	struct fx_call call;
	unsigned int racers;		/* processes, at most 8 */
	unsigned int times;		/* calls each */
};

struct fx_suite {
	const char *driver;
	const struct fx_case *cases;
	size_t count;
	/* Commands that reach the handler from 32 bits before conversion. */
	const unsigned long *compat32;
};

#define FX_SUITE(name, table, compat) \
	const struct fx_suite name = { \
		#name, table, ARRAY_SIZE(table), compat \
	}

/* The constructors below are all a suite table needs. */
#define FX_NONE(dev, cmd, var, e) \
	{ dev, #cmd, var, cmd, FX_ARG_NONE, .err = e }
#define FX_VALUE(dev, cmd, var, val, e) \
	{ dev, #cmd, var, cmd, FX_ARG_VALUE, .value = val, .err = e }
#define FX_IN(dev, cmd, var, inp, e) \
	{ dev, #cmd, var, cmd, FX_ARG_BUF, .in = inp, .size = sizeof(*(inp)), .err = e }
#define FX_OUTPUT(dev, cmd, var, exp) \
	{ dev, #cmd, var, cmd, FX_ARG_BUF, .size = sizeof(*(exp)), \
	  .expect = exp, .flags = FX_OUT }
#define FX_INOUT(dev, cmd, var, inp, exp, e) \
	{ dev, #cmd, var, cmd, FX_ARG_BUF, .in = inp, .size = sizeof(*(inp)), \
	  .expect = e ? NULL : exp, .err = e, .flags = FX_OUT }
#define FX_BADPTR(dev, cmd) \
	{ dev, #cmd, "badptr", cmd, FX_ARG_BAD, .err = EFAULT }
#define FX_UNKNOWN(dev, cmd, e) \
	{ dev, "UNKNOWN", "unknown", cmd, FX_ARG_NONE, .err = e }

/* A constant of any type, for .in and .expect. */
#define FX_LIT(type, ...)	(&(const type) { __VA_ARGS__ })

extern const struct fx_suite fx_minor, fx_rdev, fx_private, fx_regs;
extern const struct fx_suite fx_buffer, fx_twin, fx_compat, fx_gnu;
extern const struct fx_suite fx_ifdef, fx_enoioctl, fx_bkl, fx_split;
extern const struct fx_suite fx_claim, fx_guard, fx_status, fx_table, fx_wait;
extern const struct fx_suite fx_abi_level, fx_abi_clean, fx_abi_unclean;
extern const struct fx_suite fx_proto, fx_relay, fx_fed, fx_export, fx_parent;
extern const struct fx_suite fx_hidden, fx_rmw, fx_stack, fx_pair, fx_poll;

#endif /* IOCTL_TEST_H */

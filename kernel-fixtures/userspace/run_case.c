// SPDX-License-Identifier: GPL-2.0
/*
 * One case: open the device, reset the observer, make the call, read what
 * the handler saw, print the diagnostic line the proof compares across
 * kernels, then judge the call against the driver's design.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ktap.h"
#include "meanwhile.h"
#include "observation.h"
#include "race.h"
#include "run_case.h"

#define FX_BUF_SIZE	256

struct outcome {
	long ret;
	int err;
	bool observed;			/* the observer answered */
	struct fixture_observation seen;
	struct stat st;			/* of the device node opened */
	union {				/* aligned for any uapi struct */
		unsigned char buf[FX_BUF_SIZE];
		uint64_t align;
	};
};

/* FNV-1a: a short, stable digest of what a call returned. */
static uint32_t digest(const unsigned char *data, size_t len)
{
	uint32_t hash = 2166136261u;

	while (len--) {
		hash ^= *data++;
		hash *= 16777619u;
	}
	return hash;
}

void case_describe(const struct fx_case *c, char *desc, size_t len)
{
	snprintf(desc, len, "%s %s %s", c->device, c->command, c->variant);
}

static bool is_compat32(void)
{
	return sizeof(long) == 4;
}

/* Whether a 32-bit caller reaches the handler before any conversion. */
static bool reaches_handler32(const struct fx_suite *suite, unsigned long cmd)
{
	const unsigned long *known;

	for (known = suite->compat32; known && *known; known++)
		if (*known == FX_ALL_COMMANDS || *known == cmd)
			return true;
	return false;
}

static bool has_output(const struct fx_case *c, const struct outcome *o)
{
	return (c->flags & FX_OUT) && o->ret >= 0;
}

static void print_diagnostic(const struct fx_case *c, const struct outcome *o)
{
	const struct fixture_observation *seen = &o->seen;
	char desc[160];

	case_describe(c, desc, sizeof(desc));
	printf("# result: %s: ret=%ld errno=%s bkl=%u mutex=%u",
	       desc, o->ret, errno_name(o->ret < 0 ? o->err : 0),
	       seen->valid && seen->bkl, seen->valid && seen->mutexes);
	if (seen->valid)
		printf(" ino=%llu minor=%u", (unsigned long long)seen->ino,
		       seen->minor);
	else
		printf(" ino=- minor=-");
	if (has_output(c, o))
		printf(" out=%08x\n", digest(o->buf + c->digest_from,
					     c->size - c->digest_from));
	else
		printf(" out=-\n");
}

/* A verdict about the handler, naming it. */
static const char *named(const struct fixture_observation *seen,
			 const char *what)
{
	static char why[96];

	snprintf(why, sizeof(why), "%.*s %s", FIXTURE_OBSERVER_HANDLER_LEN,
		 seen->handler, what);
	return why;
}

static const char *judge(const struct fx_suite *suite,
			 const struct fx_case *c, const struct outcome *o)
{
	const struct fixture_observation *seen = &o->seen;

	if (!o->observed)
		return "cannot read /dev/fixture_observer";
	if (!seen->valid) {
		/* Legacy drivers without compat_ioctl: refused, as designed. */
		if (is_compat32() && !reaches_handler32(suite, c->cmd) &&
		    o->ret == -1 && o->err == EINVAL)
			return NULL;
		return "the handler did not run";
	}
	if (!seen->bkl && !seen->mutexes)
		return named(seen, "ran without the BKL or a mutex");
	if (seen->ino != o->st.st_ino)
		return named(seen, "saw another inode than the node opened");
	if (seen->minor != minor(o->st.st_rdev))
		return named(seen, "saw another minor than the node opened");
	if (c->err) {
		if (o->ret != -1)
			return "succeeded where it should fail";
		if (o->err != c->err && !(c->alt_err && o->err == c->alt_err))
			return "failed with the wrong errno";
		return NULL;
	}
	if (o->ret != 0)
		return "failed where it should succeed";
	if (c->expect && memcmp(o->buf + c->digest_from, c->expect,
				c->size - c->digest_from))
		return "returned the wrong data";
	return NULL;
}

static void call(const struct fx_case *c, int fd, int observer,
		 struct outcome *o)
{
	unsigned long arg = 0;
	struct meanwhile helper;

	if (c->in)
		memcpy(o->buf, c->in, c->size);
	if (c->prepare)
		c->prepare(o->buf);
	if (c->arg == FX_ARG_VALUE)
		arg = c->value;
	else if (c->arg == FX_ARG_BUF)
		arg = (unsigned long)o->buf;
	else if (c->arg == FX_ARG_BAD)
		arg = FX_BAD_ADDRESS;

	race_run(c->race);
	o->observed = observer >= 0 && !observer_reset(observer);
	helper = meanwhile_start(c->meanwhile);
	o->ret = ioctl(fd, c->cmd, arg);
	o->err = errno;
	meanwhile_finish(helper);
	if (o->observed)
		o->observed = !observer_read(observer, &o->seen);
}

bool run_case(const struct fx_suite *suite, const struct fx_case *c,
	      int observer, unsigned int number)
{
	static struct outcome o;
	const char *why;
	char path[64], desc[160];
	int fd;

	memset(&o, 0, sizeof(o));
	case_describe(c, desc, sizeof(desc));
	snprintf(path, sizeof(path), "/dev/%s", c->device);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &o.st)) {
		o.ret = -1;
		o.err = errno;
		print_diagnostic(c, &o);
		why = "cannot open the device";
	} else {
		call(c, fd, observer, &o);
		print_diagnostic(c, &o);
		why = judge(suite, c, &o);
	}
	if (fd >= 0)
		close(fd);
	return ktap_result(number, desc, why);
}

// SPDX-License-Identifier: GPL-2.0
/* fx_buffer: a transfer in and back out, reversed, through a pointer in the argument. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_buffer.h>
#include "ioctl_test.h"

/* The argument and the data it points to share one buffer. */
struct xfer_buf {
	struct fx_buffer_xfer xfer;
	char data[8];
};

/* What a transfer returns, less the user pointer, which differs per run. */
struct xfer_result {
	__u32 len;
	__u32 sum;
	char data[8];
};

#define XFER_DIGEST_FROM	offsetof(struct fx_buffer_xfer, len)

static void point_at_data(void *buf)
{
	struct xfer_buf *b = buf;

	b->xfer.data = (unsigned long)b->data;
}

static void point_at_nothing(void *buf)
{
	struct xfer_buf *b = buf;

	b->xfer.data = FX_BAD_ADDRESS;
}

#define XFER(var, length, fill, result, e) \
	{ "fx_buffer", "FX_BUFFER_XFER", var, FX_BUFFER_XFER, FX_ARG_BUF, \
	  .in = FX_LIT(struct xfer_buf, { .len = length }, "abcdef"), \
	  .size = sizeof(struct xfer_buf), .prepare = fill, \
	  .digest_from = XFER_DIGEST_FROM, .expect = result, .err = e, \
	  .flags = FX_OUT }

static const struct fx_case cases[] = {
	/* 'a' + ... + 'f' = 597 */
	XFER("valid", 6, point_at_data,
	     FX_LIT(struct xfer_result, 6, 597, "fedcba"), 0),
	XFER("invalid", 0, point_at_data, NULL, EINVAL),
	XFER("baddata", 6, point_at_nothing, NULL, EFAULT),
	FX_BADPTR("fx_buffer", FX_BUFFER_XFER),
	FX_OUTPUT("fx_buffer", FX_BUFFER_GET_LAST, "valid",
		  FX_LIT(struct fx_buffer_last, 6, 597)),
	FX_BADPTR("fx_buffer", FX_BUFFER_GET_LAST),
	FX_UNKNOWN("fx_buffer", _IO('b', 0x7f), ENOTTY),
};

FX_SUITE(fx_buffer, cases, NULL);

// SPDX-License-Identifier: GPL-2.0
/*
 * fx_abi_unclean: structures i386 lays out differently.  A 32-bit caller
 * encodes other command numbers, so it reaches nothing until a translation
 * exists; the 64-bit results are the reference.
 */
#include <errno.h>

#include <fixture/fx_abi_unclean.h>
#include "ioctl_test.h"

/* The argument and the bytes its pointer member points to share one buffer. */
struct chunk_buf {
	struct fx_abi_chunk chunk;
	unsigned char data[4];
};

static void point_at_data(void *buf)
{
	struct chunk_buf *b = buf;

	b->chunk.data = b->data;
}

/* The sum is compared as a digest (the proof compares kernels), not here. */
#define CHUNK(var, length, e) \
	{ "fx_abi_unclean", "FX_ABI_UNCLEAN_SUM_CHUNK", var, FX_ABI_UNCLEAN_SUM_CHUNK, \
	  FX_ARG_BUF, .in = FX_LIT(struct chunk_buf, { .len = length }, { 1, 2, 3, 4 }), \
	  .size = sizeof(struct chunk_buf), .prepare = point_at_data, \
	  .digest_from = offsetof(struct fx_abi_chunk, sum), .err = e, \
	  .flags = FX_OUT }

static const struct fx_case cases[] = {
	FX_IN("fx_abi_unclean", FX_ABI_UNCLEAN_SET_TIMEOUT, "valid",
	      FX_LIT(struct fx_abi_timeout, 1500), 0),
	FX_IN("fx_abi_unclean", FX_ABI_UNCLEAN_SET_TIMEOUT, "invalid",
	      FX_LIT(struct fx_abi_timeout, -1), EINVAL),
	FX_BADPTR("fx_abi_unclean", FX_ABI_UNCLEAN_SET_TIMEOUT),
	CHUNK("valid", 4, 0),
	CHUNK("invalid", 0, EINVAL),
	FX_BADPTR("fx_abi_unclean", FX_ABI_UNCLEAN_SUM_CHUNK),
	FX_OUTPUT("fx_abi_unclean", FX_ABI_UNCLEAN_GET_STAMP, "valid",
		  FX_LIT(struct fx_abi_stamp, FX_ABI_UNCLEAN_SEQ, 1500)),
	FX_BADPTR("fx_abi_unclean", FX_ABI_UNCLEAN_GET_STAMP),
	FX_NONE("fx_abi_unclean", FX_ABI_UNCLEAN_PING, "valid", 0),
	FX_UNKNOWN("fx_abi_unclean", _IO('U', 0x7f), ENOTTY),
};

FX_SUITE(fx_abi_unclean, cases, NULL);

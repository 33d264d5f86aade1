// SPDX-License-Identifier: GPL-2.0
/* fx_private: a name per unit, found through inode->i_private. */
#include <errno.h>
#include <string.h>

#include <fixture/fx_private.h>
#include "ioctl_test.h"

static const struct fx_case cases[] = {
	FX_IN("fx_private0", FX_PRIVATE_SET_NAME, "valid",
	      FX_LIT(struct fx_private_name, "alpha"), 0),
	FX_IN("fx_private1", FX_PRIVATE_SET_NAME, "valid",
	      FX_LIT(struct fx_private_name, "beta"), 0),
	FX_IN("fx_private0", FX_PRIVATE_SET_NAME, "invalid",
	      FX_LIT(struct fx_private_name, ""), EINVAL),
	FX_IN("fx_private1", FX_PRIVATE_SET_NAME, "unterminated",
	      FX_LIT(struct fx_private_name, { 'x', 'x', 'x', 'x', 'x', 'x',
		     'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x' }), EINVAL),
	FX_BADPTR("fx_private0", FX_PRIVATE_SET_NAME),
	FX_OUTPUT("fx_private0", FX_PRIVATE_GET_NAME, "valid",
		  FX_LIT(struct fx_private_name, "alpha")),
	FX_OUTPUT("fx_private1", FX_PRIVATE_GET_NAME, "valid",
		  FX_LIT(struct fx_private_name, "beta")),
	FX_BADPTR("fx_private1", FX_PRIVATE_GET_NAME),
	FX_UNKNOWN("fx_private0", _IO('p', 0x7f), ENOTTY),
};

FX_SUITE(fx_private, cases, NULL);

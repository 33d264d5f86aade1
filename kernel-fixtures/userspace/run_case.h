/* SPDX-License-Identifier: GPL-2.0 */
/* Running one case: the call, the observation, and the verdict. */
#ifndef RUN_CASE_H
#define RUN_CASE_H

#include <stdbool.h>

#include "ioctl_test.h"

void case_describe(const struct fx_case *c, char *desc, size_t len);
bool run_case(const struct fx_suite *suite, const struct fx_case *c,
	      int observer, unsigned int number);

#endif /* RUN_CASE_H */

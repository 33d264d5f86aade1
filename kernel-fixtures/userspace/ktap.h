/* SPDX-License-Identifier: GPL-2.0 */
/* KTAP output: the plan, one diagnostic line and one result per case. */
#ifndef KTAP_H
#define KTAP_H

#include <stdbool.h>

void ktap_plan(unsigned int count);
bool ktap_result(unsigned int number, const char *desc, const char *why);
const char *errno_name(int err);

#endif /* KTAP_H */

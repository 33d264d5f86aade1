// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl-test: drives every command of every fixture driver, as KTAP.
 *
 * Usage: ioctl-test-64 | ioctl-test-32 [--list]
 * --list prints "driver: device command variant" for each case and
 * touches no device, so the case table can be checked on any machine.
 */
#include <stdio.h>
#include <string.h>

#include "ioctl_test.h"
#include "ktap.h"
#include "observation.h"
#include "run_case.h"

static const struct fx_suite *const suites[] = {
	&fx_minor, &fx_rdev, &fx_private, &fx_regs, &fx_buffer,
	&fx_twin, &fx_compat, &fx_gnu, &fx_ifdef, &fx_enoioctl,
	&fx_bkl, &fx_split, &fx_claim, &fx_guard, &fx_status, &fx_table,
	&fx_wait,
	&fx_abi_level, &fx_abi_clean, &fx_abi_unclean,
	&fx_proto, &fx_relay, &fx_fed, &fx_export, &fx_parent,
	&fx_hidden, &fx_rmw, &fx_stack, &fx_pair, &fx_poll,
};

#define NR_SUITES	ARRAY_SIZE(suites)

static void list_cases(void)
{
	char desc[160];
	size_t s, i;

	for (s = 0; s < NR_SUITES; s++)
		for (i = 0; i < suites[s]->count; i++) {
			case_describe(&suites[s]->cases[i], desc, sizeof(desc));
			printf("%s: %s\n", suites[s]->driver, desc);
		}
}

int main(int argc, char **argv)
{
	unsigned int count = 0, number = 0, failed = 0;
	int observer;
	size_t s, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--list")) {
		list_cases();
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: %s [--list]\n", argv[0]);
		return 2;
	}

	for (s = 0; s < NR_SUITES; s++)
		count += suites[s]->count;
	ktap_plan(count);

	observer = observer_open();
	for (s = 0; s < NR_SUITES; s++)
		for (i = 0; i < suites[s]->count; i++)
			if (!run_case(suites[s], &suites[s]->cases[i],
				      observer, ++number))
				failed++;
	return failed ? 1 : 0;
}

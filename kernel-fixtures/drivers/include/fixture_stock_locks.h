/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fixture_observer asks about locks, answered on a stock kernel (one
 * without the fixture shims): there is no BKL, and lockdep's list of the
 * locks the task holds stands in for the fixture kernel's mutex count.
 */
#ifndef _FIXTURE_STOCK_LOCKS_H
#define _FIXTURE_STOCK_LOCKS_H

#include <linux/lockdep.h>
#include <linux/sched.h>

#ifndef CONFIG_LOCKDEP
#error "the stock fixture observer needs CONFIG_LOCKDEP (config/stock.config)"
#endif

/* The BKL was removed in 2.6.39: nobody holds it. */
static inline int kernel_locked(void)
{
	return 0;
}

/* Sleeping locks (mutexes) the current task holds, as lockdep lists them. */
static inline int fixture_mutexes_held(void)
{
	int i, held = 0;

	for (i = 0; i < current->lockdep_depth; i++)
		if (current->held_locks[i].instance->wait_type_inner == LD_WAIT_SLEEP)
			held++;
	return held;
}

#endif /* _FIXTURE_STOCK_LOCKS_H */

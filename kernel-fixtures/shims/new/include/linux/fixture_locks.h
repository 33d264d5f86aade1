/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the fixture kernel tells its drivers (and its VFS) about the
 * locks the current task holds.  Not an upstream interface: it exists so
 * a fixture driver can report whether a conversion kept its callers'
 * locking.
 */
#ifndef __LINUX_FIXTURE_LOCKS_H
#define __LINUX_FIXTURE_LOCKS_H

#include <linux/sched.h>

struct file;

/*
 * Number of mutexes the current task holds (any mutex, counted at
 * mutex_lock*()/mutex_trylock()/mutex_unlock()).
 */
int fixture_mutexes_held(void);

static inline int fixture_mutex_acquired(int ret)
{
	if (!ret)
		current->fixture_mutex_depth++;
	return ret;
}

static inline void fixture_mutex_released(void)
{
	current->fixture_mutex_depth--;
}

/* BKL depth of the current task: 0 when it does not hold the BKL. */
static inline int bkl_depth(void)
{
	return current->bkl_depth;
}

/*
 * Used by schedule(): the BKL is dropped while its holder sleeps and
 * taken again before it runs; the depth is handed from one to the other.
 */
int fixture_bkl_release_for_sleep(void);
void fixture_bkl_reacquire(int depth);

/*
 * Called by the VFS when an ioctl handler returns.  DEPTH is the BKL
 * depth the handler was called with; a handler that returns with a
 * different depth is named in a warning and the depth is restored, so
 * the kernel keeps running and the next test sees a clean state.
 */
void bkl_check_return(struct file *file, const void *handler, int depth);

#endif /* __LINUX_FIXTURE_LOCKS_H */

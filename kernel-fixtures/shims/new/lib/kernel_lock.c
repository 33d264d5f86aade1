// SPDX-License-Identifier: GPL-2.0
/*
 * The Big Kernel Lock of the fixture kernels, and the per-task lock
 * counts that let a fixture driver report what it holds.
 *
 * The lock is a semaphore rather than a mutex so that taking it never
 * shows up in fixture_mutexes_held(): a driver converted to a private
 * mutex must be seen holding that mutex, not the BKL.
 */
#include <linux/export.h>
#include <linux/fixture_locks.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/semaphore.h>
#include <linux/smp_lock.h>

static DEFINE_SEMAPHORE(kernel_sem);

/* The depth counts only once the lock is held: down() may sleep. */
void lock_kernel(void) __acquires(kernel_lock)
{
	if (current->bkl_depth == 0)
		down(&kernel_sem);
	current->bkl_depth++;
}
EXPORT_SYMBOL(lock_kernel);

void unlock_kernel(void) __releases(kernel_lock)
{
	if (current->bkl_depth <= 0) {
		pr_warn("BKL-check: %s() from %pS without the BKL\n",
			__func__, __builtin_return_address(0));
		return;
	}
	if (--current->bkl_depth == 0)
		up(&kernel_sem);
}
EXPORT_SYMBOL(unlock_kernel);

/*
 * schedule() drops the BKL of a task that sleeps holding it and takes it
 * back when the task runs again, as 2.6's release_kernel_lock() did.
 * Depth 0 while away, so that a down() here sleeps without recursing.
 */
int fixture_bkl_release_for_sleep(void)
{
	int depth = current->bkl_depth;

	if (depth) {
		current->bkl_depth = 0;
		up(&kernel_sem);
	}
	return depth;
}

void fixture_bkl_reacquire(int depth)
{
	if (depth) {
		down(&kernel_sem);
		current->bkl_depth = depth;
	}
}

int kernel_locked(void)
{
	return current->bkl_depth > 0;
}
EXPORT_SYMBOL(kernel_locked);

int fixture_mutexes_held(void)
{
	return current->fixture_mutex_depth;
}
EXPORT_SYMBOL(fixture_mutexes_held);

void bkl_check_return(struct file *file, const void *handler, int depth)
{
	if (current->bkl_depth > depth) {
		pr_warn("BKL-check: %ps returned to the VFS still holding the BKL on %pD (depth %d, expected %d); releasing it\n",
			handler, file, current->bkl_depth, depth);
		while (current->bkl_depth > depth)
			unlock_kernel();
	} else if (current->bkl_depth < depth) {
		pr_warn("BKL-check: %ps returned to the VFS without the BKL it was called with on %pD (depth %d, expected %d)\n",
			handler, file, current->bkl_depth, depth);
		while (current->bkl_depth < depth)
			lock_kernel();
	}
}
EXPORT_SYMBOL(bkl_check_return);

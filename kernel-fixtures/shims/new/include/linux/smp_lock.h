/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Big Kernel Lock, as drivers of the 2.6 era saw it.
 *
 * Recursive per task: a task may take it again while holding it, and
 * only its outermost unlock_kernel() lets other tasks in.  Sparse sees
 * the lock as the context "kernel_lock", so `make C=2` reports a path
 * that returns with it held or releases it twice.
 */
#ifndef __LINUX_SMPLOCK_H
#define __LINUX_SMPLOCK_H

#include <linux/compiler.h>

extern void lock_kernel(void) __acquires(kernel_lock);
extern void unlock_kernel(void) __releases(kernel_lock);
extern int kernel_locked(void);

#endif /* __LINUX_SMPLOCK_H */

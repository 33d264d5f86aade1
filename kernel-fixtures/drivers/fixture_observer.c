// SPDX-License-Identifier: GPL-2.0
/*
 * fixture_observer: records, per task, what the last fixture ioctl handler
 * saw, and hands it to userspace through /dev/fixture_observer.
 *
 * A conversion that loses the BKL (or its private mutex) on some path, or
 * hands the handler the wrong inode, changes what is recorded here, and the
 * boot-time tests compare it across kernels.  This device is test
 * infrastructure, not a fixture: it uses unlocked_ioctl and is never
 * converted.
 *
 * fixture_note_locking() covers code that runs before the handler's first
 * statement (a declaration initializer that needs the lock): its lock state
 * is folded into the next observation of the same task.
 *
 * On a stock kernel (FIXTURE_STOCK_KERNEL) there is no BKL and lockdep
 * counts the mutexes held (include/fixture_stock_locks.h).
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <fixture/observer.h>
#include "fixture_observer.h"

/* Built as a module for a stock kernel (fixture/stock.py), or in the fixture kernel. */
#ifdef FIXTURE_STOCK_KERNEL
#include "fixture_stock_locks.h"
#else
#include <linux/fixture_locks.h>
#include <linux/smp_lock.h>
#endif

#define FIXTURE_OBSERVER_SLOTS	16

struct fixture_slot {
	pid_t pid;
	bool noted;			/* fixture_note_locking() ran */
	u32 noted_bkl;
	u32 noted_mutexes;
	struct fixture_observation seen;
};

static struct fixture_slot fixture_slots[FIXTURE_OBSERVER_SLOTS];
static DEFINE_SPINLOCK(fixture_slots_lock);

/* The current task's slot, emptied if another task had it. */
static struct fixture_slot *fixture_slot(void)
{
	pid_t pid = task_pid_nr(current);
	struct fixture_slot *slot;

	lockdep_assert_held(&fixture_slots_lock);
	slot = &fixture_slots[pid % FIXTURE_OBSERVER_SLOTS];
	if (slot->pid != pid) {
		memset(slot, 0, sizeof(*slot));
		slot->pid = pid;
	}
	return slot;
}

void fixture_note_locking(void)
{
	u32 bkl = kernel_locked() ? 1 : 0;
	u32 mutexes = fixture_mutexes_held();
	struct fixture_slot *slot;

	spin_lock(&fixture_slots_lock);
	slot = fixture_slot();
	if (slot->noted) {
		slot->noted_bkl &= bkl;
		slot->noted_mutexes = min(slot->noted_mutexes, mutexes);
	} else {
		slot->noted = true;
		slot->noted_bkl = bkl;
		slot->noted_mutexes = mutexes;
	}
	spin_unlock(&fixture_slots_lock);
}
EXPORT_SYMBOL_GPL(fixture_note_locking);

void fixture_observe_handler(struct inode *inode, const char *handler)
{
	u32 bkl = kernel_locked() ? 1 : 0;
	u32 mutexes = fixture_mutexes_held();
	struct fixture_observation *seen;
	struct fixture_slot *slot;

	spin_lock(&fixture_slots_lock);
	slot = fixture_slot();
	if (slot->noted) {
		bkl &= slot->noted_bkl;
		mutexes = min(mutexes, slot->noted_mutexes);
		slot->noted = false;
	}
	seen = &slot->seen;
	seen->valid = 1;
	seen->bkl = bkl;
	seen->mutexes = mutexes;
	seen->minor = inode ? iminor(inode) : 0;
	seen->ino = inode ? inode->i_ino : 0;
	strscpy(seen->handler, handler, sizeof(seen->handler));
	spin_unlock(&fixture_slots_lock);
}
EXPORT_SYMBOL_GPL(fixture_observe_handler);

static long fixture_observer_ioctl(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	struct fixture_observation seen;
	struct fixture_slot *slot;

	switch (cmd) {
	case FIXTURE_OBSERVER_GET:
		spin_lock(&fixture_slots_lock);
		seen = fixture_slot()->seen;
		spin_unlock(&fixture_slots_lock);
		if (copy_to_user((void __user *)arg, &seen, sizeof(seen)))
			return -EFAULT;
		return 0;
	case FIXTURE_OBSERVER_RESET:
		spin_lock(&fixture_slots_lock);
		slot = fixture_slot();
		memset(slot, 0, sizeof(*slot));
		slot->pid = task_pid_nr(current);
		spin_unlock(&fixture_slots_lock);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fixture_observer_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= fixture_observer_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice fixture_observer_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fixture_observer",
	.fops	= &fixture_observer_fops,
};
module_misc_device(fixture_observer_misc);

MODULE_DESCRIPTION("What the fixture ioctl handlers saw, per task");
MODULE_LICENSE("GPL");

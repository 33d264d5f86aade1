// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c: the VFS side of an ioctl, driver-neutral.
 *
 * Runs the module's init, then for every file_operations it registered and
 * every command number the driver's case labels name (model_add_commands,
 * from the measure's generated table) plus unknown ones, and several
 * arguments, calls the entry the way the VFS of the build's kernel did:
 * .unlocked_ioctl without any lock when it is set, else .ioctl with the BKL
 * held (2.6.9 and 2.6.11); with the argument "compat", .compat_ioctl where
 * set, in a run of its own.  One line per call:
 *
 *   call F ENTRY cmd=C arg=A ret=R abort=X trace=[...] | excess=B,M unbalanced=U unlocked_hw=H
 *
 * Before "|" is what the legacy and the converted build must print alike;
 * after it the lock checks: the BKL and mutex depth left over at the exit
 * beyond what the VFS took itself, unlocks of locks not held, hardware
 * accesses made with no lock held.
 *
 * Two other callers are modelled, so code moved out of the lock shows:
 * a racer (the same command from another process) runs when the converted
 * entry first takes a lock, or before the legacy entry (which the VFS
 * entered with the BKL held); and at each sleep with no sleeping lock
 * held (the BKL is dropped while a task sleeps) the next other command
 * runs, once round the list.  A call that sleeps MODEL_SLEEP_LIMIT times is a HANG; a mutex
 * taken twice is a DEADLOCK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_kernel.h"
#include "model_vfs.h"

int model_module_init(void);

#define MAX_COMMANDS 256
static unsigned long commands[MAX_COMMANDS];
static int ncommands;
static const unsigned long unknown_commands[] = { 0, 0x5a5a, 0xdeadbeef };

void model_add_commands(const unsigned long *cmds, int n)
{
	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int j = 0; j < ncommands; j++)
			seen |= commands[j] == cmds[i];
		if (!seen && ncommands < MAX_COMMANDS)
			commands[ncommands++] = cmds[i];
	}
}

enum entry { ENTRY_NONE, ENTRY_LEGACY, ENTRY_UNLOCKED, ENTRY_COMPAT };
static const char *const entry_names[] = { "none", "ioctl", "unlocked_ioctl", "compat_ioctl" };

static struct inode inode;
static struct dentry dentry;
static struct file file;
static const struct file_operations *fops;
static unsigned long current_cmd, current_arg;
static enum entry current_entry;

static enum entry main_entry(void)
{
#if !defined(MODEL_KERNEL_2_6_9)
	if (fops->unlocked_ioctl)
		return ENTRY_UNLOCKED;
#endif
#if !defined(MODEL_KERNEL_6_1) && !defined(MODEL_NO_LEGACY_IOCTL)
	if (fops->ioctl)
		return ENTRY_LEGACY;
#endif
	return ENTRY_NONE;
}

/* one call of an entry, as the VFS makes it; the BKL for .ioctl */
static long enter(enum entry which, unsigned long cmd, unsigned long arg)
{
	long ret = -ENOTTY;

	switch (which) {
#if !defined(MODEL_KERNEL_6_1) && !defined(MODEL_NO_LEGACY_IOCTL)
	case ENTRY_LEGACY:
		model.bkl_depth++;
		ret = fops->ioctl(&inode, &file, cmd, arg);
		model.bkl_depth--;
		break;
#endif
#if !defined(MODEL_KERNEL_2_6_9)
	case ENTRY_UNLOCKED:
		ret = fops->unlocked_ioctl(&file, cmd, arg);
		break;
	case ENTRY_COMPAT:
		ret = fops->compat_ioctl(&file, cmd, arg);
		break;
#endif
	default:
		break;
	}
	return ret;
}

/* user arguments: two pages the caller fills, and a copy of each for the
 * racer, whose process has memory of its own */
#define USER_ADDR(off) ((unsigned long)model_user_page() + (off))

static void fill_user_memory(void)
{
	unsigned char *page = model_user_page();

	for (int i = 0; i < 0x1000; i++)
		page[i] = (unsigned char)(i * 7 + 1);
	memset(page + 0x1000, 0, 0x1000);
	for (int i = 0; i < 16; i++)
		page[0x1000 + 4 * i] = (unsigned char)(i + 1);
	memcpy(page + 0x2000, page, 0x2000);
}

static unsigned long racer_arg(unsigned long arg)
{
	if (arg >= USER_ADDR(0) && arg < USER_ADDR(0x2000))
		return arg + 0x2000;
	return arg;
}

/* a nested call by another process: the depths it leaves must be those it found */
static void nested(const char *who, unsigned long cmd, unsigned long arg)
{
	int bkl = model.bkl_depth, mutexes = model.mutex_depth;
	long ret = enter(current_entry, cmd, arg);

	model_event("%s(%lx)=%ld ", who, cmd, ret);
	if (model.bkl_depth != bkl || model.mutex_depth != mutexes) {
		model.unbalanced++;
		model_event("!%s-depth ", who);
	}
}

static void race(void)
{
	int saved = model.race_pending;

	model.race_pending = 0;
	nested("race", current_cmd, racer_arg(current_arg));
	model.race_pending = saved;
}

/* each sleep lets the next other command run, once round the list */
static int next_other;

static void others_run(void)
{
	int saved = model.race_pending;

	while (next_other < ncommands && commands[next_other] == current_cmd)
		next_other++;
	if (next_other >= ncommands)
		return;
	model.race_pending = 0;
	/* braces mark what another process did, so that the comparison can
	 * tell it from the call's own events (vfsmodel.own_events) */
	model_event("{ ");
	nested("other", commands[next_other++], USER_ADDR(0x3000));
	model_event("} ");
	model.race_pending = saved;
}

static void call(int index, enum entry which, unsigned long cmd, unsigned long arg, const char *argname)
{
	long ret = 0;
	int excess_bkl = 0, excess_mutex = 0;

	fill_user_memory();
	memset(model.trace, 0, sizeof(model.trace));
	model.unlocked_hw = model.unbalanced = model.sleeps = 0;
	model.abort_reason = "none";
	next_other = 0;
	current_cmd = cmd;
	current_arg = arg;
	current_entry = which;
	model.race_hook = race;
	model.sleep_hook = others_run;
	model.abort_armed = 1;
	if (setjmp(model.abort_jump) == 0) {
		if (which == ENTRY_LEGACY)
			race();			/* the VFS held the BKL: the racer ran first */
		else
			model.race_pending = 1;
		model.in_call = 1;
		ret = enter(which, cmd, arg);
		model.in_call = 0;
		if (model.race_pending) {	/* no lock taken: the racer comes after */
			model.race_pending = 0;
			race();
		}
		excess_bkl = model.bkl_depth;
		excess_mutex = model.mutex_depth;
	} else {
		ret = 0;
		model.in_call = 0;
		model.race_pending = 0;
		model_release_all();
	}
	model.abort_armed = 0;
	model.bkl_depth = model.mutex_depth = 0;
	printf("call %d %s cmd=%lx arg=%s ret=%ld abort=%s trace=[%s] | excess=%d,%d unbalanced=%d unlocked_hw=%d\n",
	       index, which == ENTRY_COMPAT ? "compat" : "native", cmd, argname, ret,
	       model.abort_reason, model.trace, excess_bkl, excess_mutex, model.unbalanced,
	       model.unlocked_hw);
}

int main(int argc, char **argv)
{
	/* "compat": call .compat_ioctl instead, in a process of its own, so its
	 * calls start from the state the legacy calls started from */
	int compat = argc > 1 && strcmp(argv[1], "compat") == 0;
	static const struct { const char *name; unsigned long off; int pointer; } args[] = {
		{ "user0", 0, 1 }, { "user1", 0x1000, 1 }, { "0", 0, 0 }, { "3", 3, 0 },
	};
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	model_user_page();
	model_add_commands(unknown_commands, ARRAY_SIZE(unknown_commands));
	status = model_module_init();
	printf("init ret=%d fops=%d commands=%d\n", status, model.nfops, ncommands);
	for (int f = 0; f < model.nfops; f++) {
		enum entry which;

		fops = model.fops[f];
		inode.i_rdev = MKDEV(10, model.minor[f]);
		dentry.d_inode = &inode;
		memset(&file, 0, sizeof(file));
		file.f_dentry = &dentry;
		file.f_path.dentry = &dentry;
		file.f_inode = &inode;
		file.f_op = fops;
		file.f_mode = FMODE_READ | FMODE_WRITE;
		if (fops->open)
			printf("open %d ret=%d\n", f, fops->open(&inode, &file));
		which = main_entry();
#if !defined(MODEL_KERNEL_2_6_9)
		if (compat)
			which = fops->compat_ioctl ? ENTRY_COMPAT : ENTRY_NONE;
#endif
		if (compat && which == ENTRY_NONE) {
			printf("fops %d no compat_ioctl\n", f);
			continue;
		}
		printf("fops %d entry=%s\n", f, entry_names[which]);
		for (int c = 0; c < ncommands; c++)
			for (unsigned a = 0; a < ARRAY_SIZE(args); a++) {
				unsigned long arg = args[a].pointer ? USER_ADDR(args[a].off) : args[a].off;

				call(f, which, commands[c], arg, args[a].name);
			}
	}
	return 0;
}

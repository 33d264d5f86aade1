/* SPDX-License-Identifier: GPL-2.0 */
/* model_vfs.h: the state the model kernel keeps for the harness. */
#ifndef MODEL_VFS_H
#define MODEL_VFS_H

#include <setjmp.h>

#define MODEL_USER_SIZE 0x4000UL
#define MODEL_MAX_FOPS 8
#define MODEL_SLEEP_LIMIT 2000
#define ESPIPE_MODEL 29

struct file_operations;

struct model_state {
	int bkl_depth;			/* lock_kernel() depth */
	int mutex_depth;		/* sleeping locks held, all mutexes */
	int spin_depth;
	int unbalanced;			/* unlocks of a lock not held */
	int unlocked_hw;		/* hardware accesses with no lock held */
	int in_call;			/* inside an ioctl entry */
	int sleeps;
	int race_pending;		/* run race_hook at the first lock taken */
	void (*race_hook)(void);
	void (*sleep_hook)(void);
	int in_sleep_hook;
	char trace[8192];		/* hardware and user-copy events, in order */
	const char *abort_reason;
	int abort_armed;
	jmp_buf abort_jump;
	const struct file_operations *fops[MODEL_MAX_FOPS];
	unsigned int minor[MODEL_MAX_FOPS];
	int nfops;
};

extern struct model_state model;
unsigned char *model_user_page(void);
void model_event(const char *fmt, ...);
void model_abort(const char *why) __attribute__((noreturn));
void model_release_all(void);
void model_add_commands(const unsigned long *cmds, int n);

#endif

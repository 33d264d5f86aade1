// SPDX-License-Identifier: GPL-2.0
/*
 * The 32-bit ioctl path of Linux 2.6.11 on top of 6.1's: after the
 * generic commands, a 32-bit caller's ioctl goes to the file's
 * compat_ioctl, then to a table of registered conversions, and an
 * ioctl nobody converted fails with -EINVAL and a log line naming it.
 */
#include <linux/compat.h>
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/fixture_locks.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/hashtable.h>
#include <linux/ioctl32.h>
#include <linux/printk.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp_lock.h>

struct ioctl_trans {
	unsigned int cmd;
	ioctl_trans_handler_t handler;
	struct hlist_node node;
};

static DEFINE_HASHTABLE(ioctl32_table, 8);
static DECLARE_RWSEM(ioctl32_sem);

/* Caller holds ioctl32_sem. */
static struct ioctl_trans *ioctl32_lookup(unsigned int cmd)
{
	struct ioctl_trans *t;

	hash_for_each_possible(ioctl32_table, t, node, cmd)
		if (t->cmd == cmd)
			return t;
	return NULL;
}

int register_ioctl32_conversion(unsigned int cmd,
				ioctl_trans_handler_t handler)
{
	struct ioctl_trans *t = kmalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	down_write(&ioctl32_sem);
	if (ioctl32_lookup(cmd)) {
		up_write(&ioctl32_sem);
		pr_err("Trying to register duplicated ioctl32 handler %x\n", cmd);
		kfree(t);
		return -EINVAL;
	}
	t->cmd = cmd;
	t->handler = handler;
	hash_add(ioctl32_table, &t->node, cmd);
	up_write(&ioctl32_sem);
	return 0;
}
EXPORT_SYMBOL(register_ioctl32_conversion);

int unregister_ioctl32_conversion(unsigned int cmd)
{
	struct ioctl_trans *t;

	down_write(&ioctl32_sem);
	t = ioctl32_lookup(cmd);
	if (t)
		hash_del(&t->node);
	up_write(&ioctl32_sem);
	if (!t) {
		pr_err("Trying to free unknown 32bit ioctl handler %x\n", cmd);
		return -EINVAL;
	}
	kfree(t);
	return 0;
}
EXPORT_SYMBOL(unregister_ioctl32_conversion);

static void compat_ioctl_error(struct file *filp, unsigned int fd,
			       unsigned int cmd, unsigned long arg)
{
	char buf[10];
	char *fn = "?";
	char *path;

	path = (char *)__get_free_page(GFP_KERNEL);
	if (path) {
		fn = d_path(&filp->f_path, path, PAGE_SIZE);
		if (IS_ERR(fn))
			fn = "?";
	}

	sprintf(buf, "'%c'", _IOC_TYPE(cmd));
	if (!isprint(buf[1]))
		sprintf(buf, "%02x", _IOC_TYPE(cmd));
	pr_warn("ioctl32(%s:%d): Unknown cmd fd(%d) cmd(%08x){%s} arg(%08x) on %s\n",
		current->comm, task_pid_nr(current), (int)fd, cmd, buf,
		(unsigned int)arg, fn);

	if (path)
		free_page((unsigned long)path);
}

long ioctl32_dispatch(struct file *file, unsigned int fd, unsigned int cmd,
		      unsigned long arg)
{
	const struct file_operations *fops = file->f_op;
	struct ioctl_trans *t;
	ioctl_trans_handler_t handler;
	long error;

	if (fops->compat_ioctl) {
		int depth = bkl_depth();

		error = fops->compat_ioctl(file, cmd, arg);
		bkl_check_return(file, fops->compat_ioctl, depth);
		if (error != -ENOIOCTLCMD)
			return error;
	}
	if (!fops->ioctl && !fops->unlocked_ioctl)
		return -ENOTTY;

	down_read(&ioctl32_sem);
	t = ioctl32_lookup(cmd);
	if (!t) {
		static int count;

		up_read(&ioctl32_sem);
		if (++count <= 50)
			compat_ioctl_error(file, fd, cmd, arg);
		return -EINVAL;
	}
	handler = t->handler;
	if (handler) {
		lock_kernel();
		error = handler(fd, cmd, arg, file);
		unlock_kernel();
		up_read(&ioctl32_sem);
		return error;
	}
	up_read(&ioctl32_sem);
	return vfs_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * model_vfs.c: the kernel functions of model_kernel.h.  Lock depths, the
 * hardware register file and the user page live here; harness.c reads them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model_kernel.h"
#include "model_vfs.h"

struct model_state model;
unsigned long jiffies;
void *current;

/* a fixed page for user memory, so both builds pass the same addresses */
#define USER_BASE 0x10000000UL
unsigned char *model_user_page(void)
{
	static unsigned char *page;

	if (!page) {
		page = mmap((void *)USER_BASE, MODEL_USER_SIZE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (page == MAP_FAILED) {
			perror("model: mmap of the user page");
			exit(3);
		}
	}
	return page;
}

void model_event(const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(model.trace);

	if (used + 64 >= sizeof(model.trace))
		return;
	va_start(ap, fmt);
	vsnprintf(model.trace + used, sizeof(model.trace) - used, fmt, ap);
	va_end(ap);
}

void model_abort(const char *why)
{
	model.abort_reason = why;
	if (model.abort_armed)
		longjmp(model.abort_jump, 1);
	fprintf(stderr, "model: %s outside a call\n", why);
	exit(3);
}

static int any_lock_held(void)
{
	return model.bkl_depth > 0 || model.mutex_depth > 0;
}

/* the first lock a converted call takes is where a racing call can run:
 * it gets the lock first and runs to the end, then this call takes it */
static void lock_taken(void)
{
	if (model.race_pending && model.race_hook) {
		model.race_pending = 0;
		model.race_hook();
	}
}

#if !defined(MODEL_KERNEL_6_1)
void lock_kernel(void)
{
	if (!any_lock_held())
		lock_taken();
	model.bkl_depth++;
}

void unlock_kernel(void)
{
	if (model.bkl_depth <= 0) {
		model.unbalanced++;
		model_event("!unlock_kernel-unheld ");
		return;
	}
	model.bkl_depth--;
}

int kernel_locked(void)
{
	return model.bkl_depth > 0;
}
#endif

void mutex_init(struct mutex *m)
{
	m->depth = 0;
}

/* held mutexes, so an aborted call can be unwound */
static struct mutex *held[64];
static int nheld;

void model_release_all(void)
{
	while (nheld > 0)
		held[--nheld]->depth = 0;
	model.mutex_depth = 0;
	model.bkl_depth = 0;
	model.spin_depth = 0;
}

void mutex_lock(struct mutex *m)
{
	if (m->depth > 0)
		model_abort("DEADLOCK");	/* one task: a held mutex never frees */
	if (!any_lock_held())
		lock_taken();
	m->depth = 1;
	if (nheld < 64)
		held[nheld++] = m;
	model.mutex_depth++;
}

int mutex_lock_interruptible(struct mutex *m)
{
	mutex_lock(m);
	return 0;
}

int mutex_trylock(struct mutex *m)
{
	if (m->depth > 0)
		return 0;
	mutex_lock(m);
	return 1;
}

void mutex_unlock(struct mutex *m)
{
	if (m->depth <= 0) {
		model.unbalanced++;
		model_event("!mutex_unlock-unheld ");
		return;
	}
	m->depth = 0;
	model.mutex_depth--;
	for (int i = 0; i < nheld; i++)
		if (held[i] == m) {
			held[i] = held[--nheld];
			break;
		}
}

int mutex_is_locked(struct mutex *m)
{
	return m->depth > 0;
}

void sema_init(struct semaphore *s, int n)
{
	(void)n;
	mutex_init(&s->m);
}

void down(struct semaphore *s) { mutex_lock(&s->m); }
int down_interruptible(struct semaphore *s) { mutex_lock(&s->m); return 0; }
int down_trylock(struct semaphore *s) { return !mutex_trylock(&s->m); }
void up(struct semaphore *s) { mutex_unlock(&s->m); }

void spin_lock(spinlock_t *s) { s->depth++; model.spin_depth++; }
void spin_unlock(spinlock_t *s) { s->depth--; model.spin_depth--; }

/* hardware: a register file; bit 7 of a register reads set every fourth
 * read, so a driver's own poll of a ready bit ends in both builds alike */
static unsigned int regs[0x10000];
static unsigned int reads[0x10000];

unsigned int model_hw_read(unsigned long addr, int width)
{
	unsigned int slot = addr & 0xffff;
	unsigned int value = regs[slot];

	if (model.in_call && !any_lock_held())
		model.unlocked_hw++;
	if (++reads[slot] % 4 == 0)
		value |= 0x80;
	model_event("R%x/%d=%x ", slot, width, value);
	return value;
}

void model_hw_write(unsigned long addr, unsigned int value, int width)
{
	unsigned int slot = addr & 0xffff;

	if (model.in_call && !any_lock_held())
		model.unlocked_hw++;
	regs[slot] = value;
	model_event("W%x/%d=%x ", slot, width, value);
}

void __iomem *ioremap(unsigned long phys, unsigned long size)
{
	(void)size;
	return (void __iomem *)(0x40000000UL + (phys & 0xffff));
}

void iounmap(void __iomem *p) { (void)p; }
struct resource *request_region(unsigned long a, unsigned long n, const char *s)
{
	(void)n; (void)s;
	return (struct resource *)(a + 1);
}
void release_region(unsigned long a, unsigned long n) { (void)a; (void)n; }

/* user memory */
static int user_range(const void *p, unsigned long n)
{
	unsigned long a = (unsigned long)p;

	return a >= USER_BASE && a + n <= USER_BASE + MODEL_USER_SIZE && a + n >= a;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	unsigned long i, sum = 0;

	if (!user_range(to, n))
		return n;
	memcpy(to, from, n);
	for (i = 0; i < n; i++)
		sum = sum * 31 + ((const unsigned char *)from)[i];
	model_event("U%lx+%lu=%lx ", (unsigned long)to - USER_BASE, n, sum);
	return 0;
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!user_range(from, n)) {
		memset(to, 0, n);
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	static const unsigned char zero[4096];

	return copy_to_user(to, zero, min(n, sizeof(zero)));
}

int model_put_user(unsigned long long v, void __user *p, size_t n)
{
	unsigned char bytes[8];

	memcpy(bytes, &v, n);
	return copy_to_user(p, bytes, n) ? -EFAULT : 0;
}

int model_get_user(unsigned long long *v, const void __user *p, size_t n)
{
	*v = 0;
	return copy_from_user(v, p, n) ? -EFAULT : 0;
}

int access_ok(int type, const void __user *p, unsigned long n)
{
	(void)type;
	return user_range(p, n);
}

/* sleeping: bounded, and the moment other commands may run */
static void slept(void)
{
	jiffies++;
	if (++model.sleeps > MODEL_SLEEP_LIMIT)
		model_abort("HANG");
	if (model.sleep_hook && model.mutex_depth == 0 && !model.in_sleep_hook) {
		model.in_sleep_hook = 1;
		model.sleep_hook();
		model.in_sleep_hook = 0;
	}
}

void msleep(unsigned int ms) { (void)ms; slept(); }
unsigned long msleep_interruptible(unsigned int ms) { (void)ms; slept(); return 0; }
void ssleep(unsigned int s) { (void)s; slept(); }
void udelay(unsigned long us) { (void)us; jiffies++; if (++model.sleeps > MODEL_SLEEP_LIMIT) model_abort("HANG"); }
void mdelay(unsigned long ms) { udelay(ms); }
long schedule_timeout(long t) { slept(); return t > 0 ? t - 1 : 0; }
long schedule_timeout_interruptible(long t) { return schedule_timeout(t); }
void schedule(void) { slept(); }
void cpu_relax(void) { udelay(1); }
int signal_pending(void *task) { (void)task; return 0; }

/* registration: the harness tests every fops registered by module init */
static void registered(const struct file_operations *fops, unsigned int minor)
{
	if (model.nfops < MODEL_MAX_FOPS) {
		model.fops[model.nfops] = fops;
		model.minor[model.nfops] = minor;
		model.nfops++;
	}
}

int misc_register(struct miscdevice *m)
{
	if (m->minor == MISC_DYNAMIC_MINOR)
		m->minor = 60 + model.nfops;
	registered(m->fops, m->minor);
	return 0;
}
int misc_deregister(struct miscdevice *m) { (void)m; return 0; }
int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops)
{
	(void)name;
	registered(fops, 0);
	return major ? 0 : 240;
}
int unregister_chrdev(unsigned int major, const char *name) { (void)major; (void)name; return 0; }
void cdev_init(struct cdev *c, const struct file_operations *fops) { c->ops = fops; }
int cdev_add(struct cdev *c, dev_t dev, unsigned n)
{
	(void)n;
	c->dev = dev;
	registered(c->ops, MINOR(dev));
	return 0;
}
void cdev_del(struct cdev *c) { (void)c; }
int alloc_chrdev_region(dev_t *d, unsigned first, unsigned n, const char *s)
{
	(void)n; (void)s;
	*d = MKDEV(241, first);
	return 0;
}
int register_chrdev_region(dev_t d, unsigned n, const char *s) { (void)d; (void)n; (void)s; return 0; }
void unregister_chrdev_region(dev_t d, unsigned n) { (void)d; (void)n; }
#if defined(MODEL_KERNEL_6_1)
long compat_ptr_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (!file->f_op->unlocked_ioctl)
		return -ENOIOCTLCMD;
	return file->f_op->unlocked_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif

loff_t no_llseek(struct file *f, loff_t o, int w) { (void)f; (void)o; (void)w; return -ESPIPE_MODEL; }
loff_t noop_llseek(struct file *f, loff_t o, int w) { (void)f; (void)w; return o; }
int nonseekable_open(struct inode *i, struct file *f) { (void)i; (void)f; return 0; }

/* memory and printing */
void *kmalloc(size_t n, int gfp) { (void)gfp; return malloc(n ? n : 1); }
void *kzalloc(size_t n, int gfp) { (void)gfp; return calloc(1, n ? n : 1); }
void kfree(const void *p) { free((void *)p); }
size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n) {
		size_t c = len >= n ? n - 1 : len;
		memcpy(d, s, c);
		d[c] = 0;
	}
	return len;
}
int printk(const char *fmt, ...) { (void)fmt; return 0; }
int capable(int cap) { (void)cap; return 1; }
int test_and_set_bit(int nr, unsigned long *a) { int old = (*a >> nr) & 1; *a |= 1UL << nr; return old; }
void clear_bit(int nr, unsigned long *a) { *a &= ~(1UL << nr); }
void set_bit(int nr, unsigned long *a) { *a |= 1UL << nr; }
int test_bit(int nr, const unsigned long *a) { return (*a >> nr) & 1; }

void model_noreturn(const char *what) { model_abort(what); }
void panic(const char *fmt, ...) { (void)fmt; model_abort("panic"); }
void do_exit(long code) { (void)code; model_abort("do_exit"); }

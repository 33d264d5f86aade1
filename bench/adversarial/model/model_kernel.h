/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model_kernel.h: the kernel, as far as a legacy ioctl handler can see it,
 * for the adversarial measure (bench/adversarial/README.md).
 *
 * Three kernels, one header:
 *   MODEL_KERNEL_2_6_9    .ioctl only, no HAVE_UNLOCKED_IOCTL (the input's kernel)
 *   MODEL_KERNEL_2_6_11   .ioctl and .unlocked_ioctl, the BKL (a bkl target)
 *   MODEL_KERNEL_6_1      no .ioctl member, no lock_kernel() (a mutex target)
 *
 * MODEL_NO_LEGACY_IOCTL drops the .ioctl member from any of them: the
 * measure's search for legacy entries left in compiled code.
 *
 * Locks count their depth (model_vfs.c); a hardware accessor records every
 * access made while no lock is held; user copies are plain functions on a
 * fixed "user" page, so two builds of one driver see the same addresses.
 */
#ifndef MODEL_KERNEL_H
#define MODEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#if !defined(MODEL_KERNEL_2_6_9) && !defined(MODEL_KERNEL_2_6_11) && !defined(MODEL_KERNEL_6_1)
#error "define one of MODEL_KERNEL_2_6_9, MODEL_KERNEL_2_6_11, MODEL_KERNEL_6_1"
#endif
#if !defined(MODEL_KERNEL_2_6_9)
#define HAVE_UNLOCKED_IOCTL 1
#define HAVE_COMPAT_IOCTL 1
#endif

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#if defined(MODEL_KERNEL_2_6_9)
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 9)
#elif defined(MODEL_KERNEL_2_6_11)
#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, 11)
#else
#define LINUX_VERSION_CODE KERNEL_VERSION(6, 1, 0)
#endif

/* types and annotations */
typedef uint8_t u8;   typedef uint16_t u16;   typedef uint32_t u32;   typedef uint64_t u64;
typedef int8_t s8;    typedef int16_t s16;    typedef int32_t s32;    typedef int64_t s64;
typedef u8 __u8;      typedef u16 __u16;      typedef u32 __u32;      typedef u64 __u64;
typedef s32 __s32;
typedef long loff_t;
typedef long ssize_t;
typedef unsigned long dev_t;	/* as glibc has it: model_vfs.c sees both */
typedef unsigned int fmode_t;
typedef int bool;
#define true 1
#define false 0
#define __user
#define __iomem
#define __init
#define __exit
#define __devinit
#define __devexit
#define __read_mostly
#define __always_unused __attribute__((unused))
#define __maybe_unused __attribute__((unused))
#define likely(x) (x)
#define unlikely(x) (x)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define container_of(p, type, member) ((type *)((char *)(p) - offsetof(type, member)))
#define EXPORT_SYMBOL(s) extern int model_export_##s
#define EXPORT_SYMBOL_GPL(s) extern int model_export_##s
#define MODULE_LICENSE(s) extern int model_module_license
#define MODULE_AUTHOR(s) extern int model_module_author
#define MODULE_DESCRIPTION(s) extern int model_module_description
#define MODULE_PARM_DESC(n, s) extern int model_module_parm_desc_##n
#define module_param(n, t, p) extern int model_module_param_##n
#define THIS_MODULE ((struct module *)0)
struct module;

/* errno */
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define ENODEV 19
#define EINVAL 22
#define ENOTTY 25
#define ENOSPC 28
#define ERANGE 34
#define ENOSYS 38
#define ETIMEDOUT 110
#define ERESTARTSYS 512
#define ENOIOCTLCMD 515

/* ioctl numbers */
#define _IOC_NRBITS 8
#define _IOC_TYPEBITS 8
#define _IOC_SIZEBITS 14
#define _IOC_NRSHIFT 0
#define _IOC_TYPESHIFT 8
#define _IOC_SIZESHIFT 16
#define _IOC_DIRSHIFT 30
#define _IOC_NONE 0U
#define _IOC_WRITE 1U
#define _IOC_READ 2U
#define _IOC(dir, type, nr, size) \
	(((dir) << _IOC_DIRSHIFT) | ((type) << _IOC_TYPESHIFT) | \
	 ((nr) << _IOC_NRSHIFT) | ((size) << _IOC_SIZESHIFT))
#define _IO(type, nr) _IOC(_IOC_NONE, (type), (nr), 0)
#define _IOR(type, nr, t) _IOC(_IOC_READ, (type), (nr), sizeof(t))
#define _IOW(type, nr, t) _IOC(_IOC_WRITE, (type), (nr), sizeof(t))
#define _IOWR(type, nr, t) _IOC(_IOC_READ | _IOC_WRITE, (type), (nr), sizeof(t))
#define _IOC_NR(nr) (((nr) >> _IOC_NRSHIFT) & 0xff)
#define _IOC_TYPE(nr) (((nr) >> _IOC_TYPESHIFT) & 0xff)
#define _IOC_SIZE(nr) (((nr) >> _IOC_SIZESHIFT) & 0x3fff)
#define _IOC_DIR(nr) (((nr) >> _IOC_DIRSHIFT) & 3)

/* the VFS objects a handler touches */
struct dentry;
struct inode {
	dev_t i_rdev;
	void *i_private;
	struct cdev *i_cdev;
};
struct dentry {
	struct inode *d_inode;
};
struct path {
	struct dentry *dentry;
};
struct file {
	struct dentry *f_dentry;
	struct path f_path;
	struct inode *f_inode;
	const struct file_operations *f_op;
	void *private_data;
	unsigned int f_flags;
	fmode_t f_mode;
	loff_t f_pos;
};
#define file_inode(f) ((f)->f_inode)
#define iminor(inode) ((unsigned int)((inode)->i_rdev & 0xff))
#define imajor(inode) ((unsigned int)((inode)->i_rdev >> 8))
#define MINOR(d) ((unsigned int)((d) & 0xff))
#define MAJOR(d) ((unsigned int)((d) >> 8))
#define MKDEV(a, b) (((a) << 8) | (b))
#define FMODE_READ 1
#define FMODE_WRITE 2
#define O_NONBLOCK 04000
struct poll_table_struct;
struct vm_area_struct;

struct file_operations {
	struct module *owner;
	loff_t (*llseek)(struct file *, loff_t, int);
	long (*read)(struct file *, char __user *, size_t, loff_t *);
	long (*write)(struct file *, const char __user *, size_t, loff_t *);
	unsigned int (*poll)(struct file *, struct poll_table_struct *);
#if !defined(MODEL_KERNEL_6_1) && !defined(MODEL_NO_LEGACY_IOCTL)
	int (*ioctl)(struct inode *, struct file *, unsigned int, unsigned long);
#endif
#if !defined(MODEL_KERNEL_2_6_9)
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
#endif
	int (*mmap)(struct file *, struct vm_area_struct *);
	int (*open)(struct inode *, struct file *);
	int (*flush)(struct file *, void *);
	int (*release)(struct inode *, struct file *);
	int (*fasync)(int, struct file *, int);
};
#if defined(MODEL_KERNEL_6_1)
long compat_ptr_ioctl(struct file *, unsigned int, unsigned long);	/* 5.5 and later */
#endif
loff_t no_llseek(struct file *, loff_t, int);
loff_t noop_llseek(struct file *, loff_t, int);
int nonseekable_open(struct inode *, struct file *);

/* device registration: the harness finds the fops here */
#define MISC_DYNAMIC_MINOR 255
#define WATCHDOG_MINOR 130
struct device;
struct miscdevice {
	int minor;
	const char *name;
	const struct file_operations *fops;
	struct device *parent;
};
int misc_register(struct miscdevice *);
int misc_deregister(struct miscdevice *);
int register_chrdev(unsigned int, const char *, const struct file_operations *);
int unregister_chrdev(unsigned int, const char *);
struct cdev {
	const struct file_operations *ops;
	struct module *owner;
	dev_t dev;
};
void cdev_init(struct cdev *, const struct file_operations *);
int cdev_add(struct cdev *, dev_t, unsigned);
void cdev_del(struct cdev *);
int alloc_chrdev_region(dev_t *, unsigned, unsigned, const char *);
int register_chrdev_region(dev_t, unsigned, const char *);
void unregister_chrdev_region(dev_t, unsigned);

/* one module per program: module_init names the entry the harness calls */
#define module_init(fn) int model_module_init(void) { return fn(); }
#define module_exit(fn) void model_module_exit(void) { fn(); }
#define module_misc_device(m) \
	static int __init m##_model_init(void) { return misc_register(&(m)); } \
	module_init(m##_model_init)

/* the BKL (absent from MODEL_KERNEL_6_1, as from 2.6.39 on) */
#if !defined(MODEL_KERNEL_6_1)
void lock_kernel(void);
void unlock_kernel(void);
int kernel_locked(void);
#endif

/* sleeping locks: struct mutex and the 2.6 semaphore used as one */
struct mutex {
	int depth;
	const char *name;
};
#define DEFINE_MUTEX(m) struct mutex m = { 0, #m }
#define __MUTEX_INITIALIZER(m) { 0, #m }
void mutex_init(struct mutex *);
void mutex_lock(struct mutex *);
int mutex_lock_interruptible(struct mutex *);
int mutex_trylock(struct mutex *);
void mutex_unlock(struct mutex *);
int mutex_is_locked(struct mutex *);
struct semaphore {
	struct mutex m;
};
#define DECLARE_MUTEX(s) struct semaphore s = { { 0, #s } }
#define DEFINE_SEMAPHORE(s) struct semaphore s = { { 0, #s } }
void sema_init(struct semaphore *, int);
#define init_MUTEX(s) sema_init((s), 1)
void down(struct semaphore *);
int down_interruptible(struct semaphore *);
int down_trylock(struct semaphore *);
void up(struct semaphore *);

/* spinlocks do not stand in for the BKL: they only count */
typedef struct { int depth; } spinlock_t;
#define DEFINE_SPINLOCK(s) spinlock_t s = { 0 }
#define SPIN_LOCK_UNLOCKED { 0 }
#define spin_lock_init(s) ((s)->depth = 0)
void spin_lock(spinlock_t *);
void spin_unlock(spinlock_t *);
#define spin_lock_irqsave(s, f) do { (f) = 0; spin_lock(s); } while (0)
#define spin_unlock_irqrestore(s, f) do { (void)(f); spin_unlock(s); } while (0)
#define spin_lock_irq(s) spin_lock(s)
#define spin_unlock_irq(s) spin_unlock(s)
#define spin_lock_bh(s) spin_lock(s)
#define spin_unlock_bh(s) spin_unlock(s)

/* hardware: every access is traced, and flagged when no lock is held */
unsigned int model_hw_read(unsigned long addr, int width);
void model_hw_write(unsigned long addr, unsigned int value, int width);
#define inb(p) ((u8)model_hw_read((p), 1))
#define inw(p) ((u16)model_hw_read((p), 2))
#define inl(p) ((u32)model_hw_read((p), 4))
#define outb(v, p) model_hw_write((p), (u8)(v), 1)
#define outw(v, p) model_hw_write((p), (u16)(v), 2)
#define outl(v, p) model_hw_write((p), (u32)(v), 4)
#define inb_p inb
#define outb_p outb
#define readb(a) ((u8)model_hw_read((unsigned long)(a), 1))
#define readw(a) ((u16)model_hw_read((unsigned long)(a), 2))
#define readl(a) ((u32)model_hw_read((unsigned long)(a), 4))
#define writeb(v, a) model_hw_write((unsigned long)(a), (u8)(v), 1)
#define writew(v, a) model_hw_write((unsigned long)(a), (u16)(v), 2)
#define writel(v, a) model_hw_write((unsigned long)(a), (u32)(v), 4)
#define ioread8(a) readb(a)
#define ioread32(a) readl(a)
#define iowrite8(v, a) writeb(v, a)
#define iowrite32(v, a) writel(v, a)
void __iomem *ioremap(unsigned long, unsigned long);
void iounmap(void __iomem *);
struct resource;
struct resource *request_region(unsigned long, unsigned long, const char *);
void release_region(unsigned long, unsigned long);

/* user memory: plain functions on the model's user page */
unsigned long copy_to_user(void __user *, const void *, unsigned long);
unsigned long copy_from_user(void *, const void __user *, unsigned long);
unsigned long clear_user(void __user *, unsigned long);
int model_put_user(unsigned long long, void __user *, size_t);
int model_get_user(unsigned long long *, const void __user *, size_t);
#define put_user(x, p) model_put_user((unsigned long long)(x), (p), sizeof(*(p)))
#define __put_user(x, p) put_user(x, p)
#define get_user(x, p) ({ unsigned long long __model_v = 0; \
	int __model_e = model_get_user(&__model_v, (p), sizeof(*(p))); \
	(x) = (__typeof__(*(p)))__model_v; __model_e; })
#define __get_user(x, p) get_user(x, p)
#define VERIFY_READ 0
#define VERIFY_WRITE 1
int access_ok(int, const void __user *, unsigned long);
#define compat_ptr(x) ((void __user *)(unsigned long)(x))
typedef u32 compat_uptr_t;
typedef s32 compat_int_t;
typedef u32 compat_ulong_t;

/* time and sleeping: a sleep without a sleeping lock held lets the other
 * commands run (the BKL is dropped while a task sleeps) */
extern unsigned long jiffies;
#define HZ 100
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
void msleep(unsigned int);
unsigned long msleep_interruptible(unsigned int);
void ssleep(unsigned int);
void udelay(unsigned long);
void mdelay(unsigned long);
#define ndelay(n) udelay(1)
long schedule_timeout(long);
long schedule_timeout_interruptible(long);
void schedule(void);
void cpu_relax(void);
int signal_pending(void *);
extern void *current;
#define set_current_state(s) do { } while (0)
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
typedef struct { int unused; } wait_queue_head_t;
#define DECLARE_WAIT_QUEUE_HEAD(w) wait_queue_head_t w = { 0 }
#define init_waitqueue_head(w) ((w)->unused = 0)
#define wake_up(w) ((void)(w))
#define wake_up_interruptible(w) ((void)(w))
#define wait_event_timeout(wq, cond, t) ({ long __model_t = (t); \
	while (!(cond) && __model_t > 0) { msleep(10); __model_t--; } (cond) ? 1 : 0; })
#define wait_event_interruptible(wq, cond) ({ while (!(cond)) msleep(10); 0; })
#define wait_event_interruptible_timeout(wq, cond, t) wait_event_timeout(wq, cond, t)

/* memory, strings, printing */
#define GFP_KERNEL 0
#define GFP_ATOMIC 1
void *kmalloc(size_t, int);
void *kzalloc(size_t, int);
void kfree(const void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
char *strncpy(char *, const char *, size_t);
size_t strlcpy(char *, const char *, size_t);
int snprintf(char *, size_t, const char *, ...);
int sprintf(char *, const char *, ...);
int printk(const char *, ...);
#define KERN_ERR ""
#define KERN_WARNING ""
#define KERN_INFO ""
#define KERN_DEBUG ""
#define KERN_NOTICE ""
#define KERN_CRIT ""
#define pr_err(...) printk(__VA_ARGS__)
#define pr_info(...) printk(__VA_ARGS__)
#define pr_debug(...) printk(__VA_ARGS__)
#define pr_warning(...) printk(__VA_ARGS__)

/* capabilities, bits, atomics */
#define CAP_SYS_ADMIN 21
#define CAP_SYS_RAWIO 17
int capable(int);
typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i) { (i) }
#define atomic_read(v) ((v)->counter)
#define atomic_set(v, i) ((v)->counter = (i))
#define atomic_inc(v) ((v)->counter++)
#define atomic_dec(v) ((v)->counter--)
#define atomic_inc_return(v) (++(v)->counter)
#define atomic_dec_and_test(v) (--(v)->counter == 0)
int test_and_set_bit(int, unsigned long *);
void clear_bit(int, unsigned long *);
void set_bit(int, unsigned long *);
int test_bit(int, const unsigned long *);

/* the end of a path that does not return */
void model_noreturn(const char *) __attribute__((noreturn));
#define BUG() model_noreturn("BUG")
#define BUG_ON(c) do { if (c) BUG(); } while (0)
#define WARN_ON(c) (!!(c))
void panic(const char *, ...) __attribute__((noreturn));
void do_exit(long) __attribute__((noreturn));

/* watchdog API */
#define WDIOC_GETSUPPORT _IOR('W', 0, struct watchdog_info)
#define WDIOC_GETSTATUS _IOR('W', 1, int)
#define WDIOC_GETBOOTSTATUS _IOR('W', 2, int)
#define WDIOC_GETTEMP _IOR('W', 3, int)
#define WDIOC_SETOPTIONS _IOR('W', 4, int)
#define WDIOC_KEEPALIVE _IOR('W', 5, int)
#define WDIOC_SETTIMEOUT _IOWR('W', 6, int)
#define WDIOC_GETTIMEOUT _IOR('W', 7, int)
#define WDIOS_DISABLECARD 0x0001
#define WDIOS_ENABLECARD 0x0002
#define WDIOF_SETTIMEOUT 0x0080
#define WDIOF_MAGICCLOSE 0x0100
#define WDIOF_KEEPALIVEPING 0x8000
struct watchdog_info {
	u32 options;
	u32 firmware_version;
	u8 identity[32];
};

#endif

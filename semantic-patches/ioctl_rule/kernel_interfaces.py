"""Kernel interfaces whose definitions were read once, by us, in every
2.6 tree (and later ones): none leaves its caller (no return, no goto out
of a statement expression), so a call to one in a handler hides no exit.

Outside a kernel tree the angle-bracket headers of a driver cannot be
read; a name used in a handler must then be one of these, or be defined
or declared in what was read, or auto takes the wrapper.  Inside a tree
the tree's own definition is read first and wins (a tree that defines one
of these as a macro that returns is caught there).  Add a name only after
reading its definition; never a driver's own helper."""

# Functions and function-like macros.
CALLS = frozenset("""
_IO _IOR _IOW _IOWR _IOC _IOC_NR _IOC_TYPE _IOC_SIZE _IOC_DIR
iminor imajor MINOR MAJOR MKDEV file_inode PDE PROC_I
copy_to_user copy_from_user __copy_to_user __copy_from_user get_user put_user
__get_user __put_user access_ok clear_user strncpy_from_user strnlen_user
memdup_user compat_ptr
printk pr_debug pr_info pr_warn pr_warning pr_err pr_notice pr_crit pr_emerg
dev_dbg dev_info dev_warn dev_err dev_notice
kmalloc kzalloc kcalloc kfree vmalloc vfree get_zeroed_page free_page
memset memcpy memmove memcmp memchr strcpy strncpy strlcpy strscpy strcat strncat strlcat
strcmp strncmp strlen strnlen
strchr strrchr strstr u64_to_user_ptr
S_ISDIR S_ISREG S_ISCHR S_ISBLK S_ISFIFO S_ISLNK S_ISSOCK
sprintf snprintf scnprintf sscanf simple_strtoul simple_strtol
capable signal_pending fatal_signal_pending schedule schedule_timeout
msleep msleep_interruptible ssleep udelay ndelay mdelay
set_current_state __set_current_state
wake_up wake_up_interruptible wake_up_all wake_up_process
wait_event wait_event_interruptible wait_event_timeout wait_event_interruptible_timeout
init_waitqueue_head add_wait_queue remove_wait_queue interruptible_sleep_on
interruptible_sleep_on_timeout sleep_on sleep_on_timeout
complete complete_all wait_for_completion wait_for_completion_interruptible
wait_for_completion_timeout init_completion
down up down_interruptible down_trylock mutex_lock mutex_unlock
mutex_lock_interruptible mutex_trylock
spin_lock spin_unlock spin_lock_irq spin_unlock_irq spin_lock_irqsave
spin_unlock_irqrestore spin_lock_bh spin_unlock_bh
read_lock read_unlock write_lock write_unlock
local_irq_save local_irq_restore local_irq_disable local_irq_enable
inb inw inl outb outw outl inb_p outb_p readb readw readl writeb writew writel
ioread8 ioread16 ioread32 iowrite8 iowrite16 iowrite32
atomic_read atomic_set atomic_inc atomic_dec atomic_add atomic_sub
atomic_inc_return atomic_dec_return atomic_dec_and_test
set_bit clear_bit test_bit test_and_set_bit test_and_clear_bit change_bit
container_of list_entry list_add list_add_tail list_del list_empty
dev_get_drvdata to_delayed_work __get_cpu_var
min max min_t max_t clamp ARRAY_SIZE likely unlikely
BUG_ON WARN_ON BUG panic do_exit complete_and_exit
cpu_to_le16 cpu_to_le32 le16_to_cpu le32_to_cpu cpu_to_be16 cpu_to_be32
be16_to_cpu be32_to_cpu htons htonl ntohs ntohl
jiffies_to_msecs msecs_to_jiffies time_after time_before
do_gettimeofday
mod_timer del_timer del_timer_sync add_timer
request_irq free_irq disable_irq enable_irq
lock_kernel unlock_kernel
DECLARE_WAITQUEUE DECLARE_WAIT_QUEUE_HEAD DECLARE_COMPLETION DEFINE_MUTEX DEFINE_SPINLOCK
EXPORT_SYMBOL EXPORT_SYMBOL_GPL KERNEL_VERSION LINUX_VERSION_CODE
""".split())

# Object-like names: constants and the current task, which a declaration
# may name before the lock (they read no shared memory).
CONSTANTS = frozenset("""
NULL HZ PAGE_SIZE PAGE_SHIFT GFP_KERNEL GFP_ATOMIC GFP_USER
TASK_INTERRUPTIBLE TASK_UNINTERRUPTIBLE TASK_RUNNING
CAP_SYS_ADMIN CAP_SYS_RAWIO CAP_NET_ADMIN
true false current
""".split())

"""Names a pushdown may not run under the lock unread.

A name the prover did not read, called or standing alone as a statement,
may be a macro of a header it could not find: a GNU statement expression
`({ int __r = (e); if (__r < 0) return __r; __r; })` or a
`do { if (...) return ...; } while (0)`.  Its return is no token of the
function, so a path that leaves with the lock held is invisible.  In a
function that takes the lock itself (a pushdown), every such name reached
with the lock held must be read: a macro (expanded where it may leave),
a function declared or defined in what was read (a prototype proves it is
not a function-like macro: the macro would not let it compile), a local or
parameter (a pointer to a function), or a kernel interface of the list
below, whose definitions were read, by us, in the 2.6 trees and later.

The list is the prover's own: it trusts nothing of the rule it checks.
"""

from ioctl_rework.lockproof.analysis import Function
from ioctl_rework.lockproof.judge import Finding, in_macros
from ioctl_rework.lockproof.statements import TYPE_WORDS

# Functions and function-like macros of the kernel that never leave their
# caller.  Add a name only after reading its definition; never a driver's.
KERNEL_CALLS = frozenset("""
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

# Words of C that are followed by "(" or stand alone, and are no names.
_NOT_NAMES = TYPE_WORDS | frozenset("""
if else while for do switch case default return break continue goto sizeof
typeof __typeof__ __typeof __alignof__ _Alignof offsetof asm __asm__ __asm volatile
__volatile__ __attribute__ __extension__""".split())


def unread_names(function: Function, read, lock: str) -> list[Finding]:
    """A finding for the first name FUNCTION runs with the lock held whose
    definition was not read; READ(name) says whether the file, its headers
    or its macros define or declare it."""
    tokens = function.tokens
    local = function.locals.names | function.locals.statics | set(function.params)
    for leaf in function.leaves:
        held = {d for d, _, _ in function.walk.leaves.get(leaf.ident, ())}
        if not any(d >= 1 for d in held):
            continue
        positions = leaf.positions
        for k, i in enumerate(positions):
            token = tokens[i]
            if token.kind != "ident" or token.text in _NOT_NAMES or token.text in local or \
                    token.text in KERNEL_CALLS or token.text.startswith("__builtin_") or \
                    read(token.text):
                continue
            after = tokens[positions[k + 1]] if k + 1 < len(positions) else None
            before = tokens[positions[k - 1]] if k else None
            member = before is not None and (before.is_(".") or before.is_("->"))
            called = after is not None and after.is_("(")
            alone = len(positions) <= 2 and k == 0 and (after is None or after.is_(";"))
            if (called and not member) or alone:
                return [Finding(token.line, f"{token.text} at line {token.line}"
                                f"{in_macros(token.macros)} runs with {lock} held and may "
                                "be a macro that returns: its definition was not read (not "
                                "in the file, in a header found, or among the kernel "
                                "interfaces known not to return)")]
    return []

"""lockproof: converted handlers hold the lock where the VFS held it.

Each case is a 2.6-era legacy handler, a conversion of it and what the
prover must say.  Correct conversions must pass; each buggy one must be
caught with a message a maintainer understands.
"""

import unittest

from ioctl_rework import lockproof
from ioctl_rework import settings
from lockproof_helpers import BKL, line_of, messages, prove

LEGACY = """\
#include <linux/fs.h>
#include <linux/uaccess.h>

static int wdt_count;
void wdt_keepalive(int minor);

static int wdt_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	int minor = iminor(inode);

	switch (cmd) {
	case WDT_KEEPALIVE:
		wdt_keepalive(minor);
		return 0;
	case WDT_GETCOUNT:
		return put_user(wdt_count, p);
	default:
		return -ENOTTY;
	}
}

static struct file_operations wdt_fops = {
	.ioctl		= wdt_ioctl,
};
"""

PUSHDOWN = """\
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/smp_lock.h>

static int wdt_count;
void wdt_keepalive(int minor);

static long wdt_ioctl(struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	long ret;
	int __user *p = (int __user *)arg;
	int minor = iminor(inode);

	lock_kernel();
	switch (cmd) {
	case WDT_KEEPALIVE:
		wdt_keepalive(minor);
		unlock_kernel();
		return 0;
	case WDT_GETCOUNT:
		ret = put_user(wdt_count, p);
		unlock_kernel();
		return ret;
	default:
		unlock_kernel();
		return -ENOTTY;
	}
}

static struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,
};
"""

WRAPPER = PUSHDOWN.replace("""	lock_kernel();
	switch""", """	switch""").replace("""		wdt_keepalive(minor);
		unlock_kernel();
		return 0;
	case WDT_GETCOUNT:
		ret = put_user(wdt_count, p);
		unlock_kernel();
		return ret;
	default:
		unlock_kernel();
		return -ENOTTY;""", """		wdt_keepalive(minor);
		return 0;
	case WDT_GETCOUNT:
		return put_user(wdt_count, p);
	default:
		return -ENOTTY;""").replace("	long ret;\n", "").replace("""static struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_ioctl,""", """static long wdt_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = wdt_ioctl(file, cmd, arg);
	unlock_kernel();
	return ret;
}

static struct file_operations wdt_fops = {
	.unlocked_ioctl	= wdt_unlocked_ioctl,""")


def pushdown(new: str, old: str = LEGACY) -> list[str]:
    return messages(prove(old, new, {"wdt_ioctl": "wdt_ioctl"}))


def wrapper(new: str, old: str = LEGACY) -> list[str]:
    return messages(prove(old, new, {"wdt_ioctl": "wdt_unlocked_ioctl"}))


class PushdownTest(unittest.TestCase):
    def test_a_correct_pushdown_passes(self):
        self.assertEqual(pushdown(PUSHDOWN), [])

    def test_a_return_without_its_unlock_leaves_the_bkl_held(self):
        new = PUSHDOWN.replace("\t\tunlock_kernel();\n\t\treturn -ENOTTY;", "\t\treturn -ENOTTY;")
        line = line_of(new, "return -ENOTTY")
        self.assertEqual(pushdown(new), [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_second_unlock_on_a_path_is_caught_where_it_releases(self):
        new = PUSHDOWN.replace("\t\tunlock_kernel();\n\t\treturn 0;",
                               "\t\tunlock_kernel();\n\t\tunlock_kernel();\n\t\treturn 0;")
        line = line_of(new, "unlock_kernel();", 2)
        self.assertIn(f"{line}: unlock_kernel() at line {line} releases the BKL when it "
                      "is not held", pushdown(new))

    def test_a_statement_moved_before_the_lock_is_caught(self):
        legacy = LEGACY.replace("\tswitch (cmd) {", "\twdt_count++;\n\tswitch (cmd) {")
        new = PUSHDOWN.replace("\tlock_kernel();\n\tswitch (cmd) {",
                               "\twdt_count++;\n\tlock_kernel();\n\tswitch (cmd) {")
        line = line_of(new, "wdt_count++")
        self.assertEqual(pushdown(new, legacy),
                         [f"{line}: statement at line {line} ran under the BKL before and now "
                          "runs before lock_kernel() (it writes wdt_count)"])

    def test_a_return_value_computed_after_the_unlock_is_caught(self):
        new = PUSHDOWN.replace("\t\tret = put_user(wdt_count, p);\n\t\tunlock_kernel();\n"
                               "\t\treturn ret;",
                               "\t\tunlock_kernel();\n\t\treturn put_user(wdt_count, p);")
        line = line_of(new, "return put_user")
        self.assertEqual(pushdown(new),
                         [f"{line}: return value at line {line} ran under the BKL before and "
                          "now runs after unlock_kernel() (it calls put_user())"])

    def test_a_declaration_that_calls_a_function_before_the_lock_is_caught(self):
        legacy = LEGACY.replace("\tint minor = iminor(inode);",
                                "\tint minor = wdt_claim(iminor(inode));")
        new = PUSHDOWN.replace("\tint minor = iminor(inode);",
                               "\tint minor = wdt_claim(iminor(inode));")
        line = line_of(new, "wdt_claim")
        self.assertEqual(pushdown(new, legacy),
                         [f"{line}: declaration at line {line} ran under the BKL before and now "
                          "runs before lock_kernel() (it calls wdt_claim())"])

    def test_a_declaration_that_reads_shared_data_before_the_lock_is_caught(self):
        # Issue 22: read before the lock, it is no longer one step with the
        # handler's writes under it (early_reads.py); the rule splits it.
        reads = ("\tstruct wdt *dev = wdt_devs[iminor(inode)];\n"
                 "\tstruct wdt_file *wf = file->private_data;\n"
                 "\tint state = wf->dev->state;\n"
                 "\tstruct proc_dir_entry *dp = PDE(inode);\n"
                 "\tvoid *data = dp->data;\n")
        legacy = LEGACY.replace("\tint minor = iminor(inode);\n",
                                "\tint minor = iminor(inode);\n" + reads)
        new = PUSHDOWN.replace("\tint minor = iminor(inode);\n",
                               "\tint minor = iminor(inode);\n" + reads)
        devs, state = line_of(new, "wdt_devs"), line_of(new, "wf->dev->state")
        data = line_of(new, "dp->data")
        tail = ("which another call may change in between: the BKL made that read and the "
                "handler's writes one step)")
        self.assertEqual(pushdown(new, legacy), [
            f"{devs}: declaration `struct wdt *dev = wdt_devs[iminor(inode)]` at line {devs} "
            "ran under the BKL before and now runs before lock_kernel() (it reads "
            f"wdt_devs[...], {tail}",
            f"{state}: declaration `int state = wf->dev->state` at line {state} ran under the "
            f"BKL before and now runs before lock_kernel() (it reads wf->dev->state, {tail}",
            f"{data}: declaration `void *data = dp->data` at line {data} ran under the BKL "
            f"before and now runs before lock_kernel() (it reads dp->data, {tail}"])
        strict = messages(prove(legacy, new, {"wdt_ioctl": "wdt_ioctl"}, reads=True))
        self.assertEqual(strict, [f"{devs}: declaration at line {devs} ran under the BKL before "
                                  "and now runs before lock_kernel() (it reads wdt_devs[...])",
                                  f"{state}: declaration at line {state} ran under the BKL "
                                  "before and now runs before lock_kernel() (it reads "
                                  "wf->dev->state)",
                                  # PDE()'s object is the inode's own to purity.py, not here.
                                  f"{data}: declaration `void *data = dp->data` at line "
                                  f"{data} ran under the BKL before and now runs before "
                                  f"lock_kernel() (it reads dp->data, {tail}"])

    def test_a_declaration_that_writes_through_a_pointer_is_caught(self):
        writes = "\tstruct wdt_file *wf = file->private_data;\n\tint busy = wf->busy++;\n"
        legacy = LEGACY.replace("\tint minor = iminor(inode);\n",
                                "\tint minor = iminor(inode);\n" + writes)
        new = PUSHDOWN.replace("\tint minor = iminor(inode);\n",
                               "\tint minor = iminor(inode);\n" + writes)
        line = line_of(new, "wf->busy++")
        self.assertEqual(pushdown(new, legacy),
                         [f"{line}: declaration at line {line} ran under the BKL before and now "
                          "runs before lock_kernel() (it writes wf->busy)"])

    def test_pure_declarations_may_stay_before_the_lock(self):
        pure = ("\tstruct wdt *dev = container_of(inode->i_cdev, struct wdt, cdev);\n"
                "\tstruct wdt *slot = &wdt_devs[MINOR(inode->i_rdev)];\n"
                "\tstruct proc_dir_entry *dp = PDE(inode);\n"
                "\tstruct wdt_file *wf = file->private_data;\n"
                "\tunsigned int size = _IOC_SIZE(cmd);\n")
        legacy = LEGACY.replace("\tint minor = iminor(inode);\n",
                                "\tint minor = iminor(inode);\n" + pure)
        new = PUSHDOWN.replace("\tint minor = iminor(inode);\n",
                               "\tint minor = iminor(inode);\n" + pure)
        self.assertEqual(pushdown(new, legacy), [])

    def test_falling_off_the_end_after_the_switch_leaves_the_bkl_held(self):
        legacy = LEGACY.replace("\tdefault:\n\t\treturn -ENOTTY;\n", "")
        new = PUSHDOWN.replace("\tdefault:\n\t\tunlock_kernel();\n\t\treturn -ENOTTY;\n", "")
        line = line_of(new, "}\n\nstatic struct file_operations")
        self.assertEqual(pushdown(new, legacy),
                         [f"{line}: falling off the end of wdt_ioctl at line {line} leaves "
                          "the BKL held"])

    def test_a_lock_taken_twice_is_caught(self):
        new = PUSHDOWN.replace("\tlock_kernel();\n", "\tlock_kernel();\n\tlock_kernel();\n")
        found = pushdown(new)
        line = line_of(new, "lock_kernel();", 2)
        self.assertIn(f"{line}: lock_kernel() at line {line} takes the BKL a second time", found)


class WrapperTest(unittest.TestCase):
    def broken(self, old: str, new: str) -> tuple[str, list[str]]:
        """WRAPPER with OLD replaced by NEW, and what the prover says of it."""
        self.assertIn(old, WRAPPER)
        text = WRAPPER.replace(old, new)
        return text, wrapper(text)

    def test_a_correct_wrapper_passes(self):
        self.assertEqual(wrapper(WRAPPER), [])

    def test_a_wrapper_that_forgets_to_unlock_is_caught(self):
        new, found = self.broken("\tret = wdt_ioctl(file, cmd, arg);\n\tunlock_kernel();\n",
                                 "\tret = wdt_ioctl(file, cmd, arg);\n")
        line = line_of(new, "return ret;\n}\n\nstatic struct file_operations")
        self.assertEqual(found, [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_wrapper_that_calls_the_body_before_the_lock_is_caught(self):
        new, found = self.broken("\tlock_kernel();\n\tret = wdt_ioctl(file, cmd, arg);\n",
                                 "\tret = wdt_ioctl(file, cmd, arg);\n\tlock_kernel();\n")
        line = line_of(new, "ret = wdt_ioctl")
        self.assertEqual(found, [f"{line}: statement at line {line} is not in the legacy "
                                 "handler and runs without the BKL"])

    def test_a_wrapper_that_calls_the_body_twice_or_not_at_all_is_caught(self):
        call = "\tret = wdt_ioctl(file, cmd, arg);\n"
        _, found = self.broken(call, call + call)
        self.assertTrue(any("calls wdt_ioctl more than once" in m for m in found))
        _, found = self.broken(call, "\tret = -ENOTTY;\n\tif (cmd)\n\t" + call)
        self.assertTrue(any("does not call wdt_ioctl on every path" in m for m in found))

    def test_a_wrapper_that_passes_other_arguments_is_caught(self):
        _, found = self.broken("ret = wdt_ioctl(file, cmd, arg);",
                               "ret = wdt_ioctl(file, arg, cmd);")
        self.assertTrue(any("passes (file, arg, cmd) to wdt_ioctl, not its own (file, cmd, arg)"
                            in m for m in found))

    def test_a_fops_that_points_at_the_body_bypasses_the_lock(self):
        entry = "\t.unlocked_ioctl\t= wdt_unlocked_ioctl,"
        new, found = self.broken(entry, entry + "\n\t.compat_ioctl\t= wdt_ioctl,")
        line = line_of(new, ".compat_ioctl")
        self.assertEqual(found, [f"{line}: .compat_ioctl at line {line} is wdt_ioctl, "
                                 "which does not take the BKL (wdt_unlocked_ioctl does)"])

    def test_a_body_that_now_releases_the_lock_itself_is_caught(self):
        new, found = self.broken("\tdefault:\n\t\treturn -ENOTTY;",
                                 "\tdefault:\n\t\tunlock_kernel();\n\t\treturn -ENOTTY;")
        line = line_of(new, "return -ENOTTY")
        self.assertIn(f"{line}: return at line {line} releases the BKL, which "
                      "wdt_unlocked_ioctl releases again", found)


MULTI_LEGACY = """\
static int gpio_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != GPIO_READ)
		return -ENOTTY;
	return put_user(gpio_read(iminor(inode)), (int __user *)arg);
}

static struct file_operations gpio_fops = {
	.ioctl		= gpio_ioctl,
};
"""

MULTI = """\
static int gpio_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd != GPIO_READ)
		return -ENOTTY;
	return put_user(gpio_read(iminor(inode)), (int __user *)arg);
}
#ifdef HAVE_UNLOCKED_IOCTL
static long gpio_unlocked_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = gpio_ioctl(file->f_dentry->d_inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif

static struct file_operations gpio_fops = {
#ifdef HAVE_UNLOCKED_IOCTL
	.unlocked_ioctl = gpio_unlocked_ioctl,
#else
	.ioctl		= gpio_ioctl,
#endif
};
"""


class MultiKernelTest(unittest.TestCase):
    def prove(self, new):
        return messages(prove(MULTI_LEGACY, new, {"gpio_ioctl": "gpio_unlocked_ioctl"}))

    def test_the_wrapper_under_have_unlocked_ioctl_passes(self):
        self.assertEqual(self.prove(MULTI), [])

    def test_a_multi_kernel_wrapper_without_its_unlock_is_caught(self):
        new = MULTI.replace("\tunlock_kernel();\n", "")
        line = line_of(new, "return ret;")
        self.assertEqual(self.prove(new), [f"{line}: return at line {line} leaves the BKL held"])


BRANCHES_LEGACY = """\
#ifndef CONFIG_FAN_FIXED
static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != FAN_SET)
		return -ENOTTY;
	return fan_set(arg);
}
#else
static int fan_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	return -EPERM;
}
#endif

static struct file_operations fan_fops = {
	.ioctl		= fan_ioctl,
};
"""

BRANCH_WRAPPER = """\
static long fan_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	int ret;

	lock_kernel();
	ret = fan_ioctl(file, cmd, arg);
	unlock_kernel();
	return ret;
}
"""


def branches_converted(first_wrapper: str = BRANCH_WRAPPER,
                       second_wrapper: str = BRANCH_WRAPPER) -> str:
    """The wrapper conversion a branch run writes: one wrapper in each branch."""
    legacy_head = "static int fan_ioctl(struct inode *inode, struct file *file,\n"
    new_head = "static long fan_ioctl(struct file *file,\n"
    first, second = BRANCHES_LEGACY.replace(legacy_head, new_head).split("#else\n")
    first = first.replace("}\n", "}\n" + first_wrapper, 1)
    second = second.replace("}\n#endif", "}\n" + second_wrapper + "#endif", 1)
    return ("#include <linux/smp_lock.h>\n" + first + "#else\n" + second) \
        .replace(".ioctl\t\t= fan_ioctl", ".unlocked_ioctl\t= fan_unlocked_ioctl")


class WrapperPerBranchTest(unittest.TestCase):
    """A handler defined once per #if branch gets a wrapper in each branch
    (convert's branch runs); each wrapper is proven, and a count that does
    not match the definitions is refused."""

    def prove(self, new):
        return messages(prove(BRANCHES_LEGACY, new, {"fan_ioctl": "fan_unlocked_ioctl"}))

    def test_a_wrapper_in_each_branch_passes(self):
        self.assertEqual(self.prove(branches_converted()), [])

    def test_a_leak_in_either_branch_is_caught(self):
        leaky = BRANCH_WRAPPER.replace("\tunlock_kernel();\n", "")
        for new in (branches_converted(first_wrapper=leaky),
                    branches_converted(second_wrapper=leaky)):
            line = line_of(new, "return ret;", 1 if "unlock_kernel" not in
                           new.split("#else")[0] else 2)
            with self.subTest(branch=1 if "unlock_kernel" not in new.split("#else")[0] else 2):
                self.assertEqual(self.prove(new),
                                 [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_wrapper_count_unlike_the_definitions_is_refused(self):
        for new in (branches_converted(first_wrapper="", second_wrapper=""),
                    branches_converted(second_wrapper=BRANCH_WRAPPER + BRANCH_WRAPPER)):
            count = new.count("static long fan_unlocked_ioctl(")
            with self.subTest(wrappers=count):
                self.assertEqual(self.prove(new), [
                    f"unprovable: the converted file defines fan_unlocked_ioctl {count} "
                    "times, not once or once per definition of fan_ioctl"])


MUTEX = lockproof.LockCalls.mutex("demo_mutex")
MUTEX_NEW = PUSHDOWN.replace("lock_kernel();", "mutex_lock(&demo_mutex);") \
    .replace("unlock_kernel();", "mutex_unlock(&demo_mutex);") \
    .replace("unmutex_lock(&demo_mutex);", "mutex_unlock(&demo_mutex);") \
    .replace("#include <linux/smp_lock.h>\n", "#include <linux/mutex.h>\n\n"
             "static DEFINE_MUTEX(demo_mutex);\n")


class MutexTest(unittest.TestCase):
    def prove(self, new, old=LEGACY):
        return messages(prove(old, new, {"wdt_ioctl": "wdt_ioctl"}, MUTEX))

    def test_a_correct_mutex_pushdown_passes(self):
        self.assertIn("mutex_unlock(&demo_mutex);\n\t\treturn -ENOTTY;", MUTEX_NEW)
        self.assertEqual(self.prove(MUTEX_NEW), [])

    def test_the_mutex_taken_while_held_deadlocks(self):
        new = MUTEX_NEW.replace("\t\twdt_keepalive(minor);\n",
                                "\t\tmutex_lock(&demo_mutex);\n\t\twdt_keepalive(minor);\n"
                                "\t\tmutex_unlock(&demo_mutex);\n")
        line = line_of(new, "mutex_lock(&demo_mutex);", 2)
        self.assertIn(f"{line}: mutex_lock(&demo_mutex) at line {line} is reached with "
                      "demo_mutex already held: it deadlocks", self.prove(new))

    def test_a_return_without_the_mutex_unlock_is_caught(self):
        new = MUTEX_NEW.replace("\t\tmutex_unlock(&demo_mutex);\n\t\treturn 0;", "\t\treturn 0;")
        line = line_of(new, "return 0;")
        self.assertEqual(self.prove(new), [f"{line}: return at line {line} leaves demo_mutex held"])

    def test_a_legacy_file_that_already_uses_the_name_has_no_private_mutex(self):
        old = LEGACY.replace("static int wdt_count;", "static int wdt_count;\n"
                             "static DEFINE_MUTEX(demo_mutex);")
        new = MUTEX_NEW.replace("static int wdt_count;", "static int wdt_count;\n"
                                "static DEFINE_MUTEX(demo_mutex);")
        self.assertTrue(any("already uses demo_mutex" in m for m in self.prove(new, old)))

    def test_a_legacy_handler_that_takes_the_bkl_itself_loses_its_nesting(self):
        old = LEGACY.replace("\t\twdt_keepalive(minor);\n",
                             "\t\tlock_kernel();\n\t\twdt_keepalive(minor);\n\t\tunlock_kernel();\n")
        new = MUTEX_NEW.replace("\t\twdt_keepalive(minor);\n",
                                "\t\tlock_kernel();\n\t\twdt_keepalive(minor);\n"
                                "\t\tunlock_kernel();\n")
        self.assertTrue(any("calls lock_kernel() itself" in m for m in self.prove(new, old)))


class MutexCallersTest(unittest.TestCase):
    """With a mutex (not recursive, not the BKL), direct calls matter."""

    def test_a_converted_handler_that_calls_a_pushed_down_one_deadlocks(self):
        caller = ("\nstatic long wdt_compat_ioctl(struct file *file, unsigned int cmd,\n"
                  "\t\t\t     unsigned long arg)\n{\n\tlong ret;\n\n"
                  "\tmutex_lock(&demo_mutex);\n\tret = wdt_ioctl(file, cmd, arg);\n"
                  "\tmutex_unlock(&demo_mutex);\n\treturn ret;\n}\n")
        new = MUTEX_NEW + caller
        line = line_of(new, "ret = wdt_ioctl(file, cmd, arg)")
        found = messages(prove(LEGACY, new, {"wdt_ioctl": "wdt_ioctl"}, MUTEX))
        self.assertEqual(found, [f"{line}: wdt_compat_ioctl calls wdt_ioctl at line {line} with "
                                 "demo_mutex held; wdt_ioctl takes it again: it deadlocks"])
        unlocked = new.replace("\tmutex_lock(&demo_mutex);\n\tret = wdt_ioctl",
                               "\tret = wdt_ioctl").replace(
            "arg);\n\tmutex_unlock(&demo_mutex);\n\treturn ret;\n}\n", "arg);\n\treturn ret;\n}\n")
        self.assertEqual(messages(prove(LEGACY, unlocked, {"wdt_ioctl": "wdt_ioctl"}, MUTEX)), [])

    def test_a_wrapper_body_called_under_the_bkl_instead_of_the_mutex_is_caught(self):
        mutex_wrapper = WRAPPER.replace("lock_kernel();", "mutex_lock(&demo_mutex);") \
            .replace("unmutex_lock(&demo_mutex);", "mutex_unlock(&demo_mutex);")
        compat = ("\nstatic long wdt_compat_ioctl(struct file *file, unsigned int cmd,\n"
                  "\t\t\t     unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
                  "\tret = wdt_ioctl(file, cmd, arg);\n\tunlock_kernel();\n\treturn ret;\n}\n")
        new = mutex_wrapper + compat
        line = line_of(new, "ret = wdt_ioctl(file, cmd, arg);\n\tunlock_kernel")
        found = messages(prove(LEGACY, new, {"wdt_ioctl": "wdt_unlocked_ioctl"}, MUTEX))
        self.assertEqual(found, [f"{line}: wdt_compat_ioctl calls wdt_ioctl at line {line} "
                                 "without demo_mutex, which wdt_unlocked_ioctl takes around the "
                                 "same body: the two no longer exclude each other"])


class LockCallsTest(unittest.TestCase):
    def test_bkl_mode(self):
        calls = lockproof.LockCalls.for_options(
            settings.ConversionOptions.for_target(settings.DEFAULT_TARGET, lock=settings.LockMode.BKL), "drivers/char/wdt.c")
        self.assertEqual(calls, lockproof.LockCalls("lock_kernel", "unlock_kernel", ""))
        self.assertEqual((calls.name, calls.acquire_call), ("the BKL", "lock_kernel()"))

    def test_mutex_mode_names_the_mutex_after_the_file(self):
        options = settings.ConversionOptions.for_target(settings.Target.parse("2.6.20"),
                                                        lock=settings.LockMode.MUTEX)
        calls = lockproof.LockCalls.for_options(options, "drivers/char/ip2/ip2-main.c")
        self.assertEqual(calls, lockproof.LockCalls("mutex_lock", "mutex_unlock",
                                                    "&ip2_main_mutex"))
        self.assertEqual(calls.release_call, "mutex_unlock(&ip2_main_mutex)")

    def test_a_mutex_name_the_legacy_file_uses_is_passed_over(self):
        default = lockproof.LockCalls.mutex("wdt_mutex")
        for legacy, name in (("int x;", "wdt_mutex"),
                             ("static DEFINE_MUTEX(wdt_mutex);", "wdt_ioctl_mutex"),
                             ("/* wdt_mutex */ int wdt_ioctl_mutex;", "wdt_ioctl_mutex2"),
                             ("wdt_mutex wdt_ioctl_mutex wdt_ioctl_mutex2", "wdt_ioctl_mutex3")):
            with self.subTest(legacy=legacy):
                self.assertEqual(lockproof.lock_for_text(default, "wdt.c", legacy).name, name)
        self.assertTrue(lockproof.lock_for_text(lockproof.LockCalls.bkl(), "wdt.c",
                                                "wdt_mutex").is_bkl)

    def test_the_one_mutex_the_conversion_defines_is_the_lock(self):
        # A header the file includes took the default name: the rule took
        # another, and the one DEFINE_MUTEX the conversion adds names it.
        default = lockproof.LockCalls.mutex("wdt_mutex")
        legacy = "#include \"wdt.h\"\nstatic DEFINE_MUTEX(other_lock);\n"
        for new, name in ((legacy + "static DEFINE_MUTEX(wdt_ioctl_mutex);\n", "wdt_ioctl_mutex"),
                          (legacy + "static DEFINE_MUTEX( wdt_mutex7 );\n", "wdt_mutex7"),
                          # Two new mutexes, or none: the name the legacy text leaves free.
                          (legacy + "DEFINE_MUTEX(a);\nDEFINE_MUTEX(b);\n", "wdt_mutex"),
                          (legacy, "wdt_mutex")):
            with self.subTest(new=new):
                self.assertEqual(lockproof.lock_for_text(default, "wdt.c", legacy, new).name,
                                 name)


class RefusalTest(unittest.TestCase):
    def test_a_computed_goto_is_refused_not_passed(self):
        old = LEGACY.replace("\tswitch (cmd) {", "\tgoto *wdt_table[cmd & 1];\n\tswitch (cmd) {")
        new = PUSHDOWN.replace("\tswitch (cmd) {", "\tgoto *wdt_table[cmd & 1];\n\tswitch (cmd) {")
        results = prove(old, new, {"wdt_ioctl": "wdt_ioctl"})
        self.assertFalse(results[0].proven)
        self.assertEqual(len(messages(results)), 1)
        # red34: a computed goto reaches every label; in a function with none
        # it can be followed nowhere, and the handler stays unprovable
        self.assertRegex(messages(results)[0], r"^unprovable: (line \d+: )?a computed goto")

    def test_prove_file_raises_for_a_handler_it_cannot_read(self):
        import tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as tmp:
            expander = lockproof.TextualExpander(Path(tmp), "drivers/char/demo.c")
            with self.assertRaises(lockproof.Unprovable) as caught:
                lockproof.prove_file("drivers/char/demo.c", LEGACY, PUSHDOWN,
                                     {"nosuch_ioctl": "nosuch_ioctl"}, BKL, expander)
        self.assertIn("nosuch_ioctl is not defined in the legacy drivers/char/demo.c",
                      str(caught.exception))

    def test_a_handler_defined_a_different_number_of_times_is_refused(self):
        found = messages(prove(LEGACY, PUSHDOWN + PUSHDOWN.split("static int wdt_count;")[1],
                               {"wdt_ioctl": "wdt_ioctl"}))
        self.assertEqual(found, ["unprovable: wdt_ioctl is defined 1 times in the legacy file "
                                 "and 2 times in the converted one"])

    def test_a_legacy_handler_that_was_unbalanced_is_refused(self):
        old = LEGACY.replace("\t\twdt_keepalive(minor);\n", "\t\twdt_keepalive(minor);\n"
                             "\t\tlock_kernel();\n")
        new = PUSHDOWN.replace("\t\twdt_keepalive(minor);\n", "\t\twdt_keepalive(minor);\n"
                               "\t\tlock_kernel();\n")
        found = messages(prove(old, new, {"wdt_ioctl": "wdt_ioctl"}))
        self.assertEqual(len(found), 1)
        self.assertIn("unbalanced before the conversion", found[0])


if __name__ == "__main__":
    unittest.main()

"""lockproof: under a private mutex, no path may end the task with it held.

The BKL was released when its holder exited (or BUG() killed it); a mutex
is not, so after `do_exit()`, `BUG()` or `panic()` under the mutex every
later ioctl of the device waits for ever (issue 22, red33_noret).  With a
mutex, each such path is a problem, in a pushdown and in a wrapper's body
alike: a call that never returns, BUG_ON() of a condition that is not a
known constant (its taken path ends the task; BUG_ON(0) never fires), and
a call to a function of the file that may halt.  Under the BKL the same
paths simply end (test_lockproof_noreturn).
"""

import unittest

from ioctl_rework import lockproof
from lockproof_helpers import BKL, line_of, messages, prove

MUTEX = lockproof.LockCalls.mutex("demo_mutex")

HEAD = """\
#include <linux/fs.h>
#define DEMO_SET 1
#define DEMO_STOP 2
static int demo_state;
static struct completion demo_done;
static void demo_fatal(const char *why) __attribute__((noreturn));
static void demo_fatal(const char *why)
{
\tprintk(KERN_CRIT "demo: %s\\n", why);
\tpanic("demo");
}
static void demo_check(int v)
{
\tif (v < 0)
\t\tBUG();
}
static void demo_check_twice(int v)
{
\tdemo_check(v);
\tdemo_check(v + 1);
}
"""

# Each ends the task on some path of the DEMO_STOP case: (the statements,
# the called name the problem names, what it says).
ENDS = "ends the task"
MAY = "ends the task when its condition holds"
MAY_CALL = "may end the task (what it calls can halt)"
STOPS = [
    ("do_exit(arg);", "do_exit", ENDS),
    ("if (arg > 3)\n\t\t\tBUG();", "BUG", ENDS),
    ('printk(KERN_ERR "demo: stop\\n");\n\t\tpanic("demo: stop %lu", arg);', "panic", ENDS),
    ("complete_and_exit(&demo_done, 0);", "complete_and_exit", ENDS),
    ('demo_fatal("stop");', "demo_fatal", ENDS),
    ("BUG_ON(arg == 3);", "BUG_ON", MAY),
    ("BUG_ON(demo_state);", "BUG_ON", MAY),
    ("demo_check(arg);", "demo_check", MAY_CALL),
    ("demo_check_twice(arg);", "demo_check_twice", MAY_CALL),
]
# Nothing here can end the task.
SAFE = ["BUG_ON(0);", "WARN_ON(arg == 3);", "demo_state = 0;"]


def legacy(stop: str) -> str:
    return (HEAD + "static int demo_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
            "\tswitch (cmd) {\n\tcase DEMO_SET:\n\t\tdemo_state = arg;\n\t\treturn 0;\n"
            f"\tcase DEMO_STOP:\n\t\t{stop}\n\t\treturn 0;\n\t}}\n\treturn -ENOTTY;\n}}\n")


def pushdown(stop: str, lock: str = "mutex_lock(&demo_mutex);",
             unlock: str = "mutex_unlock(&demo_mutex);") -> str:
    return (HEAD + "static DEFINE_MUTEX(demo_mutex);\n"
            "static long demo_ioctl(struct file *file,\n"
            "\t\t      unsigned int cmd, unsigned long arg)\n{\n\tlong ret;\n\n"
            f"\t{lock}\n\tswitch (cmd) {{\n\tcase DEMO_SET:\n\t\tdemo_state = arg;\n"
            f"\t\tret = 0;\n\t\tgoto out;\n\tcase DEMO_STOP:\n\t\t{stop}\n\t\tret = 0;\n"
            f"\t\tgoto out;\n\t}}\n\tret = -ENOTTY;\nout:\n\t{unlock}\n\treturn ret;\n}}\n")


def wrapper(stop: str) -> str:
    return (legacy(stop) + "static DEFINE_MUTEX(demo_mutex);\n"
            "static long demo_unlocked_ioctl(struct file *file,\n"
            "\t\t\t\tunsigned int cmd, unsigned long arg)\n{\n\tlong ret;\n\n"
            "\tmutex_lock(&demo_mutex);\n"
            "\tret = demo_ioctl(file->f_dentry->d_inode, file, cmd, arg);\n"
            "\tmutex_unlock(&demo_mutex);\n\treturn ret;\n}\n")


def expected(text: str, name: str, says: str) -> str:
    line = line_of(text, name + "(", HEAD.count(name + "(") + 1)
    return (f"{line}: {name}() at line {line} {says} with demo_mutex held: unlike the BKL, "
            "a mutex is not released when its holder exits, so every later call would "
            f"wait for it for ever")


class MutexHaltTest(unittest.TestCase):
    def test_a_pushdown_that_can_end_the_task_holding_the_mutex_is_rejected(self):
        for stop, name, says in STOPS:
            with self.subTest(stop=stop):
                new = pushdown(stop)
                self.assertEqual(messages(prove(legacy(stop), new,
                                                {"demo_ioctl": "demo_ioctl"}, MUTEX)),
                                 [expected(new, name, says)])

    def test_a_wrapper_whose_body_can_end_the_task_is_rejected(self):
        for stop, name, says in STOPS:
            with self.subTest(stop=stop):
                new = wrapper(stop)
                self.assertEqual(messages(prove(legacy(stop), new,
                                                {"demo_ioctl": "demo_unlocked_ioctl"}, MUTEX)),
                                 [expected(new, name, says)])

    def test_what_cannot_end_the_task_passes(self):
        for stop in SAFE:
            with self.subTest(stop=stop):
                self.assertEqual(messages(prove(legacy(stop), pushdown(stop),
                                                {"demo_ioctl": "demo_ioctl"}, MUTEX)), [])
                self.assertEqual(messages(prove(legacy(stop), wrapper(stop),
                                                {"demo_ioctl": "demo_unlocked_ioctl"},
                                                MUTEX)), [])

    def test_under_the_bkl_the_same_paths_simply_end(self):
        for stop, _, _ in STOPS:
            with self.subTest(stop=stop):
                new = pushdown(stop, "lock_kernel();", "unlock_kernel();") \
                    .replace("static DEFINE_MUTEX(demo_mutex);\n", "")
                self.assertEqual(messages(prove(legacy(stop), new,
                                                {"demo_ioctl": "demo_ioctl"}, BKL)), [])
                bkl_wrapper = wrapper(stop).replace("mutex_lock(&demo_mutex)", "lock_kernel()") \
                    .replace("mutex_unlock(&demo_mutex)", "unlock_kernel()") \
                    .replace("static DEFINE_MUTEX(demo_mutex);\n", "")
                self.assertEqual(messages(prove(legacy(stop), bkl_wrapper,
                                                {"demo_ioctl": "demo_unlocked_ioctl"}, BKL)), [])


if __name__ == "__main__":
    unittest.main()

"""lockproof.purity: which code may move out of the lock (GCC's `pure`)."""

import unittest

from ioctl_rework.lockproof.constants import fold
from ioctl_rework.lockproof.lexer import tokenize
from ioctl_rework.lockproof.purity import Locals, impurity, stable_initialized

LOCALS = Locals(names=frozenset({"ret", "reg", "buf", "p", "i", "inode", "file", "arg", "cmd"}),
                arrays=frozenset({"buf"}), stable=frozenset({"inode", "file"}),
                statics=frozenset({"calls"}))


def why(code: str, kind: str = "expression", reads: bool = False) -> str | None:
    return impurity(tokenize(code), kind, LOCALS, reads)


class PurityTest(unittest.TestCase):
    def test_local_writes_constants_and_pure_calls_are_pure(self):
        for code in ("ret = -EINVAL", "reg.index = i + 1", "buf[i] = 0", "i++", "--i",
                     "ret = iminor(inode) == MINOR(inode->i_rdev)",
                     "p = (void __user *)arg", "ret = _IOC_SIZE(cmd) > sizeof(reg)",
                     "p = container_of(inode->i_cdev, struct demo, cdev)",
                     "ret = likely(cmd != 0) ? 1 : 0"):
            with self.subTest(code=code):
                self.assertIsNone(why(code))

    def test_calls_and_shared_writes_are_not(self):
        self.assertEqual(why("ret = demo_claim(i)"), "calls demo_claim()")
        self.assertEqual(why("demo_count++"), "writes demo_count")
        self.assertEqual(why("p->busy = 1"), "writes p->busy")
        self.assertEqual(why("*p = 1"), "writes *p")
        self.assertEqual(why("p[0] = 1"), "writes p[...]")
        self.assertEqual(why("calls += 1"), "writes calls")     # a static local is shared
        self.assertEqual(why("ret = i++ + demo_total++"), "writes demo_total")
        for code in ("ret = (*demo_op)(i)", "ret = (demo_op)(i)", "ret = demo_ops[i](arg)"):
            with self.subTest(code=code):
                self.assertEqual(why(code), "calls through a function pointer")
        self.assertIsNone(why("ret = (u32)(i + 1)"))

    def test_a_call_through_a_member_is_a_call(self):
        # mtd->block_isbad(mtd, offs) read as the member's value was "pure".
        cases = {"ret = mtd->block_isbad(mtd, offs)": "calls mtd->block_isbad()",
                 "ret = dev->ops->reset (dev)": "calls dev->ops->reset()",
                 "ret = reg.op(i)": "calls reg.op()",
                 "ret = demo_table[i].handler(arg)": "calls demo_table[...].handler()",
                 "ret = p->ops[cmd]->run(p)": "calls p->ops[...]->run()"}
        for code, reason in cases.items():
            with self.subTest(code=code):
                self.assertEqual(why(code), reason + " through a function pointer")
        self.assertIsNone(why("ret = p->size + reg.index * (i + 1)"))

    def test_declarations_judge_their_initializers_only(self):
        self.assertIsNone(why("struct demo *dev = file->private_data, *other = NULL",
                              "declaration"))
        self.assertEqual(why("int busy = demo_busy(dev)", "declaration"), "calls demo_busy()")
        self.assertIsNone(why("static int once = demo_init()", "declaration"))
        self.assertIsNone(why("DECLARE_WAITQUEUE(wait, current)", "declaration"))
        self.assertIsNone(why("struct demo_info info = { .size = sizeof(info), [0] = 1 }",
                              "declaration"))

    def test_reads_count_only_when_asked(self):
        self.assertIsNone(why("ret = demo_devs[i]->state"))
        self.assertEqual(why("ret = demo_devs[i]->state", reads=True), "reads demo_devs[...]->state")
        self.assertEqual(why("ret = p->state", reads=True), "reads p->state")
        for code in ("ret = inode->i_rdev", "ret = file->f_flags & O_NONBLOCK",
                     "p = &demo_devs[i]", "ret = reg.index", "ret = current->pid"):
            with self.subTest(code=code):
                self.assertIsNone(why(code, reads=True))

    def test_a_local_set_from_the_proc_entry_is_as_stable_as_the_entry(self):
        self.assertEqual(stable_initialized(tokenize("struct proc_dir_entry *dp = PDE(inode)")),
                         {"dp"})
        self.assertEqual(stable_initialized(tokenize("struct demo *d = demo_of(inode)")), set())


class FoldTest(unittest.TestCase):
    def test_integer_constants_fold_as_in_c(self):
        cases = {"0": 0, "(1)": 1, "0x10 >> 2": 4, "!0 && 2 == 2": 1, "-1 < 0": 1,
                 "(0) && !(demo_ok(x))": 0, "x || 1": 1, "7 / 2 + 7 % 2": 4}
        for text, value in cases.items():
            with self.subTest(text=text):
                self.assertEqual(fold(tokenize(text)), value)

    def test_anything_else_is_unknown(self):
        for text in ("x", "demo_ok(x) && 1", "sizeof(int)", "1 / 0", "(1", "a ? 1 : 0"):
            with self.subTest(text=text):
                self.assertIsNone(fold(tokenize(text)))


if __name__ == "__main__":
    unittest.main()

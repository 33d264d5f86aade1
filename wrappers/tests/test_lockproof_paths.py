"""lockproof: every kind of C control flow, correct and broken.

Each test writes a legacy body and a pushdown conversion of it; the
correct one must pass and the broken one must be caught at the right line.
"""

import unittest

from lockproof_helpers import line_of, messages, prove

# The driver's helpers are declared: a name the proof did not read may not
# run under the lock (test_lockproof_unread_names).
PRELUDE = "#include <linux/fs.h>\n#include <linux/smp_lock.h>\n\nstatic int demo_state;\n" \
    "int demo_set(unsigned long arg);\nint demo_get(void *dev, unsigned int cmd);\n" \
    "int demo_present(void *dev);\nint demo_ok(void *dev);\nint demo_write(void *dev);\n" \
    "int demo_ready(void);\nint demo_skip(int i);\nint demo_reset(void);\n" \
    "int demo_run(void *dev);\nint demo_wait(void);\nint demo_done(int i);\n" \
    "int demo_fail(int i);\n\n"


def legacy(body: str, defines: str = "") -> str:
    return (PRELUDE + defines +
            "static int demo_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t      unsigned int cmd, unsigned long arg)\n{\n" + body + "}\n")


def converted(body: str, defines: str = "") -> str:
    return (PRELUDE + defines +
            "static long demo_ioctl(struct file *file,\n"
            "\t\t      unsigned int cmd, unsigned long arg)\n{\n" + body + "}\n")


def check(old_body: str, new_body: str, defines: str = "", new_defines: str | None = None):
    old = legacy(old_body, defines)
    new = converted(new_body, defines if new_defines is None else new_defines)
    return new, messages(prove(old, new, {"demo_ioctl": "demo_ioctl"}))


class BranchesTest(unittest.TestCase):
    OLD = ("\tint ret;\n\n"
           "\tif (cmd == DEMO_GET)\n\t\tret = demo_state;\n"
           "\telse if (cmd == DEMO_SET)\n\t\treturn demo_set(arg);\n"
           "\telse\n\t\treturn -ENOTTY;\n"
           "\treturn put_user(ret, (int __user *)arg);\n")
    NEW = ("\tint ret;\n\n\tlock_kernel();\n"
           "\tif (cmd == DEMO_GET)\n\t\tret = demo_state;\n"
           "\telse if (cmd == DEMO_SET) {\n\t\tret = demo_set(arg);\n"
           "\t\tunlock_kernel();\n\t\treturn ret;\n\t} else {\n"
           "\t\tunlock_kernel();\n\t\treturn -ENOTTY;\n\t}\n"
           "\tret = put_user(ret, (int __user *)arg);\n\tunlock_kernel();\n\treturn ret;\n")

    def test_if_else_chains_pass_when_every_branch_unlocks(self):
        self.assertEqual(check(self.OLD, self.NEW)[1], [])

    def test_an_else_branch_without_its_unlock_is_caught(self):
        new_body = self.NEW.replace("\t\tunlock_kernel();\n\t\treturn -ENOTTY;",
                                    "\t\treturn -ENOTTY;")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "return -ENOTTY")
        self.assertEqual(found, [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_value_read_after_the_unlock_on_one_branch_is_caught(self):
        new_body = self.NEW.replace("\t\tret = demo_set(arg);\n\t\tunlock_kernel();\n",
                                    "\t\tunlock_kernel();\n\t\tret = demo_set(arg);\n")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "ret = demo_set")
        self.assertEqual(found, [f"{line}: statement at line {line} ran under the BKL before "
                                 "and now runs after unlock_kernel() (it calls demo_set())"])


class SwitchTest(unittest.TestCase):
    OLD = ("\tswitch (cmd) {\n"
           "\tcase DEMO_RESET:\n\t\tdemo_reset();\n\t\t/* fall through */\n"
           "\tcase DEMO_GET:\n\t\treturn demo_state;\n"
           "\tcase DEMO_NOP:\n\t\tbreak;\n"
           "\tdefault:\n\t\treturn -ENOTTY;\n\t}\n\treturn 0;\n")
    NEW = ("\tlong ret;\n\n\tlock_kernel();\n\tswitch (cmd) {\n"
           "\tcase DEMO_RESET:\n\t\tdemo_reset();\n\t\t/* fall through */\n"
           "\tcase DEMO_GET:\n\t\tret = demo_state;\n\t\tunlock_kernel();\n\t\treturn ret;\n"
           "\tcase DEMO_NOP:\n\t\tbreak;\n"
           "\tdefault:\n\t\tunlock_kernel();\n\t\treturn -ENOTTY;\n\t}\n"
           "\tunlock_kernel();\n\treturn 0;\n")

    def test_fall_through_break_and_default_pass(self):
        self.assertEqual(check(self.OLD, self.NEW)[1], [])

    def test_an_unlock_before_a_fall_through_releases_twice(self):
        new_body = self.NEW.replace("\t\tdemo_reset();\n", "\t\tdemo_reset();\n\t\tunlock_kernel();\n")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "unlock_kernel();", 2)
        self.assertIn(f"{line}: unlock_kernel() at line {line} releases the BKL when it is "
                      "not held on some paths", found)

    def test_a_switch_without_default_reaches_the_code_after_it(self):
        old = self.OLD.replace("\tdefault:\n\t\treturn -ENOTTY;\n", "")
        new_body = self.NEW.replace("\tdefault:\n\t\tunlock_kernel();\n\t\treturn -ENOTTY;\n", "") \
            .replace("\tunlock_kernel();\n\treturn 0;\n", "\treturn 0;\n")
        new, found = check(old, new_body)
        line = line_of(new, "return 0;")
        self.assertEqual(found, [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_case_label_inside_a_loop_of_the_switch_is_reached(self):
        # Duff's device: the case labels sit inside the do-while.
        old = ("\tint n = arg;\n\n\tswitch (n % 2) {\n\tcase 0:\n\t\tdo {\n"
               "\t\t\tdemo_tick();\n\tcase 1:\n\t\t\tdemo_tick();\n"
               "\t\t} while ((n -= 2) > 0);\n\t}\n\treturn 0;\n")
        new_body = ("\tint n = arg;\n\n\tlock_kernel();\n\tswitch (n % 2) {\n\tcase 0:\n\t\tdo {\n"
                    "\t\t\tdemo_tick();\n\tcase 1:\n\t\t\tunlock_kernel();\n\t\t\tdemo_tick();\n"
                    "\t\t} while ((n -= 2) > 0);\n\t}\n\treturn 0;\n")
        new, found = check(old, new_body)
        self.assertIn(f"{line_of(new, 'demo_tick();', 2)}: statement at line "
                      f"{line_of(new, 'demo_tick();', 2)} ran under the BKL before and now "
                      "runs after unlock_kernel() (it calls demo_tick())", found)


class LoopTest(unittest.TestCase):
    OLD = ("\tint i;\n\n\tfor (i = 0; i < DEMO_N; i++) {\n"
           "\t\tif (demo_skip(i))\n\t\t\tcontinue;\n"
           "\t\tif (demo_done(i))\n\t\t\tbreak;\n"
           "\t\tif (demo_fail(i))\n\t\t\treturn -EIO;\n\t}\n"
           "\twhile (1) {\n\t\tif (demo_ready())\n\t\t\tbreak;\n\t\tdemo_wait();\n\t}\n"
           "\treturn i;\n")
    NEW = ("\tint i;\n\n\tlock_kernel();\n\tfor (i = 0; i < DEMO_N; i++) {\n"
           "\t\tif (demo_skip(i))\n\t\t\tcontinue;\n"
           "\t\tif (demo_done(i))\n\t\t\tbreak;\n"
           "\t\tif (demo_fail(i)) {\n\t\t\tunlock_kernel();\n\t\t\treturn -EIO;\n\t\t}\n\t}\n"
           "\twhile (1) {\n\t\tif (demo_ready())\n\t\t\tbreak;\n\t\tdemo_wait();\n\t}\n"
           "\tunlock_kernel();\n\treturn i;\n")

    def test_loops_with_break_continue_and_return_pass(self):
        self.assertEqual(check(self.OLD, self.NEW)[1], [])

    def test_an_unlock_before_continue_is_caught_on_the_next_iteration(self):
        new_body = self.NEW.replace("\t\tif (demo_skip(i))\n\t\t\tcontinue;\n",
                                    "\t\tif (demo_skip(i)) {\n\t\t\tunlock_kernel();\n"
                                    "\t\t\tcontinue;\n\t\t}\n")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "demo_done", 2)       # the first is its prototype
        self.assertIn(f"{line}: condition at line {line} ran under the BKL before and now runs "
                      "after unlock_kernel() on some paths (it calls demo_done())", found)

    def test_a_lock_taken_in_a_loop_is_refused(self):
        new_body = self.NEW.replace("\t\tdemo_wait();\n", "\t\tdemo_wait();\n\t\tlock_kernel();\n")
        _, found = check(self.OLD, new_body)
        self.assertEqual(len(found), 1)
        self.assertIn("the lock count grows without bound", found[0])

    def test_an_endless_loop_does_not_fall_off_the_end(self):
        old = "\tfor (;;) {\n\t\tif (demo_ready())\n\t\t\treturn 0;\n\t\tdemo_wait();\n\t}\n"
        new_body = ("\tlock_kernel();\n\tfor (;;) {\n\t\tif (demo_ready()) {\n"
                    "\t\t\tunlock_kernel();\n\t\t\treturn 0;\n\t\t}\n\t\tdemo_wait();\n\t}\n")
        self.assertEqual(check(old, new_body)[1], [])


class GotoTest(unittest.TestCase):
    OLD = ("\tchar *buf;\n\tint ret;\n\n"
           "\tbuf = kmalloc(DEMO_SIZE, GFP_KERNEL);\n\tif (!buf)\n\t\treturn -ENOMEM;\n"
           "\tret = -EFAULT;\n\tif (copy_from_user(buf, (void __user *)arg, DEMO_SIZE))\n"
           "\t\tgoto out;\n\tret = demo_write(buf);\n"
           "out:\n\tkfree(buf);\n\treturn ret;\n")
    NEW = ("\tchar *buf;\n\tint ret;\n\n\tlock_kernel();\n"
           "\tbuf = kmalloc(DEMO_SIZE, GFP_KERNEL);\n\tif (!buf) {\n\t\tunlock_kernel();\n"
           "\t\treturn -ENOMEM;\n\t}\n"
           "\tret = -EFAULT;\n\tif (copy_from_user(buf, (void __user *)arg, DEMO_SIZE))\n"
           "\t\tgoto out;\n\tret = demo_write(buf);\n"
           "out:\n\tkfree(buf);\n\tunlock_kernel();\n\treturn ret;\n")

    def test_goto_unwinding_to_one_unlock_passes(self):
        self.assertEqual(check(self.OLD, self.NEW)[1], [])

    def test_an_unlock_before_a_goto_to_the_unlocking_label_releases_twice(self):
        new_body = self.NEW.replace("\t\tgoto out;\n", "\t{\n\t\tunlock_kernel();\n\t\tgoto out;\n\t}\n")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "kfree(buf)")
        self.assertIn(f"{line}: statement at line {line} ran under the BKL before and now runs "
                      "after unlock_kernel() on some paths (it calls kfree())", found)

    def test_a_goto_to_no_label_is_refused(self):
        _, found = check(self.OLD, self.NEW.replace("goto out;", "goto out_free;"))
        self.assertEqual(found, ["unprovable: goto out_free: no such label"])


class ExpressionTest(unittest.TestCase):
    def test_a_comma_and_a_ternary_that_unlock_on_both_sides_pass(self):
        old = "\treturn cmd == DEMO_GET ? demo_state : -ENOTTY;\n"
        new_body = ("\tint v;\n\n\tlock_kernel();\n\tv = demo_state;\n"
                    "\treturn cmd == DEMO_GET ? (unlock_kernel(), v) : (unlock_kernel(), -ENOTTY);\n")
        # v = demo_state is new code that reads under the lock: allowed.
        self.assertEqual(check(old, new_body)[1], [])

    def test_a_ternary_that_unlocks_on_one_side_only_is_caught(self):
        old = "\treturn cmd == DEMO_GET ? 0 : -ENOTTY;\n"
        new_body = "\tlock_kernel();\n\treturn cmd == DEMO_GET ? (unlock_kernel(), 0) : -ENOTTY;\n"
        new, found = check(old, new_body)
        line = line_of(new, "return cmd")
        self.assertEqual(found, [f"{line}: return at line {line} leaves the BKL held on some paths"])

    def test_a_statement_expression_that_returns_is_followed(self):
        defines = ("#define DEMO_CHECK(x) ({\t\t\\\n\tif (!(x))\t\t\\\n"
                   "\t\treturn -EINVAL;\t\\\n\t0;\t\t\t\\\n})\n\n")
        old = "\tDEMO_CHECK(demo_ok(arg));\n\treturn demo_run(arg);\n"
        new_body = ("\tlong ret;\n\n\tlock_kernel();\n\tDEMO_CHECK(demo_ok(arg));\n"
                    "\tret = demo_run(arg);\n\tunlock_kernel();\n\treturn ret;\n")
        new, found = check(old, new_body, defines)
        line = line_of(new, "DEMO_CHECK(demo_ok")
        self.assertEqual(found, [f"{line}: return at line {line} (in macro DEMO_CHECK) leaves "
                                 "the BKL held"])

    def test_a_short_circuit_keeps_apart_the_paths_that_skip_its_right_side(self):
        defines = "#define DEMO_GONE() ({ unlock_kernel(); 1; })\n\n"
        old = "\tif (!demo_present())\n\t\treturn -ENODEV;\n\tdemo_state = 0;\n\treturn 0;\n"
        new_body = ("\tlock_kernel();\n"
                    "\tif (!demo_present() && DEMO_GONE())\n\t\treturn -ENODEV;\n"
                    "\tdemo_state = 0;\n\tunlock_kernel();\n\treturn 0;\n")
        self.assertEqual(check(old, new_body, defines)[1], [])
        # With ||, a present device returns with the lock, and the right
        # side's value 1 makes the rest unreachable.
        new, found = check(old, new_body.replace("&&", "||"), defines)
        ret, rest = line_of(new, "return -ENODEV"), line_of(new, "demo_state = 0")
        self.assertEqual(found, [f"{ret}: return at line {ret} leaves the BKL held on some paths",
                                 f"{rest}: statement at line {rest} ran in the legacy handler "
                                 "and can no longer be reached"])

    def test_two_lock_operations_in_one_call_are_refused(self):
        old = "\treturn demo_pair(1, 2);\n"
        new_body = "\tlock_kernel();\n\treturn demo_pair((unlock_kernel(), 1), (unlock_kernel(), 2));\n"
        _, found = check(old, new_body)
        self.assertEqual(len(found), 1)
        self.assertIn("order of evaluation C leaves open", found[0])


class MacroBodyTest(unittest.TestCase):
    def test_an_unlocking_do_while_zero_macro_passes(self):
        defines = "#define DEMO_BAIL(e) do { unlock_kernel(); return (e); } while (0)\n\n"
        old_defines = "#define DEMO_BAIL(e) do { return (e); } while (0)\n\n"
        old = "\tif (!demo_present())\n\t\tDEMO_BAIL(-ENODEV);\n\tdemo_state = 0;\n\treturn 0;\n"
        new_body = ("\tlock_kernel();\n\tif (!demo_present())\n\t\tDEMO_BAIL(-ENODEV);\n"
                    "\tdemo_state = 0;\n\tunlock_kernel();\n\treturn 0;\n")
        _, found = check(old, new_body, old_defines, defines)
        self.assertEqual(found, [])
        new, found = check(old, new_body, old_defines)
        line = line_of(new, "DEMO_BAIL(-ENODEV)")
        self.assertEqual(found, [f"{line}: return at line {line} (in macro DEMO_BAIL) leaves "
                                 "the BKL held"])


class ConditionalTest(unittest.TestCase):
    OLD = ("#ifdef CONFIG_DEMO_NOWAYOUT\n\tif (cmd == DEMO_STOP)\n\t\treturn -EBUSY;\n#endif\n"
           "\tdemo_state = cmd;\n\treturn 0;\n")

    def test_a_return_inside_an_ifdef_is_proven_in_both_configurations(self):
        new_body = ("\tlock_kernel();\n#ifdef CONFIG_DEMO_NOWAYOUT\n\tif (cmd == DEMO_STOP) {\n"
                    "\t\tunlock_kernel();\n\t\treturn -EBUSY;\n\t}\n#endif\n"
                    "\tdemo_state = cmd;\n\tunlock_kernel();\n\treturn 0;\n")
        self.assertEqual(check(self.OLD, new_body)[1], [])

    def test_a_return_inside_an_ifdef_without_unlock_names_the_configuration(self):
        new_body = ("\tlock_kernel();\n#ifdef CONFIG_DEMO_NOWAYOUT\n\tif (cmd == DEMO_STOP)\n"
                    "\t\treturn -EBUSY;\n#endif\n"
                    "\tdemo_state = cmd;\n\tunlock_kernel();\n\treturn 0;\n")
        new, found = check(self.OLD, new_body)
        line = line_of(new, "return -EBUSY")
        self.assertEqual(found, [f"{line}: return at line {line} leaves the BKL held "
                                 "(with CONFIG_DEMO_NOWAYOUT)"])

    def test_a_lock_compiled_out_in_one_configuration_is_caught(self):
        old = "\tdemo_state = cmd;\n\treturn 0;\n"
        new_body = ("#ifndef CONFIG_DEMO_UP\n\tlock_kernel();\n#endif\n"
                    "\tdemo_state = cmd;\n\tunlock_kernel();\n\treturn 0;\n")
        new, found = check(old, new_body)
        line = line_of(new, "demo_state = cmd")
        self.assertIn(f"{line}: statement at line {line} ran under the BKL before and now runs "
                      "before lock_kernel() (it writes demo_state) (with CONFIG_DEMO_UP)", found)

    def test_a_condition_that_folds_to_zero_never_runs_its_body(self):
        # DEMO_ASSERT_ON is 0: the return is dead code, as the compiler sees.
        defines = ("#define DEMO_ASSERT_ON 0\n#define DEMO_ASSERT(c, r) \\\n"
                   "\t{ if ((DEMO_ASSERT_ON) && !(c)) { printk(\"demo: %s\\n\", #c); return r; } }\n\n")
        old = "\tDEMO_ASSERT(arg != 0, -EINVAL);\n\tdemo_state = arg;\n\treturn 0;\n"
        new_body = ("\tlock_kernel();\n\tDEMO_ASSERT(arg != 0, -EINVAL);\n\tdemo_state = arg;\n"
                    "\tunlock_kernel();\n\treturn 0;\n")
        self.assertEqual(check(old, new_body, defines)[1], [])
        new, found = check(old, new_body, defines.replace("_ON 0", "_ON 1"))
        line = line_of(new, "DEMO_ASSERT(arg")
        self.assertEqual(found, [f"{line}: return at line {line} (in macro DEMO_ASSERT) leaves "
                                 "the BKL held"])

    def test_if_zero_code_is_never_compiled(self):
        old = "#if 0\n\treturn demo_old();\n#endif\n\treturn 0;\n"
        new_body = "#if 0\n\treturn demo_old();\n#endif\n\tlock_kernel();\n\tunlock_kernel();\n\treturn 0;\n"
        self.assertEqual(check(old, new_body)[1], [])


class CaseBlockReturnTest(unittest.TestCase):
    """`case X: { ...; return f(...); break; }`: the pushdown's
    `ret = f(...); unlock_kernel(); return ret;` keeps f(...) where it was.
    The one `return` of such a block in each text used to anchor the
    alignment, so f(...) was read as missing from the conversion."""

    # (block before the return, the returned value) as real drivers write them.
    SHAPES = [
        ("\t\tloff_t offs;\n\n"
         "\t\tif (copy_from_user(&offs, argp, sizeof(loff_t)))\n\t\t\tbreak;\n"
         "\t\tif (!dev->block_isbad)\n\t\t\tbreak;\n",
         "dev->block_isbad(dev, offs)"),
        ("\t\tif (demo_get(dev, cmd) < 0)\n\t\t\tbreak;\n", "demo_get(dev, cmd)"),
        ("\t\tstruct demo_info info;\n\n"
         "\t\tif (copy_to_user(argp, &info, sizeof(info)))\n\t\t\tbreak;\n",
         "copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0"),
        ("\t\tif (!dev->ops->check)\n\t\t\tbreak;\n", "dev->ops->check(dev)"),
    ]

    @staticmethod
    def bodies(before: str, value: str, brace: bool = True) -> tuple[str, str]:
        head = ("\tstruct demo_dev *dev = file->private_data;\n"
                "\tvoid __user *argp = (void __user *)arg;\n\n")
        open_, close = ("\t{\n", "\t}\n") if brace else ("", "")
        old = (head + "\tswitch (cmd) {\n\tcase DEMO_A:\n" + open_ + before +
               f"\t\treturn {value};\n\t\tbreak;\n" + close +
               "\tdefault:\n\t\tbreak;\n\t}\n\treturn -ENOTTY;\n")
        new = ("\tlong ret;\n" + head + "\tlock_kernel();\n\tswitch (cmd) {\n\tcase DEMO_A:\n" +
               open_ + before + f"\t\tret = {value};\n\t\tunlock_kernel();\n"
               "\t\treturn ret;\n\t\tbreak;\n" + close +
               "\tdefault:\n\t\tbreak;\n\t}\n\tunlock_kernel();\n\treturn -ENOTTY;\n")
        return old, new

    def test_the_pushdown_of_a_return_and_its_dead_break_passes(self):
        for before, value in self.SHAPES:
            for brace in (True, False):
                with self.subTest(value=value, brace=brace):
                    self.assertEqual(check(*self.bodies(before, value, brace))[1], [])

    def test_the_value_computed_after_the_unlock_is_caught(self):
        for before, value in self.SHAPES:
            with self.subTest(value=value):
                old, new_body = self.bodies(before, value)
                new_body = new_body.replace(
                    f"\t\tret = {value};\n\t\tunlock_kernel();\n\t\treturn ret;\n",
                    f"\t\tunlock_kernel();\n\t\treturn {value};\n")
                new, found = check(old, new_body)
                line = line_of(new, f"return {value};")
                self.assertEqual(len(found), 1, found)
                self.assertTrue(found[0].startswith(
                    f"{line}: return value at line {line} ran under the BKL before and now "
                    "runs after unlock_kernel() (it calls "), found)


if __name__ == "__main__":
    unittest.main()

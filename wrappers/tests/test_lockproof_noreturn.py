"""lockproof: a call that does not return ends its path.

A handler whose switch ends in `default: BUG();` has no path that falls
off its end; a pushdown that takes the lock before the switch is right,
and it was refused ("falling off the end ... leaves the BKL held").  The
kernel's own (BUG, panic, do_exit, complete_and_exit, BUG_ON of a true
constant) always end a path; any other function only when what is read
declares it noreturn, in any spelling, and nowhere without it.
"""

import unittest

from lockproof_helpers import line_of, messages, prove

DECLARATIONS = """\
#define ATTRIB_NORET	__attribute__((noreturn))
#define NORET_TYPE	/**/
#define NORET_AND	noreturn,
extern void demo_die(const char *why) __attribute__((noreturn));
void __attribute__ ((__noreturn__)) demo_halt(int code);
NORET_TYPE void demo_fatal(int code) ATTRIB_NORET;
extern void demo_panic(const char *fmt, ...)
	__attribute__ ((NORET_AND format (printf, 1, 2)));
#ifdef CONFIG_DEMO_STRICT
extern void demo_stop(void) __attribute__((noreturn));
#else
static inline void demo_stop(void) { }
#endif
extern void demo_warn(const char *why);
"""

HALTING = ["BUG();", 'panic("demo: bad command %u\\n", cmd);', "do_exit(SIGKILL);",
           "complete_and_exit(&demo_done, 0);", "BUG_ON(1);", "BUG_ON(!0 && 2);",
           'demo_die("bad command");', "demo_halt(-1);", "demo_fatal(cmd);",
           'demo_panic("%u", cmd);']
RETURNING = ["BUG_ON(cmd);", "BUG_ON(0);", "demo_stop();", 'demo_warn("bad command");',
             "WARN_ON(1);", "demo_unknown(cmd);"]


def handlers(ending: str, declarations: str = DECLARATIONS) -> tuple[str, str]:
    """A legacy handler whose switch ends in ENDING, and its pushdown."""
    old = (declarations + "\nstatic int demo_ioctl(struct inode *inode, struct file *file,\n"
           "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
           "\tswitch (cmd) {\n\tcase DEMO_GET:\n\t\treturn demo_get(arg);\n"
           f"\tdefault:\n\t\t{ending}\n\t}}\n}}\n")
    new = (declarations + "\nstatic long demo_ioctl(struct file *file,\n"
           "\t\t      unsigned int cmd, unsigned long arg)\n{\n\tint ret;\n\n"
           "\tlock_kernel();\n\tswitch (cmd) {\n\tcase DEMO_GET:\n"
           "\t\tret = demo_get(arg);\n\t\tunlock_kernel();\n\t\treturn ret;\n"
           f"\tdefault:\n\t\t{ending}\n\t}}\n}}\n")
    return old, new


def check(old: str, new: str, headers: dict[str, str] | None = None) -> list[str]:
    return messages(prove(old, new, {"demo_ioctl": "demo_ioctl"}, headers=headers))


class NoreturnTest(unittest.TestCase):
    def test_a_body_ending_in_a_call_that_does_not_return_passes(self):
        for ending in HALTING:
            with self.subTest(ending=ending):
                self.assertEqual(check(*handlers(ending)), [])

    def test_a_call_that_may_return_still_falls_off_the_end(self):
        for ending in RETURNING:
            with self.subTest(ending=ending):
                old, new = handlers(ending)
                line = line_of(new, "}\n}\n") + 1
                self.assertEqual(check(old, new), [f"{line}: falling off the end of demo_ioctl "
                                                   f"at line {line} leaves the BKL held"])

    def test_a_declaration_in_a_header_counts(self):
        header = DECLARATIONS.replace("extern void demo_warn(const char *why);\n", "")
        old, new = handlers("demo_fatal(cmd);", '#include "demo.h"\n')
        self.assertEqual(check(old, new, {"demo.h": header}), [])
        # Without the header demo_fatal() is any call: the proof is not vacuous.
        line = line_of(new, "}\n}\n") + 1
        self.assertEqual(check(old, new), [f"{line}: falling off the end of demo_ioctl at line "
                                           f"{line} leaves the BKL held"])

    def test_a_halting_branch_does_not_hide_the_others(self):
        old, new = handlers("BUG();")
        new = new.replace("\t\tunlock_kernel();\n\t\treturn ret;", "\t\treturn ret;")
        line = line_of(new, "return ret;")
        self.assertEqual(check(old, new), [f"{line}: return at line {line} leaves the BKL held"])

    def test_a_halt_inside_a_condition_ends_only_its_branch(self):
        for spelling in ("\t\tif (arg > 3)\n\t\t\tBUG();\n", "\t\targ > 3 ? BUG() : (void)0;\n",
                         "\t\t(arg > 3) && (panic(\"demo\"), 0);\n"):
            with self.subTest(spelling=spelling):
                old, new = handlers("break;")
                old = old.replace("\tdefault:\n", "\tdefault:\n" + spelling)
                new = new.replace("\tdefault:\n", "\tdefault:\n" + spelling)
                line = line_of(new, "}\n}\n") + 1
                self.assertEqual(check(old, new), [f"{line}: falling off the end of demo_ioctl "
                                                   f"at line {line} leaves the BKL held"])

    def test_code_after_a_halt_in_the_legacy_handler_never_ran(self):
        old, new = handlers("BUG();\n\t\tdemo_reset();")
        self.assertEqual(check(old, new), [])


if __name__ == "__main__":
    unittest.main()

"""lockproof: a call that does not return ends its path.

A handler whose switch ends in `default: BUG();` has no path that falls
off its end; a pushdown that takes the lock before the switch is right,
and it was refused ("falling off the end ... leaves the BKL held").  The
kernel's own (BUG, panic, do_exit, complete_and_exit, BUG_ON of a true
constant) always end a path; any other function only when what is read
declares it noreturn, in any spelling, and nowhere without it, or when
every definition read halts on every path (a driver header's static inline
die() without the attribute); a macro ends it through its expansion.
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


# The driver's own helpers, declared: a name the proof did not read may
# not run under the lock (test_lockproof_unread_names).
HELPERS = "long demo_get(unsigned long arg);\nvoid demo_unknown(unsigned int cmd);\n"


def handlers(ending: str, declarations: str = DECLARATIONS) -> tuple[str, str]:
    """A legacy handler whose switch ends in ENDING, and its pushdown."""
    declarations = HELPERS + declarations
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
        # Without the header demo_fatal() is any call (and a name not read):
        # the proof is not vacuous.
        line = line_of(new, "}\n}\n") + 1
        self.assertIn(f"{line}: falling off the end of demo_ioctl at line {line} leaves the "
                      "BKL held", check(old, new))

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


# A driver header's ways to stop: each, used as the switch's default, ends
# the path (the pushdown is proven, not needlessly put back to the wrapper).
HEADER_HALTS = {
    "do-while macro": ("#define rt_die(msg) do { printk(msg); BUG(); } while (0)\n",
                       'rt_die("bad command");'),
    "expression macro": ('#define FATAL() panic("rt: fatal")\n', "FATAL();"),
    "object-like macro": ("#define RT_STOP do_exit(SIGKILL)\n", "RT_STOP;"),
    "macro of a macro": ("#define RT_HALT() BUG()\n#define RT_DIE(m) do { printk(m); "
                         "RT_HALT(); } while (0)\n", 'RT_DIE("x");'),
    "static inline": ("static inline void rt_fail(const char *why)\n{\n"
                      "\tprintk(KERN_ERR \"%s\\n\", why);\n\tBUG();\n}\n", 'rt_fail("x");'),
    "static inline, noreturn": ("static inline void __attribute__((noreturn)) rt_fail(void)\n"
                                "{\n\tBUG();\n}\n", "rt_fail();"),
    "inline calling a halting macro": (
        "#define rt_die(m) do { printk(m); BUG(); } while (0)\n"
        "static inline void rt_fail(int code)\n{\n\trt_die(\"code\");\n}\n", "rt_fail(cmd);"),
    "inline calling a halting inline": (
        "static inline void rt_stop(void) { panic(\"rt\"); }\n"
        "static inline void rt_fail(int code)\n{\n\tif (code)\n\t\tprintk(\"%d\", code);\n"
        "\trt_stop();\n}\n", "rt_fail(cmd);"),
    "inline with a nested block": ("static inline void rt_fail(void)\n{\n\t{\n\t\tdo {\n"
                                   "\t\t\tBUG();\n\t\t} while (0);\n\t}\n}\n", "rt_fail();"),
    "inline with a loop before": ("static inline void rt_fail(int n)\n{\n\twhile (n--)\n"
                                  "\t\tprintk(\".\");\n\tBUG();\n}\n", "rt_fail(3);"),
    "inline with a prototype": ("static void rt_fail(void);\n"
                                "static inline void rt_fail(void)\n{\n\tBUG();\n}\n",
                                "rt_fail();"),
}
# ... and ways that only MAY stop: the path goes on (default-deny).
HEADER_MAY_HALT = {
    "conditional macro": ("#define rt_check(x) do { if (x) BUG(); } while (0)\n",
                          "rt_check(cmd);"),
    "macro that breaks out": ("#define rt_die(x) do { if (x) break; BUG(); } while (0)\n",
                              "rt_die(cmd);"),
    "conditional inline": ("static inline void rt_fail(int x)\n{\n\tif (x)\n\t\tBUG();\n}\n",
                           "rt_fail(cmd);"),
    "inline with an else": ("static inline void rt_fail(int x)\n{\n\tif (x)\n\t\tBUG();\n"
                            "\telse\n\t\tprintk(\"x\");\n}\n", "rt_fail(cmd);"),
    "inline that returns first": ("static inline void rt_fail(int x)\n{\n\tif (x)\n"
                                  "\t\treturn;\n\tBUG();\n}\n", "rt_fail(cmd);"),
    "inline with a goto": ("static inline void rt_fail(int x)\n{\n\tif (x)\n\t\tgoto out;\n"
                           "\tBUG();\nout:\n\t;\n}\n", "rt_fail(cmd);"),
    "inline with a returning macro": ("#define RT_BAIL(x) if (x) return\n"
                                      "static inline void rt_fail(int x)\n{\n\tRT_BAIL(x);\n"
                                      "\tBUG();\n}\n", "rt_fail(cmd);"),
    "inline under #ifdef with a stub": (
        "#ifdef CONFIG_RT_DEBUG\nstatic inline void rt_fail(void)\n{\n\tBUG();\n}\n#else\n"
        "static inline void rt_fail(void) { }\n#endif\n", "rt_fail();"),
    "inline beside an extern prototype": (
        "#ifdef CONFIG_RT_DEBUG\nstatic inline void rt_fail(void)\n{\n\tBUG();\n}\n#else\n"
        "extern void rt_fail(void);\n#endif\n", "rt_fail();"),
    "halt only in a label's statement": ("static inline void rt_fail(void)\n{\nout:\n\tBUG();\n}\n",
                                         "rt_fail();"),
    "extern function": ("extern void rt_fail(void);\n", "rt_fail();"),
}


class HeaderHaltTest(unittest.TestCase):
    """Issue 22: a correct pushdown whose path ends in a driver header's
    halting macro or function was refused; the wrapper was safe but needless."""

    def prove_with(self, header: str, ending: str, name: str = "rt.h") -> list[str]:
        old, new = handlers(ending, f'#include "{name}"\n' if "/" not in name else
                            f"#include <{name}>\n")
        if "/" not in name:
            return check(old, new, {name: header})
        # <asm/rt.h>: the include/ of the tree whose top Makefile says its version.
        return check(old, new, {f"../../include/{name}": header,
                                "../../Makefile": "VERSION = 2\nPATCHLEVEL = 6\n"})

    def test_a_path_ending_in_a_halting_macro_or_function_of_a_header_ends(self):
        for spelling, (header, ending) in HEADER_HALTS.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(self.prove_with(header, ending), [])

    def test_an_angle_bracket_header_of_the_tree_counts(self):
        header, ending = HEADER_HALTS["static inline"]
        self.assertEqual(self.prove_with(header, ending, "asm/rt.h"), [])
        header, ending = HEADER_HALTS["do-while macro"]
        self.assertEqual(self.prove_with(header, ending, "linux/rt.h"), [])
        # Left unexpanded there (it cannot leave the function), a macro that
        # only may halt is still any call.
        header, ending = HEADER_MAY_HALT["conditional macro"]
        self.assertEqual(len(self.prove_with(header, ending, "linux/rt.h")), 1)

    def test_a_function_of_the_file_that_always_halts_ends_a_path(self):
        old, new = handlers("rt_fatal(cmd);", "static void rt_fatal(unsigned int cmd)\n{\n"
                            "\tprintk(\"bad %u\\n\", cmd);\n\tpanic(\"rt\");\n}\n")
        self.assertEqual(check(old, new), [])

    def test_what_may_return_still_falls_off_the_end(self):
        for spelling, (header, ending) in HEADER_MAY_HALT.items():
            with self.subTest(spelling=spelling):
                old, new = handlers(ending, '#include "rt.h"\n')
                line = line_of(new, "}\n}\n") + 1
                self.assertEqual(self.prove_with(header, ending), [
                    f"{line}: falling off the end of demo_ioctl at line {line} leaves the BKL "
                    "held"])

    def test_without_the_header_nothing_halts(self):
        # The passing cases above are not vacuous: unread, each name is any
        # call (and a name not read, refused for that too).
        for spelling, (_, ending) in HEADER_HALTS.items():
            with self.subTest(spelling=spelling):
                old, new = handlers(ending, '#include "rt.h"\n')
                line = line_of(new, "}\n}\n") + 1
                self.assertIn(f"{line}: falling off the end of demo_ioctl at line {line} "
                              "leaves the BKL held", check(old, new))


# Object-like macros of a tree header: left unexpanded there, the name
# stands alone as a statement (`DIE;`), and a path ends at it when every
# definition of it halts (issue 22: `#define DIE BUG()` did not end a path).
TREE_WORD_HALTS = {
    "a call": ("#define RT_DIE BUG()\n", "RT_DIE;"),
    "a do-while": ('#define RT_FATAL do { panic("rt"); } while (0)\n', "RT_FATAL;"),
    "a do-while with a printk": ('#define RT_FATAL do { printk("rt"); BUG(); } while (0)\n',
                                 "RT_FATAL;"),
    "in parentheses": ('#define RT_FATAL (panic("rt"))\n', "RT_FATAL;"),
    "of a function-like macro": ("#define rt_die(x) panic(x)\n#define RT_DIE rt_die(\"rt\")\n",
                                 "RT_DIE;"),
    "of a halting inline": ("static inline void rt_fail(void)\n{\n\tBUG();\n}\n"
                            "#define RT_DIE rt_fail()\n", "RT_DIE;"),
    "in a branch's else": ("#define RT_DIE BUG()\n", "if (cmd)\n\t\t\tRT_DIE;\n\t\telse\n"
                                                         "\t\t\tRT_DIE;"),
}
TREE_WORD_MAY_HALT = {
    "a conditional do-while": ("#define RT_DIE do { if (rt_bad) BUG(); } while (0)\n", "RT_DIE;"),
    "a call that returns": ("#define RT_DIE rt_warn()\n", "RT_DIE;"),
    "one definition that returns": ("#ifdef CONFIG_RT\n#define RT_DIE BUG()\n#else\n"
                                    "#define RT_DIE do { } while (0)\n#endif\n", "RT_DIE;"),
    "also a function": ("#ifdef CONFIG_RT\n#define rt_die BUG()\n#else\n"
                        "static inline void rt_die(void) { BUG(); }\n#endif\n", "rt_die;"),
    "a break out": ("#define RT_DIE do { if (rt_bad) break; BUG(); } while (0)\n", "RT_DIE;"),
    "in one branch only": ("#define RT_DIE BUG()\n", "if (cmd)\n\t\t\tRT_DIE;"),
    "a comma before": ("#define RT_DIE (rt_bad, BUG())\n", "RT_DIE;"),
}


class TreeWordHaltTest(unittest.TestCase):
    """A halting object-like macro of a tree header ends a path; one that
    only may halt, or is also a function, does not (default-deny)."""

    def prove_in(self, header: str, ending: str, include: bool = True) -> list[str]:
        old, new = handlers(ending, "#include <linux/rt.h>\n" if include else "")
        return check(old, new, {"../../include/linux/rt.h": header,
                                "../../Makefile": "VERSION = 2\nPATCHLEVEL = 6\n"})

    def falls_off(self, ending: str, include: bool = True) -> list[str]:
        _, new = handlers(ending, "#include <linux/rt.h>\n" if include else "")
        line = line_of(new, "}\n}\n") + 1
        return [f"{line}: falling off the end of demo_ioctl at line {line} leaves the BKL held"]

    def test_a_halting_word_ends_the_path(self):
        for spelling, (header, ending) in TREE_WORD_HALTS.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(self.prove_in(header, ending), [])

    def test_a_word_that_may_return_falls_off_the_end(self):
        for spelling, (header, ending) in TREE_WORD_MAY_HALT.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(self.prove_in(header, ending), self.falls_off(ending))

    def test_unread_the_word_is_any_name(self):
        # The passing cases are not vacuous: without the header, no word halts.
        for spelling, (header, ending) in TREE_WORD_HALTS.items():
            with self.subTest(spelling=spelling):
                # Unread, the word is also refused as a name not read.
                self.assertIn(self.falls_off(ending, include=False)[0],
                              self.prove_in(header, ending, include=False))


if __name__ == "__main__":
    unittest.main()

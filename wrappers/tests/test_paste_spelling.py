"""Whether a macro's token paste may form a name that calls through ->ioctl
(ctext/paste_spelling.py), read as the preprocessor reads it: an operand of
## is its spelling, an argument used elsewhere is expanded first, and the
pasted name is rescanned.  Before, any macro that handed a parameter to a
pasting macro (__PASTE, __UNIQUE_ID, ___ADDRESSABLE) was unprovable, and
every macro built on those too: with a real kernel's headers every driver
using module_init(), MODULE_LICENSE() or EXPORT_SYMBOL was refused (issue 22)."""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import member_calls, paste_spelling

from test_kernel_headers import KernelTestCase, convert_outside_tree, write
from test_macro_forwarding import LOWER, UPPER

# The kernel's chain, each macro in the header 6.1 has it in.
KERNEL_HEADERS = {
    "include/linux/compiler_types.h": "#define ___PASTE(a,b) a##b\n"
                                      "#define __PASTE(a,b) ___PASTE(a,b)\n",
    "include/linux/compiler-gcc.h":
        "#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)\n",
    "include/linux/compiler.h":
        "#define ___ADDRESSABLE(sym, __attrs) \\\n"
        "\tstatic void * __used __attrs \\\n"
        "\t\t__UNIQUE_ID(__PASTE(__addressable_,sym)) = (void *)&sym;\n",
    "include/linux/module.h":
        "#include <linux/compiler_types.h>\n#include <linux/compiler-gcc.h>\n"
        "#include <linux/compiler.h>\n"
        "#define module_init(initfn) \\\n"
        "\tint init_module(void) __attribute__((alias(#initfn))); \\\n"
        "\t___ADDRESSABLE(init_module, __initdata);\n"
        "#define __MODULE_INFO(tag, name, info) \\\n"
        "\tstatic const char __UNIQUE_ID(name)[] = #tag \"=\" info\n"
        "#define MODULE_LICENSE(_license) __MODULE_INFO(license, license, _license)\n"
        "#define EXPORT_SYMBOL(sym) extern const char __kstrtab_##sym[]; \\\n"
        "\t___ADDRESSABLE(sym, )\n"
        "#define pr_drv(fmt, ...) printk(fmt, ## __VA_ARGS__)\n",
}
KERNEL = "".join(KERNEL_HEADERS.values())
FORWARDING = "#define STACK_PASS(lf, c, a) ((lf)->f_op->ioctl((lf)->f_dentry->d_inode, lf, c, a))\n"

# Uses whose pastes cannot spell ioctl nor name a macro that may: the
# text added to the kernel's macros, and the use.
CANNOT = {
    "module_init": ("", "module_init(drv_init);"),
    "license": ("", 'MODULE_LICENSE("GPL");'),
    "fixed prefix __UNIQUE_ID_": ("", "int __UNIQUE_ID(ioctl);"),
    "fixed prefix, name of a part": ("", "int __UNIQUE_ID(io);"),
    "fixed suffix": ("#define OPS(x) x ## _fops\n", "OPS(io);"),
    "fixed suffix through __PASTE": ("#define OPS(x) __PASTE(x, _fops)\n", "OPS(io);"),
    "__COUNTER__ after a prefix of ioctl": ("", "int __PASTE(ioct, __COUNTER__);"),
    "exported": ("", "EXPORT_SYMBOL(ioctl);"),
    "GNU comma": ("", 'pr_drv("%d", ioctl);'),
    "a name no macro has": ("", "int __PASTE(drv_, member);"),
    # A #define's own text is no use of what it names (2.6.9's mwavedd.c:
    # its parameter attr_name is also a function-like macro of sysfs.h, so
    # read as a use, the head pasted any name).
    "a #define's head and body": (
        "#define attr_name(_attr) (_attr).attr.name\n"
        "#define mw_show_fn(attr_name, field) \\\n"
        "static int mw_show_##attr_name(struct mw *p) { return p->field; }\n"
        "#define mw_rd_attr(attr_name, field)\t\\\n"
        "\tmw_show_fn(attr_name, field)\n", "mw_rd_attr(dma, dma_chan);"),
    "a #  define, its continued body": (
        "#define attr_name(_attr) (_attr).attr.name\n"
        "#define mw_show_fn(attr_name, m) int mw_show_##attr_name(struct mw *p) { return p->m; }\n"
        "#  define mw_rd(attr_name, m) \\\n\t\\\n\tmw_show_fn(attr_name, m)\n",
        "mw_rd(irq, irq_line);"),
}
# Uses whose pastes may: the text added, the use.
CAN = {
    "io ## ctl": ("", "__PASTE(io, ctl)(0, f, 0, 0);"),
    "raw halves": ("", "___PASTE(i, octl)(0, f, 0, 0);"),
    "x ## ctl, x a parameter": ("#define OP(x) __PASTE(x, ctl)\n", "OP(io)(0, f, 0, 0);"),
    "i ## x, x a parameter": ("#define OP(x) __PASTE(i, x)\n", "OP(octl)(0, f, 0, 0);"),
    "three levels deep": ("#define L1(x) __PASTE(i, x)\n#define L2(y) L1(y)\n"
                          "#define L3(z) L2(z)\n", "L3(octl)(0, f, 0, 0);"),
    "an argument expanded first": ("#define IO io\n", "__PASTE(IO, ctl)(0, f, 0, 0);"),
    "a macro defined as ioctl": ("#define drv_member ioctl\n",
                                 "f->f_op->__PASTE(drv_, member)(0, f, 0, 0);"),
    "a forwarding macro": (FORWARDING, "__PASTE(STACK_, PASS)(f, 1, 0);"),
    "a macro naming the member by an argument":
        ("#define LOWER_OP(l, op) ((l)->f_op->op(0, l, 0, 0))\n",
         "__PASTE(LOWER_, OP)(f, ioctl);"),
    "a forwarding macro, three levels deep":
        (FORWARDING + "#define PICK(x) __PASTE(STACK_, x)\n#define PICK2(y) PICK(y)\n"
         "#define PICK3(z) PICK2(z)\n", "PICK3(PASS)(f, 1, 0);"),
    "a macro __UNIQUE_ID pastes halfway": ("#define __UNIQUE_ID_drv STACK_PASS\n" + FORWARDING,
                                           "int __UNIQUE_ID(drv);"),
}


# The 2.6 kernels' module parameters (include/linux/moduleparam.h of that
# era, in its shape): module_param pastes the type into the name of a
# checking macro, which pastes the parameter's name again.  Every 2.6
# driver with a parameter uses it; judged by the definition alone
# (param_check_int hands a parameter to a pasting macro) every one was
# refused (the whole 2.6.9 tree converted 0 handlers).
MODULEPARAM_26 = (
    "#define __param_check(name, p, type) \\\n"
    "\tstatic inline type *__check_##name(void) { return(p); }\n"
    "#define param_check_int(name, p) __param_check(name, p, int)\n"
    "#define param_check_bool(name, p) __param_check(name, p, int)\n"
    "#define param_check_charp(name, p) __param_check(name, p, char *)\n"
    "#define module_param_call(name, set, get, arg, perm) \\\n"
    "\tstatic char __param_str_##name[] = #name; \\\n"
    "\tstatic struct kernel_param const __param_##name = "
    "{ __param_str_##name, perm, set, get, arg }\n"
    "#define __module_cat(a, b) ___module_cat(a, b)\n"
    "#define ___module_cat(a, b) __mod_ ## a ## b\n"
    "#define __MODULE_INFO(tag, name, info) \\\n"
    "\tstatic const char __module_cat(name, __LINE__)[] = #tag \"=\" info\n"
    "#define __MODULE_PARM_TYPE(name, _type) __MODULE_INFO(parmtype, name##type, #name \":\" _type)\n"
    "#define module_param_named(name, value, type, perm) \\\n"
    "\tparam_check_##type(name, &(value)); \\\n"
    "\tmodule_param_call(name, param_set_##type, param_get_##type, &value, perm); \\\n"
    "\t__MODULE_PARM_TYPE(name, #type)\n"
    "#define module_param(name, type, perm) module_param_named(name, name, type, perm)\n"
    "#define DRM(x) i810_##x\n"
    "#define LOWER_OP(l, op) ((l)->f_op->op(0, l, 0, 0))\n"
    "#define PICK(t, m) LOWER_##t(f, m)\n"
    "#define PICK_OPEN(t) LOWER_##t\n"
    "#define check_x(a) __PASTE(i, a)\n"
    "#define CHECK(t, a) check_##t(a)\n"
)
# Uses of them whose pasted names are checking macros that cannot spell
# ioctl with the arguments given: no site.
CANNOT_26 = (
    "module_param(nowayout, int, 0);",
    "module_param(ioctl, int, 0);",            # a variable named ioctl: no member
    "module_param_named(debug, drv_debug, bool, 0644);",
    "module_param(name, charp, 0);",
    "int DRM(ioctl)(struct inode *i, struct file *f, unsigned int c, unsigned long a);",
    "PICK(OP, read);",                          # LOWER_OP given read
    "CHECK(x, ctx);",                           # check_x pastes i ## ctx
)
# The same macros given what makes the checking macro spell ioctl.
CAN_26 = (
    "PICK(OP, ioctl);",                         # LOWER_OP given ioctl
    "PICK_OPEN(OP)(f, ioctl);",                 # its arguments written after the use
    "CHECK(x, octl)(0, f, 0, 0);",              # check_x pastes i ## octl
    "module_param(nowayout, fwd, 0);",          # param_check_fwd forwards
)
FORWARDING_CHECK = "#define param_check_fwd(name, p) STACK_PASS(f, 0, 0)\n"

def sites(macros: str, use: str, complete: bool = True) -> list:
    text = macros + "void f(struct file *f)\n{\n\t" + use + "\n}\n"
    pastes = paste_spelling.pastes_of({"k.h": KERNEL, "d.c": text}, complete)
    return pastes.sites(text)


class SpellingTest(unittest.TestCase):
    def test_a_paste_that_cannot_spell_ioctl_is_no_site(self):
        for spelling, (macros, use) in CANNOT.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(sites(macros, use), [])

    def test_a_paste_that_may_spell_ioctl_is_a_site_at_its_use(self):
        for spelling, (macros, use) in CAN.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, use)
                self.assertTrue(found)
                line = (macros + "void f(struct file *f)\n{\n").count("\n") + 1
                text = macros + "void f(struct file *f)\n{\n\t" + use
                self.assertIn(line, [text.count("\n", 0, at) + 1 for at, _, _ in found])
                self.assertRegex(found[0][2], r"may (spell ioctl|name \w+)")

    def test_where_a_header_was_not_read_a_pasted_name_may_be_its_macro(self):
        for use in ("int __PASTE(drv_, member);", "module_init(drv_init);"):
            with self.subTest(use=use):
                self.assertEqual(sites("", use, complete=True), [])
                # An argument may be such a macro too (`drv_` expanding to io).
                (found,) = sites("", use, complete=False)
                self.assertRegex(found[2], "may (spell ioctl|name a macro of a header not read)")

    def test_a_use_with_other_arguments_is_judged_by_them(self):
        self.assertEqual(sites("#define OP(x) __PASTE(x, ctl)\n", "OP(drv_)(0, f, 0, 0);"), [])
        self.assertEqual(sites("#define IO drv\n", "__PASTE(IO, ctl)(0, f, 0, 0);"), [])


class ModuleParam26Test(unittest.TestCase):
    """A paste naming a macro that may spell ioctl in general is judged by
    the arguments the body gives it there."""

    def test_a_checking_macro_given_harmless_arguments_is_no_site(self):
        for use in CANNOT_26:
            with self.subTest(use=use):
                self.assertEqual(sites(MODULEPARAM_26 + FORWARDING + FORWARDING_CHECK, use), [])

    def test_a_checking_macro_given_ioctl_is_a_site(self):
        for use in CAN_26:
            with self.subTest(use=use):
                found = sites(MODULEPARAM_26 + FORWARDING + FORWARDING_CHECK, use)
                self.assertTrue(found)
                self.assertRegex(found[0][2], r"may (spell ioctl|name \w+)")

    def test_a_checking_macro_of_a_header_not_read_may_be_anything(self):
        found = sites(MODULEPARAM_26, "module_param(nowayout, int, 0);", complete=False)
        self.assertTrue(found)
        self.assertIn("a macro of a header not read", found[0][2])

# A parameter rescanned with the parentheses after it: the argument is
# expanded first, but a name of a function-like macro it ends with is
# expanded only there (`p(f, 1, 0)` given STACK_PASS forwards).
LOWER_OP = "#define LOWER_OP(l, op) ((l)->f_op->op(0, l, 0, 0))\n"
CALLED = {
    "p(...) given a forwarding macro": (FORWARDING + "#define APPLY(p) p(f, 1, 0)\n",
                                        "__PASTE(AP, PLY)(STACK_PASS);"),
    "p(...) given the member":
        (LOWER_OP + "#define APPLY(p, a, b) p(a, b)\n", "__PASTE(AP, PLY)(LOWER_OP, f, ioctl);"),
    "p ending the body, parentheses after the use":
        (FORWARDING + "#define ID(p) p\n", "__PASTE(I, D)(STACK_PASS)(f, 1, 0);"),
    "an object-like macro naming the forwarding one":
        (FORWARDING + "#define DRV_FWD STACK_PASS\n#define APPLY(p) p(f, 1, 0)\n",
         "__PASTE(AP, PLY)(DRV_FWD);"),
    "the checking macro of a module parameter calls its name":
        (FORWARDING + "#define param_check_cb(name, p) name(f, 1, 0)\n"
         "#define mod_param(name, type) param_check_##type(name, 0)\n",
         "mod_param(STACK_PASS, cb);"),
    "a call that ends with the forwarding macro":
        (FORWARDING + "#define ID(x) x\n#define param_check_cb(name, p) name(f, 1, 0)\n"
         "#define mod_param(name, type) param_check_##type(name, 0)\n",
         "mod_param(ID(STACK_PASS), cb);"),
    "a pasting macro calls its parameter":
        ("#define OP(x) __PASTE(x, ctl)\n#define DO(n, p) int n##_done; p(n)\n",
         "DO(io, OP)(0, f, 0, 0);"),
}
# A name in a body followed by no parenthesis there is still a call where
# a parameter follows (its argument may open one) or the body ends (the
# text after the use may).
OP_CTL = "#define OP(x) __PASTE(x, ctl)\n"
FOLLOWED = {
    "a called parameter, then a parameter":
        (FORWARDING + "#define J(p, a) int drv_##p; p a\n", "J(STACK_PASS, (f, 1, 0));"),
    "a pasting macro, then a parameter": (OP_CTL + "#define J(a) OP a\n", "J((io))(0, f, 0, 0);"),
    "an object-like macro naming a pasting one": (OP_CTL + "#define GETOP OP\n",
                                                  "GETOP(io)(0, f, 0, 0);"),
    "an object-like macro naming __PASTE": ("#define GETP __PASTE\n", "GETP(io, ctl)(0, f, 0, 0);"),
    "a function-like macro ending with __PASTE":
        ("#define GETP(x) __PASTE\n", "GETP(1)(io, ctl)(0, f, 0, 0);"),
}
# The same shapes given what expands to no such macro (2.6.9's
# MODULE_DESCRIPTION(DRIVER_DESC), __initcall(drv_init) with drv_init
# defined as init_module).
NOT_CALLED = {
    "a string macro ending __MODULE_INFO": ("#define DRV_DESC \"x\"\n", "MODULE_LICENSE(DRV_DESC);"),
    "an empty argument": ("", "MODULE_LICENSE();"),
    "a name defined as a function":
        ("#define drv_init init_module\n"
         "#define __initcall(fn) static int (*__initcall_##fn)(void) = fn\n",
         "__initcall(drv_init);"),
    "a stringizing call (2.6.9's MODULE_ALIAS_LDISC)":
        ("#define __stringify_1(x) #x\n#define __stringify(x) __stringify_1(x)\n"
         "#define ALIAS_LDISC(l) MODULE_LICENSE(\"tty-ldisc-\" __stringify(l))\n",
         "ALIAS_LDISC(STACK_PASS);"),
    "a function's call": ("#define param_check_cb(name, p) name(f, 1, 0)\n"
                          "#define mod_param(name, type) param_check_##type(name, 0)\n",
                          "mod_param(drv_lookup(STACK_PASS), cb);"),
    "a type, then a parameter":
        ("#define DECL(type, name) static type name; int name##_set\n", "DECL(int, count);"),
    "a pasting macro calls its parameter, given a function":
        ("#define DO(n, p) int n##_done; p(n)\n", "DO(io, drv_fn)(0, f, 0, 0);"),
    "the checking macro given a function":
        ("#define param_check_cb(name, p) name(f, 1, 0)\n"
         "#define mod_param(name, type) param_check_##type(name, 0)\n",
         "mod_param(drv_fn, cb);"),
}
# A #define as the preprocessor reads it: splices first (they may split a
# name, a ## or the head), comments as one space, digraphs as what they
# spell.
TRANSLATED = {
    "## split by a splice": "#define SPL(x) io #\\\n# x\n",
    "a name split by a splice": "#define SPL(x) i\\\no ## x\n",
    "the head split by a splice": "#define SPL\\\n(x) io ## x\n",
    "a comment over two lines": "#define SPL(x) io ## /* the\n\tother half */ x\n",
    "%:%: for ##": "#define SPL(x) io %:%: x\n",
    "%:define": "%:define SPL(x) io ## x\n",
    "%:  define, %:%:": "%:  define SPL(x) \\\n\tio%:%:x\n",
}


# Macros that name each other: inside one's expansion the other is cut
# off (a macro is not expanded inside itself), but that answer holds only
# there; asked first, the other expands the first.  Each: the macros, the
# use asked first, the use whose answer must not be the cut one.
CYCLES = {
    "two object-like macros": (
        FORWARDING + "#define DRV_A DRV_B STACK_PASS(f, 0, 0)\n#define DRV_B DRV_A\n"
        "#define DRV(x) DRV_##x\n", "DRV(A);", "__PASTE(DRV_, B);"),
    "three object-like macros": (
        FORWARDING + "#define DRV_A DRV_B STACK_PASS(f, 0, 0)\n#define DRV_B DRV_C\n"
        "#define DRV_C DRV_A\n#define DRV(x) DRV_##x\n", "DRV(A);", "__PASTE(DRV_, C);"),
    "two pasting macros": (
        "#define DRV_A DRV_B __PASTE(io, ctl)(0, f, 0, 0)\n#define DRV_B DRV_A\n",
        "DRV_A;", "DRV_B;"),
}


# An argument of several tokens pasted: ## joins only its token beside it
# (2.6.9's e1000_ethtool.c: REG_PATTERN_TEST(RA + ((i << 1) << 2), ...)
# pastes E1000_##R, which is E1000_RA), and its other tokens are rescanned
# after the pasted one.
E1000 = ("#define E1000_CALL(a, op) ((a)->op(a))\n"
         "#define REG_TEST(R) { value = E1000_##R; }\n")
SEVERAL_TOKENS_CAN = {
    "its last token, then parentheses":
        (FORWARDING + "#define P(R) E1000_##R (f, 1, 0)\n", "P(RA + STACK_PASS);"),
    "its last token, parentheses after the use":
        (FORWARDING + "#define P(R) E1000_##R\n", "P(RA + STACK_PASS)(f, 1, 0);"),
    "its first token pasted last": ("#define P(R) R##ctl\n", "P(4 + io)(0, f, 0, 0);"),
    "its last token pasted first": ("#define P(R) io##R\n", "P(ctl + 4)(0, f, 0, 0);"),
    "handed on expanded, an object-like macro first":
        ("#define IO io\n#define P(R) R##ctl\n#define Q(R) P(R)\n", "Q(4 + IO)(0, f, 0, 0);"),
}
SEVERAL_TOKENS_CANNOT = {
    "the e1000 register test": (E1000, "REG_TEST(RA + ((i << 1) << 2));"),
    "the e1000 register test, a cast": (E1000, "REG_TEST(RA + (u32)(i << 3));"),
    "its last token pasted first": (E1000.replace("E1000_##R", "R##_E1000"),
                                    "REG_TEST((i << 3) + RA);"),
    # Handed on expanded: the first token of what it expands to is pasted.
    "handed to the macro that pastes it": (
        E1000 + "#define E1000_WRITE_REG(a, reg, v) writel(v, (a)->hw_addr + E1000_##reg)\n"
        "#define REG_PATTERN_TEST(R, W) { E1000_WRITE_REG(&adapter->hw, R, W); }\n",
        "REG_PATTERN_TEST(RA + ((i << 1) << 2), 0xFFFFFFFF);"),
    "handed on, an object-like macro first": (
        E1000 + "#define RA_BASE RA\n"
        "#define E1000_WRITE_REG(a, reg, v) writel(v, (a)->hw_addr + E1000_##reg)\n"
        "#define REG_PATTERN_TEST(R, W) { E1000_WRITE_REG(&adapter->hw, R, W); }\n",
        "REG_PATTERN_TEST(RA_BASE + 8, 0xFFFFFFFF);"),
}


class SeveralTokensTest(unittest.TestCase):
    def test_the_token_beside_the_paste_is_pasted_and_the_rest_rescanned(self):
        for spelling, (macros, use) in SEVERAL_TOKENS_CAN.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, use)
                self.assertTrue(found)
                self.assertRegex(found[0][2], r"may (spell ioctl|end with STACK_PASS)")

    def test_tokens_away_from_the_paste_name_no_macro(self):
        for spelling, (macros, use) in SEVERAL_TOKENS_CANNOT.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(sites(macros, use), [])


# A macro that takes a member by its parameter (`dst->x`), given several
# tokens, takes the member its argument's first token names, expanded
# (2.6.9's sound/core/ioctl32: COPY(masks[i]) inside CVT_sndrv_pcm_hw_params,
# a name DEFINE_ALSA_IOCTL_BIG pastes; read as any member, the whole 2.6.9
# tree was refused).  (the macros, the use.)
ALSA_COPY = ("#define COPY(x) (dst->x = src->x)\n"
             "#define CONV(type) { CVT_##type(); }\n")
MEMBER_FIRST_CANNOT = {
    "an element": ("#define CVT_hw() { COPY(masks[i]); }\n", "CONV(hw);"),
    "a member of a member": ("#define CVT_st() { COPY(tstamp.tv_sec); }\n", "CONV(st);"),
    "an element's member": ("#define CVT_hw() { COPY(intervals[i].min); }\n", "CONV(hw);"),
    "a call's result": ("#define CVT_fn() { COPY(ops->read(f)); }\n", "CONV(fn);"),
    "an object-like macro first, of another name":
        ("#define FIRST masks\n#define CVT_hw() { COPY(FIRST[i]); }\n", "CONV(hw);"),
}
MEMBER_FIRST_CAN = {
    "ioctl called": ("#define CVT_io() { COPY(ioctl(0, f, 0, 0)); }\n", "CONV(io);"),
    "ioctl indexed": ("#define CVT_io() { COPY(ioctl[0]); }\n", "CONV(io);"),
    "an object-like macro first that is ioctl":
        ("#define FIRST ioctl\n#define CVT_io() { COPY(FIRST (0, f, 0, 0)); }\n", "CONV(io);"),
    "a parenthesis first": ("#define CVT_p() { COPY((ioctl)); }\n", "CONV(p);"),
    "handed on by another macro":
        ("#define CP2(y) COPY(y)\n#define CVT_io() { CP2(ioctl(0, f, 0, 0)); }\n",
         "CONV(io);"),
}


class MemberFirstTokenTest(unittest.TestCase):
    def test_a_member_named_by_a_first_token_other_than_ioctl_is_no_site(self):
        for spelling, (macros, use) in MEMBER_FIRST_CANNOT.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(sites(ALSA_COPY + macros, use), [])

    def test_a_first_token_that_may_be_ioctl_is_a_site(self):
        for spelling, (macros, use) in MEMBER_FIRST_CAN.items():
            with self.subTest(spelling=spelling):
                found = sites(ALSA_COPY + macros, use)
                self.assertTrue(found)
                self.assertRegex(found[0][2], r"may name CVT_\w+, a macro that may spell ioctl")


class CycleTest(unittest.TestCase):
    def test_a_macro_cut_off_inside_another_is_expanded_where_asked_first(self):
        for spelling, (macros, first, then) in CYCLES.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, first + "\n\t" + then)
                line = (macros + "void f(struct file *f)\n{\n\t" + first).count("\n") + 2
                text = macros + "void f(struct file *f)\n{\n\t" + first + "\n\t" + then
                self.assertIn(line, [text.count("\n", 0, at) + 1 for at, _, _ in found])


class CalledParameterTest(unittest.TestCase):
    def test_a_parameter_given_a_macro_that_may_call_ioctl_is_a_site(self):
        for spelling, (macros, use) in CALLED.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, use)
                self.assertTrue(found)
                self.assertRegex(found[0][2], r"may (spell ioctl|name \w+|be \w+)")

    def test_a_name_followed_by_a_parameter_or_the_end_of_a_body_is_called(self):
        for spelling, (macros, use) in FOLLOWED.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, use)
                self.assertTrue(found)
                self.assertRegex(found[0][2], r"may (spell ioctl|be STACK_PASS)")

    def test_a_parameter_given_no_such_macro_is_no_site(self):
        for spelling, (macros, use) in NOT_CALLED.items():
            with self.subTest(spelling=spelling):
                self.assertEqual(sites(FORWARDING + macros, use), [])


class TranslationTest(unittest.TestCase):
    def test_a_define_is_read_after_splices_comments_and_digraphs(self):
        for spelling, macros in TRANSLATED.items():
            with self.subTest(spelling=spelling):
                found = sites(macros, "SPL(ctl)(0, f, 0, 0);")
                self.assertTrue(found)
                self.assertRegex(found[0][2], "pastes io ## x in SPL, which may spell ioctl")

    def test_a_site_after_a_splice_is_at_the_line_written(self):
        macros = "#define DRV_OPS(x) \\\n\tx ## _fops\n"
        for use, line in (("__PASTE(io, ctl)(0, f, 0, 0);", 5),
                          ("__PASTE(io, \\\nctl)(0, f, 0, 0);\n\t__PASTE(io, ctl)(0, f, 0, 0);", 7),
                          ("int a; \\\n__PASTE(io, ctl)(0, f, 0, 0);", 6),
                          ("int a; \\\n\\\nb;\n\t__PASTE(io, ctl)(0, f, 0, 0);", 8)):
            with self.subTest(use=use):
                text = macros + "void f(struct file *f)\n{\n\t" + use + "\n}\n"
                pastes = paste_spelling.pastes_of({"k.h": KERNEL, "d.c": text}, True)
                lines = [text.count("\n", 0, at) + 1 for at, _, _ in pastes.sites(text)]
                self.assertEqual(lines[-1], line)


# Two headers, and the uses of a macro of one whose danger is in the
# other: a file that reaches only the first has no site; one that reaches
# both has it.  (what, {header: text}, the header only the second file
# reaches, the use.)
SPLIT_ACROSS_HEADERS = (
    ("a pasting macro of the other header",
     {"p.h": "#define GLUE(a, b) a ## b\n",
      "q.h": "#define CALL_OP(f) GLUE(io, ctl)(f, 0, 0, 0)\n"}, "p.h", "CALL_OP(f);"),
    ("a forwarding macro the paste names, in the other header",
     {"k.h": KERNEL, "r.h": FORWARDING, "s.h": "#define PICK(x) __PASTE(STACK_, x)\n"},
     "r.h", "PICK(PASS)(f, 1, 0);"),
    ("a macro defined as ioctl, in the other header",
     {"k.h": KERNEL, "m.h": "#define drv_member ioctl\n"}, "m.h",
     "f->f_op->__PASTE(drv_, member)(0, f, 0, 0);"),
)


class SharedTableTest(unittest.TestCase):
    """One MacroTable for every file of a run (convert/macro_sites.py): each
    header is read once, and a file's closures are still of its own texts."""

    def _texts(self, headers: dict, left_out: str | None, use: str) -> dict:
        text = "void f(struct file *f)\n{\n\t" + use + "\n}\n"
        return {path: header for path, header in headers.items() if path != left_out} | \
            {"d.c": text}

    def test_a_file_reads_no_macro_of_a_header_only_another_file_reaches(self):
        for what, headers, other, use in SPLIT_ACROSS_HEADERS:
            both, one = self._texts(headers, None, use), self._texts(headers, other, use)
            for order in ((both, one), (one, both)):
                with self.subTest(what=what, first=len(order[0])):
                    table = paste_spelling.MacroTable()
                    for texts in order:
                        for path, text in texts.items():
                            table.add(path, text)
                    shared = [paste_spelling.pastes_of(texts, True, table).sites(texts["d.c"])
                              for texts in order]
                    alone = [paste_spelling.pastes_of(texts, True).sites(texts["d.c"])
                             for texts in order]
                    self.assertEqual(shared, alone)
                    found = dict(zip((len(t) for t in order), shared))
                    self.assertEqual(len(found[len(both)]), 1)
                    self.assertEqual(found[len(one)], [])

    def test_a_header_another_file_has_changed_is_another_text(self):
        # The same path, two texts (a file of the run and the header on disk).
        use = "CALL_OP(f);"
        with_glue = self._texts({"q.h": "#define GLUE(a, b) a ## b\n"
                                        "#define CALL_OP(f) GLUE(io, ctl)(f, 0, 0, 0)\n"},
                                None, use)
        without = self._texts({"q.h": "#define CALL_OP(f) GLUE(io, ctl)(f, 0, 0, 0)\n"},
                              None, use)
        table = paste_spelling.MacroTable()
        self.assertEqual(len(paste_spelling.pastes_of(with_glue, True, table).sites(
            with_glue["d.c"])), 1)
        self.assertEqual(paste_spelling.pastes_of(without, True, table).sites(
            without["d.c"]), [])

    def test_a_header_is_read_as_often_for_three_files_as_for_one(self):
        # Counted through the words of each definition, which the closures
        # (pasting, reaching) read: before, each file read every definition
        # of every header it reaches again.
        header_macros = [m for text in (KERNEL, FORWARDING)
                         for defs in paste_spelling.macros_of(
                             paste_spelling._code_of(text)).values() for m in defs]
        self.assertTrue(header_macros)
        self.assertEqual(self._reads_of(header_macros, 3), self._reads_of(header_macros, 1))

    def _reads_of(self, macros: list, files: int) -> list[int]:
        """How often the words of each of MACROS are read for FILES files
        that reach KERNEL and FORWARDING, each with a site."""
        counted: dict = {}
        words = paste_spelling._words

        def counting(macro):
            counted[macro] = counted.get(macro, 0) + 1
            return words(macro)
        paste_spelling._words = counting
        try:
            table = paste_spelling.MacroTable()
            texts = [{"k.h": KERNEL, "r.h": FORWARDING,
                      f"d{n}.c": f"#define PICK{n}(x) __PASTE(STACK_, x)\n"
                                 f"void f(struct file *f)\n{{\n\tPICK{n}(PASS)(f, 1, 0);\n}}\n"}
                     for n in range(files)]
            for each in texts:
                for path, text in each.items():
                    table.add(path, text)
            for n, each in enumerate(texts):
                pastes = paste_spelling.pastes_of(each, True, table)
                self.assertEqual(len(pastes.sites(each[f"d{n}.c"])), 1)
        finally:
            paste_spelling._words = words
        return [counted.get(m, 0) for m in macros]

class MutexSitesTest(unittest.TestCase):
    """The rule's -D mutex reads the same sites (member_calls)."""

    def test_a_pasted_forwarding_call_is_a_call_through_a_macro(self):
        headers = {"include/linux/k.h": KERNEL + FORWARDING}
        for use, found in (("return __PASTE(STACK_, PASS)(f, 1, 0);", True),
                           ("return __PASTE(drv_, PASS);", False)):
            with self.subTest(use=use):
                text = "module_init(drv_init);\nint f(struct file *f)\n{\n\t" + use + "\n}\n"
                calls = member_calls.calls_through_macros(text, "d.c", headers, True)
                self.assertEqual([(c.line, c.function) for c in calls],
                                 [(4, "f")] if found else [])


class ConvertTest(KernelTestCase):
    """A lower and an upper driver outside a tree, built against a kernel
    whose headers hold the kernel's pasting chain."""

    def convert(self, upper: str, kernel: bool):
        for at, text in KERNEL_HEADERS.items():
            write(self.kernel / at, text)
        write(self.drivers / "lower.c", LOWER + "#include <linux/module.h>\n"
              "module_init(lo_init);\nMODULE_LICENSE(\"GPL\");\nEXPORT_SYMBOL(lo_ioctl);\n")
        write(self.drivers / "upper.c", upper)
        return convert_outside_tree(self.drivers, self.kernel if kernel else None)

    def test_the_kernel_chain_converts_as_without_the_kernel(self):
        quiet = UPPER.replace("return STACK_PASS(up_lower, cmd, arg);", "return -ENOTTY;") \
            % "<linux/module.h>"
        without = self.convert(quiet, kernel=False)
        with_kernel = self.convert(quiet, kernel=True)
        self.assertFalse(with_kernel.failed)
        self.assertEqual(sorted(with_kernel.changes), ["lower.c", "upper.c"])
        self.assertEqual(with_kernel.changes, without.changes)

    def test_a_pasted_forwarding_macro_of_the_kernel_is_refused(self):
        write(self.kernel / "include/linux/stackhelp.h", FORWARDING)
        pasted = UPPER.replace("STACK_PASS(", "__PASTE(STACK_, PASS)(") % \
            "<linux/module.h>\n#include <linux/stackhelp.h>"
        result = self.convert(pasted, kernel=True)
        self.assertTrue(result.failed)
        records = [h for h in result.summary.handlers if h.handler == "__PASTE"]
        self.assertTrue(records)
        self.assertIs(records[0].status, HandlerStatus.FAILED)
        self.assertIn("may name STACK_PASS", records[0].reason)


if __name__ == "__main__":
    unittest.main()

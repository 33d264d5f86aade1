"""Calls through ->ioctl that only a macro spells (ctext/macro_forwarding.py,
convert/plan.py's forwarding stage): a macro of a header the run does not
rewrite, or one whose argument names the member.  The forwarding rule
reads no macro body, so such a call is refused and denies the run, naming
the macro; before, the run converted the lower driver and the forwarded
call met a NULL .ioctl, in silence (red team: red_fwd_macro, red_fwd_member_arg)."""

import argparse
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import macro_bodies
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import macro_forwarding

HEADER_SPELLINGS = {
    "call": "#define STACK_PASS(lf, c, a) \\\n"
            "\t((lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))\n",
    "pointer_call": "#define STACK_PASS(lf, c, a) \\\n"
                    "\t((*(lf)->f_op->ioctl)((lf)->f_dentry->d_inode, (lf), (c), (a)))\n",
    "dot_call": "#define STACK_PASS(ops, lf, c, a) \\\n"
                "\t((ops).ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)))\n",
    "test_beside": "#define STACK_PASS(lf, c, a) \\\n\t((lf)->f_op->ioctl ? \\\n"
                   "\t (lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)) : -ENOTTY)\n",
}
ARGUMENT_SPELLINGS = {
    "arrow": "#define LOWER_OP(l, op, c, a) \\\n"
             "\t((l)->f_op->op((l)->f_dentry->d_inode, (l), (c), (a)))\n",
    "spaced": "#define LOWER_OP(l, op, c, a) ((l)->f_op -> op ((l)->f_dentry->d_inode, l, c, a))\n",
}


class FindingTest(unittest.TestCase):
    def test_every_header_spelling_is_a_forwarding_macro(self):
        for name, text in HEADER_SPELLINGS.items():
            with self.subTest(spelling=name):
                found = list(macro_forwarding.forwarding_macros(text, "include/linux/h.h"))
                self.assertEqual([(m.name, m.line, m.parameter) for m in found],
                                 [("STACK_PASS", 1, None)])

    def test_each_macro_is_at_the_line_of_its_define_among_many(self):
        # The lines are counted on from one #define to the next (a header of
        # 12,000 #defines): each forwarding macro keeps its own line, after
        # other #defines, continuation lines and blank ones, in every order.
        filler = ("#define REG_A 0x10\n", "#define REG_B(x) \\\n\t((x) << 2)\n", "\n",
                  "/* a comment\n   of two lines */\n")
        spellings = list(HEADER_SPELLINGS.items())
        for rotation in range(len(filler)):
            with self.subTest(rotation=rotation):
                text, expected = "", []
                for index, (name, spelling) in enumerate(spellings):
                    text += "".join(filler[rotation:] + filler[:rotation])
                    expected.append((f"PASS_{index}", text.count("\n") + 1))
                    text += spelling.replace("STACK_PASS", f"PASS_{index}")
                found = macro_forwarding.forwarding_macros(text, "include/linux/h.h")
                self.assertEqual([(m.name, m.line) for m in found], expected)

    def test_a_member_named_by_an_argument_is_found_by_its_position(self):
        for name, text in ARGUMENT_SPELLINGS.items():
            with self.subTest(spelling=name):
                found = list(macro_forwarding.forwarding_macros(text, "drivers/x/u.c"))
                self.assertEqual([(m.name, m.parameter) for m in found], [("LOWER_OP", 1)])
                code = text + "static int f(void)\n{\n\treturn LOWER_OP(lower, ioctl, 1, 2);\n}\n"
                sites = macro_forwarding.sites(code, "drivers/x/u.c", [])
                self.assertEqual([(s.line, s.macro.name) for s in sites],
                                 [(code.count("\n", 0, code.index("return")) + 1, "LOWER_OP")])
                # Another member through the same macro is no call through ->ioctl.
                other = code.replace("lower, ioctl,", "lower, read,")
                self.assertEqual(macro_forwarding.sites(other, "drivers/x/u.c", []), [])

    def test_what_is_not_a_forwarding_macro(self):
        for text in ("#define SET_OP(f, h) ((f)->ioctl = (h))\n",
                     "#define NAME \"ioctl\"\n",
                     "/* #define STACK_PASS(lf) (lf)->f_op->ioctl(0, lf, 0, 0) */\n",
                     "#define IOCTL_NR 3\n"):
            with self.subTest(text=text):
                self.assertEqual(list(macro_forwarding.forwarding_macros(text, "a.h")), [])

    UNPROVABLE = {
        "suffix pasted": ("#define MEMBER(x) x##ioctl\n", "MEMBER"),
        "prefix pasted": ("#define op_of(x) io##x\n", "op_of"),
        "part pasted, spaced": ("#define OP(x) x ## ctl\n", "OP"),
        "bare token, object-like": ("#define THE_MEMBER ioctl\n", "THE_MEMBER"),
        "bare token as an argument": ("#define FWD(f, c, a) CALL_MEMBER((f)->f_op, ioctl, f, c, a)\n",
                                      "FWD"),
        "bare token, lower case, last": ("#define fwd(f, c) call_op(f, c, ioctl)\n", "fwd"),
        "expands an unprovable macro": ("#define MEMBER(x) x##ioctl\n"
                                        "#define FWD(f) ((f)->f_op->MEMBER()(0, f, 0, 0))\n", "FWD"),
        "pastes ioctl through another": ("#define CAT(a, b) a##b\n"
                                         "#define FWD(f) ((f)->f_op->CAT(io, ctl)(0, f, 0, 0))\n",
                                         "FWD"),
    }

    def test_a_macro_whose_member_cannot_be_proven_is_refused_at_each_use(self):
        for spelling, (macros, name) in self.UNPROVABLE.items():
            for rel in ("include/linux/h.h", "drivers/x/u.c"):
                with self.subTest(spelling=spelling, rel=rel):
                    found = {m.name: m for m in macro_forwarding.forwarding_macros(macros, rel)}
                    self.assertTrue(found[name].unprovable)
                    self.assertTrue(found[name].in_body)
                    use = "static int f(void)\n{\n\treturn " + name + \
                        ("" if "THE_MEMBER" in name else "(lower, 1)") + ";\n}\n"
                    text = (macros if rel.endswith(".c") else "") + use
                    sites = macro_forwarding.sites(text, rel, [] if rel.endswith(".c")
                                                   else list(found.values()))
                    self.assertIn(name, [site.macro.name for site in sites])
                    self.assertIn("cannot be proven", sites[0].reason)

    def test_a_paste_of_parameters_is_a_site_only_where_it_may_spell_ioctl(self):
        macros = "#define CAT(a, b) a##b\n"
        (cat,) = macro_forwarding.forwarding_macros(macros, "h.h")
        self.assertEqual((cat.unprovable, cat.pasted, cat.in_body), ("", (0, 1), False))
        for args, site in [("drv_, read", False), ("my, _ops", False), ("io, ctl", True),
                           ("ioctl, ", True), (", ioctl", True), ("i, octl", True)]:
            with self.subTest(args=args):
                text = "int f(void)\n{\n\treturn CAT(" + args + ")(0);\n}\n"
                self.assertEqual(bool(macro_forwarding.sites(text, "u.c", [cat])), site)

    def test_a_punctuator_pasted_to_a_parameter_is_that_parameter_pasted(self):
        # 2.6.9's drivers/scsi/53c7xx.h: `(hostdata->##symbol - ...)`; its
        # uses name other members, read as unprovable it denied the tree.
        macros = ("#define PATCH_DSA(dsa, symbol, value) \\\n"
                  "\t{ (dsa)[(hostdata->##symbol - hostdata->dsa_start)] = (value); }\n")
        (patch,) = macro_forwarding.forwarding_macros(macros, "h.h")
        self.assertEqual((patch.unprovable, patch.pasted, patch.in_body), ("", (1,), False))
        for args, site in [("cmd->dsa, dsa_msgout, 0", False), ("d, ioctl, 0", True),
                           ("d, io, 0", True)]:
            with self.subTest(args=args):
                text = "int f(void)\n{\n\tPATCH_DSA(" + args + ");\n}\n"
                self.assertEqual(bool(macro_forwarding.sites(text, "u.c", [patch])), site)

    def test_an_entry_macro_is_no_unprovable_macro(self):
        for text in ("#define DRV_IOCTL .ioctl = drv_ioctl,\n",
                     "#define DRV_OPS(h) { .owner = THIS_MODULE, .ioctl = h }\n",
                     "#define NAME(x) drv_##x##_ioctl\n", "#define DO_IOCTL(x) do_ioctl(x)\n"):
            with self.subTest(text=text):
                self.assertEqual(list(macro_forwarding.forwarding_macros(text, "a.h")), [])

    def test_a_use_in_a_comment_or_a_string_is_no_site(self):
        (macro,) = macro_forwarding.forwarding_macros(HEADER_SPELLINGS["call"], "h.h")
        text = "/* STACK_PASS(l, c, a) */\nstatic char *s = \"STACK_PASS(l, c, a)\";\n"
        self.assertEqual(macro_forwarding.sites(text, "u.c", [macro]), [])


# (b) Macros whose member is a parameter: at an expansion naming ioctl, a
# call proven not to be a file_operations' is no site.  Each: the macro, its
# use, whether a site remains (True: unproven).
NOT_A_FORWARD = {
    "arguments_by_parameter": (
        "#define WRAP(name, call, parms, args) \\\n"
        "static int __lock_##name##_##call parms \\\n"
        "{ int ret; lock(); ret = __unlocked_##name##_ops.call args; unlock(); return ret; }\n",
        "WRAP(inet, ioctl, (struct socket *sock, unsigned int cmd, \\\n"
        "\t unsigned long arg), (sock, cmd, arg))\n", False),
    "arguments_written_in_the_body": (
        "#define WRAP(name, op) \\\n"
        "static int w_##name(struct pkt *p, int c) { return name##_ops->op(p, c); }\n",
        "WRAP(x, ioctl)\n", False),
    "two_arguments_on_lines": (
        "#define WRAP(name, op, parms, args) static long name##_##op parms \\\n"
        "{ \\\n\treturn name##_tbl.op args; \\\n}\n",
        "WRAP(t, ioctl, (struct tbl *t, long v), (t, v))\n", False),
    "four_arguments": (
        "#define WRAP(name, call, parms, args) \\\n"
        "static int w_##name parms { return name##_ops.call args; }\n",
        "WRAP(x, ioctl, (struct inode *i, struct file *f, unsigned int c, unsigned long a), "
        "(i, f, c, a))\n", True),
    "an_argument_not_a_parameter": (
        "#define WRAP(name, call, parms, args) \\\n"
        "static int w_##name parms { return name##_ops.call args; }\n",
        "WRAP(x, ioctl, (struct pkt *p, int c), (p, c, 0))\n", True),
    "an_argument_defined_away": (
        "#define WRAP(name, call, parms, args) \\\n"
        "static int w_##name parms { return name##_ops.call args; }\n"
        "#define c a, b\n",
        "WRAP(x, ioctl, (struct pkt *p, int c), (p, c))\n", True),
    "an_argument_that_is_a_macro_parameter": (
        "#define WRAP(name, op, more) \\\n"
        "static int w_##name(struct pkt *p, int c) { return name##_ops->op(p, more); }\n",
        "WRAP(x, ioctl, c)\n", False),
    "no_function_defined": (
        "#define CALL(o, op, args) ((o)->ops->op args)\n",
        "int f(struct pkt *p, int c) { return CALL(p, ioctl, (p, c)); }\n", True),
    "a_test_of_the_member": (
        "#define WRAP(name, op) \\\n"
        "static int w_##name(struct pkt *p, int c) \\\n"
        "{ return name##_ops->op ? name##_ops->op(p, c) : -1; }\n",
        "WRAP(x, ioctl)\n", True),
}


class NotAForwardTest(unittest.TestCase):
    def test_only_a_proven_call_is_no_site(self):
        for name, (macro, use, unproven) in NOT_A_FORWARD.items():
            with self.subTest(spelling=name):
                text = macro + use
                sites = macro_forwarding.sites(text, "include/linux/w.h", [],
                                               defined=lambda n: False)
                self.assertEqual(bool(sites), unproven)

    def test_without_the_headers_read_nothing_is_proven(self):
        macro, use, _ = NOT_A_FORWARD["arguments_by_parameter"]
        self.assertEqual(len(macro_forwarding.sites(macro + use, "include/linux/w.h", [])), 1)

    def test_a_name_defined_in_a_header_read_is_unproven(self):
        macro, use, _ = NOT_A_FORWARD["arguments_by_parameter"]
        sites = macro_forwarding.sites(macro + use, "include/linux/w.h", [],
                                       defined=lambda n: n == "cmd")
        self.assertEqual(len(sites), 1)


# An outer macro passing ioctl bare to a macro that names the member by
# that argument (2.6.9 net.h: SOCKOPS_WRAP -> SOCKCALL_WRAP): no obstacle
# only where that inner call is proven no file_operations' (not_a_forward).
# Each: the macros, the use, whether a site remains (True: unproven).
_INNER = ("#define WRAP(name, call, parms, args) \\\n"
          "static int __lock_##name##_##call parms \\\n"
          "{ int ret; lock(); ret = __unlocked_##name##_ops.call args; unlock(); return ret; }\n")
# A locking wrapper macro whose argument before ioctl is two parentheses deep.
_WRAP3_TWO_DEEP = (
    "#define WRAP3(name, tag, call, parms, args) \\\n"
    "static int __lock_##name##_##call parms \\\n"
    "{ int ret; lock(); ret = __unlocked_##name##_ops.call args; unlock(); return ret; }\n"
    "#define OPS_WRAP(name) \\\n"
    "WRAP3(name, ((0) + (1)), ioctl, (struct socket *sock, unsigned int cmd, \\\n"
    "\t unsigned long arg), (sock, cmd, arg))\n"
)

NESTED = {
    "proven_three_arguments": (
        _INNER + "#define OPS_WRAP(name, fam) \\\n"
        "WRAP(name, release, (struct socket *sock), (sock)) \\\n"
        "WRAP(name, ioctl, (struct socket *sock, unsigned int cmd, \\\n"
        "\t unsigned long arg), (sock, cmd, arg))\n",
        "OPS_WRAP(inet_dgram, PF_INET);\n", False),
    "a_name_of_the_call_defined_where_it_is_used": (
        _INNER + "#define OPS_WRAP(name) \\\n"
        "WRAP(name, ioctl, (struct socket *sock, unsigned int cmd, unsigned long arg), "
        "(sock, cmd, arg))\n",
        "#define cmd c1, c2\nOPS_WRAP(inet_dgram);\n", True),
    "four_arguments": (
        _INNER + "#define OPS_WRAP(name) \\\n"
        "WRAP(name, ioctl, (struct inode *i, struct file *f, unsigned int c, "
        "unsigned long a), (i, f, c, a))\n",
        "OPS_WRAP(x);\n", True),
    "the_outer_parameter_in_the_arguments": (
        _INNER + "#define OPS_WRAP(name, args) \\\n"
        "WRAP(name, ioctl, (struct socket *sock, unsigned int cmd), args)\n",
        "OPS_WRAP(x, (sock, cmd));\n", True),
    "the_outer_parameter_in_the_parameter_list": (
        _INNER + "#define OPS_WRAP(name, s) \\\n"
        "WRAP(name, ioctl, (struct socket *s, unsigned int cmd), (s, cmd))\n",
        "OPS_WRAP(x, sock);\n", True),
    "inner_macro_defines_no_function": (
        "#define CALL(o, op, args) ((o)->ops->op args)\n"
        "#define FWD(o) CALL(o, ioctl, (o, 1))\n",
        "int f(struct pkt *p) { return FWD(p); }\n", True),
    # hole27: the enclosing call found through any depth of parentheses
    # before ioctl (a regex allowed one level), proven or not alike.
    "parentheses_two_deep_before_the_member": (
        _WRAP3_TWO_DEEP,
        "OPS_WRAP(inet_dgram);\n", False),
    "parentheses_two_deep_and_a_name_defined_where_used": (
        _WRAP3_TWO_DEEP,
        "#define cmd c1, c2\nOPS_WRAP(inet_dgram);\n", True),
    "not_the_member_argument": (
        _INNER + "#define OPS_WRAP(name) WRAP(ioctl, name, (struct pkt *p), (p))\n",
        "OPS_WRAP(x);\n", True),
}


# The bare token ioctl where no member operator can come before it: after
# an operator or a word of the body (a local or a function named ioctl).
# Each: the macros, the use, whether a site remains (True: unproven).
BARE = {
    "assigned_call": ("#define IOCTL(dev, arg, cmd) ({ int res = 0; \\\n"
                      "\tres = ioctl(dev, arg, cmd); res; })\n",
                      "int f(void *d) { int (*ioctl)(void *, void *, int) = g; "
                      "return IOCTL(d, 0, 1); }\n", False),
    "returned_call": ("#define CALL(d) do { return ioctl(d, 0); } while (0)\n",
                      "int f(void *d) { CALL(d); }\n", False),
    "negated_test": ("#define CAN(d) (!ioctl || ioctl(d, 0))\n",
                     "int f(void *d) { return CAN(d); }\n", False),
    "first_token_of_the_body": ("#define OP ioctl(i, f, c, a)\n",
                                "int f(struct file *fl) { return fl->f_op->OP; }\n", True),
    "first_token_of_an_argument": ("#define M(o, m) ((o)->m)\n"
                                   "#define FWD(f) M((f)->f_op, ioctl((f), (f), 1, 2))\n",
                                   "int f(struct file *fl) { return FWD(fl); }\n", True),
    "after_a_comma": ("#define M(o, x, m) ((o)->m)\n"
                      "#define FWD(f) M((f)->f_op, 0, ioctl(0, (f), 1, 2))\n",
                      "int f(struct file *fl) { return FWD(fl); }\n", True),
    "stringized": ("#define S(x) #ioctl\n", "const char *f(void) { return S(0); }\n", True),
}


class BareTokenTest(unittest.TestCase):
    def test_a_bare_ioctl_no_member_operator_can_reach_is_no_obstacle(self):
        for name, (macros, use, unproven) in BARE.items():
            with self.subTest(spelling=name):
                header = list(macro_forwarding.forwarding_macros(macros, "include/linux/w.h"))
                sites = macro_forwarding.sites(use, "drivers/x.c", header,
                                               defined=lambda n: False)
                self.assertEqual(bool(sites), unproven, [s.reason for s in sites])


class NestedMacroTest(unittest.TestCase):
    def test_a_bare_ioctl_passed_on_is_proven_only_with_its_call(self):
        for name, (macros, use, unproven) in NESTED.items():
            with self.subTest(spelling=name):
                header = list(macro_forwarding.forwarding_macros(macros, "include/linux/w.h"))
                sites = macro_forwarding.sites(use, "net/x.c", header, defined=lambda n: False)
                self.assertEqual(bool(sites), unproven, [s.reason for s in sites])

    def test_a_name_defined_in_a_header_read_makes_the_use_a_site(self):
        macros, use, _ = NESTED["proven_three_arguments"]
        header = list(macro_forwarding.forwarding_macros(macros, "include/linux/w.h"))
        sites = macro_forwarding.sites(use, "net/x.c", header, defined=lambda n: n == "sock")
        self.assertEqual([s.macro.name for s in sites], ["OPS_WRAP"])
        self.assertIn("sock", sites[0].reason)

    def test_the_outer_macro_is_not_rewritten_as_a_body(self):
        macros, _, _ = NESTED["proven_three_arguments"]
        outer = [m for m in macro_forwarding.forwarding_macros(macros, "include/linux/w.h")
                 if m.name == "OPS_WRAP"]
        self.assertEqual(len(outer), 1)
        self.assertFalse(outer[0].in_body)
        self.assertIn("cmd", outer[0].guarded)


STRUCTURES = """\
struct sock;
struct proto { int (*ioctl)(struct sock *sk, int cmd, unsigned long arg); };
struct wide { int (*ioctl)(struct sock *sk, struct sock *peer, int cmd, unsigned long arg); };
struct sock { struct proto *sk_prot; struct wide *wide; };
struct file_operations { int (*ioctl)(void *, void *, unsigned int, unsigned long); };
struct file { struct file_operations *f_op; };
"""

# (b) through a structure: the macro's use, expanded, takes the member from
# a structure member_types proves from the declarations.  Each: the macro,
# the function using it, whether a site remains (True: unproven).
THROUGH_STRUCTURES = {
    "proto_by_pointer": ("#define SK_OP(sk, op, args) ((sk)->sk_prot->op args)\n",
                         "int f(struct sock *sk, int cmd, unsigned long arg)\n"
                         "{\n\treturn SK_OP(sk, ioctl, (sk, cmd, arg));\n}\n", False),
    "four_arguments_of_another_structure": (
        "#define SK_WIDE(s, p, op, c, a) \\\n\t((s)->wide->op((s), (p), (c), (a)))\n",
        "int f(struct sock *sk, struct sock *peer, int cmd, unsigned long arg)\n"
        "{\n\treturn SK_WIDE(sk, peer, ioctl, cmd, arg);\n}\n", False),
    "file_operations": ("#define F_OP(f, op, args) ((f)->f_op->op args)\n",
                        "int f(struct file *file, int cmd, unsigned long arg)\n"
                        "{\n\treturn F_OP(file, ioctl, (0, file, cmd, arg));\n}\n", True),
    "undeclared_object": ("#define SK_OP(sk, op, args) ((sk)->sk_prot->op args)\n",
                          "int f(int cmd, unsigned long arg)\n"
                          "{\n\treturn SK_OP(lower, ioctl, (lower, cmd, arg));\n}\n", True),
    "pasted_object": ("#define SK_OP(name, op, args) (name##_sock.sk_prot->op args)\n",
                      "int f(int cmd, unsigned long arg)\n"
                      "{\n\treturn SK_OP(inet, ioctl, (0, cmd, arg));\n}\n", True),
    "object_through_a_call": ("#define SK_OP(sk, op, args) (sock_of(sk)->sk_prot->op args)\n",
                              "struct sock *sock_of(int);\n"
                              "int f(int s, int cmd, unsigned long arg)\n"
                              "{\n\treturn SK_OP(s, ioctl, (0, cmd, arg));\n}\n", True),
}


class ThroughStructuresTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="macro-structures-"))
        self.addCleanup(shutil.rmtree, self.root)
        (self.root / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        (self.root / "include/linux").mkdir(parents=True)
        (self.root / "include/linux/sk.h").write_text(STRUCTURES)
        (self.root / "net/x").mkdir(parents=True)

    def sites(self, macro: str, use: str, macro_in_header: bool, root=True):
        header = "#include <linux/sk.h>\n"
        macros = []
        if macro_in_header:
            (self.root / "include/linux/skop.h").write_text(macro)
            macros = list(macro_forwarding.forwarding_macros(macro, "include/linux/skop.h"))
            text = header + "#include <linux/skop.h>\n" + use
        else:
            text = header + macro + use
        (self.root / "net/x/u.c").write_text(text)
        return macro_forwarding.sites(text, "net/x/u.c", macros,
                                      root=self.root if root else None)

    def test_only_a_proven_structure_is_no_site(self):
        for name, (macro, use, unproven) in THROUGH_STRUCTURES.items():
            for in_header in (False, True):
                with self.subTest(spelling=name, macro_in_header=in_header):
                    self.assertEqual(bool(self.sites(macro, use, in_header)), unproven)

    def test_without_the_tree_nothing_is_proven(self):
        macro, use, _ = THROUGH_STRUCTURES["proto_by_pointer"]
        self.assertEqual(len(self.sites(macro, use, False, root=False)), 1)


LOWER = """\
#include <linux/fs.h>

static int lo_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 7 : -ENOTTY;
}

static struct file_operations lo_fops = {
	.ioctl		= lo_ioctl,
};
"""

UPPER = """\
#include <linux/fs.h>
#include %s

static struct file *up_lower;

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return STACK_PASS(up_lower, cmd, arg);
}

static struct file_operations up_fops = {
	.ioctl		= up_ioctl,
};
"""


class ConvertTest(unittest.TestCase):
    """A run over a driver directory whose upper driver forwards through a
    header's macro: nothing is converted, and every record names the macro."""

    def convert(self, header_at: str, include: str, macro: str, target: str = "2.6.11",
                upper: str = UPPER):
        tmp = Path(tempfile.mkdtemp(prefix="macro-forwarding-"))
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        header = tmp / header_at
        header.parent.mkdir(parents=True, exist_ok=True)
        header.write_text("#ifndef STACK_H\n#define STACK_H\n" + macro + "#endif\n")
        drivers = tmp / "drivers/x"
        drivers.mkdir(parents=True, exist_ok=True)
        (drivers / "lower.c").write_text(LOWER)
        (drivers / "upper.c").write_text(upper % include)
        (drivers / "Makefile").write_text("EXTRA_CFLAGS += -I$(srctree)/drivers/common\n"
                                          "obj-m += lower.o upper.o\n")
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--target", target, "--no-cache", "--", str(drivers)])
        return convert.convert(convert.request_from_args(args))

    def test_a_header_macro_denies_the_run_naming_itself(self):
        # An angle-bracket header outside the run's directory: the run does
        # not rewrite it.
        places = {"angle": ("include/linux/stackhelp.h", "<linux/stackhelp.h>")}
        for where, (header_at, include) in places.items():
            for name, macro in HEADER_SPELLINGS.items():
                if name == "dot_call":
                    continue        # takes four arguments
                with self.subTest(header=where, spelling=name):
                    result = self.convert(header_at, include, macro)
                    self.assertEqual(result.changes, {})
                    self.assertTrue(result.failed)
                    records = {h.handler: h for h in result.summary.handlers}
                    for handler in ("lo_ioctl", "up_ioctl", "STACK_PASS"):
                        self.assertIs(records[handler].status, HandlerStatus.FAILED)
                        self.assertIn(f"macro STACK_PASS ({header_at}:3)",
                                      records[handler].reason)

    def test_a_kbuild_header_outside_the_run_is_rewritten_with_its_macro(self):
        # Quoted, found through the directory's -I (convert/macro_users.py):
        # a header of the run, written with it (before, it was never read
        # for drivers whose only forwarding is its macro).
        header_at = "drivers/common/stackhelp.h"
        for name, macro in HEADER_SPELLINGS.items():
            if name == "dot_call":
                continue
            with self.subTest(spelling=name):
                result = self.convert(header_at, '"stackhelp.h"', macro)
                self.assertFalse(result.failed, [h for h in result.summary.handlers
                                                 if h.status is HandlerStatus.FAILED])
                self.assertIn(header_at, result.changes)
                header = result.changes[header_at][1].decode()
                self.assertIn(f"static inline int {macro_bodies.MACRO_HELPER}(", header)
                records = {h.handler: h for h in result.summary.handlers}
                for handler in ("lo_ioctl", "up_ioctl"):
                    self.assertIs(records[handler].status, HandlerStatus.CONVERTED)

    def test_a_header_of_the_run_is_rewritten_with_its_macro(self):
        # A target without .ioctl: the call goes to ->unlocked_ioctl alone.
        result = self.convert("drivers/x/stackhelp.h", '"stackhelp.h"',
                              HEADER_SPELLINGS["call"], target="2.6.36")
        self.assertFalse(result.failed)
        header = result.changes["drivers/x/stackhelp.h"][1].decode()
        self.assertIn("->unlocked_ioctl(", header)
        self.assertNotIn("->ioctl(", header)

    def test_a_macro_of_the_run_on_a_target_with_ioctl_calls_the_fallback_helper(self):
        # A lower driver may still be on .ioctl there: the call falls back to
        # it through the rule's helper, written in the header before the macro
        # (convert/macro_bodies.py), and the header is written with the run.
        result = self.convert("drivers/x/stackhelp.h", '"stackhelp.h"',
                              HEADER_SPELLINGS["call"])
        self.assertFalse(result.failed)
        header = result.changes["drivers/x/stackhelp.h"][1].decode()
        helper = macro_bodies.MACRO_HELPER
        self.assertIn(f"static inline int {helper}(", header)
        self.assertIn(f"\t({helper}((lf)->f_op, (lf)->f_dentry->d_inode, (lf), (c), (a)))\n",
                      header)
        self.assertIn("#include <linux/smp_lock.h>", header)
        records = {h.handler: h for h in result.summary.handlers}
        for handler in ("lo_ioctl", "up_ioctl"):
            self.assertIs(records[handler].status, HandlerStatus.CONVERTED)
        self.assertIn(("drivers/x/stackhelp.h", 4, "forwarded-call"),
                      {(c.file, c.line, c.kind) for c in result.summary.changes})

    def ops_call_header(self, spelling: str, parms: str, args: str) -> str:
        """The shape of 2.6.9's <linux/net.h>: a header of the run whose only
        tie to ->ioctl is a macro naming the member by an argument, and an
        entry a macro writes (so it is read, yet converts nothing)."""
        return ("#define OPS_CALL(name, call, parms, args) \\\n"
                "static int __wrap_##name##_##call parms " + spelling + "\n"
                "#define OPS_WRAP(name) \\\n"
                "OPS_CALL(name, ioctl, " + parms + ", \\\n"
                "\t " + args + ")\n"
                "#define OPS_TABLE(name) \\\n"
                "static struct pkt_ops name##_locked_ops = { \\\n"
                "\t.ioctl = __wrap_##name##_ioctl, \\\n"
                "};\n")

    def test_a_header_only_its_own_refusal_names_is_left_as_it_was(self):
        # Four arguments (a file_operations' ioctl takes four): unproven, so
        # the run is denied with the header named; it crashed with a KeyError
        # when the denial reached that header.
        for spelling in ("{ return name##_ops.call args; }",
                         "{ return obj->ops->call args; }"):
            with self.subTest(spelling=spelling):
                macro = self.ops_call_header(
                    spelling, "(struct pkt *obj, struct file *f, unsigned int cmd, "
                    "unsigned long arg)", "(obj, f, cmd, arg)")
                result = self.convert("drivers/x/stackhelp.h", '"stackhelp.h"', macro)
                self.assertTrue(result.failed)
                self.assertEqual(result.changes, {})
                files = {f.file: f for f in result.summary.files}
                self.assertIn("drivers/x/stackhelp.h", files)
                self.assertIn("drivers/x/stackhelp.h:6 (OPS_CALL)",
                              files["drivers/x/stackhelp.h"].reason)
                records = {h.handler: h for h in result.summary.handlers}
                self.assertIs(records["lo_ioctl"].status, HandlerStatus.FAILED)

    def test_a_macro_call_proven_not_a_forward_denies_nothing(self):
        # Three arguments, each a parameter of the function the expansion
        # defines: no file_operations' ioctl (net.h's SOCKCALL_WRAP).
        for spelling in ("{ return name##_ops.call args; }",
                         "{ return obj->ops->call args; }"):
            with self.subTest(spelling=spelling):
                macro = self.ops_call_header(
                    spelling, "(struct pkt *obj, unsigned int cmd, unsigned long arg)",
                    "(obj, cmd, arg)")
                result = self.convert("drivers/x/stackhelp.h", '"stackhelp.h"', macro)
                records = {h.handler: h for h in result.summary.handlers}
                self.assertNotIn("OPS_CALL", records)
                self.assertIs(records["lo_ioctl"].status, HandlerStatus.CONVERTED)

    def test_a_header_macro_naming_the_member_by_an_argument_denies_the_run(self):
        # The header never spells "ioctl"; the upper driver's use does.
        for name, macro in ARGUMENT_SPELLINGS.items():
            for header_at, include in (("include/linux/stackhelp.h", "<linux/stackhelp.h>"),
                                       ("drivers/common/stackhelp.h", '"stackhelp.h"')):
                with self.subTest(spelling=name, header=header_at):
                    result = self.convert(header_at, include, macro, upper=UPPER.replace(
                        "STACK_PASS(up_lower, cmd, arg)", "LOWER_OP(up_lower, ioctl, cmd, arg)"))
                    self.assertTrue(result.failed)
                    self.assertEqual(result.changes, {})
                    records = {h.handler: h for h in result.summary.handlers}
                    self.assertIs(records["lo_ioctl"].status, HandlerStatus.FAILED)
                    self.assertIn(f"macro LOWER_OP ({header_at}:3)", records["lo_ioctl"].reason)

    def test_without_the_macro_both_convert(self):
        result = self.convert("include/linux/stackhelp.h", "<linux/stackhelp.h>",
                              "#define STACK_PASS(lf, c, a) (-ENOTTY)\n")
        statuses = {h.handler: h.status for h in result.summary.handlers}
        self.assertEqual(statuses, {"lo_ioctl": HandlerStatus.CONVERTED,
                                    "up_ioctl": HandlerStatus.CONVERTED})


if __name__ == "__main__":
    unittest.main()

"""ctext/member_types.py: the structure a member named ioctl is taken from,
proven from the declarations of the file and the headers it includes.

Each class has several spellings.  A proof names the structure it found,
so a wrong one fails (usb_gadget_ops, not usb_gadget, nor "proven" at
all); each negative is a step that cannot be read, which keeps the call
counted as one that may reach a file_operations (None).
"""

import shutil
import signal
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.ctext import member_types

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"
# <linux/gadget.h> of the tree: the structures the calls go through.
GADGET_H = """#ifndef _GADGET_H
#define _GADGET_H
struct usb_gadget;
struct usb_gadget_ops {
	int	(*get_frame)(struct usb_gadget *);
	int	(*ioctl)(struct usb_gadget *,
				unsigned code, unsigned long param);
};
struct usb_gadget {
	/* readonly to gadget driver */
	const struct usb_gadget_ops	*ops;
	struct usb_ep			*ep0;
	const char			*name;
};
struct gadget_host {
	int			id;
	struct usb_gadget	*gadget, gadgets[4];
};
typedef struct usb_gadget_ops gadget_ops_t;
typedef struct gadget_host *host_p;
extern struct usb_gadget_ops shared_gadget_ops;
extern struct file_operations shared_fops;
#endif
"""
# A quoted header beside the driver.
PHY_H = """struct atm_dev;
struct atmphy_ops {
	int (*start)(struct atm_dev *dev);
	int (*ioctl)(struct atm_dev *dev,unsigned int cmd,void __user *arg);
};
struct atm_dev {
	const struct atmphy_ops *phy;	/* PHY operations, may be undefined */
	int number;
};
"""
HEAD = '#include <linux/fs.h>\n#include <linux/gadget.h>\n#include "phy.h"\n\n'


class MemberTypesCase(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="member-types-"))
        self.addCleanup(shutil.rmtree, self.root)
        # Flag variables the tree sets (an arch Makefile), whose value this
        # reading does not follow; one no Makefile sets is empty.
        self.write({"arch/x86/Makefile": "RENAME_FROM_ELSEWHERE := -Dusb_gadget_ops=x\n"
                                         "export SOMETHING ?=\n"})
        self.write({"Makefile": TOP, "include/linux/gadget.h": GADGET_H,
                    "include/linux/fs.h": "struct file_operations {\n\tint (*ioctl) "
                    "(struct inode *, struct file *, unsigned int, unsigned long);\n};\n",
                    "drivers/x/phy.h": PHY_H, "drivers/x/Makefile": "obj-m += x.o\n"})

    def write(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)

    def proven(self, text: str, rel: str = "drivers/x/x.c"):
        """What the ioctl member on the line marked `/* here */` is proven to be of."""
        line = next(n for n, code in enumerate(text.split("\n"), 1) if "/* here */" in code)
        self.write({rel: text})
        return member_types.other_structures(member_types.corpus(self.root, rel, text), line)

    def function(self, body: str, parameters: str = "struct usb_gadget *gadget",
                 before: str = "") -> str:
        return (HEAD + before + f"static int up({parameters}, unsigned code, unsigned long v)\n"
                "{\n" + body + "\n}\n")


class DebugMacroTest(MemberTypesCase):
    """A statement of the 2.6 debug idiom naming the object before its use,
    `dctlprintk((KERN_INFO "%p", ioc));` (2.6.9's mptctl.c), declares
    nothing where every definition read expands to a function's call or to
    nothing; any other macro called with the object may declare it."""

    USE = '\tdbg(("up %p\\n", gadget));\n\treturn gadget->ops->ioctl(gadget, code, v); /* here */'
    PRINTK = "int printk(const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));\n"

    def test_a_call_or_nothing_declares_nothing(self):
        for defines in ["#ifdef DBG\n#define dbg(x) printk x\n#else\n#define dbg(x)\n#endif\n",
                        "#define dbg(x)  printk  x\n",
                        "#define dbg(x) do { } while (0)\n"]:
            with self.subTest(defines=defines):
                self.assertEqual(self.proven(self.function(self.USE, before=self.PRINTK + defines)),
                                 {"usb_gadget_ops"})

    def test_any_other_macro_may_declare_it(self):
        for printk, defines in [(True, "#define dbg(x) x\n"),
                                (False, "#define dbg(x) printk x\n"),
                                (True, "#define dbg(x) printk x\n#define printk(...) 0\n"),
                                (True, "#define dbg(x, y) printk x\n"),
                                (True, "#define dbg(x) mydecl x\n"),
                                (True, "")]:
            with self.subTest(printk=printk, defines=defines):
                self.assertIsNone(self.proven(self.function(
                    self.USE, before=(self.PRINTK if printk else "") + defines)))


class ProvenTest(MemberTypesCase):
    def test_a_parameter_through_a_chain_of_two(self):
        for call in ["\treturn gadget->ops->ioctl(gadget, code, v); /* here */",
                     "\treturn gadget -> ops\n\t\t-> ioctl (gadget, code, v); /* here */",
                     "\treturn (*gadget->ops->ioctl)(gadget, code, v); /* here */",
                     "\tif (!gadget->ops->ioctl) /* here */\n\t\treturn -1;\n\treturn 0;",
                     "\tint (*fn)(struct usb_gadget *, unsigned, unsigned long) = "
                     "gadget->ops->ioctl; /* here */\n\treturn 0;"]:
            with self.subTest(call=call):
                self.assertEqual(self.proven(self.function(call)), {"usb_gadget_ops"})
        for parameters in ["const struct usb_gadget *gadget", "struct usb_gadget * const gadget",
                           "struct usb_gadget __user *gadget", "struct usb_gadget gadget[]"]:
            with self.subTest(parameters=parameters):
                self.assertEqual(self.proven(self.function(
                    "\treturn gadget->ops->ioctl(0, code, v); /* here */", parameters)),
                    {"usb_gadget_ops"})

    def test_a_local_in_each_spelling(self):
        for declaration in ["\tstruct usb_gadget *g = get();",
                            "\tstruct usb_gadget *a, *g;",
                            "\tconst struct usb_gadget *g;\n\tint n;",
                            "\tstruct usb_gadget_ops const *unused = 0, *keep;\n"
                            "\tstruct usb_gadget *g = lookup(code, v);"]:
            with self.subTest(declaration=declaration):
                body = declaration + "\n\treturn g->ops->ioctl(g, code, v); /* here */"
                self.assertEqual(self.proven(self.function(body)), {"usb_gadget_ops"})

    def test_a_local_of_the_inner_block(self):
        body = ("\tif (code) {\n\t\tstruct atm_dev *gadget = find(v);\n"
                "\t\treturn gadget->phy->ioctl(gadget, code, 0); /* here */\n\t}\n\treturn 0;")
        self.assertEqual(self.proven(self.function(body)), {"atmphy_ops"})

    def test_a_file_scope_object_and_an_extern_by_value(self):
        for before, call in [
                ("static struct usb_gadget_ops my_ops;\n", "my_ops.ioctl(0, code, v)"),
                ("static struct usb_gadget_ops my_ops __read_mostly = {\n\t.get_frame = 0,\n};\n",
                 "my_ops.ioctl(0, code, v)"),
                ("struct atmphy_ops *phys[8];\n", "phys[code]->ioctl(0, code, 0)"),
                ("static struct usb_gadget_ops table[4];\n", "table[code & 3].ioctl(0, code, v)"),
                ("", "shared_gadget_ops.ioctl(0, code, v)")]:
            with self.subTest(call=call):
                text = self.function(f"\treturn {call}; /* here */", before=before)
                self.assertEqual(self.proven(text),
                                 {"atmphy_ops" if "phys" in call else "usb_gadget_ops"})

    def test_a_chain_of_three_and_an_array_element(self):
        for call in ["host->gadget->ops->ioctl(0, code, v)",
                     "host->gadgets[code].ops->ioctl(0, code, v)",
                     "hosts[1].gadget->ops->ioctl(0, code, v)"]:
            with self.subTest(call=call):
                text = self.function(f"\tstruct gadget_host *host, hosts[2];\n"
                                     f"\treturn {call}; /* here */")
                self.assertEqual(self.proven(text), {"usb_gadget_ops"})

    def test_a_struct_of_a_quoted_header_and_one_of_the_file(self):
        own = ("struct board {\n\tint irq;\n\tstruct atm_dev *dev;\n};\n"
               "struct board_ops {\n\tint (*ioctl)(struct board *, int);\n};\n")
        for parameters, call, structure in [
                ("struct atm_dev *dev", "dev->phy->ioctl(dev, code, 0)", "atmphy_ops"),
                ("struct board *b", "b->dev->phy->ioctl(b->dev, code, 0)", "atmphy_ops"),
                ("struct board_ops *ops", "ops->ioctl(0, 1)", "board_ops")]:
            with self.subTest(call=call):
                text = self.function(f"\treturn {call}; /* here */", parameters, own)
                self.assertEqual(self.proven(text), {structure})

    def test_typedefs_that_are_read(self):
        for parameters, call in [("gadget_ops_t *ops", "ops->ioctl(0, code, v)"),
                                 ("host_p host", "host->gadget->ops->ioctl(0, code, v)")]:
            with self.subTest(parameters=parameters):
                text = self.function(f"\treturn {call}; /* here */", parameters)
                self.assertEqual(self.proven(text), {"usb_gadget_ops"})

    def test_every_member_of_the_line_is_proven(self):
        body = "\treturn gadget->ops->ioctl ? gadget->ops->ioctl(gadget, code, v) : 0; /* here */"
        self.assertEqual(self.proven(self.function(body)), {"usb_gadget_ops"})


class UnprovenTest(MemberTypesCase):
    def assert_unproven(self, text: str) -> None:
        self.assertIsNone(self.proven(text))

    def test_a_file_operations_in_every_spelling(self):
        for parameters, call in [("struct file_operations *ops", "ops->ioctl(0, 0, code, v)"),
                                 ("const struct file_operations *ops", "ops->ioctl(0, 0, code, v)"),
                                 ("struct usb_gadget *gadget", "shared_fops.ioctl(0, 0, code, v)")]:
            with self.subTest(call=call):
                self.assert_unproven(self.function(f"\treturn {call}; /* here */", parameters))

    def test_a_typedef_not_read(self):
        for parameters in ["unknown_ops_t *ops", "struct usb_gadget *gadget"]:
            with self.subTest(parameters=parameters):
                self.assert_unproven(self.function(
                    "\tunknown_ops_t *ops2 = 0;\n\treturn ops2->ioctl(0, code, v); /* here */"
                    if "gadget" in parameters else "\treturn ops->ioctl(0, code, v); /* here */",
                    parameters))

    def test_a_name_made_another_for_file_operations(self):
        for before in ["#define my_ops file_operations\n",
                       "typedef struct file_operations my_ops_t;\n#define my_ops my_ops_t\n",
                       "struct my_ops {\n\tint (*ioctl)(int);\n};\n#define my_ops file_operations\n"]:
            with self.subTest(before=before):
                self.assert_unproven(self.function("\treturn ops->ioctl(0, 0, code, v); /* here */",
                                                   "struct my_ops *ops", before))
        self.assert_unproven(self.function(
            "\treturn ops->ioctl(0, 0, code, v); /* here */", "fops_t *ops",
            "typedef struct file_operations fops_t;\n"))

    def test_a_cast_a_call_or_a_parenthesis_in_the_chain(self):
        for call in ["((struct usb_gadget_ops *)gadget)->ioctl(gadget, code, v)",
                     "get_ops(gadget)->ioctl(gadget, code, v)",
                     "(&shared_gadget_ops)->ioctl(gadget, code, v)",
                     "(gadget->ops)->ioctl(gadget, code, v)"]:
            with self.subTest(call=call):
                self.assert_unproven(self.function(f"\treturn {call}; /* here */"))

    def test_a_macro_in_the_chain(self):
        for before, call in [("#define OPS (gadget->ops)\n", "OPS->ioctl(gadget, code, v)"),
                             ("#define ops f_op\n", "gadget->ops->ioctl(gadget, code, v)"),
                             ("#define THE_OPS shared_gadget_ops\n",
                              "THE_OPS.ioctl(gadget, code, v)")]:
            with self.subTest(call=call):
                self.assert_unproven(self.function(f"\treturn {call}; /* here */", before=before))

    def test_a_member_in_a_macro_body(self):
        self.assert_unproven(HEAD + "#define CALL(g) (g)->ops->ioctl((g), 0, 0) /* here */\n")

    def test_a_struct_body_not_found(self):
        for parameters, call in [("struct unseen *u", "u->ioctl(u, code, v)"),
                                 ("struct unseen *u", "u->ops->ioctl(0, code, v)"),
                                 ("struct usb_gadget *gadget", "gadget->missing->ioctl(0, code, v)"),
                                 ("struct usb_gadget *gadget", "gadget->ioctl(0, code, v)")]:
            with self.subTest(call=call):
                self.assert_unproven(self.function(f"\treturn {call}; /* here */", parameters))

    def test_a_header_not_included_is_not_read(self):
        text = self.function("\treturn dev->phy->ioctl(dev, code, 0); /* here */",
                             "struct atm_dev *dev").replace('#include "phy.h"\n', "")
        self.assert_unproven(text)

    def test_a_declaration_not_read(self):
        for body in ["\tDECLARE_GADGET(gadget, code);\n\treturn gadget->ops->ioctl(0, code, v); /* here */",
                     "\tunsigned n = 1, gadget = f(n);\n\treturn gadget->ops->ioctl(0, code, v); /* here */",
                     "\ttypeof(shared_fops) *gadget = &shared_fops;\n"
                     "\treturn gadget->ops->ioctl(0, code, v); /* here */",
                     "\t__typeof__(shared_fops) gadget[1];\n"
                     "\treturn gadget->ops->ioctl(0, code, v); /* here */",
                     "\tregister struct file_operations *gadget = 0;\n"
                     "\treturn gadget->ops->ioctl(0, code, v); /* here */"]:
            with self.subTest(body=body):
                self.assert_unproven(self.function(body))

    def test_a_local_declared_by_a_macro_call_hides_the_global(self):
        # The file scope says usb_gadget_ops; a statement whose call may be
        # a macro expanding to a declaration of the name, in any case and
        # at any position of its arguments, is not read: unproven.
        before = ("static struct usb_gadget_ops *ops;\n"
                  "#define grab_lower(p) struct file_operations *p = &shared_fops\n")
        use = "\treturn ops->ioctl(0, code, v); /* here */"
        for statement in ["grab_lower(ops);", "GRAB_OPS(shared_fops, ops);",
                          "take(0, shared_fops, ops);", "DECLARE_TWO(other, ops);",
                          "again: grab_lower(ops);", "case_label: Grab(ops, 1);"]:
            with self.subTest(statement=statement):
                self.assert_unproven(self.function(f"\t{statement}\n{use}", before=before))
        with self.subTest(spelling="an enclosing block"):
            self.assert_unproven(self.function(
                f"\tgrab_lower(ops);\n\tif (code) {{\n\t\tv++;\n\t{use}\n\t}}\n\treturn 0;",
                before=before))
        with self.subTest(spelling="at file scope"):
            self.assert_unproven(self.function(
                use, before="#define DECLARE_OPS(p) struct file_operations *p = &shared_fops\n"
                            "DECLARE_OPS(ops);\n"))
        with self.subTest(spelling="several declarators"):
            self.assert_unproven(self.function(
                use, before="#define DECLARE_PAIR(a, b) struct file_operations *a, *b\n"
                            "static struct usb_gadget_ops *ops;\nDECLARE_PAIR(first, ops);\n"))
        with self.subTest(spelling="the parameters' block"):
            self.assert_unproven(self.function(f"\tgrab_lower(gadget);\n\treturn gadget->ops->"
                                               "ioctl(0, code, v); /* here */", before=before))

    def test_a_statement_macro_without_the_name_declares_it(self):
        # hole27: a macro statement that does not name the object among its
        # arguments may still declare it (`SETUP();` expanding to `struct
        # file_operations *ops = ...`), bare or called, directly or through
        # another macro, read or not (default-deny), or pasting its name.
        before = "static struct usb_gadget_ops *ops;\n"
        use = "\treturn ops->ioctl(0, code, v); /* here */"
        for define, statement in [
                ("#define SETUP() struct file_operations *ops = &shared_fops\n", "SETUP();"),
                ("#define SETUP struct file_operations *ops = &shared_fops\n", "SETUP;"),
                ("#define TAKE(x) struct file_operations *ops = x\n", "TAKE(&shared_fops);"),
                ("#define INNER const struct file_operations *ops\n#define SETUP() INNER = 0\n",
                 "SETUP();"),
                ("#define SETUP(n) struct file_operations *n##s = 0\n", "SETUP(op);"),
                ("", "SETUP();"), ("", "again: static SETUP;")]:
            with self.subTest(statement=statement, define=define):
                self.assert_unproven(self.function(f"\t{statement}\n{use}",
                                                   before=before + define))
        with self.subTest(spelling="the parameters' block"):
            self.assert_unproven(self.function(
                "\tSETUP();\n\treturn gadget->ops->ioctl(0, code, v); /* here */",
                before="#define SETUP() struct file_operations *gadget = 0\n"))
        # A macro read whose expansion spells neither the name nor a paste
        # (GNU's `, ## args` pastes nothing), or a function read, is no obstacle.
        for define, statement in [
                ("#define DBG(fmt, args...) note(fmt, ## args)\n", "DBG(\"x\", code);"),
                ("#define LOCK() note(0, 1)\n", "LOCK();"),
                ("#define INNER note(0, 2)\n#define LOCK INNER\n", "LOCK;"),
                ("extern void FASTCALL(grab_it(int n));\n", "grab_it(1);"),
                ("", "note(0, 1);")]:
            with self.subTest(statement=statement, define=define):
                self.assertEqual(self.proven(self.function(
                    f"\t{statement}\n{use}", before=before + define +
                    "static void note(const char *p, int n);\n")), {"usb_gadget_ops"})

    def test_a_macro_call_after_qualifiers_or_a_type_declares_it(self):
        # hole27: `static DECL(ops);` (2.6's `static DEFINE_SPINLOCK(x);`
        # shape) and `struct x PTR(ops);` are macros declaring the name.
        before = ("static struct usb_gadget_ops *ops;\n"
                  "#define DECL(n) struct file_operations *n = 0\n#define PTR(n) *n\n")
        for statement in ["static DECL(ops);", "extern DECL(ops);", "const DECL(ops);",
                          "struct file_operations PTR(ops);", "DECL() ops;",
                          "struct file_operations PTR(ops) = 0;"]:
            with self.subTest(statement=statement):
                self.assert_unproven(self.function(
                    f"\t{{\n\t{statement}\n\treturn ops->ioctl(0, code, v); /* here */\n\t}}",
                    before=before))

    def test_a_declarator_the_flat_reading_misses(self):
        # hole27: grouping parentheses, an attribute, a declarator list after
        # a struct body, a for-init, a function-pointer declarator before it:
        # each declares the name, and none is read: unproven.
        for declaration in ["struct file_operations (*ops);", "struct file_operations (*(ops));",
                            "struct file_operations *(ops[2]);",
                            "struct file_operations x, (*ops) = 0;",
                            "struct file_operations __attribute__((unused)) *ops = 0;",
                            "struct file_operations *(*get)(void), *ops = 0;",
                            "struct file_operations { int (*ioctl)(int); } *ops = 0;",
                            "struct { int (*ioctl)(int); } *ops = 0;"]:
            with self.subTest(declaration=declaration):
                self.assert_unproven(self.function(
                    f"\t{{\n\t{declaration}\n\treturn ops->ioctl(0, 0, code, v); /* here */\n\t}}",
                    "struct usb_gadget_ops *ops"))
        with self.subTest(spelling="a for-init"):
            self.assert_unproven(self.function(
                "\tfor (struct file_operations *ops = &shared_fops; ops; ops = 0)\n"
                "\t\treturn ops->ioctl(0, 0, code, v); /* here */\n\treturn 0;",
                "struct usb_gadget_ops *ops"))
        # A typed parameter list declares nothing in the scope: still proven.
        for declaration in ["int (*hook)(struct usb_gadget_ops *ops, int n);",
                            "void (*done)(int ops), (*more)(void);"]:
            with self.subTest(declaration=declaration):
                self.assertEqual(self.proven(self.function(
                    f"\t{declaration}\n\treturn ops->ioctl(0, code, v); /* here */",
                    "struct usb_gadget_ops *ops")), {"usb_gadget_ops"})

    def test_a_typedef_not_read_along_the_chain(self):
        # hole27: the chain's type name is typedef'd once in a form read and
        # once in one not read (#if/#else), or again inside a block.
        for before, body in [
                ("#ifdef A\ntypedef struct usb_gadget_ops t;\n#else\n"
                 "typedef struct file_operations x, t;\n#endif\n", ""),
                ("#ifdef A\ntypedef struct usb_gadget_ops t;\n#else\n"
                 "typedef struct file_operations t __attribute__((aligned(8)));\n#endif\n", ""),
                ("typedef struct usb_gadget_ops t;\n",
                 "\ttypedef struct file_operations t;\n\tt *o = &shared_fops;\n")]:
            with self.subTest(before=before, body=body):
                self.assert_unproven(self.function(
                    body + "\treturn o->ioctl(0, code, v); /* here */" if body else
                    "\treturn ops->ioctl(0, code, v); /* here */",
                    "t *ops" if not body else "int n", before))
        with self.subTest(spelling="a typedef only naming it as a parameter's type"):
            self.assertEqual(self.proven(self.function(
                "\treturn ops->ioctl(0, code, v); /* here */", "t *ops",
                "typedef struct usb_gadget_ops t;\ntypedef int (*hook_fn)(t *ops, int);\n")),
                {"usb_gadget_ops"})

    def test_a_member_access_in_an_unread_call_declares_nothing(self):
        # No declarator has -> or . after its name, and a macro cannot split
        # its argument's tokens: memcpy(ops->name, ...) (a macro on i386)
        # leaves the declaration read (2.6.9's loop.c, lo->ioctl = xfer->ioctl).
        before = "static struct usb_gadget_ops *ops;\n"
        for statement in ["memcpy(ops->name, src, 8);", "COPY(ops . name, src);",
                          "zap(ops->owner, ops->name);", "again: MEMSET(ops->name, 0, 8);"]:
            with self.subTest(statement=statement):
                self.assertEqual(self.proven(self.function(
                    f"\t{statement}\n\treturn ops->ioctl(0, code, v); /* here */",
                    before=before)), {"usb_gadget_ops"})
        # ... but the bare name beside such a use still may be declared.
        for statement in ["zap(ops->owner, ops);", "zap(ops->owner, *ops);",
                          "zap(ops->owner, (ops));", "zap(ops->owner, ops[1]);",
                          "zap(ops->owner, ops = 0);", "zap(ops.x, ops...);"]:
            with self.subTest(statement=statement):
                self.assert_unproven(self.function(
                    f"\t{statement}\n\treturn ops->ioctl(0, code, v); /* here */",
                    before=before))

    def test_a_call_of_a_function_read_declares_nothing(self):
        # A function whose prototype is read is no macro: its argument is a use.
        before = "static struct usb_gadget_ops *ops;\nstatic void note(const void *p, int n);\n"
        self.assertEqual(self.proven(self.function(
            "\tnote(ops, 1);\n\treturn ops->ioctl(0, code, v); /* here */", before=before)),
            {"usb_gadget_ops"})

    def test_a_kbuild_flag_renames_or_forces_what_was_read(self):
        # The compiler sees the file through the kbuild flags that apply
        # to it; the proof reads the text: a -D/-U naming a step of the
        # chain, a header forced in, or a flag not expanded leaves it unproven.
        use = self.function("\treturn gadget->ops->ioctl(0, code, v); /* here */")
        makefile = "obj-m += x.o\n"
        for rel, flags in [
                ("drivers/x/Makefile", "EXTRA_CFLAGS += -Dusb_gadget_ops=file_operations\n"),
                ("drivers/x/Makefile", "ccflags-y := -D usb_gadget=file_operations\n"),
                ("drivers/x/Makefile", "CFLAGS_x.o += -Dops=f_op\n"),
                ("drivers/x/Makefile", "ccflags-y += -Ugadget\n"),
                ("drivers/x/Kbuild", "EXTRA_CPPFLAGS += '-Dgadget=(*(struct usb_gadget *)&shared_fops)'\n"),
                ("drivers/Makefile", "subdir-ccflags-y += -Dusb_gadget_ops=file_operations\n"),
                ("drivers/x/Makefile", "ccflags-y += -include $(src)/other.h\n"),
                ("drivers/x/Makefile", "ccflags-y += -imacros other.h\n"),
                ("drivers/x/Makefile", "RENAME := -Dusb_gadget_ops=file_operations\n"
                                       "ccflags-y += $(RENAME)\n"),
                ("drivers/x/Makefile", "ccflags-y += $(RENAME_FROM_ELSEWHERE)\n")]:
            with self.subTest(rel=rel, flags=flags):
                self.write({"drivers/Makefile": "obj-y += x/\n", "drivers/x/Makefile": makefile,
                            "drivers/x/Kbuild": ""})
                self.write({rel: (makefile if rel == "drivers/x/Makefile" else "") + flags})
                self.assert_unproven(use)
        self.write({"drivers/x/Kbuild": ""})
        for flags in ["EXTRA_CFLAGS += -DDEBUG -I$(src)\n", "CFLAGS_other.o += -Dops=f_op\n",
                      "ccflags-y += $(call cc-option,-Wno-unused)\n"]:
            with self.subTest(flags=flags, proven=True):
                self.write({"drivers/x/Makefile": makefile + flags})
                self.assertEqual(self.proven(use), {"usb_gadget_ops"})

    def test_what_the_file_alone_says_is_contested(self):
        # contested(): the file declares the object of another structure,
        # but the compiler may see otherwise.
        def contested(text, flags=""):
            self.write({"drivers/x/Makefile": "obj-m += x.o\n" + flags, "drivers/x/x.c": text})
            line = next(n for n, code in enumerate(text.split("\n"), 1) if "/* here */" in code)
            return member_types.contested(member_types.corpus(self.root, "drivers/x/x.c", text),
                                          line)
        use = "\treturn ops->ioctl(0, code, v); /* here */"
        before = "static struct usb_gadget_ops *ops;\n"
        self.assertFalse(contested(self.function(use, before=before)))
        for flags in ["ccflags-y += -Dusb_gadget_ops=file_operations\n",
                      "EXTRA_CFLAGS += -Dops=the_fops\n", "ccflags-y += -include other.h\n",
                      "ccflags-y += $(SOMETHING)\n"]:
            with self.subTest(flags=flags):
                self.assertTrue(contested(self.function(use, before=before), flags))
        with self.subTest(spelling="through a typedef"):
            self.assertTrue(contested(self.function(use, before="static gadget_ops_t *ops;\n"),
                                      "ccflags-y += -Dusb_gadget_ops=file_operations\n"))
        with self.subTest(spelling="a macro call may declare it"):
            self.assertTrue(contested(self.function("\tget_ops(ops);\n" + use, before=before)))

    def test_a_typedef_cycle_ends(self):
        # contested() follows typedefs from the object's type; one that
        # leads back to a spec it followed (2.6.9's `typedef struct
        # ctl_table ctl_table;`) ends there, every name on the way read.
        use = "\treturn ops->ioctl(0, code, v); /* here */"
        renamed = "ccflags-y += -Dusb_gadget_ops=file_operations\n"
        for before in ["typedef struct usb_gadget_ops usb_gadget_ops;\n"
                       "static usb_gadget_ops *ops;\n",
                       "typedef struct usb_gadget_ops usb_gadget_ops;\n"
                       "static struct usb_gadget_ops *ops;\n",
                       "typedef struct usb_gadget_ops gops;\n"
                       "typedef struct gops usb_gadget_ops;\n"
                       "static gops *ops;\n"]:
            text = self.function(use, before=before)
            with self.subTest(before=before, flags=None):
                self.assertFalse(self._contested_in_time(text, ""))
            with self.subTest(before=before, flags=renamed):
                self.assertTrue(self._contested_in_time(text, renamed))

    def _contested_in_time(self, text: str, flags: str) -> bool:
        """contested() on the line marked `/* here */`; a test failure,
        not a hang, when it does not answer within 20 seconds."""
        self.write({"drivers/x/Makefile": "obj-m += x.o\n" + flags, "drivers/x/x.c": text})
        line = next(n for n, code in enumerate(text.split("\n"), 1) if "/* here */" in code)

        def late(*_):
            raise AssertionError("contested() did not end in 20 s")
        previous = signal.signal(signal.SIGALRM, late)
        self.addCleanup(signal.signal, signal.SIGALRM, previous)
        signal.alarm(20)
        try:
            return member_types.contested(member_types.corpus(self.root, "drivers/x/x.c", text),
                                          line)
        finally:
            signal.alarm(0)

    def test_declarations_that_disagree(self):
        # Each alone is proven: which one the compiler sees is not known.
        for other in ("struct usb_gadget_ops *g;", "struct atmphy_ops *g;"):
            self.assertIsNotNone(self.proven(self.function(
                f"\t{other}\n\treturn g->ioctl(0, code, 0); /* here */")))
        body = ("#ifdef CONFIG_A\n\tstruct usb_gadget_ops *g;\n#else\n\tstruct atmphy_ops *g;\n"
                "#endif\n\treturn g->ioctl(0, code, 0); /* here */")
        self.assert_unproven(self.function(body))
        self.assert_unproven(self.function(
            "\treturn the_ops.ioctl(0, code, v); /* here */",
            before="#ifdef A\nstatic struct usb_gadget_ops the_ops;\n#else\n"
                   "static struct file_operations the_ops;\n#endif\n"))

    def test_a_local_in_a_closed_block_is_not_the_one_used(self):
        body = ("\t{\n\t\tstruct usb_gadget *h = 0;\n\t\t(void)h;\n\t}\n"
                "\treturn h->ops->ioctl(0, code, v); /* here */")
        self.assert_unproven(self.function(body, before="static struct file_operations *h;\n"))

    def test_an_earlier_function_with_an_unbalanced_brace_lends_no_local(self):
        # #ifdef/#else each open a brace: the earlier function never closes
        # as braces count, and its local is no declaration of the later use.
        before = ("static struct file_operations *the_ops;\n\n"
                  "static void setup(int a, int b)\n{\n\tstruct usb_gadget_ops *the_ops = 0;\n"
                  "#ifdef CONFIG_A\n\tif (a) {\n#else\n\tif (b) {\n#endif\n"
                  "\t\t(void)the_ops;\n\t}\n}\n\n")
        self.assert_unproven(self.function("\treturn the_ops->ioctl(0, code, v); /* here */",
                                           before=before))

    def test_one_member_of_the_line_unproven(self):
        body = ("\treturn gadget->ops->ioctl ? lower->ioctl(0, 0, code, v) : 0; /* here */")
        self.assert_unproven(self.function(body, before="static struct file_operations *lower;\n"))


if __name__ == "__main__":
    unittest.main()

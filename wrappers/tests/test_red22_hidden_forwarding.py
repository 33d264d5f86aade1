"""Red team red22: forwarding through a converted lower fops that the new
proofs call no forwarding site (exit 0, lower converted, the call left on
the .ioctl member the conversion leaves NULL; on 2.6.36 on, a compile break).

Each class below is a finding, written as the behaviour intended (a
forwarding call is converted, or the run refuses); expectedFailure until
fixed.  Inputs are hand-written 2.6-era drivers: a two-file module whose
lower.c is a legacy fops, whose upper.c forwards to it.
"""

import re
import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase
from tiers import cover

LOWER = """#include <linux/fs.h>
#include "adv.h"

static int lower_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		return 0;
	return -ENOTTY;
}

struct file_operations lower_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= lower_ioctl,
};

struct file *lower_filp;
"""
ADV_H = """extern struct file_operations lower_fops;
extern struct file *lower_filp;
struct my_ops {
	int (*ioctl)(struct inode *, struct file *, unsigned int, unsigned long);
};
"""
UPPER = """#include <linux/fs.h>
#include "adv.h"
%s
static int upper_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	%s
}

static struct file_operations upper_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= upper_ioctl,
};
"""
# A call that still goes through .ioctl after the rewrite is one of these.
_CONVERTED_CALL = re.compile(r"->\s*unlocked_ioctl\s*\(|forward_ioctl\w*\s*\(")
# Before 2.6.36 the call left on .ioctl is a NULL call; from it, a compile break.
TARGETS = ("2.6.11", "2.6.36")


class HiddenForwardingCase(CrossFileCase):
    def write_module(self, upper_top: str, upper_body: str, header: str = "",
                     adv_h: str = ADV_H, kbuild: str = "") -> None:
        self.write({"drivers/adv/lower.c": LOWER,
                    "drivers/adv/adv.h": adv_h + header,
                    "drivers/adv/upper.c": UPPER % (upper_top, upper_body),
                    "drivers/adv/Makefile": "obj-m += adv.o\nadv-objs := lower.o upper.o\n"
                                            + kbuild})

    def assert_forwarding_followed(self, result, rels: tuple[str, ...]) -> None:
        """Lower converted only if the forwarding call was converted too."""
        if self.handler(result, "lower_ioctl").status != HandlerStatus.CONVERTED:
            return
        text = "".join(self.new(result, rel) for rel in rels)
        self.assertRegex(text, _CONVERTED_CALL,
                         "lower_ioctl converted, the call through its fops kept on .ioctl")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MacroDeclaredLocalHidesGlobalTest(HiddenForwardingCase):
    # Finding class: ctext/member_types.py reads a local declared by a
    # function-like macro (lower-case name, or the name not its first
    # argument) as no declaration, so the file-scope `struct my_ops *ops`
    # is taken and `ops->ioctl(...)` -- really through the lower fops --
    # is proven "another structure".
    SPELLINGS = {
        "lower-case macro": ("#define grab_lower(p) struct file_operations *p = &lower_fops\n"
                             "static struct my_ops *ops;\n", "grab_lower(ops);"),
        "name second": ("#define GRAB_OPS(src, p) const struct file_operations *p = &src\n"
                        "static struct my_ops *ops;\n", "GRAB_OPS(lower_fops, ops);"),
        "name last, mixed case": ("#define Grab_Pair(a, p) struct file_operations *a = 0, *p = &lower_fops\n"
                                  "static struct my_ops *ops;\n", "Grab_Pair(spare, ops);"),
    }

    def test_the_forwarding_call_is_converted_or_refused(self):
        # Every spelling, both targets (make check: each spelling at one).
        for target, (spelling, (top, decl)) in cover(TARGETS, self.SPELLINGS.items()):
            with self.subTest(target=target, spelling=spelling):
                self.write_module(top, decl + "\n\treturn ops->ioctl(inode, file, cmd, arg);")
                result = self.run_convert("--target", target)
                self.assert_forwarding_followed(result, ("drivers/adv/upper.c",))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MacroSpelledMemberTest(HiddenForwardingCase):
    # Finding class: convert/macro_bodies.py + ctext/macro_forwarding.py
    # see no ->ioctl in a header macro whose member is pasted (`x##ioctl`)
    # or passed as an argument (`CALL_MEMBER((f)->f_op, ioctl, ...)`):
    # the macro stays, expanding to (f)->f_op->ioctl(...) on a lower fops
    # whose .ioctl is now NULL.
    SPELLINGS = {
        "pasted member": "#define MEMBER(x) x##ioctl\n"
                         "#define FWD(f, c, a) ((f)->f_op->MEMBER()((f)->f_dentry->d_inode, "
                         "(f), (c), (a)))\n",
        "member as argument": "#define CALL_MEMBER(o, m, f, c, a) ((o)->m((f)->f_dentry->d_inode, "
                              "f, c, a))\n"
                              "#define FWD(f, c, a) CALL_MEMBER((f)->f_op, ioctl, f, c, a)\n",
        "pasted from two halves": "#define CAT(a, b) a##b\n"
                                  "#define FWD(f, c, a) ((f)->f_op->CAT(io, ctl)((f)->f_dentry->d_inode, "
                                  "(f), (c), (a)))\n",
        "prefix pasted, lower case": "#define op_of(x) io##x\n"
                                     "#define FWD(f, c, a) ((f)->f_op->op_of(ctl)((f)->f_dentry->d_inode, "
                                     "(f), (c), (a)))\n",
        "member by an object-like macro": "#define THE_MEMBER ioctl\n"
                                          "#define FWD(f, c, a) ((f)->f_op->THE_MEMBER((f)->f_dentry->d_inode, "
                                          "(f), (c), (a)))\n",
        "through a second macro": "#define MEMBER(x) x##ioctl\n"
                                  "#define CALL(o, f, c, a) ((o)->MEMBER()((f)->f_dentry->d_inode, f, c, a))\n"
                                  "#define FWD(f, c, a) CALL((f)->f_op, f, c, a)\n",
    }

    def test_the_forwarding_macro_is_rewritten_or_refused(self):
        for target, (spelling, macros) in cover(TARGETS, self.SPELLINGS.items()):
            with self.subTest(target=target, spelling=spelling):
                self.write_module("", "return FWD(lower_filp, cmd, arg);", macros)
                result = self.run_convert("--target", target)
                self.assert_forwarding_followed(
                    result, ("drivers/adv/adv.h", "drivers/adv/upper.c"))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class KbuildDefineRenamesTagTest(HiddenForwardingCase):
    # Finding class: ctext/member_types.py reads the macros of the file and
    # its headers, not the directory's kbuild -D flags: with
    # `-Dmy_ops=file_operations` the compiler sees struct file_operations
    # (the header's own body of my_ops under #ifndef my_ops is skipped),
    # the proof sees struct my_ops.
    GUARDED_H = ADV_H.replace("struct my_ops {", "#ifndef my_ops\nstruct my_ops {") + "#endif\n"

    def test_the_forwarding_call_is_converted_or_refused(self):
        for target, flags in cover(TARGETS, ("EXTRA_CFLAGS += -Dmy_ops=file_operations\n",
                                             "ccflags-y := -D my_ops=file_operations\n",
                                             "CFLAGS_upper.o += -Dmy_ops=file_operations\n",
                                             "parent: subdir-ccflags-y += -Dmy_ops=file_operations\n")):
            with self.subTest(target=target, flags=flags):
                parent = flags.startswith("parent: ")
                self.write_module("static struct my_ops *ops = (struct my_ops *)&lower_fops;\n",
                                  "return ops->ioctl(inode, file, cmd, arg);",
                                  adv_h=self.GUARDED_H, kbuild="" if parent else flags)
                self.write({"drivers/Makefile": "obj-m += adv/\n"
                            + (flags[len("parent: "):] if parent else "")})
                result = self.run_convert("--target", target)
                self.assert_forwarding_followed(result, ("drivers/adv/upper.c",))


if __name__ == "__main__":
    unittest.main()

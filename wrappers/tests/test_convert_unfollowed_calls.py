"""convert: a call through another file's fops that the forwarding rule
does not follow leaves the run unwritten (never half-written).

The red team's red_xdot: one file of a module calls the other's handler
through its fops object by value, `xd_core_fops.ioctl(inode, file, cmd,
arg)`.  Converting the core leaves that .ioctl NULL, so the front's every
forwarded command would fail: no file of the run may be written, and the
failure names the call site (its function, no fops: it is no entry).
Spellings: by value, by value through an array element, and through the
address of the object; in auto and with the wrapper strategy.
"""

import re
import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase
from tiers import cover

CORE = """#include <linux/fs.h>
#include "xd.h"

static int xd_armed;

static int xd_core_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	if (cmd == 1) {
		xd_armed = 1;
		return 0;
	}
	return -ENOTTY;
}

struct file_operations %s = {
	.owner	= THIS_MODULE,
	.ioctl	= xd_core_ioctl,
};
"""
HEADER = "extern struct file_operations %s;\n"
FRONT = """#include <linux/fs.h>
#include "xd.h"

static int xd_front_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	if (cmd == 5)
		return 5;
	return %s(inode, file, cmd, arg);
}

static struct file_operations xd_front_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= xd_front_ioctl,
};
"""
# (the object the core defines, the call the front makes through it)
SPELLINGS = {
    "by value": ("xd_core_fops", "xd_core_fops.ioctl"),
    "an array element": ("xd_ops[2]", "xd_ops[1].ioctl"),
    "a parenthesised pointer": ("xd_core_fops", "(&xd_core_fops)->ioctl"),
}
BY_VALUE = ("by value", "an array element")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class UnfollowedCallTest(CrossFileCase):
    def write_tree(self, spelling: str) -> None:
        defined, call = SPELLINGS[spelling]
        core = CORE % defined
        if "[" in defined:
            core = core.replace("\t.owner\t= THIS_MODULE,\n\t.ioctl\t= xd_core_ioctl,\n",
                                "\t[1] = { .owner = THIS_MODULE, .ioctl = xd_core_ioctl, },\n")
        self.write({"drivers/adv/xd_core.c": core,
                    "drivers/adv/xd.h": HEADER % re.sub(r"\[\d+\]", "[]", defined),
                    "drivers/adv/xd_front.c": FRONT % call,
                    "drivers/adv/Makefile": "obj-m += xd.o\nxd-objs := xd_core.o xd_front.o\n"})

    def test_a_call_by_value_leaves_every_file_unwritten_and_names_its_site(self):
        for strategy, spelling in cover(("auto", "wrapper"), BY_VALUE):
            with self.subTest(strategy=strategy, spelling=spelling):
                self.write_tree(spelling)
                result = self.run_convert("--strategy", strategy)
                self.assertEqual(result.changes, {})
                site = [h for h in result.summary.handlers
                        if h.file == "drivers/adv/xd_front.c" and h.line == 9]
                self.assertEqual(len(site), 1, result.summary.handlers)
                self.assertEqual((site[0].fops, site[0].handler, site[0].status),
                                 ("?", "xd_front_ioctl", HandlerStatus.FAILED))
                self.assertRegex(site[0].reason, r"^a call through \.ioctl \(`[^`]*"
                                 + re.escape(SPELLINGS[spelling][1]) + r"\(inode, file, "
                                 r"cmd, arg\);`\), which the forwarding rule does not follow")
                core = self.handler(result, "xd_core_ioctl")
                self.assertEqual(core.status, HandlerStatus.FAILED)
                self.assertIn("drivers/adv/xd_front.c:9 (xd_front_ioctl)", core.reason)
                self.assertTrue(result.failed)

    def test_no_spelling_is_half_written(self):
        for spelling in SPELLINGS:
            with self.subTest(spelling=spelling):
                self.write_tree(spelling)
                result = self.run_convert()
                if not result.changes:
                    continue
                # Followed: the core converted, the front calls what it now has.
                front = self.new(result, "drivers/adv/xd_front.c")
                self.assertNotRegex(front, r"(\.|->)\s*ioctl\s*\)?\s*\(")
                self.assertIn("unlocked_ioctl(file, cmd, arg)", front)


# A 2.6-era driver that calls through the ioctl of another structure, whose
# struct the tree's <linux/widget.h> or the driver's "wctl.h" declares.
WIDGET_H = """#ifndef _LINUX_WIDGET_H
#define _LINUX_WIDGET_H
struct widget;
struct widget_ops {
	int	(*reset)(struct widget *);
	int	(*ioctl)(struct widget *, unsigned int, unsigned long);
};
struct widget {
	%s	*ops;
	int	minor;
};
extern struct widget_ops widget_default_ops;
#endif
"""
WCTL = """#include <linux/fs.h>
#include <linux/module.h>
#include %s

#define WCTL_RESET	0x5701

static struct widget *wctl_widget;

static int wctl_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
%s
}

static struct file_operations wctl_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= wctl_ioctl,
};
"""
# The handler's body, each reaching the widget's ioctl another way.
WIDGET_CALLS = {
    "a local": "\tstruct widget *w = wctl_widget;\n\n\tif (cmd == WCTL_RESET)\n\t\treturn 0;\n"
               "\tif (!w->ops->ioctl)\n\t\treturn -ENOTTY;\n\treturn w->ops->ioctl(w, cmd, arg);",
    "a file-scope pointer": "\tif (cmd == WCTL_RESET)\n\t\treturn 0;\n"
                            "\treturn wctl_widget->ops->ioctl(wctl_widget, cmd, arg);",
    # As block_device_operations' ioctl, it takes the inode and the file.
    "an inode passed": "\tif (cmd == WCTL_RESET)\n\t\treturn 0;\n"
                       "\treturn wctl_widget->ops->ioctl(inode, file, cmd, arg);",
    "by value, extern in the header": "\tif (cmd == WCTL_RESET)\n\t\treturn 0;\n"
                                      "\treturn widget_default_ops.ioctl(wctl_widget, cmd, arg);",
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class OtherStructureCallTest(CrossFileCase):
    """A call through another structure's ioctl, proven from the struct the
    headers declare, denies nothing: the driver's own fops converts."""

    def write_tree(self, calls: str, ops: str, quoted: bool) -> None:
        header = WIDGET_H % ops
        self.write({"drivers/char/wctl.c": WCTL % ('"wctl.h"' if quoted else "<linux/widget.h>",
                                                   WIDGET_CALLS[calls]),
                    "drivers/char/wctl.h" if quoted else "include/linux/widget.h": header,
                    "drivers/char/Makefile": "obj-m += wctl.o\n"})

    def test_the_fops_converts(self):
        # Each call spelling once, the header included both ways (make test: all).
        for quoted, calls in cover((False, True), WIDGET_CALLS):
            with self.subTest(calls=calls, quoted=quoted):
                self.write_tree(calls, "const struct widget_ops", quoted)
                result = self.run_convert()
                self.assertFalse(result.failed, result.summary.handlers)
                record = self.handler(result, "wctl_ioctl")
                self.assertEqual(record.status, HandlerStatus.CONVERTED, record.reason)
                self.assertEqual([h for h in result.summary.handlers if h.fops == "?"], [])
                new = self.new(result, "drivers/char/wctl.c")
                self.assertRegex(new, r"\.unlocked_ioctl\s*= wctl_ioctl,")
                self.assertNotRegex(new, r"\.ioctl\s*=")
                if calls == "an inode passed":
                    # Accounted for in the run's words: no file_operations.
                    self.assertIn(("drivers/char/wctl.c", "other-structure"),
                                  {(t.file, t.kind) for t in result.summary.tokens
                                   if "struct widget_ops" in t.reason})
                # The other structure's call is left as it is.
                self.assertEqual(new.count("->ioctl") + new.count(".ioctl("),
                                 WIDGET_CALLS[calls].count("->ioctl")
                                 + WIDGET_CALLS[calls].count(".ioctl("))

    def test_a_member_that_is_a_file_operations_still_denies_the_run(self):
        for ops, calls in cover(("const struct file_operations", "struct undeclared_ops"),
                                ("a local", "a file-scope pointer")):
            with self.subTest(calls=calls, ops=ops):
                self.write_tree(calls, ops, False)
                result = self.run_convert()
                self.assertTrue(result.failed)
                self.assertEqual(result.changes, {})
                self.assertNotEqual(self.handler(result, "wctl_ioctl").status,
                                    HandlerStatus.CONVERTED)


if __name__ == "__main__":
    unittest.main()

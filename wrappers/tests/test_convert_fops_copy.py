"""convert: the records of a file_operations copied at run time (red33's
fops_copy class) are exact: every legacy entry is converted, removed,
cleared or listed with its reason, once, never two of these.

Spellings of the copy: a struct assignment (`one = base;`), memcpy, a
pointer's `*ops = base;` in a helper.  After it, a handler assigned
(converted), NULL assigned (cleared to `.unlocked_ioctl = NULL`: the copy
carries the converted base's .unlocked_ioctl, and removing the NULL would
let the copy answer with base's handler), a parameter of the helper
assigned (listed, naming what the calls pass).  With --compat the copied
base gets no .compat_ioctl: a copy whose own handler is another would
answer 32-bit callers with base's."""

import re
import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

DRIVER = """#include <linux/module.h>
#include <linux/fs.h>
#include <linux/string.h>

static int cp_a_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static int cp_b_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == 2 ? 0 : -ENOTTY;
}

static int cp_c_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == 3 ? 0 : -ENOTTY;
}

static struct file_operations cp_base_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= cp_a_ioctl,
};

static struct file_operations cp_one_fops;
static struct file_operations cp_two_fops;
static struct file_operations cp_four_fops;

static void cp_set(struct file_operations *fops,
		   int (*fn)(struct inode *, struct file *, unsigned int, unsigned long))
{
	*fops = cp_base_fops;
	fops->ioctl = fn;
}

static void cp_quiet(struct file_operations *fops)
{
	*fops = cp_base_fops;
	fops->ioctl = NULL;
}

static int __init cp_init(void)
{
	%s
	cp_set(&cp_four_fops, cp_c_ioctl);
	cp_quiet(&cp_four_fops);
	return 0;
}
module_init(cp_init);
MODULE_LICENSE("GPL");
"""
COPIES = {
    "struct assignment": "cp_one_fops = cp_base_fops;\n\tcp_one_fops.ioctl = cp_b_ioctl;\n"
                         "\tcp_two_fops = cp_base_fops;\n\tcp_two_fops.ioctl = NULL;",
    "memcpy": "memcpy(&cp_one_fops, &cp_base_fops, sizeof(cp_one_fops));\n"
              "\tcp_one_fops.ioctl = cp_b_ioctl;\n"
              "\tmemcpy(&cp_two_fops, &cp_base_fops, sizeof(cp_two_fops));\n"
              "\tcp_two_fops.ioctl = NULL;",
    "through a pointer": "(&cp_one_fops)->ioctl = cp_b_ioctl;\n\t(&cp_two_fops)->ioctl = NULL;",
}


def line_of(text: str, piece: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if piece in line)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class FopsCopyTest(CrossFileCase):
    def test_every_entry_of_a_copied_fops_is_recorded_once(self):
        for spelling, copies in COPIES.items():
            with self.subTest(spelling=spelling):
                text = DRIVER % copies
                self.write({"drivers/char/cp.c": text,
                            "drivers/char/Makefile": "obj-m += cp.o\n"})
                result = self.run_convert("--target", "2.6.20", "--no-compat",
                                          "--no-kernel-headers")
                summary = result.summary
                new = self.new(result, "drivers/char/cp.c")
                handlers = {(h.line, h.handler): h for h in summary.handlers}
                changes = {(c.line, c.kind) for c in summary.changes}
                base, one = line_of(text, ".ioctl\t= cp_a_ioctl"), line_of(text, "cp_b_ioctl;")
                param = line_of(text, "fops->ioctl = fn;")
                two = line_of(text, "two_fops.ioctl = NULL;" if spelling != "through a pointer"
                              else "(&cp_two_fops)->ioctl = NULL;")
                quiet = line_of(text, "fops->ioctl = NULL;")
                self.assertEqual(handlers[(base, "cp_a_ioctl")].status, HandlerStatus.CONVERTED)
                self.assertEqual(handlers[(one, "cp_b_ioctl")].status, HandlerStatus.CONVERTED)
                listed = handlers[(param, "fn")]
                self.assertEqual(listed.status, HandlerStatus.SKIPPED)
                self.assertIn("whatever its callers pass (here: cp_c_ioctl (line "
                              f"{line_of(text, 'cp_set(&cp_four_fops')}))", listed.reason)
                # The NULLs are cleared: changes, not entries.
                self.assertEqual({(n, k) for n, k in changes if k == "cleared-entry"},
                                 {(two, "cleared-entry"), (quiet, "cleared-entry")})
                self.assertFalse({two, quiet} & {n for n, _ in handlers})
                self.assertIn("cp_two_fops.unlocked_ioctl = NULL;"
                              if spelling != "through a pointer" else
                              "(&cp_two_fops)->unlocked_ioctl = NULL;", new)
                self.assertIn("\tfops->unlocked_ioctl = NULL;", new)
                # Nothing is both recorded as an entry and as a change, and
                # every legacy member left in the code is a listed entry.
                self.assertFalse({n for n, _ in handlers} & {n for n, _ in changes})
                left = [line for line in new.split("\n")
                        if re.search(r"(\.|->)\s*ioctl\b", line)]
                self.assertEqual(left, ["\tfops->ioctl = fn;"])
                self.assertEqual(summary.tokens, [])

    def test_with_compat_a_copied_base_gets_no_compat_ioctl(self):
        text = DRIVER % COPIES["struct assignment"]
        self.write({"drivers/char/cp.c": text, "drivers/char/Makefile": "obj-m += cp.o\n"})
        result = self.run_convert("--target", "2.6.20", "--compat", "--no-kernel-headers")
        self.assertNotIn("compat_ioctl = cp_a_ioctl", self.new(result, "drivers/char/cp.c"))
        record = self.handler(result, "cp_a_ioctl")
        self.assertIn("cp_base_fops is copied at run time (line "
                      f"{line_of(text, '*fops = cp_base_fops;')}: `*fops = cp_base_fops;`): "
                      "the copy would carry the .compat_ioctl", record.compat)


if __name__ == "__main__":
    unittest.main()

"""convert: a legacy entry set to a parameter of the function it is in
(`fops->ioctl = handler;` in a helper that takes the handler, red33's
red33_fops_copy) is listed with that reason, not as a handler whose
definition was not found.

The value is whatever the helper's callers pass; the run does not follow
it, so the entry is left alone and said so, with the helper and the line.
Spellings: a pointer to function parameter written out, a typedef'd one in
the first position, and the member reached as (*fops).ioctl.
"""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

DRIVER = """#include <linux/fs.h>
#include <linux/module.h>

typedef int (*pe_ioctl_t)(struct inode *, struct file *, unsigned int, unsigned long);

static int pe_data_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static struct file_operations pe_base_fops = {
	.owner	= THIS_MODULE,
};

static struct file_operations pe_fops;

%s

static int __init pe_init(void)
{
	pe_make(%s);
	return 0;
}
"""
# (the helper, the call that feeds it, the parameter's name)
SPELLINGS = {
    "written out": (
        "static void pe_make(struct file_operations *fops,\n"
        "\t\t    int (*handler)(struct inode *, struct file *,\n"
        "\t\t\t\t   unsigned int, unsigned long))\n"
        "{\n\t*fops = pe_base_fops;\n\tfops->ioctl = handler;\n}",
        "&pe_fops, pe_data_ioctl", "handler"),
    "typedef first": (
        "static void pe_make(pe_ioctl_t fn, struct file_operations *fops)\n"
        "{\n\t*fops = pe_base_fops;\n\tfops->ioctl = fn;\n}",
        "pe_data_ioctl, &pe_fops", "fn"),
    "(*fops).ioctl": (
        "static void pe_make(struct file_operations *fops, pe_ioctl_t h)\n"
        "{\n\t*fops = pe_base_fops;\n\t(*fops).ioctl = h;\n}",
        "&pe_fops, pe_data_ioctl", "h"),
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ParameterEntryTest(CrossFileCase):
    def test_the_entry_is_listed_as_a_parameter_of_its_function(self):
        for spelling, (helper, args, param) in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                text = DRIVER % (helper, args)
                self.write({"drivers/char/pe.c": text})
                result = self.run_convert()
                line = next(n for n, t in enumerate(text.split("\n"), 1)
                            if "ioctl = " + param + ";" in t)
                call = next(n for n, t in enumerate(text.split("\n"), 1) if "\tpe_make(" in t)
                record = self.handler(result, param, "drivers/char/pe.c")
                self.assertEqual((record.line, record.status), (line, HandlerStatus.SKIPPED))
                self.assertEqual(record.reason,
                                 f"{param} is a parameter of pe_make() (drivers/char/pe.c:"
                                 f"{line}): the entry is set to whatever its callers pass "
                                 f"(here: pe_data_ioctl (line {call})), which the run does "
                                 "not follow; left alone; convert it by hand")
                self.assertNotIn("drivers/char/pe.c", result.changes)


if __name__ == "__main__":
    unittest.main()

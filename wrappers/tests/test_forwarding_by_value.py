"""convert: a call through the ioctl of a file_operations by value that the
file itself declares follows the conversion (f_op_ioctl_forwarding.cocci).

bench/adversarial red_fops_index_array: a control node reaches a port's
handler through an array of fops by value, `ports[arg % 3].ioctl(inode,
file, cmd, 0)`.  The rule matched only calls through a pointer, so the
call was unfollowed and the run denied.  Now, where the target still has
.ioctl (2.6.11 .. 2.6.35) the call goes through the forwarding helper
with the object's address; from 2.6.36 it calls ->unlocked_ioctl.  A call
that passes NULL as its file stays refused, in words that say so
(red_fwd_init_call), and one through an object declared in a header the
rule does not read stays refused (test_convert_unfollowed_calls).
Spellings: an array element by a computed index, a plain object, a
struct member by value, a dereferenced call.
"""

import re
import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

DRIVER = """#include <linux/fs.h>

struct card {
	int id;
	struct file_operations fops;
};

static struct card the_card;

static int port_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 2 : -ENOTTY;
}

static struct file_operations %(object)s = {
	%(entries)s
};

static int ctl_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	if (cmd != 7)
		return -ENOTTY;
	return %(call)s;
}

static struct file_operations ctl_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= ctl_ioctl,
};
"""
ONE = ".owner = THIS_MODULE,\n\t.ioctl = port_ioctl,"
ARRAY = ("[0] = { .owner = THIS_MODULE, .ioctl = port_ioctl },\n"
         "\t[1] = { .owner = THIS_MODULE, .ioctl = port_ioctl },")
# (object, its entries, the call, the object whose address the helper gets)
SPELLINGS = {
    "an array element": ("ports[2]", ARRAY, "ports[arg %% 2].ioctl(inode, file, 1, 0) * 10",
                         "&ports[arg %% 2]"),
    "a plain object": ("port_fops", ONE, "port_fops.ioctl(inode, file, 1, arg)", "&port_fops"),
    "dereferenced": ("port_fops", ONE, "(*port_fops.ioctl)(inode, file, 1, arg)",
                     "&port_fops"),
    "a member by value": ("port_fops", ONE,
                          "the_card.fops.ioctl(inode, file, 1, arg)", "&the_card.fops"),
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ByValueTest(CrossFileCase):
    def convert(self, spelling: str, target: str):
        object_, entries, call, _ = SPELLINGS[spelling]
        self.write({"drivers/adv/ports.c": DRIVER % {
            "object": object_, "entries": entries, "call": call.replace("%%", "%")}})
        return self.run_convert("--target", target)

    def assert_converted(self, result) -> str:
        self.assertFalse(result.failed, result.summary.handlers)
        self.assertTrue(all(h.status is HandlerStatus.CONVERTED
                            for h in result.summary.handlers), result.summary.handlers)
        self.assertEqual([c.line for c in result.summary.changes if c.kind == "forwarded-call"],
                         [26])
        return self.new(result, "drivers/adv/ports.c")

    def test_a_target_with_ioctl_hands_the_objects_address_to_the_helper(self):
        for spelling, (_, _, _, address) in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                text = self.assert_converted(self.convert(spelling, "2.6.11"))
                helper = re.search(r"^static int (\w+)\(const struct file_operations \*fops",
                                   text, re.M)
                self.assertIsNotNone(helper, text)
                self.assertIn(f"{helper[1]}({address.replace('%%', '%')}, inode, file, 1, ",
                              text)
                # The helper's own fallback is the one legacy call left.
                self.assertEqual(len(re.findall(r"\.\s*ioctl\s*\)?\s*\(|->\s*ioctl\s*\(",
                                                text)), 1, text)

    def test_a_target_without_ioctl_calls_unlocked_ioctl(self):
        for spelling, (_, _, call, _) in SPELLINGS.items():
            with self.subTest(spelling=spelling):
                text = self.assert_converted(self.convert(spelling, "2.6.36"))
                self.assertNotRegex(text, r"\.\s*ioctl\s*\)?\s*\(")
                self.assertRegex(text, r"\(int\)[\w.\[\] %]+\.unlocked_ioctl\(file, 1, ")

    def test_null_as_the_file_stays_refused_in_words(self):
        self.write({"drivers/adv/ports.c": (DRIVER % {
            "object": "port_fops", "entries": ONE, "call": "port_fops.ioctl(inode, file, 1, 0)"})
            + "\nstatic int __init ports_init(void)\n{\n"
              "\treturn port_fops.ioctl(NULL, NULL, 1, 0);\n}\n"})
        for target in ("2.6.11", "2.6.36"):
            with self.subTest(target=target):
                result = self.run_convert("--target", target)
                self.assertEqual(result.changes, {})
                site = [h for h in result.summary.handlers if h.handler == "ports_init"]
                self.assertEqual([(h.line, h.status) for h in site],
                                 [(36, HandlerStatus.FAILED)])
                self.assertIn("passes NULL as its inode and NULL as its file", site[0].reason)
                self.assertNotIn("the inode of NULL", site[0].reason)


if __name__ == "__main__":
    unittest.main()

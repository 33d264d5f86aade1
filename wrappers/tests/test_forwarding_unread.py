"""convert/forwarding.py: a file the forwarding rule cannot read (spatch
cannot parse it, as it cannot 2.6.9's drivers/atm/eni.c) is refused
whole, unless every call, test or copy of a member named ioctl in its
text is proven to be of another structure (ctext/member_types.py): then
it has nothing to forward and denies nothing.

spatch's answer is made here (a parse error), so what is tested is the
decision alone; the texts are 2.6-era ATM and gadget drivers in a tree
whose headers declare the structures.
"""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import forwarding
from ioctl_rework.spatch import runner as spatch

ATMDEV_H = """struct atm_dev;
struct atmphy_ops {
	int (*start)(struct atm_dev *dev);
	int (*ioctl)(struct atm_dev *dev,unsigned int cmd,void __user *arg);
};
struct atm_dev {
	const struct atmphy_ops *phy;	/* PHY operations, may be undefined */
	const struct file_operations *fops;
	int number;
};
"""
DRIVER = """#include <linux/fs.h>
#include <linux/atmdev.h>

static int eni_ioctl(struct atm_dev *dev,unsigned int cmd,void __user *arg)
{
	if (cmd == 1)
		return 0;
%s
}
"""
# What the handler does with the PHY's ioctl: every use of another structure.
PROVEN = {
    "a call and its test": "\tif (!dev->phy->ioctl) return -ENOIOCTLCMD;\n"
                           "\treturn dev->phy->ioctl(dev,cmd,arg);",
    "a copy": "\tint (*fn)(struct atm_dev *, unsigned int, void __user *) = dev->phy->ioctl;\n"
              "\treturn fn ? fn(dev,cmd,arg) : -EINVAL;",
    "a call in parentheses": "\treturn (*dev->phy->ioctl)(dev,cmd,arg);",
}
# Uses the proof cannot read: the file stays refused.
UNPROVEN = {
    "a file_operations member": "\treturn dev->fops->ioctl(NULL, NULL, cmd, (unsigned long)arg);",
    "a cast": "\treturn ((struct atmphy_ops *)dev->phy)->ioctl(dev,cmd,arg);",
    "a macro of the file": "#define PHY_OPS(d) ((d)->phy)\n\treturn PHY_OPS(dev)->ioctl(dev,cmd,arg);",
    "an undeclared object": "\treturn phy_table->ioctl(dev,cmd,arg);",
    # hole27: the object declared again, unseen, in the handler's block.
    "a macro statement not naming it": "\t{\n\tLOWER_DEV();\n\treturn dev->phy->ioctl(dev,cmd,arg);\n\t}",
    "a qualified macro declaring it": "\t{\n\tstatic DEV_OF(dev);\n"
                                      "\treturn dev->phy->ioctl(dev,cmd,arg);\n\t}",
    "a declarator in parentheses": "\t{\n\tstruct lower_dev (*dev) = lower;\n"
                                   "\treturn dev->phy->ioctl(dev,cmd,arg);\n\t}",
}
REL = "drivers/atm/eni.c"


class UnreadFileTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="forwarding-unread-"))
        self.addCleanup(shutil.rmtree, self.root)
        for rel, text in {"Makefile": "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n",
                          "include/linux/atmdev.h": ATMDEV_H,
                          "drivers/atm/Makefile": "obj-m += eni.o\n"}.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)

    def forward(self, body: str) -> forwarding.Forwarded:
        text = (DRIVER % body).encode()
        (self.root / REL).write_bytes(text)
        unread = spatch.SpatchResult(Path(REL), spatch.Outcome.PARSE_ERROR, "", "", 0.0, (4,))
        with mock.patch.object(forwarding, "_cached_run", return_value=unread):
            return forwarding.forward({REL: (text, text)}, False, 60, root=self.root)

    def test_every_use_of_another_structure_denies_nothing(self):
        for what, body in PROVEN.items():
            with self.subTest(what=what):
                done = self.forward(body)
                self.assertEqual((done.refused, done.listed, done.changes, done.texts),
                                 ([], [], [], {}))
                self.assertEqual(forwarding.denied(done, [REL]), {})

    def test_one_use_not_proven_refuses_the_file(self):
        for what, body in UNPROVEN.items():
            for proven in ("", PROVEN["a call and its test"].split("\n")[0] + "\n"):
                with self.subTest(what=what, beside=bool(proven)):
                    done = self.forward(proven + body)
                    self.assertEqual([(r.file, r.line) for r in done.refused], [(REL, 1)])
                    self.assertTrue(done.refused[0].reason.startswith(
                        "the forwarding rule could not read the file "
                        "(spatch could not parse the code around line 4)"))
                    self.assertIn(REL, forwarding.denied(done, [REL]))

    def test_without_the_header_nothing_is_proven(self):
        (self.root / "include/linux/atmdev.h").unlink()
        done = self.forward(PROVEN["a call and its test"])
        self.assertEqual([(r.file, r.line) for r in done.refused], [(REL, 1)])


if __name__ == "__main__":
    unittest.main()

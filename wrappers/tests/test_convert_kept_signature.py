"""A handler also held in a function pointer of its old signature (the
shape of bench/adversarial red_mx_init_ptr): under the BKL it takes the
wrapper that keeps its signature and passes the inode, as the VFS did;
pushdown, the private mutex and a name in another file keep refusing it.
Drivers written here, one spelling of the pointer each."""

import os
import re
import shutil
import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_forwarding import ConvertRun, tearDownModule  # noqa: F401 (its cache goes with it)

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

DRIVER = """#include <linux/module.h>
#include <linux/fs.h>
#include <asm/io.h>
%(before)s
static int %(name)s_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn cmd == 1 ? inb(0x308) : -ENOTTY;
}
%(table)s
static struct file_operations %(name)s_fops = {
\t.owner\t= THIS_MODULE,
\t.ioctl\t= %(name)s_ioctl,
};

static int __init %(name)s_init(void)
{
%(init)s}
module_init(%(name)s_init);
"""

SPELLINGS = {
    # pointer declared, then assigned
    "later": {"before": "", "table": "", "init": (
        "\tint (*probe)(struct inode *, struct file *, unsigned int, unsigned long);\n\n"
        "\tprobe = later_ioctl;\n\treturn probe(NULL, NULL, 1, 0) < 0 ? -ENODEV : 0;\n")},
    # pointer initialised
    "init": {"before": "", "table": "", "init": (
        "\tint (*probe)(struct inode *, struct file *, unsigned int,\n"
        "\t\t     unsigned long) = init_ioctl;\n\n\treturn probe(NULL, NULL, 1, 0);\n")},
    # a typedef'd pointer type
    "typed": {"before": "\ntypedef int (*typed_op_t)(struct inode *, struct file *,\n"
                        "\t\t\t  unsigned int, unsigned long);\n",
              "table": "", "init": "\ttyped_op_t op = typed_ioctl;\n\n"
                                   "\treturn op(NULL, NULL, 1, 0);\n"},
    # an array of pointers
    "table": {"before": "", "table": (
        "\nstatic int (*table_ops[])(struct inode *, struct file *, unsigned int,\n"
        "\t\t\t  unsigned long) = { table_ioctl };\n"),
        "init": "\treturn table_ops[0](NULL, NULL, 1, 0);\n"},
}


def driver(name: str) -> str:
    return DRIVER % dict(SPELLINGS[name], name=name)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class KeptSignatureTest(ConvertRun):

    def statuses(self, result):
        return {h.handler: (h.status, h.reason) for h in result.summary.handlers}

    def test_every_spelling_takes_the_wrapper_that_keeps_the_signature(self):
        files = {name + ".c": driver(name) for name in SPELLINGS}
        for argv in (["--target", "2.6.20"], ["--target", "2.6.20", "--strategy", "wrapper"]):
            with self.subTest(argv=argv):
                result = self.run_convert(files, *argv)
                self.assertFalse(result.failed)
                for name in SPELLINGS:
                    status, reason = self.statuses(result)[name + "_ioctl"]
                    self.assertIs(status, HandlerStatus.CONVERTED, reason)
                    old, new = (t.decode() for t in result.changes[name + ".c"])
                    # The handler and every use of it are as they were.
                    self.assertIn(f"static int {name}_ioctl(struct inode *inode, "
                                  "struct file *file,", new)
                    for line in old.split("\n"):
                        if re.search(rf"\b{name}_ioctl\b", line) and ".ioctl" not in line:
                            self.assertIn(line, new.split("\n"))
                    self.assertIn(f"\tlock_kernel();\n\tret = {name}_ioctl("
                                  "file->f_path.dentry->d_inode, file, cmd, arg);\n"
                                  "\tunlock_kernel();\n", new)
                    self.assertIn(f".unlocked_ioctl = {name}_unlocked_ioctl,", new)

    def test_pushdown_and_the_mutex_refuse_it(self):
        files = {name + ".c": driver(name) for name in SPELLINGS}
        for argv, why in ((["--target", "2.6.20", "--strategy", "pushdown"],
                           "also used with its old signature at line"),
                          (["--target", "2.6.20", "--lock", "mutex"],
                           "runs the body without the private mutex")):
            with self.subTest(argv=argv):
                result = self.run_convert(files, *argv)
                self.assertEqual(result.changes, {})
                for name in SPELLINGS:
                    status, reason = self.statuses(result)[name + "_ioctl"]
                    self.assertIsNot(status, HandlerStatus.CONVERTED)
                    self.assertIn(why, reason)

    def test_a_name_in_another_file_refuses_it(self):
        # Another file calls it through a prototype of a header: the rule
        # would give that prototype the new signature; nothing is written.
        header = "int later_ioctl(struct inode *, struct file *, unsigned int, unsigned long);\n"
        user = ('#include <linux/fs.h>\n#include "later.h"\n\n'
                "int later_poke(struct file *f)\n{\n"
                "\treturn later_ioctl(f->f_path.dentry->d_inode, f, 1, 0);\n}\n")
        text = driver("later").replace("static int later_ioctl(", "int later_ioctl(")
        result = self.run_convert({"later.c": text, "later.h": header, "poke.c": user},
                                  "--target", "2.6.20")
        status, reason = self.statuses(result)["later_ioctl"]
        self.assertIsNot(status, HandlerStatus.CONVERTED)
        self.assertIn("names it too", reason)
        self.assertNotIn("later.c", result.changes)


if __name__ == "__main__":
    unittest.main()

"""convert: a caller of the handler's own file that passes NULL as the inode.

Upstream dropped the argument where the handler never used its inode;
convert refused every such handler before the rule was asked (issue 22,
the adversarial measure's adv_null_inode).  The rule reads the call of
its own file: a handler that never uses its inode is converted and the
call loses the argument; one that uses it is refused with the line.  A
caller in another file is still refused everywhere (test_convert_crossfile).
"""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from test_convert import ConvertCase

NULLS = ("NULL", "0", "(struct inode *)NULL", "(void *) 0")


def driver(passed: str, body: str = "\treturn cmd == 1 ? 0 : -ENOTTY;\n") -> bytes:
    return ("#include <linux/fs.h>\n\n"
            "static int ni_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t    unsigned int cmd, unsigned long arg)\n{\n" + body + "}\n\n"
            "static struct file_operations ni_fops = {\n\t.ioctl\t= ni_ioctl,\n};\n\n"
            "static int __init ni_init(void)\n{\n"
            f"\treturn ni_ioctl({passed}, NULL, 1, 100);\n}}\n").encode()


class NullInodeTest(ConvertCase):
    def convert_file(self, text: bytes, *argv: str):
        path = self.tree / "drivers/char/ni.c"
        path.write_bytes(text)
        result = self.run_convert("--in-place", *argv, paths=[path])
        [record] = [h for h in result.summary.handlers if h.handler == "ni_ioctl"]
        return path.read_bytes(), record

    def test_a_handler_that_never_uses_its_inode_is_converted(self):
        for passed in NULLS:
            with self.subTest(passed=passed):
                new, record = self.convert_file(driver(passed))
                self.assertEqual(record.status, HandlerStatus.CONVERTED, record.reason)
                self.assertIn(b"\treturn ni_ioctl(NULL, 1, 100);\n", new)
                self.assertIn(b"static long ni_ioctl(struct file *file,", new)

    def test_a_handler_that_uses_its_inode_is_refused_with_the_line(self):
        for passed in NULLS:
            with self.subTest(passed=passed):
                text = driver(passed, "\treturn iminor(inode);\n")
                new, record = self.convert_file(text)
                self.assertEqual(record.status, HandlerStatus.SKIPPED)
                self.assertRegex(record.reason, r"the call at line 15 passes NULL as its inode")
                self.assertEqual(new, text)


if __name__ == "__main__":
    unittest.main()

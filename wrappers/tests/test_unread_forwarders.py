"""convert/unread_forwarders.py: a name a file of the run uses whose
definition was not read, where a header it includes was not found, may be
a macro of that header that forwards through ->ioctl (the adversarial
red_fwd_macro outside a tree: `redstack_pass(lf, cmd, arg)` of
<linux/redstack.h> is `(lf)->f_op->ioctl(...)`).  Which fops it reaches is
not known, so it denies the run, as a refused forwarding site does.
Several spellings: the file as argument, the private data as argument,
no argument at all (a macro may use the caller's locals), a helper of the
file, a macro of the file; and the names that are read or known."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import unread_forwarders
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

HEAD = """#include <linux/module.h>
#include <linux/fs.h>
#include <linux/stack.h>

struct stk_dev {
\tstruct file *lower;
\tint level;
};

"""
HANDLER = """static int stk_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\tstruct stk_dev *dev = file->private_data;
\tstruct file *lf = dev->lower;

%s
}
"""
# Each may forward to the file below; none is defined in what was read.
FORWARDING = {
    "the file as argument": ("\treturn stk_pass(lf, cmd, arg);", "stk_pass"),
    "the private data as argument": ("\treturn pass(dev, cmd, arg);", "pass"),
    "no argument, called": ("\treturn stk_forward();", "stk_forward"),
    "no argument, a statement": ("\tSTK_FORWARD;\n\treturn 0;", "STK_FORWARD"),
    "an upper-case call of the value": ("\tdev->level = STK_PASS(lf);\n\treturn 0;",
                                        "STK_PASS"),
}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


class SitesTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="unread-forwarders-"))
        self.addCleanup(shutil.rmtree, self.root)

    def sites(self, files: dict[str, str], run: set[str] | None = None):
        write(self.root, files)
        return unread_forwarders.sites(self.root, run or set(files), Sources(self.root))

    def test_each_spelling_of_an_unread_name_is_a_refused_site(self):
        for shape, (body, name) in FORWARDING.items():
            with self.subTest(shape=shape):
                found = self.sites({"stk.c": HEAD + HANDLER % body})
                self.assertEqual(len(found), 1, found)
                record = found[0]
                self.assertEqual((record.file, record.line, record.handler, record.status),
                                 ("stk.c", 16, "stk_ioctl", HandlerStatus.FAILED))
                self.assertTrue(record.reason.startswith(f"{name} at stk.c:16 "), record.reason)
                self.assertIn("linux/stack.h", record.reason)
                self.assertIn("->ioctl", record.reason)

    def test_in_a_helper_and_in_a_macro_of_the_file(self):
        helper = ("static int stk_down(struct stk_dev *d, unsigned int c, unsigned long a)\n"
                  "{\n\treturn stk_pass(d->lower, c, a);\n}\n\n")
        found = self.sites({"stk.c": HEAD + helper + HANDLER % "\treturn stk_down(dev, cmd, arg);"})
        self.assertEqual([(r.line, r.handler) for r in found], [(12, "stk_down")])
        self.assertTrue(found[0].reason.startswith("stk_pass at stk.c:12 "))
        macro = "#define STK_DOWN(d, c, a) \\\n\tstk_pass((d)->lower, c, a)\n\n"
        found = self.sites({"stk.c": HEAD + macro + HANDLER % "\treturn STK_DOWN(dev, cmd, arg);"})
        self.assertEqual([r.line for r in found], [11])
        self.assertTrue(found[0].reason.startswith("stk_pass at stk.c:11 "))

    def test_a_header_of_the_run_is_read_as_a_file(self):
        found = self.sites({"stk.h": "#include <linux/stack.h>\n"
                                     "static inline int stk_down(struct file *f)\n"
                                     "{\n\treturn stk_pass(f, 0, 0);\n}\n",
                            "stk.c": HEAD + HANDLER % "\treturn 0;"})
        self.assertEqual([(r.file, r.line, r.handler) for r in found], [("stk.h", 4, "stk_down")])

    def test_names_read_or_known_are_no_site(self):
        known = {
            "kernel interfaces": "\tif (copy_from_user(&dev->level, (void __user *)arg, 4))\n"
                                 "\t\treturn -EFAULT;\n\tprintk(KERN_INFO \"x\\n\");\n"
                                 "\treturn misc_register(NULL);",
            "a function of the file": "\treturn stk_local(dev);",
            "a macro of the file": "\treturn STK_LEVEL(dev);",
            "a macro's own parameter": "\treturn STK_APPLY(stk_local, dev);",
            "a pointer to a function": "\tint (*op)(struct stk_dev *) = stk_local;\n"
                                       "\treturn op(dev);",
            "a name of a quoted header found": "\treturn stk_board(dev);",
        }
        own = ("#include \"board.h\"\n"
               "#define STK_LEVEL(d) ((d)->level)\n"
               "#define STK_APPLY(fn, d) fn(d)\n"
               "static int stk_local(struct stk_dev *d)\n{\n\treturn d->level;\n}\n\n")
        for shape, body in known.items():
            with self.subTest(shape=shape):
                self.assertEqual(self.sites({
                    "board.h": "#define stk_board(d) ((d)->level + 1)\n",
                    "stk.c": HEAD + own + HANDLER % body + "module_init(stk_init);\n"
                             "MODULE_LICENSE(\"GPL\");\n"}, {"stk.c"}), [])

    def test_a_function_of_another_file_of_the_run_is_read(self):
        other = "int stk_pass(struct file *f, unsigned int c, unsigned long a)\n{\n\treturn 0;\n}\n"
        body = HANDLER % "\treturn stk_pass(lf, cmd, arg);"
        self.assertEqual(self.sites({"stk.c": HEAD + body, "lower.c": other}), [])
        # Outside the run, the same file does not make it read.
        self.assertEqual([r.file for r in self.sites({}, {"stk.c"})], ["stk.c"])

    def test_every_header_found_leaves_only_functions(self):
        # In a tree whose headers are all found, a name they do not define
        # is a function of another unit (a macro would be read): no site.
        found = self.sites({"Makefile": "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n",
                            "include/linux/module.h": "", "include/linux/fs.h": "",
                            "include/linux/stack.h": "",
                            "drivers/char/stk.c": HEAD + HANDLER % "\treturn stk_pass(lf, cmd, arg);"},
                           {"drivers/char/stk.c"})
        self.assertEqual(found, [])
        os.remove(self.root / "include/linux/stack.h")
        found = self.sites({}, {"drivers/char/stk.c"})
        self.assertEqual([r.line for r in found], [16])
        self.assertIn("linux/stack.h", found[0].reason)
        self.assertNotIn("linux/fs.h", found[0].reason)


LOWER = """static int stk_low_ioctl(struct inode *inode, struct file *file,
\t\t\t unsigned int cmd, unsigned long arg)
{
\treturn cmd == 1 ? 0 : -ENOTTY;
}

static struct file_operations stk_low_fops = {
\t.ioctl = stk_low_ioctl,
};

"""
FOPS = "\nstatic struct file_operations stk_fops = {\n\t.ioctl = stk_ioctl,\n};\n"


@unittest.skipUnless(HAVE_SPATCH, "spatch not installed")
class ConvertTest(unittest.TestCase):
    """The run outside a tree: denied whole by each spelling, converted
    when every name is read or known."""

    def convert(self, text: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp), {"stk.c": text})
            args = parse_args(["--no-cache", "--target", "2.6.20", "--", tmp])
            return convert.convert(convert.request_from_args(args))

    def test_a_forwarding_name_denies_the_lower_fops_too(self):
        for shape in ("the file as argument", "no argument, called"):
            with self.subTest(shape=shape):
                result = self.convert(HEAD + LOWER + HANDLER % FORWARDING[shape][0] + FOPS)
                self.assertEqual(result.changes, {})
                statuses = {h.handler: h.status for h in result.summary.handlers
                            if h.fops != "?"}
                self.assertEqual(statuses, {"stk_low_ioctl": HandlerStatus.FAILED,
                                            "stk_ioctl": HandlerStatus.FAILED})
                low = next(h for h in result.summary.handlers if h.handler == "stk_low_ioctl")
                self.assertIn(FORWARDING[shape][1] + " at stk.c:", low.reason)
                self.assertIn("every other file of the run", low.reason)

    def test_known_names_convert(self):
        result = self.convert(HEAD + LOWER + HANDLER % "\treturn dev->level;" + FOPS)
        self.assertEqual({h.handler: h.status for h in result.summary.handlers},
                         {"stk_low_ioctl": HandlerStatus.CONVERTED,
                          "stk_ioctl": HandlerStatus.CONVERTED})
        self.assertEqual(list(result.changes), ["stk.c"])


if __name__ == "__main__":
    unittest.main()

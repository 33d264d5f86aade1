"""Red team red22: ctext/null_inode.py calls a local NULL when it is not.

Finding class: a local `struct inode *none = NULL;` that is given the
file's inode later by an assignment inside a condition
(`if ((none = file->f_dentry->d_inode) != NULL)`), or a parameter `none`
while an unrelated inner block declares its own `none = NULL`, is read as
"set only to NULL": a handler that uses its inode is then skipped with the
reason "passes NULL as its inode", which is false.  Not silently wrong
(the handler is left alone and listed), but a false refusal with a wrong
record.  Fixed (fix22): ctext/null_inode.py reads the local exactly: NULL
only when every value the one local of the call's scope is given is NULL.
"""

import unittest

from ioctl_rework.ctext.null_inode import null_local
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

HANDLER = """#include <linux/fs.h>

static int nd_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	if (cmd == 1)
		return iminor(inode);
	return -ENOTTY;
}

%s

static struct file_operations nd_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= nd_ioctl,
};
"""
CALLERS = {
    "assigned in a condition": """static int nd_reset(struct file *file)
{
	struct inode *none = NULL;

	if ((none = file->f_dentry->d_inode) != NULL)
		return nd_ioctl(none, file, 1, 0);
	return 0;
}""",
    "a parameter beside an inner NULL local": """static int nd_reset(struct inode *none, struct file *file)
{
	if (file->f_flags) {
		struct inode *none = NULL;
		(void)none;
	}
	return nd_ioctl(none, file, 1, 0);
}""",
    "a bare assignment in a condition": """static int nd_reset(struct file *file)
{
	struct inode *none = NULL;

	if (!(none = file->f_dentry->d_inode))
		return -ENODEV;
	return nd_ioctl(none, file, 1, 0);
}""",
    "a comma expression": """static int nd_reset(struct file *file)
{
	struct inode *none = NULL;
	int tries = 0;

	tries++, none = file->f_dentry->d_inode;
	return nd_ioctl(none, file, 1, tries);
}""",
    "a global beside an inner NULL local": """static struct inode *none;
static int nd_reset(struct file *file)
{
	if (file->f_flags) {
		struct inode *none = NULL;
		(void)none;
	}
	return nd_ioctl(none, file, 1, 0);
}""",
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class NullLocalMisreadTest(CrossFileCase):
    def test_no_call_is_said_to_pass_null(self):
        for spelling, caller in CALLERS.items():
            with self.subTest(spelling=spelling):
                self.write({"drivers/adv/nd.c": HANDLER % caller,
                            "drivers/adv/Makefile": "obj-m += nd.o\n"})
                record = self.handler(self.run_convert("--target", "2.6.11"), "nd_ioctl")
                self.assertNotIn("passes NULL", record.reason or "")
                self.assertNotIn("set to NULL", record.reason or "")



def _caller(declaration: str, statements: str, params: str = "struct file *file") -> str:
    return (f"static int nd_reset({params})\n{{\n{declaration}{statements}"
            "\treturn nd_ioctl(none, file, 1, 0);\n}\n")


class NullLocalReadingTest(unittest.TestCase):
    """ctext/null_inode.null_local at the unit: NULL only when every value
    the local of the call's scope is given is a null constant."""
    NOT_NULL = {
        "condition, compared": _caller("\tstruct inode *none = NULL;\n",
                                       "\tif ((none = file->f_dentry->d_inode) != NULL)\n\t\tx();\n"),
        "condition, bare": _caller("\tstruct inode *none = NULL;\n",
                                   "\tif ((none = file->f_dentry->d_inode))\n\t\tx();\n"),
        "while condition": _caller("\tstruct inode *none = NULL;\n",
                                   "\twhile (!(none = next_inode(file)))\n\t\t;\n"),
        "comma": _caller("\tstruct inode *none = NULL;\n", "\ti++, none = file->f_dentry->d_inode;\n"),
        "stepped": _caller("\tstruct inode *none = NULL;\n", "\tnone++;\n"),
        "compound assigned": _caller("\tstruct inode *none = NULL;\n", "\tnone += 1;\n"),
        "address taken": _caller("\tstruct inode *none = NULL;\n", "\tlookup(file, &none);\n"),
        "macro argument": "#define SET(p) p = cur\n" + _caller("\tstruct inode *none = NULL;\n",
                                                                 "\tSET(none);\n"),
        "parameter, inner NULL local": _caller("", "\t{\n\t\tstruct inode *none = NULL;\n\t}\n",
                                               "struct inode *none, struct file *file"),
        "global, inner NULL local": "static struct inode *none;\n" + _caller(
            "", "\tif (file->f_flags) {\n\t\tstruct inode *none = NULL;\n\t}\n"),
        "shadowed by a live inner local": _caller(
            "\tstruct inode *none = NULL;\n",
            "\t{\n\t\tstruct inode *none = file->f_dentry->d_inode;\n\t\tuse(none);\n\t}\n"),
        "shadowed by another type": _caller("\tstruct inode *none = NULL;\n",
                                            "\t{\n\t\tlong none = 4;\n\t}\n"),
        "static local": _caller("\tstatic struct inode *none = NULL;\n", ""),
    }
    NULL = {
        "initializer": _caller("\tstruct inode *none = NULL;\n", ""),
        "statement": _caller("\tstruct inode *none;\n", "\tnone = 0;\n"),
        "second declarator": _caller("\tstruct inode *a = NULL, *none = (struct inode *)NULL;\n", ""),
        "both branches": _caller("\tstruct inode *none;\n",
                                 "\tif (a)\n\t\tnone = NULL;\n\telse\n\t\tnone = (void *)0;\n"),
        "the local named inode": _caller("\tstruct inode *inode = NULL;\n", "").replace(
            "none", "inode"),
        "compared, never set otherwise": _caller("\tstruct inode *none = NULL;\n",
                                                 "\tif (none == NULL)\n\t\tx();\n"),
    }

    @staticmethod
    def _read(text: str) -> bool:
        name = "inode" if "nd_ioctl(inode" in text else "none"
        line = next(i + 1 for i, t in enumerate(text.split("\n")) if f"nd_ioctl({name}" in t)
        return null_local(text, line, name)

    def test_a_local_given_anything_but_null_is_not_null(self):
        for spelling, text in self.NOT_NULL.items():
            with self.subTest(spelling=spelling):
                self.assertFalse(self._read(text))

    def test_a_local_given_only_null_is_null(self):
        for spelling, text in self.NULL.items():
            with self.subTest(spelling=spelling):
                self.assertTrue(self._read(text))


if __name__ == "__main__":
    unittest.main()

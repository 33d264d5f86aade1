"""convert_namings: every line naming a handler, classified from the text
alone (no spatch): what convert checks before and after a run."""

import unittest

from ioctl_rework.convert import namings

TEXT = """#include <linux/h_ioctl.h>
struct ops { int (*h)(struct inode *, struct file *, unsigned int, unsigned long); };
static int h(struct inode *, struct file *, uint, ulong);
static int __pmac
h(struct inode *inode, struct file *file, uint cmd, ulong arg)
{
	return 0;
}
static long
h(struct file *file, uint cmd, ulong arg);
static struct file_operations a = { .ioctl = h, };
static struct file_operations b = { ioctl: h, .unlocked_ioctl = h };
void x(struct file *file, struct h *tag)
{
	if (file->f_op->ioctl == h || h != file->f_op->unlocked_ioctl)
		dev->h(1, 2, 3, 4);
	table[0] = h;
	h(file, 1, 2);
}
#if 0
int h(struct inode *i, struct file *f, int c, long a);
#endif
EXPORT_SYMBOL_GPL(h);
static struct file_operations c = { .ioctl = (void *) h };
"""


class NamingsTest(unittest.TestCase):
    def test_each_use_is_classified(self):
        found = [(n.line, n.kind, n.legacy) for n in namings.namings(TEXT, "h")]
        self.assertEqual(found, [
            (3, namings.PROTOTYPE, True),
            (5, namings.DEFINITION, True),
            (10, namings.PROTOTYPE, False),      # long, past the line break
            (11, namings.ENTRY, True),
            (12, namings.ENTRY, True),
            (12, namings.ENTRY, False),
            (15, namings.COMPARE, True),
            (15, namings.COMPARE, False),
            (17, namings.OTHER, True),
            (18, namings.CALL, False),
            (23, namings.EXPORT, False),
            (24, namings.ENTRY, True)])          # the cast is the entry's

    def test_a_definition_behind_an_attribute_follows_only_when_it_returns_long(self):
        new = "static long __pmac\nh(struct file *file, uint cmd, ulong arg)\n{\n}\n"
        [use] = namings.namings(new, "h")
        self.assertTrue(use.follows)
        [use] = namings.namings(new.replace("long", "int"), "h")
        self.assertFalse(use.follows)

    def test_a_definition_after_gnu_attributes_is_a_definition_not_a_call(self):
        # Read as a call, it "passed" its own inode parameter as another inode.
        legacy = ("static int __attribute__((unused)) h(struct inode *inode "
                  "__attribute__((unused)),\n\tstruct file *file, unsigned cmd, ulong arg)\n{\n}\n")
        [use] = namings.namings(legacy, "h")
        self.assertEqual((use.kind, use.follows), (namings.DEFINITION, False))
        new = "static long __attribute__((unused)) h(struct file *file, unsigned cmd,\n\tulong arg)\n{\n}\n"
        [use] = namings.namings(new, "h")
        self.assertEqual((use.kind, use.follows), (namings.DEFINITION, True))

    def test_split_arguments_keeps_nested_commas(self):
        self.assertEqual(namings.split_arguments(" a, f(b, c), (d, e) "),
                         ("a", "f(b, c)", "(d, e)"))
        self.assertEqual(namings.split_arguments(""), ())


def call_in(body: str, head: str = "long c(struct file *file, unsigned int cmd)"):
    text = f"{head}\n{{\n{body}}}\n"
    calls = [n for n in namings.namings(text, "h") if n.kind == namings.CALL]
    return namings.foreign_inode(text, calls[0])


class ForeignInodeTest(unittest.TestCase):
    def test_the_files_own_inode_is_accepted_in_each_spelling(self):
        for arg in ("file->f_dentry->d_inode", "file->f_path.dentry->d_inode",
                    "file_inode(file)", "(file)->f_dentry->d_inode"):
            with self.subTest(arg=arg):
                self.assertIsNone(call_in(f"\treturn h({arg}, file, cmd, 0);\n"))

    def test_a_local_set_only_to_the_files_inode_is_accepted(self):
        self.assertIsNone(call_in("\tstruct inode *i = file->f_dentry->d_inode;\n"
                                  "\treturn h(i, file, cmd, 0);\n"))
        self.assertIsNone(call_in("\tstruct inode *i;\n\ti = file_inode(file);\n"
                                  "\treturn h(i, file, cmd, 0);\n"))

    def test_an_ioctl_shaped_caller_passing_its_own_pair_is_accepted(self):
        head = "int c(struct inode *inode, struct file *file, unsigned int cmd, ulong arg)"
        self.assertIsNone(call_in("\treturn h(inode, file, cmd, arg);\n", head))

    def test_another_inode_is_refused_with_what_was_passed(self):
        cases = {
            "\treturn h(NULL, file, cmd, 0);\n": "passes NULL as the inode of file",
            "\treturn h(other, file, cmd, 0);\n": "passes other as the inode of file",
            "\treturn h(file->f_dentry->d_parent->d_inode, file, cmd, 0);\n":
                "passes file->f_dentry->d_parent->d_inode as the inode of file",
            "\tstruct inode *i = NULL;\n\treturn h(i, file, cmd, 0);\n": "i (set to NULL)",
            "\tstruct inode *i = file_inode(file);\n\ti = i->i_private;\n"
            "\treturn h(i, file, cmd, 0);\n": "i is not set only to the inode of file",
            "\tstruct inode *i = file_inode(other);\n\treturn h(i, file, cmd, 0);\n":
                "i is not set only to the inode of file",
        }
        for body, why in cases.items():
            with self.subTest(body=body):
                self.assertIn(why, call_in(body) or "")

    def test_an_ioctl_shaped_caller_passing_another_file_is_refused(self):
        head = "int c(struct inode *inode, struct file *a, struct file *b, ulong arg)"
        self.assertIn("passes inode as the inode of b",
                      call_in("\treturn h(inode, b, 0, arg);\n", head))



def passes_null_in(body: str, head: str = "long c(struct file *file, unsigned int cmd)"):
    text = f"static struct inode *g;\n{head}\n{{\n{body}}}\n"
    calls = [n for n in namings.namings(text, "h") if n.kind == namings.CALL]
    return namings.passes_null(calls[0], text)


class PassesNullTest(unittest.TestCase):
    """A NULL inode, passed itself or through a local set only to NULL, is
    the rule's to judge (ctext/null_inode.py); anything else is not NULL."""

    def test_null_itself_and_through_a_local_in_each_spelling(self):
        for body in ("\treturn h(NULL, file, cmd, 0);\n",
                     "\treturn h((struct inode *)0, file, cmd, 0);\n",
                     "\tstruct inode *none = NULL;\n\n\treturn h(none, file, cmd, 0);\n",
                     "\tstruct inode *zero = 0;\n\treturn h(zero, file, cmd, 0);\n",
                     "\tstruct inode *c = (struct inode *)NULL;\n\treturn h(c, file, cmd, 0);\n",
                     "\tstruct inode *i;\n\tint r;\n\n\ti = NULL;\n\tr = h(i, file, cmd, 0);\n"
                     "\treturn r;\n",
                     "\tstruct inode *a = file_inode(file), *none = NULL;\n"
                     "\treturn h(none, file, cmd, 0);\n"):
            with self.subTest(body=body):
                self.assertTrue(passes_null_in(body))

    def test_a_local_that_may_hold_anything_else_is_not_null(self):
        for body in ("\tstruct inode *i = NULL;\n\ti = file_inode(file);\n"
                     "\treturn h(i, file, cmd, 0);\n",
                     "\tstruct inode *i = NULL;\n\tfind(&i);\n\treturn h(i, file, cmd, 0);\n",
                     "\tstatic struct inode *i = NULL;\n\treturn h(i, file, cmd, 0);\n",
                     "\tstruct inode *i;\n\treturn h(i, file, cmd, 0);\n",
                     "\tg = NULL;\n\treturn h(g, file, cmd, 0);\n",
                     "\tstruct inode *a = NULL, *i = file_inode(file);\n"
                     "\treturn h(i, file, cmd, 0);\n",
                     "\treturn h(file_inode(file), file, cmd, 0);\n"):
            with self.subTest(body=body):
                self.assertFalse(passes_null_in(body))


if __name__ == "__main__":
    unittest.main()

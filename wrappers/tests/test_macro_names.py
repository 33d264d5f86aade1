"""ctext/macro_names: a word named through macros of macros, and the two
judgements of C text that read it (issue 22: `#define A() B()`, `#define
B() iminor(inode)` was no use of the inode, and the build broke).

null_inode: a local set only to NULL is no NULL inode when a macro the
function uses, to any depth, names it (it may assign it).  own_inode: a
forwarding handler's inode is not proven its own when a macro it uses, to
any depth, writes it, or a macro it passes it to may write an argument.
"""

import unittest

from ioctl_rework.ctext import macro_names, null_inode, own_inode

CHAINS = {
    "direct": "#define U() iminor(inode)\n",
    "depth two": "#define B() iminor(inode)\n#define U() B()\n",
    "depth three, by an argument": "#define OF(i) iminor(i)\n#define B() OF(inode)\n"
                                   "#define U() B()\n",
    "object-like link": "#define SLOT (&slots[iminor(inode)])\n#define U() SLOT\n",
    "continued line": "#define B() \\\n\timinor(inode)\n#define U() \\\n\tB()\n",
    "a paste that may spell it": "#define N(p) p ## node\n#define U() iminor(N(i))\n",
    "a cycle ending in it": "#define U() (V + 1)\n#define V U() + iminor(inode)\n",
}
NOT_NAMING = {
    "a parameter of that name": "#define U(inode) iminor(inode)\n",
    "a link to a parameter of that name": "#define B(inode) iminor(inode)\n#define U() B(x)\n",
    "a comment": "#define U() iminor(x) /* not inode */\n",
    "GNU's variadic comma": "#define U(fmt, args...) printk(fmt , ## args)\n",
    "a paste of other words": "#define U() dev ## _count\n",
    "a cycle without it": "#define U() V\n#define V U()\n",
}


class Naming(unittest.TestCase):
    def test_every_chain_names_the_word(self):
        for why, text in CHAINS.items():
            with self.subTest(why):
                self.assertIn("U", macro_names.naming(macro_names.definitions(text), "inode"))

    def test_what_does_not_name_it(self):
        for why, text in NOT_NAMING.items():
            with self.subTest(why):
                self.assertNotIn("U", macro_names.naming(macro_names.definitions(text), "inode"))

    def test_a_function_that_uses_the_head_of_a_chain(self):
        text = CHAINS["depth three, by an argument"]
        self.assertTrue(macro_names.names_through_macro(text, "inode", "{ x = U(); }"))
        self.assertFalse(macro_names.names_through_macro(text, "inode", "{ x = 0; }"))


def caller(macros: str, use: str) -> str:
    return ("#include <linux/fs.h>\n" + macros +
            "static int h(struct inode *inode, struct file *file,\n"
            "\t     unsigned int cmd, unsigned long arg);\n"
            "static int __init probe(void)\n{\n"
            "\tstruct inode *none = NULL;\n\n"
            f"\t{use};\n"
            "\treturn h(none, NULL, 1, 0);\n}\n")


class NullLocal(unittest.TestCase):
    ASSIGNING = {
        "direct": "#define PICK() (none = &shared_inode)\n",
        "depth two": "#define SET(v) (none = (v))\n#define PICK() SET(&shared_inode)\n",
        "depth three": "#define SET(v) (none = (v))\n#define GRAB() SET(&shared_inode)\n"
                       "#define PICK() GRAB()\n",
        "object-like": "#define SET(v) (none = (v))\n#define PICK_IT SET(&shared_inode)\n"
                       "#define PICK() PICK_IT\n",
    }

    def line_of_call(self, text: str) -> int:
        return text.split("\n").index("\treturn h(none, NULL, 1, 0);") + 1

    def test_a_macro_chain_that_may_assign_the_local_is_no_null(self):
        for why, macros in self.ASSIGNING.items():
            with self.subTest(why):
                text = caller(macros, "PICK()")
                self.assertFalse(null_inode.null_local(text, self.line_of_call(text), "none"))

    def test_a_macro_that_does_not_name_it_leaves_it_null(self):
        text = caller("#define PICK() (other = NULL)\n#define GRAB() PICK()\n", "GRAB()")
        self.assertTrue(null_inode.null_local(text, self.line_of_call(text), "none"))


def forwarder(macros: str, use: str) -> str:
    return ("#include <linux/fs.h>\n" + macros +
            "static int up_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t    unsigned int cmd, unsigned long arg)\n{\n"
            f"\t{use};\n"
            "\treturn lower->f_op->ioctl(inode, file, cmd, arg);\n}\n\n"
            "static struct file_operations up_fops = {\n\t.ioctl\t= up_ioctl,\n};\n")


class OwnInode(unittest.TestCase):
    WRITING = {
        "direct": ("#define RETARGET() (inode = lower_inode)\n", "RETARGET()"),
        "depth two": ("#define SWAP() (inode = lower_inode)\n#define RETARGET() SWAP()\n",
                      "RETARGET()"),
        "file, depth three": ("#define SW() (file = lower_file)\n#define SW2() SW()\n"
                              "#define RETARGET() SW2()\n", "RETARGET()"),
        "the address taken": ("#define KEEP() stash(&inode)\n#define RETARGET() KEEP()\n",
                              "RETARGET()"),
        "a macro that assigns its argument": ("#define SET(x, v) ((x) = (v))\n",
                                              "SET(inode, lower_inode)"),
        "through a macro that assigns its argument": (
            "#define SET(x, v) ((x) = (v))\n#define MOVE(x) SET(x, lower_inode)\n",
            "MOVE(inode)"),
        "a paste that may spell it": ("#define N(p) p ## node\n#define RETARGET() (N(i) = 0)\n",
                                      "RETARGET()"),
    }

    def test_a_macro_chain_that_may_write_the_parameters_is_not_proven(self):
        for why, (macros, use) in self.WRITING.items():
            with self.subTest(why):
                self.assertFalse(own_inode.is_own_inode(forwarder(macros, use), "up_ioctl",
                                                        "inode", "file"))

    def test_a_macro_chain_that_only_reads_them_is_proven(self):
        macros = "#define UNIT() iminor(inode)\n#define TRACE() printk(\"%d\", UNIT())\n"
        self.assertTrue(own_inode.is_own_inode(forwarder(macros, "TRACE()"), "up_ioctl",
                                               "inode", "file"))


if __name__ == "__main__":
    unittest.main()

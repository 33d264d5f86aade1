"""own_inode and null_inode read the macros of the headers a file includes,
as the rule does (issue 22): a macro that writes the inode or the file a
handler forwards, or that sets the local a caller passes as a NULL inode,
may sit in a quoted header, in one found by the directory's kbuild -I, in
the tree's include/linux (or the --kernel-headers one's), behind another
macro; a macro of those headers may spell the file's own inode
(INO(file)).  Where a header of the driver could not be read, a name the
caller uses that nothing read defines or declares may be its macro: its
local is not proven NULL (convert's gate reads so; the rule, on the text
alone, must find NULL wherever the gate does)."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.ctext import include_search
from ioctl_rework.ctext.null_inode import null_local
from ioctl_rework.ctext.own_inode import is_own_inode

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n"

FS_H = """#ifndef _LINUX_FS_H
#define _LINUX_FS_H
struct inode;
struct file_operations;
struct file {
	struct file_operations *f_op;
	void *private_data;
};
#endif
"""

# A stacking driver forwarding with its own inode and file (own_inode).
UPPER = """#include <linux/fs.h>
#include %(include)s

static struct file *lower;

static int up_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	%(use)s;
	return lower->f_op->ioctl(inode, file, cmd, arg);
}

static struct file_operations up_fops = {
	.ioctl		= up_ioctl,
};
"""

# The same driver whose handler is also called with an inode a macro spells.
CALLED = UPPER.replace("static struct file_operations", """static long up_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	return up_ioctl(%(inode)s, file, cmd, arg);
}

static struct file_operations""")

# A caller passing a NULL inode through a local (null_inode).
CALLER = """#include <linux/fs.h>
#include %(include)s

static int vl_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return 0;
}

static int vl_reset(struct file *file)
{
	struct inode *none = NULL;

	%(use)s;
	return vl_ioctl(none, file, 1, 0);
}
"""

# Where a header may be, and how the driver includes it.
PLACES = {
    "quoted": ('"knob.h"', "drivers/char/knob.h"),
    "kbuild -I": ('"knob_regs.h"', "drivers/char/inc/knob_regs.h"),
    "tree include/linux": ("<linux/knob.h>", "include/linux/knob.h"),
}


class HeaderMacrosTest(unittest.TestCase):
    def setUp(self):
        self.tree = Path(tempfile.mkdtemp(prefix="inode-header-macros-"))
        self.addCleanup(shutil.rmtree, self.tree)
        (self.tree / "drivers/char/inc").mkdir(parents=True)
        (self.tree / "include/linux").mkdir(parents=True)
        (self.tree / "Makefile").write_text(TOP)
        (self.tree / "include/linux/fs.h").write_text(FS_H)
        (self.tree / "drivers/char/Makefile").write_text(
            "obj-m += knob.o\nEXTRA_CFLAGS += -I$(src)/inc\n")

    def driver(self, template: str, include: str, header: str | None, header_text: str,
               **more) -> str:
        if header:
            (self.tree / header).write_text(header_text)
        text = template % dict(include=include, **more)
        (self.tree / "drivers/char/knob.c").write_text(text)
        return text

    def own(self, text: str, root=None) -> bool:
        return is_own_inode(text, "up_ioctl", "inode", "file", "drivers/char/knob.c",
                            str(root or self.tree))

    def null(self, text: str, root=None) -> bool:
        line = text.split("\n").index("\treturn vl_ioctl(none, file, 1, 0);") + 1
        return null_local(text, line, "none", "drivers/char/knob.c", str(root or self.tree))

    def test_a_header_macro_that_writes_the_forwarded_inode_or_file_is_seen(self):
        writing = {
            "names it": ("RESET_NODE()", "#define RESET_NODE() (inode = 0)\n"),
            "macro of a macro": ("RESET_NODE()", "#define FORGET() (inode = 0)\n"
                                                 "#define RESET_NODE() FORGET()\n"),
            "writes its argument": ("CLEAR_PTR(file)", "#define CLEAR_PTR(p) ((p) = 0)\n"),
            "lower case": ("reset_node()", "#define reset_node() do { inode = 0; } while (0)\n"),
        }
        for place, (include, header) in PLACES.items():
            for spelling, (use, define) in writing.items():
                with self.subTest(place=place, spelling=spelling):
                    text = self.driver(UPPER, include, header, define, use=use)
                    self.assertFalse(self.own(text))
                    # The same macro writing nothing proves the call.
                    self.driver(UPPER, include, header, define.replace("= 0", "== 0"), use=use)
                    self.assertTrue(self.own(text))

    def test_what_names_a_member_or_pastes_its_arguments_in_the_kernel_names_no_local(self):
        # A 6.1 kernel's put_user() and if() reach, through its headers'
        # closure, pastes of their parameters (__CONCAT(a, b)) and designated
        # initializers (.file = __FILE__): neither names the handler's own
        # inode or file, and a stacking driver's forward stays proven.
        shapes = {
            "a paste of parameters": (
                "TRACE_ME(cmd)", "#define __CONCAT(a, b) a ## b\n"
                "#define TRACE_ME(x) __CONCAT(tr, ace)(x)\n"),
            "a designator": (
                "TRACE_ME(cmd)", "struct site { const char *file; };\n"
                "#define TRACE_ME(x) ({ static struct site s = { .file = __FILE__ }; "
                "(void)(x); })\n"),
            "a member written": (
                "TRACE_ME(cmd)", "#define TRACE_ME(x) (lower->file = 0, (void)(x))\n"),
        }
        include, header = PLACES["tree include/linux"]
        for spelling, (use, define) in shapes.items():
            with self.subTest(spelling=spelling):
                self.assertTrue(self.own(self.driver(UPPER, include, header, define, use=use)))
        # The driver's own paste may spell the name unseen: refused.
        include, header = PLACES["quoted"]
        use, define = shapes["a paste of parameters"]
        self.assertFalse(self.own(self.driver(UPPER, include, header, define, use=use)))

    def test_a_paste_that_spells_the_inode_in_any_header_is_seen(self):
        # In the tree's include/ (or a -I directory) too: a paste spells one
        # token, the inode whole, from pieces the text shows.
        pastes = {
            "fixed pieces": ("RESET_NODE()", "#define RESET_NODE() (ino ## de = 0)\n", None),
            "a piece and the argument": ("RESET(i)", "#define RESET(p) (p ## node = 0)\n",
                                         "RESET(x)"),
            "arguments only": ("CAT(ino, de) = 0", "#define CAT(a, b) a ## b\n",
                               "CAT(in, de) = 0"),
            "passed on": ("ZAP(ino, de)", "#define CAT(a, b) a ## b\n"
                                          "#define ZAP(x, y) (CAT(x, y) = 0)\n", "ZAP(in, de)"),
        }
        for place, (include, header) in PLACES.items():
            for spelling, (use, define, harmless) in pastes.items():
                with self.subTest(place=place, spelling=spelling):
                    self.assertFalse(self.own(self.driver(UPPER, include, header, define,
                                                          use=use)))
                    if harmless and place == "tree include/linux":
                        # Pieces that spell no inode: the kernel's reading proves it.
                        self.assertTrue(self.own(self.driver(UPPER, include, header, define,
                                                             use=harmless)))

    def test_the_kernel_headers_given_are_read_outside_a_tree(self):
        kernel = self.tree / "kernel"
        (kernel / "include/linux").mkdir(parents=True)
        (kernel / "include/linux/fs.h").write_text(FS_H)
        (kernel / "Makefile").write_text(TOP)
        (self.tree / "Makefile").unlink()
        (kernel / "include/linux/knob.h").write_text("#define RESET_NODE() (inode = 0)\n")
        text = self.driver(UPPER, "<linux/knob.h>", None, "", use="RESET_NODE()")
        with include_search.kernel_used(str(kernel)):
            self.assertFalse(self.own(text))
        (kernel / "include/linux/knob.h").write_text("#define RESET_NODE() do { } while (0)\n")
        with include_search.kernel_used(str(kernel)):
            self.assertTrue(self.own(text))

    def test_a_header_macro_that_spells_the_own_inode_is_the_own_inode(self):
        spellings = {
            "f_dentry": "#define INO(f) ((f)->f_dentry->d_inode)\n",
            "f_path": "#define INO(f) (f)->f_path.dentry->d_inode\n",
            "macro of a macro": "#define FILE_NODE(f) file_inode(f)\n#define INO(f) FILE_NODE(f)\n",
        }
        for place, (include, header) in PLACES.items():
            for spelling, define in spellings.items():
                with self.subTest(place=place, spelling=spelling):
                    text = self.driver(CALLED, include, header, define, use="(void)cmd",
                                       inode="INO(file)")
                    self.assertTrue(self.own(text))

    def test_a_header_macro_that_spells_another_inode_is_not(self):
        spellings = {
            "another file's": "#define INO(f) (lower->f_dentry->d_inode)\n",
            "#undef after": "#define INO(f) ((f)->f_dentry->d_inode)\n#undef INO\n",
            "two definitions": "#ifdef OLD\n#define INO(f) ((f)->f_dentry->d_inode)\n#else\n"
                               "#define INO(f) (lower->f_dentry->d_inode)\n#endif\n",
            "not defined": "\n",
        }
        include, header = PLACES["quoted"]
        for spelling, define in spellings.items():
            with self.subTest(spelling=spelling):
                text = self.driver(CALLED, include, header, define, use="(void)cmd",
                                   inode="INO(file)")
                self.assertFalse(self.own(text))

    def test_a_header_macro_that_sets_the_null_local_is_seen(self):
        setting = {
            "names it": ("PICK_NODE()", "#define PICK_NODE() (none = file->private_data)\n"),
            "macro of a macro": ("PICK_NODE()", "#define TAKE() (none = file->private_data)\n"
                                                "#define PICK_NODE() TAKE()\n"),
            "lower case, writes its argument": ("pick_node(none)",
                                                "#define pick_node(i) ((i) = 0)\n"),
            "#undef after": ("PICK_NODE()", "#define PICK_NODE() (none = file->private_data)\n"
                                            "#undef PICK_NODE\n"
                                            "#define PICK_NODE() (void)0\n"),
        }
        for place, (include, header) in PLACES.items():
            for spelling, (use, define) in setting.items():
                with self.subTest(place=place, spelling=spelling):
                    text = self.driver(CALLER, include, header, define, use=use)
                    self.assertFalse(self.null(text))
        include, header = PLACES["quoted"]
        text = self.driver(CALLER, include, header, "#define PICK_NODE() (void)0\n",
                           use="PICK_NODE()")
        self.assertTrue(self.null(text))

    def test_where_a_header_is_not_found_an_unknown_name_is_not_null(self):
        # A <...> one not found is the kernel's (generated in a tree; without a
        # kernel the run is refused or warned of): the driver's are "...".
        for include in ('"gone.h"', '"../gone/knob_gone.h"'):
            with self.subTest(include=include):
                text = self.driver(CALLER, include, None, "", use="GONE_RESET()")
                self.assertFalse(self.null(text))
                # Nothing it uses is unknown: the header cannot reach the code.
                text = self.driver(CALLER, include, None, "", use="if (!file) return -1")
                self.assertTrue(self.null(text))
                # The text alone (the rule's reading) counts nothing unread: it
                # finds NULL wherever convert's gate, which reads the headers, does.
                self.assertTrue(null_local(text, text.split("\n").index(
                    "\treturn vl_ioctl(none, file, 1, 0);") + 1, "none"))

    def test_own_inode_is_not_refused_for_a_header_not_found(self):
        # convert's forwarding stage runs the rule on the text alone: every
        # header is unread there (own_inode's module doc).
        text = self.driver(UPPER, '"gone.h"', None, "", use="GONE_RESET()")
        self.assertTrue(self.own(text))

    def test_a_kbuild_include_flag_not_expanded_is_a_header_not_read(self):
        (self.tree / "drivers/char/Makefile").write_text(
            "obj-m += knob.o\nEXTRA_CFLAGS += -I$(KNOB_DIR)/$(KNOB_SUB)\n")
        text = self.driver(CALLER, '"knob.h"', "drivers/char/knob.h", "\n", use="KNOB_RESET()")
        self.assertFalse(self.null(text))
        text = self.driver(CALLER, '"knob.h"', "drivers/char/knob.h",
                           "#define KNOB_RESET() do { } while (0)\n", use="KNOB_RESET()")
        self.assertTrue(self.null(text))

if __name__ == "__main__":
    unittest.main()

"""check judges the header of a handler a patch converts (issue 22): a
patch converting knob_ioctl's definition to the unlocked signature while
knob.h, which it leaves, still declares the legacy prototype leaves a tree
that does not build where knob.c includes it, and a caller through the
header passing the old arguments: a failing verdict, not a pass (check
read no header the patch did not change or newly include).  A handler not
static may be declared in a header only the other files of its module
include (a shared header, in the driver's directory or the tree's
include/): found too, from --git and from --diff with --tree."""

import unittest

from test_check_repo import GitRepo

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n\nobj-y += drivers/\n"

LEGACY = """/*
 * knob: a control knob whose ioctl reads one register.
 */
#include <linux/fs.h>
#include %(include)s

static int knob_value;

int knob_ioctl(struct inode *inode, struct file *file,
	       unsigned int cmd, unsigned long arg)
{
	return knob_value;
}

static struct file_operations knob_fops = {
	.ioctl		= knob_ioctl,
};
"""

CONVERTED = LEGACY.replace("""int knob_ioctl(struct inode *inode, struct file *file,
	       unsigned int cmd, unsigned long arg)""", """long knob_ioctl(struct file *file, unsigned int cmd, unsigned long arg)""") \
    .replace(".ioctl\t\t= knob_ioctl,", ".unlocked_ioctl\t= knob_ioctl,\n\t.compat_ioctl\t= knob_ioctl,")

OLD = "int knob_ioctl(struct inode *inode, struct file *file, unsigned int cmd, unsigned long arg);\n"
NEW = "long knob_ioctl(struct file *file, unsigned int cmd, unsigned long arg);\n"

# Where the prototype sits, how knob.c includes it, and its spelling.
HEADERS = {
    "beside it": ('"knob.h"', "drivers/knob/knob.h", OLD),
    "unnamed parameters": ('"knob.h"', "drivers/knob/knob.h",
                           "extern int knob_ioctl(struct inode *, struct file *,\n"
                           "\t\t      unsigned int, unsigned long);\n"),
    "through another header": ('"knob.h"', "drivers/knob/knob_ops.h", OLD),
    "the tree's include/linux": ("<linux/knob.h>", "include/linux/knob.h", OLD),
}


class StalePrototypeTest(unittest.TestCase):
    def check(self, include: str, header: str, prototype: str, changed: str | None = None):
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        files = {"Makefile": TOP, "drivers/Makefile": "obj-y += knob/\n",
                 "drivers/knob/Makefile": "obj-m += knob.o\n",
                 "include/linux/fs.h": "struct inode;\nstruct file;\n",
                 header: prototype, "drivers/knob/knob.c": LEGACY % {"include": include}}
        if header.endswith("knob_ops.h"):
            files["drivers/knob/knob.h"] = '#include "knob_ops.h"\n'
        repo.commit("the tree", files)
        converted = {"drivers/knob/knob.c": CONVERTED % {"include": include}}
        if changed is not None:
            converted[header] = changed
        repo.commit("knob: convert to unlocked_ioctl", converted)
        return repo.run_cli("check", "--git", "HEAD", "--no-compat")

    def test_a_header_left_with_the_legacy_prototype_fails(self):
        for where, (include, header, prototype) in HEADERS.items():
            with self.subTest(where=where):
                out = self.check(include, header, prototype)
                self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
                self.assertIn(f"ERROR:STALE_PROTOTYPE: {header}:1 still declares knob_ioctl "
                              "with the legacy prototype", out.stdout)
                self.assertIn("FILE: drivers/knob/knob.c:9:", out.stdout)

    def test_a_header_changed_with_it_passes(self):
        for where, (include, header, prototype) in HEADERS.items():
            with self.subTest(where=where):
                out = self.check(include, header, prototype, changed=NEW)
                self.assertNotIn("STALE_PROTOTYPE", out.stdout)
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_a_header_that_declares_something_else_passes(self):
        out = self.check('"knob.h"', "drivers/knob/knob.h",
                         "int knob_reset(struct inode *inode);\n/* knob_ioctl(struct inode *) */\n")
        self.assertNotIn("STALE_PROTOTYPE", out.stdout)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def shared(self, header: str, prototype: str, static: str = "", *how: str):
        """knob.c includes nothing of its own; knob_main.c, the module's
        other file, includes HEADER, which declares knob_ioctl."""
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        include = "<linux/knob.h>" if header.startswith("include/") else \
            '"' + header.rsplit("/", 1)[1] + '"'
        legacy = (LEGACY % {"include": "<linux/fs.h>"}).replace("int knob_ioctl(",
                                                                static + "int knob_ioctl(")
        main = (f"#include <linux/fs.h>\n#include {include}\n\nint knob_forward(struct inode "
                "*inode, struct file *file)\n{\n\treturn knob_ioctl(inode, file, 0, 0);\n}\n")
        repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": "obj-y += knob/\n",
                                 "drivers/knob/Makefile": "obj-m += kn.o\nkn-objs := knob.o "
                                                          "knob_main.o\n",
                                 "include/linux/fs.h": "struct inode;\nstruct file;\n",
                                 header: prototype, "drivers/knob/knob.c": legacy,
                                 "drivers/knob/knob_main.c": main})
        converted = (CONVERTED % {"include": "<linux/fs.h>"}).replace(
            "long knob_ioctl(", static + "long knob_ioctl(")
        repo.commit("knob: convert to unlocked_ioctl", {"drivers/knob/knob.c": converted})
        if how == ("--diff",):
            repo.write("convert.patch", repo.git("format-patch", "-1", "--stdout").stdout)
            repo.git("checkout", "-q", "HEAD~1")
            return repo.run_cli("check", "--diff", "convert.patch", "--tree", ".",
                                "--no-compat")
        return repo.run_cli("check", "--git", "HEAD", "--no-compat")

    def test_a_shared_header_only_other_files_include_is_found(self):
        places = {"the module's directory": "drivers/knob/knob_shared.h",
                  "the tree's include/linux": "include/linux/knob.h"}
        for where, header in places.items():
            for how in (("--git",), ("--diff",)):
                with self.subTest(where=where, how=how):
                    out = self.shared(header, "/* the shared calls */\n" + OLD, "", *how)
                    self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
                    self.assertIn(f"ERROR:STALE_PROTOTYPE: {header}:2 still declares "
                                  "knob_ioctl with the legacy prototype", out.stdout)

    def test_a_shared_header_that_follows_or_a_static_handler_passes(self):
        header = "drivers/knob/knob_shared.h"
        out = self.shared(header, NEW)
        self.assertNotIn("STALE_PROTOTYPE", out.stdout)
        # A static knob_ioctl is another function than the one a header declares.
        out = self.shared(header, OLD, "static ")
        self.assertNotIn("STALE_PROTOTYPE", out.stdout)

    def test_a_bare_patch_cannot_read_the_header_of_a_handler_not_static(self):
        for static in ("", "static "):
            with self.subTest(static=static):
                repo = GitRepo()
                self.addCleanup(repo.__exit__)
                legacy = LEGACY.replace("int knob_ioctl(", static + "int knob_ioctl(")
                repo.commit("knob", {"knob.c": legacy % {"include": '"knob.h"'}})
                converted = CONVERTED.replace("long knob_ioctl(", static + "long knob_ioctl(")
                repo.commit("convert", {"knob.c": converted % {"include": '"knob.h"'}})
                repo.write("convert.patch", repo.git("format-patch", "-1", "--stdout").stdout)
                out = repo.run_cli("check", "--diff", "convert.patch", "--no-kernel-headers",
                                   "--no-compat")
                said = "ERROR:NOT_CHECKED: knob_ioctl is converted to the unlocked signature, " \
                       "and is not static"
                if static:
                    self.assertNotIn(said, out.stdout)
                else:
                    self.assertIn(said, out.stdout)
                    self.assertEqual(out.returncode, 1, out.stdout + out.stderr)


if __name__ == "__main__":
    unittest.main()

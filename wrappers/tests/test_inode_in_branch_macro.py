"""An inode named only inside a macro whose definition differs by #if
branch (issue 22 section 6, found again by flags29):

    #ifdef USE_INODE
    #define FL_MINOR() MINOR(inode->i_rdev)
    #else
    #define FL_MINOR() 0
    #endif

The conversion declares `struct inode *inode = ...;` for the macro; in the
build of the branch that does not name it that local was `unused variable
'inode'`, an error with -Werror.  Now a derived local that no use outside
every #if names is marked __attribute__((unused)) (every gcc the 2.6
kernels took; __maybe_unused exists only from 2.6.22), and so is the local
of a compat wrapper that the macro keeps.  A macro of an included header
names the inode as one of the file does, and a use in an argument a
macro's definition drops (an empty DPRINTK) is no use in every build.
Each output is compiled both
ways with gcc -fsyntax-only -Wall -Werror against model headers."""

import unittest

from ioctl_rework.convert.summary import HandlerStatus

from shared_runs import SharedRuns, distinct, distinct_files
from test_unseen_inode import HAVE_TOOLS, ModelRun

DRIVER = """#include <linux/fs.h>
#include <linux/module.h>
#include <linux/kdev_t.h>
{prelude}
static int fl_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{body}\treturn 0;
}}
{after}
static struct file_operations fl_fops = {{
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= fl_ioctl,
}};
"""
# name: (the macro's #if block, the handler's use of it, the -D flags of
# the build where the macro names the inode).
MACROS = {
    "function_like_ifdef": (
        "#ifdef USE_INODE\n#define FL_MINOR() MINOR(inode->i_rdev)\n#else\n"
        "#define FL_MINOR() 0\n#endif\n",
        "\tif (FL_MINOR() > 3)\n\t\treturn -ENODEV;\n", ["-DUSE_INODE"]),
    "object_like_if_elif_else": (
        "#if FL_LEVEL > 1\n#define FL_UNIT MINOR(inode->i_rdev)\n#elif defined(FL_SINGLE)\n"
        "#define FL_UNIT 0\n#else\n#define FL_UNIT 1\n#endif\n",
        "\tif (cmd == 1 && FL_UNIT > 3)\n\t\treturn -ENODEV;\n", ["-DFL_LEVEL=2"]),
    "statement_macro_ifndef": (
        "#ifndef FL_QUIET\n#define FL_CHECK(c) do { if (!inode) return -ENODEV; } while (0)\n"
        "#else\n#define FL_CHECK(c) do { } while (0)\n#endif\n",
        "\tFL_CHECK(cmd);\n", []),
    "only_one_branch_defines_it": (
        "#ifdef USE_INODE\n#define FL_MINOR() MINOR(inode->i_rdev)\n#endif\n",
        "#ifdef USE_INODE\n\tif (FL_MINOR() > 3)\n\t\treturn -ENODEV;\n#endif\n",
        ["-DUSE_INODE"]),
    # A use spatch sees, in an argument that one definition drops.
    "dropped_named_arguments": (
        "void fl_trace(const char *fmt, ...);\n#ifdef FL_DEBUG\n"
        "#define FL_TRACE(fmt, args...) fl_trace(fmt, ## args)\n#else\n"
        "#define FL_TRACE(fmt, args...) do { } while (0)\n#endif\n",
        "\tFL_TRACE(\"fl: %u %u\\n\", cmd,\n\t\t MINOR(inode->i_rdev));\n", ["-DFL_DEBUG"]),
    "dropped_va_args": (
        "void fl_trace(const char *fmt, ...);\n#if defined(FL_DEBUG)\n"
        "#define FL_LOG(...) fl_trace(__VA_ARGS__)\n#else\n#define FL_LOG(...)\n#endif\n",
        "\tif (cmd == 2)\n\t\tFL_LOG(\"fl: %u\\n\", MINOR(inode->i_rdev));\n", ["-DFL_DEBUG"]),
}
# The other build: FL_QUIET turns the statement macro off.
OTHER_BUILD = {"statement_macro_ifndef": ["-DFL_QUIET"]}
TARGETS = (("--target", "2.6.11"), ("--target", "2.6.36", "--lock", "mutex"),
           ("--target", "6.1"), ("--target", "2.6.20", "--strategy", "wrapper"))
# A compat wrapper of the file that names the inode through the macro and
# passes it on: the call loses it, the macro keeps the local.
COMPAT_WRAPPER = """
static long fl_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
\tstruct inode *inode = file->f_dentry->d_inode;

\tif (FL_MINOR() > 7)
\t\treturn -ENODEV;
\treturn fl_ioctl(inode, file, cmd, arg);
}
"""


# Every conversion of the tests below, one case each, with the options it
# is converted with: the cases of one set of options are one run
# (shared_runs: a directory and a prefix for the names of each; "fl_"
# becomes "q0_", "q1_", ...).  key: (test, the subTest's labels).
CASES: dict[tuple, tuple[tuple[str, ...], str, str]] = {}
RUNS = SharedRuns("inode-branch-macro-")
KEPT_SIGNATURE = "\nint (*fl_old_ioctl)(struct inode *, struct file *, unsigned int,\n" \
                 "\t\t    unsigned long) = fl_ioctl;\n"
COMPAT_SET = COMPAT_WRAPPER.replace(
    "\tstruct inode *inode = file->f_dentry->d_inode;\n",
    "\tstruct inode *inode;\n\n\tinode = file->f_dentry->d_inode;\n")


def add_case(key: tuple, extra: tuple[str, ...], files: dict[str, str]) -> None:
    index = len(CASES)
    directory = f"{key[0]}-{index}"
    argv = ("--no-cache", "-q", "--no-kernel-headers", *extra)
    RUNS.add(argv, directory,
             distinct_files({"Makefile": "obj-m += fl.o\n\n", **files}, "fl", index))
    CASES[key] = (argv, directory, distinct("fl_", "fl", index))


for _extra in TARGETS:
    for _name, (_prelude, _body, _) in MACROS.items():
        add_case(("file", _extra, _name), _extra,
                 {"fl.c": DRIVER.format(prelude=_prelude, body=_body, after="")})
    for _name in ("function_like_ifdef", "object_like_if_elif_else"):
        add_case(("header", _extra, _name), _extra,
                 {"fl.c": DRIVER.format(prelude='#include "fl.h"\n', body=MACROS[_name][1],
                                        after=""), "fl.h": MACROS[_name][0]})
for _extra in (("--target", "2.6.11"), ("--target", "2.6.20", "--strategy", "wrapper")):
    add_case(("compat", _extra), _extra, {"fl.c": DRIVER.format(
        prelude=MACROS["function_like_ifdef"][0], body=MACROS["function_like_ifdef"][1],
        after=COMPAT_WRAPPER)})
add_case(("compat set",), ("--target", "2.6.11"), {"fl.c": DRIVER.format(
    prelude=MACROS["function_like_ifdef"][0], body=MACROS["function_like_ifdef"][1],
    after=COMPAT_SET)})
for _name in ("function_like_ifdef", "dropped_va_args"):
    add_case(("kept", _name), ("--target", "2.6.20"), {"fl.c": DRIVER.format(
        prelude=MACROS[_name][0], body=MACROS[_name][1], after=KEPT_SIGNATURE)})
OUTSIDE_BODY = MACROS["function_like_ifdef"][1] + \
    "\tif (MINOR(inode->i_rdev) == 9)\n\t\treturn -EBUSY;\n"
for _extra in TARGETS[:3]:
    add_case(("outside", _extra), _extra, {"fl.c": DRIVER.format(
        prelude=MACROS["function_like_ifdef"][0], body=OUTSIDE_BODY, after="")})


def tearDownModule():
    RUNS.remove()


@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class InodeInBranchMacroTest(ModelRun):
    def builds(self, name, key):
        """Case KEY's part of its run: the handler converted, its output
        built with the flags that name the inode (macro NAME's) and with
        the others.  The converted text, and the prefix of its names."""
        argv, directory, prefix = CASES[key]
        part = RUNS.part(argv, directory)
        record = part.handlers[0]
        self.assertEqual(record.status, HandlerStatus.CONVERTED, record)
        new = part.changes[next(k for k in part.changes if k.endswith(".c"))][1].decode()
        include = [f"-I{part.directory}"]
        for flags in (MACROS[name][2], OTHER_BUILD.get(name, [])):
            self.assertEqual(self.compile_errors(new, flags + include), "", (name, flags, new))
        return new, prefix

    def test_the_inputs_build_both_ways(self):
        for name, (prelude, body, flags) in MACROS.items():
            text = DRIVER.format(prelude=prelude, body=body, after="")
            for build in (flags, OTHER_BUILD.get(name, [])):
                with self.subTest(name=name, flags=build):
                    self.assertEqual(self.compile_errors(text, build), "")

    def test_a_macro_of_the_file_leaves_a_local_no_build_calls_unused(self):
        for extra in TARGETS:
            for name in MACROS:
                with self.subTest(target=extra, name=name):
                    new, _ = self.builds(name, ("file", extra, name))
                    self.assertIn("struct inode *inode __attribute__((unused)) = ", new)

    def test_a_macro_of_an_included_header_names_the_inode_too(self):
        for extra in TARGETS:
            for name in ("function_like_ifdef", "object_like_if_elif_else"):
                with self.subTest(target=extra, name=name):
                    new, _ = self.builds(name, ("header", extra, name))
                    self.assertIn("struct inode *inode __attribute__((unused)) = ", new)

    def test_the_local_a_compat_wrapper_keeps_for_the_macro_is_marked(self):
        for extra in (("--target", "2.6.11"), ("--target", "2.6.20", "--strategy", "wrapper")):
            with self.subTest(target=extra):
                new, prefix = self.builds("function_like_ifdef", ("compat", extra))
                self.assertIn("\tstruct inode *inode __attribute__((unused)) = "
                              "file->f_dentry->d_inode;\n\n\tif (FL_MINOR() > 7)", new)
                self.assertIn(f"return {prefix}ioctl(file, cmd, arg);", new)

    def test_a_compat_wrapper_local_set_by_a_statement_is_marked(self):
        # Set but not used in the other build (-Wunused-but-set-variable).
        new, _ = self.builds("function_like_ifdef", ("compat set",))
        self.assertIn("\tstruct inode *inode __attribute__((unused));\n\n"
                      "\tinode = file->f_dentry->d_inode;\n", new)

    def test_the_kept_signature_wrapper_declares_no_local(self):
        # Also used with its old signature: the wrapper passes the inode
        # expression, and an unused parameter is no -Wall warning.
        for name in ("function_like_ifdef", "dropped_va_args"):
            with self.subTest(name=name):
                new, prefix = self.builds(name, ("kept", name))
                self.assertIn(f"static int {prefix}ioctl(struct inode *inode, "
                              "struct file *file,", new)
                self.assertNotIn("struct inode *inode =", new)

    def test_a_use_outside_every_if_keeps_the_plain_local(self):
        for extra in TARGETS[:3]:
            with self.subTest(target=extra):
                new, _ = self.builds("function_like_ifdef", ("outside", extra))
                self.assertRegex(new, r"\tstruct inode \*inode = [^;]+;\n")
                self.assertNotIn("unused", new)


if __name__ == "__main__":
    unittest.main()

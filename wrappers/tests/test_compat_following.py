"""What the compat classifier follows beyond a handler's own switch, each
with the shapes it must still refuse: pointer aliases of aliases, cmd
handed to a printer, _IOC_TYPE guards, switches on _IOC_NR(cmd), cases
that break out of a nested block, a user pointer handed to a helper
of the file, calls through a function pointer, and the uapi header a
command is defined in behind kernel-only headers.
"""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework import compat
from ioctl_rework.compat import headers, probe
from ioctl_rework.compat.classify import CompatClass
from test_compat import HEADER, driver

# Bodies of the handler's switch (test_compat.driver): argp is
# (void __user *)arg, l, p, u, c and v are locals of the ABI's types.
CASES = {
    "chained_alias": ("case ABI_U32: {\n\tu32 __user *up = argp;\n\treturn put_user(v, up);\n}\n",
                      CompatClass.COMPAT_PTR),
    "chained_alias_long": ("case ABI_LONG: {\n\tstruct abi_long __user *lp = argp;\n"
                           "\treturn copy_from_user(&l, lp, sizeof(l)) ? -EFAULT : 0;\n}\n",
                           CompatClass.NEEDS_TRANSLATION),
    # Pointer arithmetic on the alias: what crosses is not the pointee.
    "chained_alias_walked": ("case ABI_U32: {\n\tu32 __user *up = argp;\n"
                             "\treturn put_user(v, up + 1);\n}\n", CompatClass.UNKNOWN),
    "chained_to_a_number": ("case ABI_INT: {\n\tunsigned long n = argp;\n"
                            "\treturn n ? 0 : -EINVAL;\n}\n", CompatClass.UNKNOWN),
    # An alias cast into a declaration is an alias: what is copied through
    # it crosses (a struct abi_long, whatever the cast says).
    "alias_cast_declared": ("case ABI_CLEAN: {\n\tstruct abi_clean __user *cp = "
                            "(struct abi_clean __user *)argp;\n"
                            "\treturn copy_from_user(&l, cp, sizeof(l)) ? -EFAULT : 0;\n}\n",
                            CompatClass.NEEDS_TRANSLATION),
    "alias_cast_in_a_call": ("case ABI_U32:\n\treturn put_user(v, (u32 __user *)argp);\n",
                             CompatClass.COMPAT_PTR),
    # Cast and assigned: where it goes is not followed.
    "alias_cast_assigned": ("case ABI_CLEAN: {\n\tstruct abi_clean __user *cp;\n\n"
                            "\tcp = (struct abi_clean __user *)argp;\n"
                            "\treturn copy_from_user(&c, cp, sizeof(c)) ? -EFAULT : 0;\n}\n",
                            CompatClass.UNKNOWN),
    "logged_command": ("case ABI_NONE:\n\tpr_debug(\"cmd %u arg %lx\\n\", cmd, arg);\n\treturn 0;\n",
                       CompatClass.SAME_HANDLER),
    # A case that breaks out of a nested block still names its command:
    # ABI_LONG's number differs between the ABIs.
    "nested_break_case": ("case ABI_NONE:\n\treturn 0;\ncase ABI_LONG:\n\tif (arg > 10) {\n"
                          "\t\tv = 1;\n\t\tbreak;\n\t}\n\treturn 0;\n",
                          CompatClass.NEEDS_TRANSLATION),
    "cmd_to_a_function_pointer": ("case ABI_NONE:\n\treturn file->f_op->unlocked_ioctl(file, cmd, arg);\n",
                                  CompatClass.UNKNOWN),
}

# Statements before the switch.
GUARDED = {
    "type_guard": ("\tif (_IOC_TYPE(cmd) != 'a')\n\t\treturn -ENOTTY;\n", CompatClass.SAME_HANDLER),
    "type_guard_in_a_condition": ("\tif (_IOC_TYPE(cmd) != 'a' && cmd != 0x1234) {\n"
                                  "\t\tpr_err(\"foreign\\n\");\n\t\treturn -ENOTTY;\n\t}\n",
                                  CompatClass.SAME_HANDLER),
    # Not a guard: the test does not return, or dispatches, or _IOC_NR
    # picks commands no case label names.
    "type_test_without_return": ("\tif (_IOC_TYPE(cmd) != 'a')\n\t\tv = 1;\n", CompatClass.UNKNOWN),
    "type_compared_equal": ("\tif (_IOC_TYPE(cmd) == 'b')\n\t\treturn 0;\n", CompatClass.UNKNOWN),
    # A switch on _IOC_NR(cmd), before the switch on cmd.
    "number_switch": ("\tswitch (_IOC_NR(cmd)) {\n\tcase _IOC_NR(ABI_U32):\n"
                      "\t\treturn put_user(v, (u32 __user *)arg);\n\t}\n", CompatClass.COMPAT_PTR),
    "number_switch_long": ("\tswitch (_IOC_NR(cmd)) {\n\tcase _IOC_NR(ABI_LONG):\n"
                           "\t\treturn copy_from_user(&l, argp, sizeof(l)) ? -EFAULT : 0;\n\t}\n",
                           CompatClass.NEEDS_TRANSLATION),
    "number_switch_sized": ("\tswitch (_IOC_NR(cmd)) {\n\tcase 7:\n"
                            "\t\treturn copy_to_user(argp, &u, _IOC_SIZE(cmd));\n\t}\n",
                            CompatClass.UNKNOWN),
    "number_dispatch": ("\tif (_IOC_NR(cmd) == 9)\n\t\treturn copy_to_user(argp, &u, sizeof(u));\n",
                        CompatClass.UNKNOWN),
}

# Helpers of the file given a user pointer (or arg) as their last argument.
GET_CLEAN = """\
static int get_clean(struct file *file, void __user *up)
{
\tstruct abi_clean c;

\treturn copy_to_user(up, &c, sizeof(c)) ? -EFAULT : 0;
}
"""
GET_LONG = GET_CLEAN.replace("get_clean", "get_long").replace("abi_clean", "abi_long")
SET_LEVEL = """\
static int set_level(struct file *file, unsigned long level)
{
\treturn level > 3 ? -EINVAL : 0;
}
"""
WALKS = """\
static int get_second(struct file *file, u32 __user *up)
{
\treturn put_user(0, up + 1);
}
"""
PASSES_ON = """\
static int get_elsewhere(struct file *file, void __user *up)
{
\treturn fill_from_firmware(file, up);
}
"""
HELPERS = {
    "pointer_to_helper": (GET_CLEAN, "case ABI_CLEAN:\n\treturn get_clean(file, argp);\n",
                          CompatClass.COMPAT_PTR),
    "cast_to_helper": (GET_CLEAN, "case ABI_CLEAN:\n\treturn get_clean(file, (void __user *)arg);\n",
                       CompatClass.COMPAT_PTR),
    "pointer_to_helper_long": (GET_LONG, "case ABI_LONG:\n\treturn get_long(file, argp);\n",
                               CompatClass.NEEDS_TRANSLATION),
    "number_to_helper": (SET_LEVEL, "case ABI_INT:\n\treturn set_level(file, arg);\n",
                         CompatClass.SAME_HANDLER),
    # Refused: the helper walks the pointer, hands it on again, or does not
    # get it as its last argument; a helper taking a pointer is not handed arg.
    "helper_walks_pointer": (WALKS, "case ABI_U32:\n\treturn get_second(file, argp);\n",
                             CompatClass.UNKNOWN),
    "helper_passes_on": (PASSES_ON, "case ABI_CLEAN:\n\treturn get_elsewhere(file, argp);\n",
                         CompatClass.UNKNOWN),
    "pointer_not_last": (GET_CLEAN.replace("struct file *file, void __user *up",
                                           "void __user *up, struct file *file"),
                         "case ABI_CLEAN:\n\treturn get_clean(argp, file);\n", CompatClass.UNKNOWN),
    "number_to_pointer_helper": (SET_LEVEL.replace("unsigned long level", "void __user *level")
                                 .replace("level > 3", "level"),
                                 "case ABI_INT:\n\treturn set_level(file, arg);\n",
                                 CompatClass.UNKNOWN),
}


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class FollowingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "abi.h").write_text(HEADER)
        sources = {name: driver(name, body) for name, (body, _) in CASES.items()}
        for name, (before, _) in GUARDED.items():
            sources[name] = driver(name, "case ABI_NONE:\n\treturn 0;\n").replace(
                "\tswitch (cmd) {", before + "\tswitch (cmd) {")
        for name, (helper, body, _) in HELPERS.items():
            sources[name] = driver(name, body).replace('#include "abi.h"\n',
                                                       '#include "abi.h"\n\n' + helper)
        files = []
        for name, text in sources.items():
            (root / f"{name}.c").write_text(text)
            files.append(root / f"{name}.c")
        cls.results = {Path(c.file).stem: c for c in compat.classify_files(files)
                       if c.handler.endswith("_ioctl")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, table: dict):
        for name, entry in table.items():
            with self.subTest(name):
                self.assertIn(name, self.results)
                self.assertIs(self.results[name].compat_class, entry[-1],
                              self.results[name].describe())

    def test_aliases_of_aliases_and_printed_commands(self):
        self.check(CASES)
        self.assertIn("struct abi_long: member msecs",
                      self.results["chained_alias_long"].describe())
        self.assertIn("ABI_LONG: struct abi_long: the command number differs",
                      self.results["nested_break_case"].describe())
        self.assertIn("used at line", self.results["chained_alias_walked"].reason)
        self.assertIn("a pointer set from arg is used at line",
                      self.results["chained_to_a_number"].reason)
        self.assertIn("cmd is passed to file -> f_op -> unlocked_ioctl()",
                      self.results["cmd_to_a_function_pointer"].reason)

    def test_only_a_returning_type_guard_is_forgotten(self):
        self.check(GUARDED)
        for name in ("type_test_without_return", "type_compared_equal"):
            self.assertIn("passed to _IOC_TYPE()", self.results[name].reason)
        self.assertIn("passed to _IOC_NR()", self.results["number_dispatch"].reason)
        self.assertIn("_IOC_NR ( ABI_U32 )", self.results["number_switch"].commands)
        self.assertIn("passed to _IOC_SIZE()", self.results["number_switch_sized"].reason)

    def test_a_pointer_handed_to_a_helper_of_the_file(self):
        self.check(HELPERS)
        self.assertIn("ABI_LONG: struct abi_long: member msecs",
                      self.results["pointer_to_helper_long"].describe())
        self.assertIn("used at line", self.results["helper_walks_pointer"].reason)
        self.assertIn("passed to fill_from_firmware()", self.results["helper_passes_on"].reason)
        self.assertIn("passed to get_clean()", self.results["pointer_not_last"].reason)
        self.assertIn("arg is passed to set_level()",
                      self.results["number_to_pointer_helper"].reason)


class HeadersTest(unittest.TestCase):
    """Only uapi headers are probed; behind kernel-only ones, only those
    that define a command of the handler."""

    def test_uapi_headers_found_directly_and_behind_kernel_only_ones(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree, driver_dir = Path(tmp) / "tree", Path(tmp) / "tree" / "drivers" / "foo"
            files = {
                "include/uapi/linux/foo.h": "#define FOO_GET _IOR('f', 1, __u32)\n",
                "include/uapi/linux/unrelated.h": "struct timeval { long tv_sec; };\n",
                "include/uapi/linux/direct.h": "",
                "include/uapi/linux/prefixed.h": "",
                "include/uapi/linux/local_abi.h": "#define FOO_SET _IOW('f', 2, __u32)\n",
                "include/uapi/asm-generic/ioctls.h": "#define FIONREAD 0x541B\n",
                "include/linux/foo_core.h": "#include <linux/foo_priv.h>\n",
                "include/linux/foo_priv.h": "#include <linux/foo.h>\n#include <linux/unrelated.h>\n",
                "drivers/foo/foo.h": "#include <linux/spinlock.h>\n#include <linux/local_abi.h>\n",
            }
            for name, text in files.items():
                (tree / name).parent.mkdir(parents=True, exist_ok=True)
                (tree / name).write_text(text)
            source = driver_dir / "foo.c"
            source.write_text('#include <linux/foo_core.h>\n#include <linux/direct.h>\n'
                              '#include <uapi/linux/prefixed.h>\n#include <asm/ioctls.h>\n'
                              '#include "foo.h"\n')
            dirs = headers.include_dirs(source, tree)
            found, _ = headers.probe_headers(source, source.read_text(), dirs, tree,
                                             frozenset({"FOO_GET", "FOO_SET", "FIONREAD"}))
            names = {p.relative_to(tree.resolve()).as_posix() for p in found}
            self.assertEqual(names, {"include/uapi/linux/foo.h", "include/uapi/linux/direct.h",
                                     "include/uapi/linux/prefixed.h",
                                     "include/uapi/asm-generic/ioctls.h",
                                     "include/uapi/linux/local_abi.h", "drivers/foo/foo.h"})
            # Without the commands, nothing behind a kernel-only header.
            bare, _ = headers.probe_headers(source, source.read_text(), dirs, tree)
            self.assertNotIn("include/uapi/linux/foo.h",
                             {p.relative_to(tree.resolve()).as_posix() for p in bare})

    @unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
    def test_a_raw_uapi_header_is_probed_as_headers_install_writes_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = Path(tmp) / "raw.h"
            header.write_text("#include <linux/compiler.h>\n"
                              "struct raw { __u8 tag; __u32 len; int32_t off; bool on; } __packed;\n"
                              "static inline __attribute_const__ __u32 raw_len(__u32 l) { return l; }\n")
            item = probe.ProbeItem("type", "struct raw")
            found = probe.probe([item], (header,), ())[item]
            self.assertIsNone(found.error)
            self.assertEqual({abi: layout.size for abi, layout in found.layouts.items()},
                             {"i386": 10, "x86_64": 10})


if __name__ == "__main__":
    unittest.main()

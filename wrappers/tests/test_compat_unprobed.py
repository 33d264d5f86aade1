"""What no class reads is not compiled (issue 24 s.3, the classes' cost).

A handler whose facts already make it unknown (arg or cmd passed on to a
function not followed, a pointer used where it is not followed) is decided
without the layouts; its commands are probed only for the tree's compat
table, which looks them up by number.  In a tree without a table (6.1, or
no tree) nothing of such a handler is compiled, and its class and reason
are what they were.  In a tree with a table its commands are still probed:
the table may pass them.
"""

import shutil
import tempfile
import textwrap
import unittest
from unittest import mock
from pathlib import Path

from ioctl_rework import compat
from ioctl_rework.cache import Cache, FileDigests
from ioctl_rework.compat import probe
from ioctl_rework.compat.classify import CompatClass

from test_compat import AbiDirectory, driver

ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"

# Handlers the facts alone make unknown, each a different way, with the
# words of the reason.
UNDECIDED = {
    "arg_passed_on": ("case ABI_INT:\n\treturn helper(file, arg);\n",
                      "arg is passed to helper() at line"),
    "cmd_passed_on": ("case ABI_INT:\n\treturn helper(file, cmd);\n",
                      "cmd is passed to helper() at line"),
    "pointer_passed_on": ("case ABI_CLEAN:\n\treturn helper(file, argp);\n",
                          "is passed to helper() at line"),
    "alias_moved": ("case ABI_CLEAN:\n\treturn helper(file, argp + 1);\n",
                    "a pointer set from arg is used at line"),
}

# Two fops in one file: one handler decided by the facts alone, one by the
# layouts of its command.
MIXED = textwrap.dedent("""\
    #include <linux/fs.h>
    #include <linux/uaccess.h>
    #include "abi.h"

    static long passes_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
    {
    \tswitch (cmd) {
    \tcase ABI_LONG:
    \t\treturn helper(file, arg);
    \t}
    \treturn -ENOTTY;
    }

    static long number_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
    {
    \tswitch (cmd) {
    \tcase ABI_INT:
    \t\treturn arg > 10 ? -EINVAL : 0;
    \t}
    \treturn -ENOTTY;
    }

    static const struct file_operations passes_fops = {
    \t.unlocked_ioctl = passes_ioctl,
    };

    static const struct file_operations number_fops = {
    \t.unlocked_ioctl = number_ioctl,
    };
    """)


class Compiles:
    """probe._compile, counting the items of each compile."""

    def __init__(self):
        self.items: list[set[str]] = []
        self._compile = probe._compile

    def __call__(self, items, *args):
        self.items.append({item.text for item in items})
        return self._compile(items, *args)


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class WithoutATableTest(AbiDirectory):
    def classified(self, files):
        compiles = Compiles()
        with mock.patch.object(probe, "_compile", compiles):
            found = compat.classify_files(files, jobs=1)
        return {c.handler: c for c in found}, compiles.items

    def test_a_handler_the_facts_decide_compiles_nothing(self):
        for name, (body, reason) in UNDECIDED.items():
            with self.subTest(name):
                path = self.root / f"{name}.c"
                path.write_text(driver(name, body, ".unlocked_ioctl"))
                found, compiled = self.classified([path])
                self.assertEqual(compiled, [])
                self.assertIs(found[f"{name}_ioctl"].compat_class, CompatClass.UNKNOWN)
                self.assertIn(reason, found[f"{name}_ioctl"].reason)
                self.assertIn("no compat table in the tree", found[f"{name}_ioctl"].source)

    def test_beside_a_decided_handler_only_its_commands_are_compiled(self):
        path = self.root / "mixed.c"
        path.write_text(MIXED)
        found, compiled = self.classified([path])
        self.assertEqual(compiled, [{"ABI_INT"}])
        self.assertIs(found["number_ioctl"].compat_class, CompatClass.SAME_HANDLER)
        self.assertIs(found["passes_ioctl"].compat_class, CompatClass.UNKNOWN)
        self.assertIn("arg is passed to helper()", found["passes_ioctl"].reason)

    def test_a_kept_result_without_numbers_serves_no_tree_that_reads_them(self):
        path = self.root / "arg_passed_on.c"
        path.write_text(driver("arg_passed_on", UNDECIDED["arg_passed_on"][0],
                               ".unlocked_ioctl"))
        stdout = compat.rule_outputs([path], 1, 60, None)[path]
        cache = Cache(self.root / "cache")
        compiles = Compiles()
        with mock.patch.object(probe, "_compile", compiles):
            without = compat.file_layouts(path, stdout, None, cache, FileDigests(),
                                          numbers_read=False)
            self.assertEqual(compiles.items, [])
            read = compat.file_layouts(path, stdout, None, cache, FileDigests(),
                                       numbers_read=True)
        self.assertEqual(compiles.items, [{"ABI_INT"}])
        self.assertEqual((without.numbers, read.numbers["ABI_INT"] is not None),
                         ({"ABI_INT": None}, True))


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class WithATableTest(unittest.TestCase):
    """The 2.6.12 fixture's generic table passes the watchdog commands by
    number: a handler that passes arg on is served all the same."""

    def test_the_commands_of_an_undecided_handler_are_looked_up(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "linux-2.6.12"
            shutil.copytree(ERA, tree)
            path = tree / "drivers" / "char" / "watchdog" / "fx_handoff.c"
            path.write_text(textwrap.dedent("""\
                /* Hands every command to a helper the facts do not follow. */
                #include <linux/fs.h>
                #include <linux/watchdog.h>

                static long fx_handoff_ioctl(struct file *file, unsigned int cmd,
                \t\tunsigned long arg)
                {
                \tswitch (cmd) {
                \tcase WDIOC_KEEPALIVE:
                \t\treturn fx_handoff_do(file, arg);
                \t}
                \treturn -ENOTTY;
                }

                static const struct file_operations fx_handoff_fops = {
                \t.unlocked_ioctl = fx_handoff_ioctl,
                };
                """))
            compiles = Compiles()
            with mock.patch.object(probe, "_compile", compiles):
                found = compat.classify_files([path], tree, jobs=1)
        self.assertEqual(len(compiles.items), 1, compiles.items)
        self.assertIn("WDIOC_KEEPALIVE", compiles.items[0])
        self.assertEqual([c.compat_class for c in found], [CompatClass.TABLE_PASSES],
                         [c.describe() for c in found])
        self.assertIn("WDIOC_KEEPALIVE", found[0].source)


if __name__ == "__main__":
    unittest.main()

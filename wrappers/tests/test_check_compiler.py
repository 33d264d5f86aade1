"""check --kdir, the compiler as the last word (check/compiler.py).

Without a kernel: the fs.h gcc reads (the legacy member taken out, its
slot kept, every line where it was), and gcc's notes that say where a
macro was used.  With a prepared KDIR (test_check_hostile.TEST_KDIR):
what the gate says of code gcc compiles that the patch does not add, of
a clean driver, and of a patch with no tree to read whole files from.
The hostile spellings themselves are in test_check_hostile (kdir_*).
"""

import re
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.check.compiler import FOPS_HEADER, SLOT, marked_header
from ioctl_rework.verify.build import KdirError
from ioctl_rework.verify.diagnostics import parse
from test_check_hostile import (CLEAN, ENTRY_LINE, LEGACY, NO_ENTRY, TEST_KDIR, Workspace,
                                run_check)

# The members as 2.6.9 declares them, one of them over two lines.
FS_H_2_6_9 = """\
#ifndef _LINUX_FS_H
struct file_operations {
\tstruct module *owner;
\tssize_t (*read) (struct file *, char __user *, size_t, loff_t *);
\tunsigned int (*poll) (struct file *, struct poll_table_struct *);
\tint (*ioctl) (struct inode *, struct file *,
\t\t      unsigned int, unsigned long);
\tlong (*unlocked_ioctl) (struct file *, unsigned int, unsigned long);
\tint (*mmap) (struct file *, struct vm_area_struct *);
};
struct block_device_operations {
\tint (*ioctl) (struct inode *, struct file *, unsigned, unsigned long);
};
#endif
"""


class MarkedHeaderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ioctl-rework-test.")
        self.kdir = Path(self.tmp.name)
        self.addCleanup(self.tmp.cleanup)

    def write(self, base: Path, text: str) -> None:
        (base / FOPS_HEADER).parent.mkdir(parents=True, exist_ok=True)
        (base / FOPS_HEADER).write_text(text)

    def test_the_member_goes_its_slot_and_lines_stay(self):
        self.write(self.kdir, FS_H_2_6_9)
        marked = marked_header(self.kdir, {})[FOPS_HEADER].decode()
        fops = marked[:marked.index("struct block_device_operations")]
        self.assertNotRegex(fops, r"\(\s*\*\s*ioctl\s*\)")
        self.assertIn(f"struct {SLOT} *{SLOT};", fops)
        self.assertEqual(marked.count("\n"), FS_H_2_6_9.count("\n"))
        # The lines after it are where they were; other structures keep theirs.
        self.assertEqual(marked.splitlines()[7:], FS_H_2_6_9.splitlines()[7:])
        self.assertIn("int (*ioctl) (struct inode *, struct file *, unsigned",
                      marked[marked.index("struct block_device_operations"):])
        # The slot sits where the member was: between poll and unlocked_ioctl.
        self.assertLess(fops.index("(*poll)"), fops.index(SLOT))
        self.assertLess(fops.index(SLOT), fops.index("unlocked_ioctl"))

    def test_an_o_directory_reads_its_source_tree(self):
        self.write(self.kdir / "source", FS_H_2_6_9)
        self.assertIn(FOPS_HEADER, marked_header(self.kdir, {}))

    def test_the_patch_s_own_fs_h_comes_first(self):
        self.write(self.kdir, "struct file_operations {\n\tint x;\n};\n")
        marked = marked_header(self.kdir, {FOPS_HEADER: FS_H_2_6_9.encode()})
        self.assertIn(SLOT, marked[FOPS_HEADER].decode())

    def test_no_member_nothing_to_mark(self):
        self.write(self.kdir, FS_H_2_6_9.replace(
            "\tint (*ioctl) (struct inode *, struct file *,\n\t\t      unsigned int, unsigned "
            "long);\n", ""))
        self.assertEqual(marked_header(self.kdir, {}), {})

    def test_no_structure_to_mark_is_refused(self):
        self.write(self.kdir, "/* not the kernel's */\n")
        with self.assertRaisesRegex(KdirError, "no struct file_operations"):
            marked_header(self.kdir, {})
        with self.assertRaisesRegex(KdirError, "no include/linux/fs.h"):
            marked_header(self.kdir / "nowhere", {})


MACRO_OUTPUT = """\
  CC [M]  /s/tree/drivers/misc/thermo.o
/s/tree/drivers/misc/oldfops.h:3:20: error: 'const struct file_operations' has no member named 'ioctl'
    3 | #define OLD_MEMBER i##octl
      |                    ^
/s/tree/drivers/misc/oldfops.h:2:48: note: in expansion of macro 'OLD_MEMBER'
/s/tree/drivers/misc/thermo.c:31:1: note: in expansion of macro 'DEFINE_OLD_FOPS'
/s/tree/drivers/misc/thermo.c:14:16: note: in definition of macro 'P'
/s/tree/drivers/misc/thermo.c:9:10: fatal error: linux/nowhere.h: No such file or directory
"""


class MacroNotesTest(unittest.TestCase):
    def test_every_use_of_the_macros_in_gcc_s_order(self):
        first, second = parse(MACRO_OUTPUT, "/s/tree")["drivers/misc/thermo.c"]
        self.assertEqual(first.file, "drivers/misc/oldfops.h")
        self.assertEqual(first.expansions, (("drivers/misc/oldfops.h", 2),
                                            ("drivers/misc/thermo.c", 31)))
        self.assertFalse(first.fatal)
        self.assertTrue(second.fatal)
        self.assertEqual(second.severity, "error")


@unittest.skipIf(TEST_KDIR is None, "no prepared KDIR (make fixture-build, or set "
                 "IOCTL_REWORK_TEST_KDIR)")
class GateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="ioctl-rework-test.")
        self.addCleanup(self.tmp.cleanup)
        self.ws = Workspace(Path(self.tmp.name)).init()

    def check(self, *args: str):
        proc = run_check(self.ws, [*args, "--kdir", str(TEST_KDIR)])
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode()

    def test_a_clean_driver_passes(self):
        self.ws.commit("thermo", {"drivers/misc/thermo.c": CLEAN})
        status, out, err = self.check("--git", "HEAD")
        self.assertEqual(status, 0, out + err)
        self.assertNotRegex(out, r"(ERROR|WARNING):")

    def test_legacy_code_the_patch_leaves_is_a_warning_from_gcc(self):
        # The legacy entry is the tree's; the patch changes another line.
        self.ws.commit("thermo", {"drivers/misc/thermo.c": LEGACY})
        self.ws.commit("thermo: a comment", {"drivers/misc/thermo.c": LEGACY.replace(
            "static int thermo_value;", "static int thermo_value;\t/* last reading */")})
        status, out, err = self.check("--git", "HEAD")
        self.assertEqual(status, 0, out + err)
        self.assertRegex(out, r"WARNING:LEGACY_IOCTL: gcc, .* the patch changes none of "
                              r"these lines")
        self.assertNotIn("ERROR:", out)

    def test_the_patch_adding_the_entry_is_an_error_at_its_line(self):
        self.ws.commit("thermo", {"drivers/misc/thermo.c": NO_ENTRY})
        # A pasted name, which only the compiler resolves.
        self.ws.commit("thermo: ioctl", {"drivers/misc/thermo.c": LEGACY.replace(
            ENTRY_LINE, "\t.PASTE(io, ctl)\t= thermo_ioctl,\n").replace(
            "static int thermo_value;", "#define PASTE(a, b) a##b\nstatic int thermo_value;")})
        status, out, err = self.check("--git", "HEAD")
        self.assertEqual(status, 1, out + err)
        line = LEGACY.split("\n").index(ENTRY_LINE.rstrip("\n")) + 2
        self.assertRegex(out, r"ERROR:LEGACY_IOCTL: gcc, .*thermo\.c:%d: error: "
                              r"'const struct file_operations' has no member named "
                              r"'ioctl'\n#\d+: FILE: drivers/misc/thermo\.c:%d:" % (line, line))

    def test_a_file_gcc_cannot_finish_is_not_checked(self):
        self.ws.commit("thermo", {"drivers/misc/thermo.c": CLEAN.replace(
            "#include <linux/fs.h>\n", "#include <linux/fs.h>\n#include <linux/nowhere.h>\n")})
        status, out, err = self.check("--git", "HEAD")
        self.assertEqual(status, 1, out + err)
        self.assertRegex(out, r"ERROR:NOT_CHECKED: --kdir: gcc stopped: .*nowhere\.h")

    def test_a_patch_whose_fs_h_has_no_file_operations_is_refused(self):
        self.ws.commit("thermo", {"drivers/misc/thermo.c": LEGACY, FOPS_HEADER:
                                  "/* no file_operations here */\n"})
        status, out, err = self.check("--git", "HEAD")
        self.assertEqual(status, 2, out + err)
        self.assertRegex(err, r"^ioctl-rework check: --kdir .*: no struct file_operations in "
                              r"include/linux/fs\.h")
        self.assertNotIn("Traceback", err)

    def test_a_bare_patch_is_refused(self):
        patch = self.ws.write("case.patch", "")
        status, out, err = self.check("--diff", str(patch))
        self.assertEqual(status, 2, out + err)
        self.assertRegex(err, r"^ioctl-rework check: --kdir compiles .*--tree DIR")


if __name__ == "__main__":
    unittest.main()

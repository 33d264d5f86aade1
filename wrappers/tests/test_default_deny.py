"""Default-deny auto (issue 22 section 1): convert pushes a handler down
only where the rule read the definition of every name it uses, found as
the compiler finds it (the directory's kbuild -I, a tree's include/ and
include/asm-*/, a file included in the body), and falls back to the
wrapper, proven again, where the verify stage rejects a pushdown.  The
summary counts each strategy and why.  Trees are written here, several
spellings per class."""

import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert import verification
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import include_search
from shared_runs import SharedRuns, distinct, distinct_files

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

# A driver whose handler uses NAME as a statement; the header defines it.
DRIVER = """#include <linux/fs.h>
#include {include}

static int bd_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
\tstruct bd_dev *dev = file->private_data;

\t{use};
\treturn dev->level;
}}

static struct file_operations bd_fops = {{
\t.ioctl = bd_ioctl,
}};
"""
RETURNING = "#define {name}(d) do {{ if (!(d)) return -ENODEV; }} while (0)\n"
HARMLESS = "#define {name}(d) do {{ (d)->level = 0; }} while (0)\n"
HEADER = "struct bd_dev {{\n\tint level;\n}};\n" + "{define}"
TREE_MAKEFILE = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


# The conversions of DefaultDenyConvertTest outside a tree with the same
# options, one case each: one run (shared_runs: a directory and a prefix
# for the names of each, "bd_" becoming "q0_", "q1_", ...).  key: (test,
# the subTest's labels).
CASES: dict[tuple, tuple[str, int]] = {}
RUNS = SharedRuns("default-deny-")
RUN_ARGV = ("--no-cache", "--target", "2.6.20", "--no-kernel-headers")
STMT_EXPR = "#define bd_try(d) ({{ int __r = (d)->level; if (__r < 0) return __r; __r; }})\n"
VALUE_USES = ("int v = bd_try(dev); (void)v", "dev->level = bd_try(dev)",
              "if (bd_try(dev)) return -EBUSY", "switch (bd_try(dev)) { default: break; }",
              "dev->level = bd_clamp(bd_try(dev))")
VALUE_HEADERS = (({}, "wrapper"),
                 ({"drivers/bd/board.h": HEADER.format(define=STMT_EXPR)}, "wrapper"),
                 ({"drivers/bd/board.h": HEADER.format(
                     define="int bd_try(struct bd_dev *d);\n")}, "pushdown"))
BODY_INCLUDING = DRIVER.replace("\treturn dev->level;\n",
                                "\tswitch (cmd) {{\n#include \"bd_cases.h\"\n\t}}\n"
                                "\treturn dev->level;\n")
BODY_CASES = (("case 1:\n\tdev->level = 1;\n\tbreak;\n", "pushdown"),
              ("case 1:\n\treturn -EBUSY;\n", "wrapper"),
              (None, "wrapper"))
SPLIT_DECLARATIONS = (("struct bd_dev *ei = bd_info(inode);", "ei = bd_info(inode);"),
                      ("int level = dev->level;", "level = dev->level;"))
PARAMETER_READS = (
    ("loff_t pos = file->f_pos;", "file->f_pos = pos + 1;", "pos = file->f_pos;"),
    ("loff_t size = inode->i_size;", "inode->i_size = size + 1;", "size = inode->i_size;"),
    ("int n = ((struct bd_dev *)file->private_data)->level;",
     "dev->level = n + 1;", "n = ((struct bd_dev *)file->private_data)->level;"),
    ("u64 version = file->f_version;", "file->f_version = version + 1;",
     "version = file->f_version;"),
    ("unsigned int minor = MINOR(inode->i_rdev);", "dev->level = minor;", None),
    ("int nonblock = file->f_flags & O_NONBLOCK;", "dev->level = nonblock;", None))


def add_case(key: tuple, files: dict[str, str]) -> None:
    index = len(CASES)
    directory = f"{key[0]}-{index}"
    RUNS.add(RUN_ARGV, directory, distinct_files(files, "bd", index))
    CASES[key] = (directory, index)


add_case(("not found",), {"drivers/bd/bd.c": DRIVER.format(include='"board.h"',
                                                            use="BD_CHECK(dev)")})
for _use in VALUE_USES:
    for _number, (_files, _) in enumerate(VALUE_HEADERS):
        _text = DRIVER.format(include='"board.h"', use=_use)
        if "bd_clamp" in _use:
            _text = _text.replace("static int bd_ioctl",
                                  "int bd_clamp(int v);\n\nstatic int bd_ioctl")
        add_case(("value", _use, _number), {"drivers/bd/bd.c": _text, **_files})
for _cases, _ in BODY_CASES:
    add_case(("body", _cases), {
        "bd.h": HEADER.format(define=HARMLESS.format(name="BD_CHECK")),
        "bd.c": BODY_INCLUDING.format(include='"bd.h"', use="BD_CHECK(dev)"),
        **({"bd_cases.h": _cases} if _cases is not None else {})})
for _declaration, _ in SPLIT_DECLARATIONS:
    add_case(("split", _declaration), {
        "bd.h": HEADER.format(define="struct bd_dev *bd_info(struct inode *);\n"),
        "bd.c": DRIVER.format(include='"bd.h"', use="dev->level = 2").replace(
            "\tstruct bd_dev *dev = file->private_data;\n",
            "\tstruct bd_dev *dev = file->private_data;\n\t%s\n" % _declaration)})
for _declaration, _write, _ in PARAMETER_READS:
    add_case(("parameter", _declaration), {
        "bd.h": HEADER.format(define=""),
        "bd.c": DRIVER.format(include='"bd.h"', use=_write.rstrip(";")).replace(
            "\tstruct bd_dev *dev = file->private_data;\n",
            "\tstruct bd_dev *dev = file->private_data;\n\t%s\n" % _declaration)})


def tearDownModule():
    RUNS.remove()


class SearchPathTest(unittest.TestCase):
    """ctext.include_search: where the compiler looks, read from the tree."""

    def test_kbuild_include_flags_in_every_spelling(self):
        for flags, expect in (("ccflags-y += -I$(src)/include\n", "drivers/bd/include"),
                              ("EXTRA_CFLAGS += -Idrivers/bd/inc\n", "drivers/bd/inc"),
                              ("EXTRA_CFLAGS := -I $(srctree)/drivers/bd/hw\n",
                               "drivers/bd/hw"),
                              ("ccflags-$(CONFIG_BD) += \\\n\t-I$(obj)/regs\n",
                               "drivers/bd/regs")):
            with self.subTest(flags=flags), tempfile.TemporaryDirectory() as tmp:
                write(Path(tmp), {"drivers/bd/Makefile": flags})
                search = include_search.search_path(tmp, "drivers/bd/bd.c")
                self.assertEqual(search.kbuild, (expect,))

    def test_kbuild_flag_variables_and_places_in_more_spellings(self):
        # Every variable kbuild gives a Makefile, every flags variable that
        # reaches the compiler, and the ways a Makefile writes them.
        for flags, expect in (("EXTRA_CFLAGS += -I$(TOPDIR)/drivers/bd/hw\n", "drivers/bd/hw"),
                              ("EXTRA_CFLAGS += -I$(src)/x\n", "drivers/bd/x"),
                              ("ccflags-y := -I$(obj)\n", "drivers/bd"),
                              ("ccflags-y += -I${src}/regs\n", "drivers/bd/regs"),
                              ("subdir-ccflags-y += -I$(srctree)/include/bd\n", "include/bd"),
                              ("CFLAGS_bd.o += -I$(src)/chip\n", "drivers/bd/chip"),
                              ("CFLAGS_bd.o := -I\"$(src)/quoted\"\n", "drivers/bd/quoted"),
                              ("ifdef CONFIG_BD\n  EXTRA_CFLAGS += -I$(src)/cfg\nendif\n",
                               "drivers/bd/cfg"),
                              ("MYINC := $(src)/inc\nEXTRA_CFLAGS += -I$(MYINC)\n",
                               "drivers/bd/inc"),
                              ("HW = $(srctree)/drivers/hw\nHWINC = $(HW)/include\n"
                               "ccflags-y += -I$(HWINC)\n", "drivers/hw/include")):
            with self.subTest(flags=flags), tempfile.TemporaryDirectory() as tmp:
                write(Path(tmp), {"drivers/bd/Makefile": flags})
                search = include_search.search_path(tmp, "drivers/bd/bd.c")
                self.assertEqual((search.kbuild, search.unexpanded), ((expect,), ()))

    def test_an_unexpandable_flag_is_reported_not_dropped(self):
        # Default-deny: a directory this reading cannot work out is not
        # read, and says so, so that what it might define counts as unread.
        for flags, flag in (("ccflags-y := -I$(shell pwd)/inc\n", "-I$(shell pwd)/inc"),
                            ("EXTRA_CFLAGS += -I$(BOARD_DIR)/$(ARCH)\n",
                             "-I$(BOARD_DIR)/$(ARCH)"),
                            ("ccflags-y += -I$(UNSET)/nowhere\n", "-I$(UNSET)/nowhere"),
                            ("CFLAGS_bd.o += -I$(KDIR_EXTRA)/include\n",
                             "-I$(KDIR_EXTRA)/include")):
            with self.subTest(flags=flags), tempfile.TemporaryDirectory() as tmp:
                write(Path(tmp), {"drivers/bd/Makefile": "obj-m := bd.o\n" + flags})
                search = include_search.search_path(tmp, "drivers/bd/bd.c")
                self.assertEqual(search.kbuild, ())
                self.assertEqual(search.unexpanded, (flag + " (drivers/bd/Makefile)",))

    def test_kbuild_variables_of_the_makefile(self):
        # A variable the Makefile assigns, and one it computes (the fixture
        # Kbuild's $(if ...)): the latter is the Makefile's directory or the
        # tree's top, whichever has the rest of the path.
        for makefile in ("BD_INC := $(src)/include\nccflags-y += -I$(BD_INC)\n",
                         "bd_dir := $(if $(filter /%,$(src)),$(src),$(srctree)/$(src))\n"
                         "ccflags-y := -I$(bd_dir)/include\n"):
            with self.subTest(makefile=makefile), tempfile.TemporaryDirectory() as tmp:
                write(Path(tmp), {"drivers/bd/Makefile": makefile,
                                  "drivers/bd/include/board.h": ""})
                search = include_search.search_path(tmp, "drivers/bd/bd.c")
                self.assertEqual(search.kbuild, ("drivers/bd/include",))
        with tempfile.TemporaryDirectory() as tmp:      # nowhere: nothing guessed
            write(Path(tmp), {"drivers/bd/Makefile": "ccflags-y := -I$(shell pwd)/inc\n"})
            self.assertEqual(include_search.search_path(tmp, "drivers/bd/bd.c").kbuild, ())

    def test_tree_include_dirs_old_and_new_layouts(self):
        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp), {"Makefile": TREE_MAKEFILE, "include/linux/x.h": "",
                              "include/asm-i386/io.h": ""})
            search = include_search.search_path(tmp, "drivers/char/x.c")
            self.assertEqual(search.system, ("include",))
            self.assertEqual(search.asm, "include/asm-i386")
            self.assertEqual(include_search.find_header(tmp, search, "drivers/char/x.c",
                                                        "asm/io.h", True),
                             "include/asm-i386/io.h")
        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp), {"Makefile": TREE_MAKEFILE.replace("2\n", "3\n", 1),
                              "arch/x86/include/asm/io.h": "", "include/linux/x.h": ""})
            search = include_search.search_path(tmp, "drivers/char/x.c")
            self.assertEqual(include_search.find_header(tmp, search, "drivers/char/x.c",
                                                        "asm/io.h", True),
                             "arch/x86/include/asm/io.h")

    def test_no_tree_reads_no_angle_header(self):
        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp), {"include/linux/x.h": ""})
            search = include_search.search_path(tmp, "x.c")
            self.assertIsNone(include_search.find_header(tmp, search, "x.c", "linux/x.h", True))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class DefaultDenyConvertTest(unittest.TestCase):
    def convert(self, files: dict[str, str], path: str = "", *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            write(Path(tmp), files)
            # Outside a tree, without a kernel's headers: what these tests are about.
            args = parse_args(["--no-cache", "--target", "2.6.20", "--no-kernel-headers", *extra,
                               "--", os.path.join(tmp, path)])
            return convert.convert(convert.request_from_args(args))

    def handler(self, result):
        return next(h for h in result.summary.handlers if h.handler == "bd_ioctl")

    def part(self, key):
        """Case KEY's part of the shared run; its handler's record; the
        prefix of its names ("bd_" renamed)."""
        directory, index = CASES[key]
        part = RUNS.part(RUN_ARGV, directory)
        prefix = distinct("bd_", "bd", index)
        return part, next(h for h in part.handlers if h.handler == prefix + "ioctl"), prefix

    def test_kbuild_header_is_read(self):
        for makefile in ("ccflags-y += -I$(src)/include\n",
                         "EXTRA_CFLAGS += -Idrivers/bd/include\n"):
            for define, strategy in ((HARMLESS, "pushdown"), (RETURNING, "wrapper")):
                with self.subTest(makefile=makefile, define=define):
                    result = self.convert({
                        "drivers/bd/Makefile": makefile,
                        "drivers/bd/include/board.h": HEADER.format(
                            define=define.format(name="BD_CHECK")),
                        "drivers/bd/bd.c": DRIVER.format(include='"board.h"',
                                                         use="BD_CHECK(dev)")})
                    record = self.handler(result)
                    self.assertEqual((record.status, record.strategy),
                                     (HandlerStatus.CONVERTED, strategy), record)
                    if strategy == "wrapper":
                        self.assertIn("macro BD_CHECK at line 9 can return", record.reason)

    def test_header_not_found_takes_the_wrapper(self):
        _, record, _ = self.part(("not found",))
        self.assertEqual(record.strategy, "wrapper")
        self.assertIn("BD_CHECK at line 9", record.reason)
        self.assertIn("board.h", record.reason)

    def test_tree_angle_header_is_read(self):
        # A lower-case statement macro of the tree's include/ and one of its
        # include/asm-i386/: each hides a return, or does not.
        for include, header, name in (("<linux/board.h>", "include/linux/board.h", "bd_wait"),
                                      ("<asm/board.h>", "include/asm-i386/board.h",
                                       "BD_SYNC")):
            # In a tree a lower-case call must be read too: one the header
            # does not define is the wrapper's.
            for define, strategy in ((HARMLESS, "pushdown"), (RETURNING, "wrapper"),
                                     ("", "wrapper")):
                with self.subTest(header=header, define=define):
                    result = self.convert({
                        "Makefile": TREE_MAKEFILE, "include/linux/fs.h": "",
                        "include/asm-i386/.keep": "",
                        header: HEADER.format(define=define.format(name=name)),
                        "drivers/char/bd.c": DRIVER.format(include=include,
                                                           use=name + "(dev)")},
                        "drivers/char")
                    record = self.handler(result)
                    self.assertEqual((record.status, record.strategy),
                                     (HandlerStatus.CONVERTED, strategy), record)

    def test_a_call_for_its_value_outside_a_tree_must_be_read(self):
        # A GNU statement expression of a header not read returns from the
        # handler while its value is used: each spelling takes the wrapper;
        # a prototype of the file, or the header found, is read.
        # (The drivers: VALUE_USES x VALUE_HEADERS.)
        for use in VALUE_USES:
            for number, (files, strategy) in enumerate(VALUE_HEADERS):
                with self.subTest(use=use, header=bool(files)):
                    _, record, prefix = self.part(("value", use, number))
                    self.assertEqual((record.status, record.strategy),
                                     (HandlerStatus.CONVERTED, strategy), record)
                    if not files:
                        self.assertIn(f"{prefix}try at line", record.reason)
                        self.assertIn("board.h", record.reason)

    def test_file_included_in_the_body(self):
        # (The drivers: BODY_INCLUDING with each of BODY_CASES in bd_cases.h.)
        for cases, strategy in BODY_CASES:
            with self.subTest(cases=cases):
                _, record, prefix = self.part(("body", cases))
                self.assertEqual(record.strategy, strategy, record)
                if strategy == "wrapper":
                    self.assertIn(f"{prefix}cases.h", record.reason)

    def test_split_initializer_is_pushed_down_and_proven(self):
        # ext2's class: a declaration that calls a function before the lock
        # could be taken, the only obstacle; and a read-modify-write.
        # (The drivers: SPLIT_DECLARATIONS.)
        for declaration, statement in SPLIT_DECLARATIONS:
            with self.subTest(declaration=declaration):
                part, record, prefix = self.part(("split", declaration))
                self.assertEqual((record.status, record.strategy),
                                 (HandlerStatus.CONVERTED, "pushdown"), record)
                self.assertIn("runs under the lock", record.reason)
                self.assertIn("+\tlock_kernel();\n+\t%s\n" % statement.replace("bd_", prefix),
                              part.diff)

    def test_member_of_a_parameter_read_before_a_write_moves_under_the_lock(self):
        # A read-modify-write through the file or inode the VFS passes: the
        # read must not stay before the lock (a racing ioctl's update would
        # be lost).  A stable member read only (the flags, the device)
        # stays where it is.
        # (The drivers: PARAMETER_READS.)
        for declaration, _, moved in PARAMETER_READS:
            with self.subTest(declaration=declaration):
                part, record, prefix = self.part(("parameter", declaration))
                self.assertEqual((record.status, record.strategy),
                                 (HandlerStatus.CONVERTED, "pushdown"), record)
                if moved:
                    self.assertIn("+\tlock_kernel();\n+\t%s\n" % moved.replace("bd_", prefix),
                                  part.diff)
                else:
                    self.assertIn(" \t%s\n" % declaration, part.diff)

    def test_summary_counts_each_strategy_and_why(self):
        result = self.convert({
            "bd.h": HEADER.format(define=RETURNING.format(name="BD_CHECK")),
            "bd.c": DRIVER.format(include='"bd.h"', use="BD_CHECK(dev)"),
            "ok.c": DRIVER.format(include='"bd.h"', use="dev->level = 2").replace("bd_", "ok_")})
        totals = result.summary.totals()
        self.assertEqual(totals["strategies"], {"pushdown": 1, "wrapper": 1})
        self.assertEqual(totals["strategies_by_reason"], {
            "pushdown": {"every exit and early side effect accounted for": 1},
            "wrapper": {"macro BD_CHECK at line N can return": 1}})
        text = summary_mod.text_report(result.summary)
        self.assertIn("  wrapper: 1\n    1: macro BD_CHECK at line N can return", text)
        self.assertEqual(json.loads(json.dumps(summary_mod.to_json(result.summary)))
                         ["totals"]["strategies_by_reason"], totals["strategies_by_reason"])

    def test_rejected_pushdown_falls_back_to_the_proven_wrapper(self):
        real = verification.verify
        calls = []

        def reject_pushdown_once(request, result, stages=None, in_modules=None):
            calls.append({h.handler: h.strategy for h in result.summary.handlers})
            found = real(request, result, stages, in_modules)
            pushed = [h for h in result.summary.handlers if h.strategy == "pushdown"]
            if pushed and len(calls) == 1:
                found.rejected[pushed[0].file] = verification.Rejection(
                    pushed[0].file, "the lock proof", "a test's rejection", pushed[0].handler)
            return found

        files = {"bd.c": DRIVER.format(include="<linux/types.h>", use="dev->level = 2")}
        with mock.patch.object(verification, "verify", reject_pushdown_once):
            result = self.convert(files)
        self.assertEqual(calls, [{"bd_ioctl": "pushdown"}, {"bd_ioctl": "wrapper"}])
        record = self.handler(result)
        self.assertEqual((record.status, record.strategy),
                         (HandlerStatus.CONVERTED, "wrapper"))
        self.assertEqual(record.reason, "the lock proof rejected its pushdown: a test's "
                         "rejection; the wrapper was proven instead")
        self.assertIn("bd_unlocked_ioctl", result.diff)
        # --strategy pushdown does not fall back: the handler fails.
        calls.clear()
        with mock.patch.object(verification, "verify", reject_pushdown_once):
            result = self.convert(files, "", "--strategy", "pushdown")
        self.assertEqual(len(calls), 1)
        self.assertEqual(self.handler(result).status, HandlerStatus.FAILED)


if __name__ == "__main__":
    unittest.main()

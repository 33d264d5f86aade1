"""The stock-kernel proof without a kernel: the Kbuild a module build
writes, which module an error belongs to, what the legacy build must show,
and what a stock boot may (and may not) differ in from the legacy one."""

import unittest

from ioctl_rework.fixture import kernel, proof, stock, stock_proof

KBUILD = """fixture_dir := $(src)
ccflags-y := -I$(fixture_dir)/include

obj-y += fixture_observer.o
obj-y += fx_minor.o \\
\tfx_rdev.o
obj-y += fx_split.o

fx_split-y := fx_split_main.o fx_split_ioctl.o
"""
MODULES = stock.KbuildModules.parse(KBUILD)


class KbuildTest(unittest.TestCase):
    def test_modules_in_link_order_with_their_sources(self):
        self.assertEqual(MODULES.order, ("fixture_observer", "fx_minor", "fx_rdev", "fx_split"))
        self.assertEqual(MODULES.sources["fx_split"], ("fx_split_main", "fx_split_ioctl"))
        self.assertEqual(MODULES.module_of("fx_split_ioctl"), "fx_split")
        self.assertIsNone(MODULES.module_of("fx_other"))

    def test_kbuild_for_a_subset_as_modules(self):
        text = MODULES.kbuild("ccflags-y := -DX", ("fixture_observer", "fx_split"))
        self.assertEqual(text, "ccflags-y := -DX\n\nobj-m += fixture_observer.o\n"
                               "obj-m += fx_split.o\nfx_split-y := fx_split_main.o "
                               "fx_split_ioctl.o\n")

    def test_header_keeps_the_flags(self):
        self.assertEqual(MODULES.header(KBUILD), "fixture_dir := $(src)\n"
                         "ccflags-y := -I$(fixture_dir)/include\n\n\n")

    def test_errors_by_module(self):
        log = """  CC [M]  /m/fx_minor.o
/m/fx_minor.c:62:10: error: 'const struct file_operations' has no member named 'ioctl'
/m/fx_split_ioctl.c:20:2: error: implicit declaration of function 'lock_kernel'
In file included from /m/fx_rdev.c:18:
/m/fixture_observer.h:3:1: error: unknown type name 'bogus'
/m/fx_minor.c:70:1: warning: unused variable 'x'
ERROR: modpost: "fixture_observe_handler" [/m/fx_rdev.ko] undefined!
"""
        found = stock.attribute_errors(log, MODULES)
        self.assertEqual(sorted(found), ["fx_minor", "fx_rdev", "fx_split"])
        self.assertEqual(len(found["fx_minor"]), 1)
        self.assertEqual(len(found["fx_rdev"]), 2)

    def test_the_legacy_build_must_fail_on_ioctl_for_every_driver(self):
        ioctl = ("/m/fx_x.c:1:1: error: 'struct file_operations' has no member named 'ioctl'",)
        good = stock.ModuleBuild((), {"fx_minor": ioctl, "fx_rdev": ioctl, "fx_split": ioctl})
        self.assertEqual(stock_proof.legacy_build_failures(good, MODULES), [])
        built = stock.ModuleBuild((), {"fx_minor": ioctl, "fx_split": ioctl})
        self.assertEqual(stock_proof.legacy_build_failures(built, MODULES),
                         ["fx_rdev built on a stock kernel without conversion"])
        other = stock.ModuleBuild((), {"fx_minor": ioctl, "fx_rdev": ("x.c:1:1: error: y",),
                                       "fx_split": ioctl})
        self.assertIn("not on .ioctl or a legacy header", stock_proof.legacy_build_failures(
            other, MODULES)[0])
        header = stock.ModuleBuild((), {"fx_minor": ioctl, "fx_split": ioctl, "fx_rdev": (
            "/m/fx_rdev.c:13:10: fatal error: linux/smp_lock.h: No such file or directory",)})
        self.assertEqual(stock_proof.legacy_build_failures(header, MODULES), [])
        # gcc in a UTF-8 locale quotes with U+2018/U+2019.
        typographic = ("/m/fx_x.c:1:1: error: \u2018const struct file_operations\u2019 has no "
                       "member named \u2018ioctl\u2019",)
        utf8 = stock.ModuleBuild((), {"fx_minor": ioctl, "fx_rdev": typographic, "fx_split": ioctl})
        self.assertEqual(stock_proof.legacy_build_failures(utf8, MODULES), [])


class NotBuiltListTest(unittest.TestCase):
    LIST = """# comment
fx_bkl: refused (takes the BKL itself)
fx_minor (>= 6.4): class_create() lost its owner argument   # API drift
"""

    def test_an_entry_with_a_version_counts_from_that_kernel_on(self):
        self.assertEqual(stock.expected_not_built(self.LIST, "6.1"),
                         {"fx_bkl": "refused (takes the BKL itself)"})
        self.assertEqual(stock.expected_not_built(self.LIST, "6.12"),
                         {"fx_bkl": "refused (takes the BKL itself)",
                          "fx_minor": "class_create() lost its owner argument"})
        self.assertIn("fx_minor", stock.expected_not_built(self.LIST, "6.4"))

    def test_a_line_of_another_form_is_a_clear_error(self):
        with self.assertRaisesRegex(kernel.FixtureError, "stock-not-built:2: want"):
            stock.expected_not_built("fx_bkl: x\nfx_minor since 6.4: y\n", "6.12")


def _transcript(rows64, rows32, judged_by_errno=("EINVAL",)) -> proof.Transcript:
    """rows: (device, case, ret, errno, bkl, mutex, ino, minor).  As the test
    program does, a call that reached no handler is ok only with an errno of
    JUDGED_BY_ERRNO (2.6.11's EINVAL)."""
    def program(name, rows):
        lines = [f"# fixture-run: {name}", "KTAP version 1", f"1..{len(rows)}"]
        for number, (device, case, ret, errno, bkl, mutex, ino, minor) in enumerate(rows, 1):
            lines.append(f"# result: {device} CMD {case}: ret={ret} errno={errno} bkl={bkl} "
                         f"mutex={mutex} ino={ino} minor={minor} out=-")
            ok = ino != "-" or errno in judged_by_errno
            lines.append(f"{'ok' if ok else 'not ok'} {number} {device} CMD {case}")
        return lines + [f"# fixture-exit: {name} 0"]
    text = "\n".join(program(proof.PROGRAM_64, rows64) + program(proof.PROGRAM_32, rows32))
    return proof.parse_transcript(text + "\n", "")


LEGACY_64 = [("fx_regs", "valid", 0, "0", 1, 0, "40", "61"),
             ("fx_regs", "unknown", -1, "ENOTTY", 1, 0, "40", "61"),
             ("fx_gnu", "valid", 0, "0", 1, 0, "41", "60"),
             ("fx_enoioctl", "odd", -1, "ENOIOCTLCMD", 1, 0, "42", "59"),
             ("fx_bkl", "valid", 0, "0", 1, 0, "43", "58")]
LEGACY_32 = [("fx_regs", "valid", -1, "EINVAL", 0, 0, "-", "-"),
             ("fx_regs", "unknown", -1, "EINVAL", 0, 0, "-", "-"),
             ("fx_gnu", "valid", 0, "0", 1, 0, "41", "60"),
             ("fx_enoioctl", "odd", -1, "EINVAL", 0, 0, "-", "-"),
             ("fx_bkl", "valid", -1, "EINVAL", 0, 0, "-", "-")]
# The same drivers on a stock kernel: the mutex, other inode numbers and
# minors, the stock VFS's ENOTTY, and fx_bkl not built (no device).
STOCK_64 = [("fx_regs", "valid", 0, "0", 0, 1, "7", "63"),
            ("fx_regs", "unknown", -1, "ENOTTY", 0, 1, "7", "63"),
            ("fx_gnu", "valid", 0, "0", 0, 1, "8", "62"),
            ("fx_enoioctl", "odd", -1, "ENOTTY", 0, 1, "9", "61"),
            ("fx_bkl", "valid", -1, "ENOENT", 0, 0, "-", "-")]
STOCK_32 = [("fx_regs", "valid", -1, "ENOTTY", 0, 0, "-", "-"),
            ("fx_regs", "unknown", -1, "ENOTTY", 0, 0, "-", "-"),
            ("fx_gnu", "valid", 0, "0", 0, 1, "8", "62"),
            ("fx_enoioctl", "odd", -1, "ENOTTY", 0, 0, "-", "-"),
            ("fx_bkl", "valid", -1, "ENOENT", 0, 0, "-", "-")]
NOT_BUILT = frozenset({"fx_bkl"})


def _judge(rows64=STOCK_64, rows32=STOCK_32, not_built=NOT_BUILT):
    return stock_proof.judge(_transcript(LEGACY_64, LEGACY_32), _transcript(rows64, rows32),
                             not_built, frozenset())


def _with(rows, index, **changes):
    names = ("device", "case", "ret", "errno", "bkl", "mutex", "ino", "minor")
    row = dict(zip(names, rows[index]), **changes)
    return rows[:index] + [tuple(row[n] for n in names)] + rows[index + 1:]


class StockJudgeTest(unittest.TestCase):
    def test_allowed_differences_only(self):
        self.assertEqual(_judge(), [])

    def test_no_mutex_where_the_bkl_was_is_caught(self):
        failures = _judge(rows64=_with(STOCK_64, 0, mutex=0))
        self.assertEqual([f.message for f in failures],
                         ["ran under the BKL before, holds no mutex after"])

    def test_enotty_from_a_handler_that_said_einval_is_caught(self):
        legacy64 = _with(LEGACY_64, 2, ret=-1, errno="EINVAL")
        failures = stock_proof.judge(_transcript(legacy64, LEGACY_32),
                                     _transcript(_with(STOCK_64, 2, ret=-1, errno="ENOTTY"),
                                                 STOCK_32), NOT_BUILT, frozenset())
        self.assertEqual([f.message for f in failures], ["errno EINVAL -> ENOTTY"])

    def test_32bit_enotty_where_the_handler_was_reached_is_caught(self):
        failures = _judge(rows32=_with(STOCK_32, 2, ret=-1, errno="ENOTTY", ino="-", minor="-",
                                       mutex=0))
        self.assertTrue(failures)
        self.assertTrue(any("errno 0 -> ENOTTY" in f.message for f in failures), failures)

    def test_swapped_minors_are_caught(self):
        rows = _with(_with(STOCK_64, 0, minor="62"), 1, minor="62")
        failures = _judge(rows64=rows)
        self.assertTrue(any(f.key.startswith("fx_regs") and "minor" in f.message
                            for f in failures), failures)

    def test_a_driver_missing_but_not_listed_is_caught(self):
        failures = _judge(not_built=frozenset())
        self.assertTrue(any(f.key.startswith("fx_bkl") for f in failures), failures)


# fx_regs and fx_enoioctl cleared by the compat classifier: their 32-bit calls
# now reach the handler through .compat_ioctl and give the 64-bit results.
CLEARED = frozenset({"fx_regs", "fx_enoioctl"})
CLEARED_32 = [("fx_regs", "valid", 0, "0", 0, 1, "7", "63"),
              ("fx_regs", "unknown", -1, "ENOTTY", 0, 1, "7", "63"),
              STOCK_32[2],
              ("fx_enoioctl", "odd", -1, "ENOTTY", 0, 1, "9", "61"),
              STOCK_32[4]]


def _judge_compat(rows32, cleared=CLEARED):
    return stock_proof.judge(_transcript(LEGACY_64, LEGACY_32), _transcript(STOCK_64, rows32),
                             NOT_BUILT, frozenset(), cleared)


class StockCompatTest(unittest.TestCase):
    """The 32-bit calls of the drivers given .compat_ioctl on a stock kernel."""

    def test_a_cleared_driver_answers_32bit_calls_as_64bit_ones(self):
        self.assertEqual(_judge_compat(CLEARED_32), [])

    def test_a_cleared_driver_whose_32bit_call_reaches_no_handler_is_caught(self):
        failures = _judge_compat(_with(CLEARED_32, 0, ret=-1, errno="ENOTTY", ino="-",
                                       minor="-", mutex=0))
        self.assertTrue(any(f.what == "32-bit" and f.key == "fx_regs CMD valid"
                            and "ret 0 -> -1" in f.message for f in failures), failures)

    def test_a_cleared_driver_must_hold_the_mutex_for_32bit_calls_too(self):
        failures = _judge_compat(_with(CLEARED_32, 0, mutex=0))
        self.assertEqual([(f.key, f.message) for f in failures],
                         [("fx_regs CMD valid", "ran under the BKL before, holds no mutex after")])

    def test_a_driver_not_cleared_must_not_answer_32bit_calls(self):
        failures = _judge_compat(CLEARED_32, cleared=frozenset({"fx_enoioctl"}))
        self.assertTrue(any(f.what == "32-bit" and f.key == "fx_regs CMD valid"
                            and "ret -1 -> 0" in f.message for f in failures), failures)
        self.assertFalse(any(f.key.startswith("fx_enoioctl") for f in failures), failures)

    def test_an_enotty_of_the_handler_itself_is_still_caught_when_cleared(self):
        # The legacy 64-bit call succeeded: ENOTTY from the handler is no VFS answer.
        failures = _judge_compat(_with(CLEARED_32, 0, ret=-1, errno="ENOTTY"))
        self.assertTrue(any("errno 0 -> ENOTTY" in f.message for f in failures), failures)


if __name__ == "__main__":
    unittest.main()

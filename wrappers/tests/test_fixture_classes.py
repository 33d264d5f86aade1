"""The fixture drivers of the dangerous classes (issue 22 section 7), converted
as the fixture proof converts them (the driver directory alone, no tree):
what each mode must decide, read from the summary and the text it writes.
kernel-fixtures/run-proof boots the same conversions and shows the
behaviour; this says why, without a kernel.

  fx_hidden.c   returns hidden in lower-case statement macros of a tree
                header (<linux/fx_hidden.h>, shims/new), unread here:
                auto takes the wrapper, pushdown refuses
  fx_rmw.c      "int users = dev->users;" ... "dev->users = users + 1;":
                the read runs under the lock
  fx_stack.c    forwards through lower->f_op->ioctl(...) to fx_lower.c,
                converted in the same run: the calls and the test of the
                member go to ->unlocked_ioctl (multi-kernel: under #ifdef);
                --lock mutex leaves it alone (the call may retake its mutex)
  fx_pair_*.c   two files of one kbuild module (fx_pair-y) sharing state,
                --lock mutex: one mutex for both (the module's)
  fx_poll.c     polls (msleep() in a loop) for state another call sets:
                --lock mutex refuses it with the reason, bkl converts it

Each of these was wrong once, silently (found by booting the fixtures):
the tests keep it from coming back.
"""

import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import paths, settings
from ioctl_rework.cache import Cache
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext.member_calls import falls_back
from ioctl_rework.ctext.spans import code_only, legacy_half
from ioctl_rework.fixture import kernel

DRIVERS = ("fx_hidden.c", "fx_rmw.c", "fx_lower.c", "fx_stack.c",
           "fx_pair_main.c", "fx_pair_ctl.c", "fx_poll.c")
# Beside the fixture kernel's cache (build/ in a clone): conversions take a while.
CACHE = paths.fixture_cache().parent / "fixture-classes"
TARGET = settings.Target((3, 9, 0))
MULTI_TARGET = settings.Target((2, 6, 11))


class Conversion:
    """One run over a copy of the drivers: handler records by name, and the
    text of each driver after the run."""

    def __init__(self, strategy: settings.Strategy, lock: settings.LockMode,
                 multi_kernel: bool = False, target: settings.Target | None = None,
                 drivers: tuple[str, ...] = DRIVERS) -> None:
        # The multi-kernel output is proven for 2.6.11 (fixture/variants.py).
        options = settings.ConversionOptions(
            strategy=strategy, lock=lock,
            target=target or (MULTI_TARGET if multi_kernel else TARGET),
            compat=False, multi_kernel=multi_kernel)
        with tempfile.TemporaryDirectory(prefix="fixture-classes-") as tmp:
            root = Path(tmp) / "drivers"
            shutil.copytree(kernel.DRIVERS_DIR, root)
            request = convert.ConvertRequest(paths=tuple(root / name for name in drivers),
                                             options=options, root=root, cache=Cache(CACHE))
            result = convert.convert(request)
            convert.write_in_place(result, root)
            self.text = {name: (root / name).read_text() for name in drivers}
        self.handlers = {h.handler: h for h in result.summary.handlers}
        self.name = f"--strategy {strategy.value} --lock {lock.value}" + \
            (" --multi-kernel" if multi_kernel else "")

    def handler(self, name: str):
        if name not in self.handlers:
            raise AssertionError(f"{self.name}: no record of {name} "
                                 f"(records: {', '.join(sorted(self.handlers))})")
        return self.handlers[name]

    def function(self, file: str, name: str) -> str:
        """The code (comments and strings blanked) of function NAME in FILE."""
        code = code_only(self.text[file])
        start = re.search(rf"^\w[^;{{}}]*\b{name}\s*\([^;{{}}]*\)\s*\{{", code, re.MULTILINE)
        if not start:
            raise AssertionError(f"{self.name}: {file} has no definition of {name}")
        depth, end = 0, start.end() - 1
        for end in range(start.end() - 1, len(code)):
            depth += {"{": 1, "}": -1}.get(code[end], 0)
            if depth == 0:
                break
        return code[start.start():end + 1]


_runs: dict[tuple, Conversion] = {}


def run(strategy: settings.Strategy, lock: settings.LockMode, multi_kernel: bool = False,
        target: settings.Target | None = None, drivers: tuple[str, ...] = DRIVERS) -> Conversion:
    key = (strategy, lock, multi_kernel, target, drivers)
    if key not in _runs:
        _runs[key] = Conversion(strategy, lock, multi_kernel, target, drivers)
    return _runs[key]


AUTO, PUSHDOWN = settings.Strategy.AUTO, settings.Strategy.PUSHDOWN
BKL, MUTEX = settings.LockMode.BKL, settings.LockMode.MUTEX
LOCK_CALL = re.compile(r"\b(?:lock_kernel|mutex_lock(?:_interruptible)?)\s*\(")


class HiddenReturnTest(unittest.TestCase):
    """fx_hidden: fx_hidden_need_power(dev); and fx_hidden_check_range(value);
    return from the handler, and their header is not read."""

    def test_auto_bkl_takes_the_wrapper(self):
        """A lower-case call standing alone as a statement, of a header not
        read, may return (ioctl_rule/macros.py unread_name): pushed down, the
        macros' returns would leave the BKL held."""
        record = run(AUTO, BKL).handler("fx_hidden_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED)
        self.assertEqual(record.strategy, "wrapper", record.reason)

    def test_auto_mutex_takes_the_wrapper(self):
        """As with the BKL: pushed down, the returns of the macros would leave
        fx_hidden_mutex locked, and the next call would wait for ever."""
        record = run(AUTO, MUTEX).handler("fx_hidden_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED)
        self.assertEqual(record.strategy, "wrapper", record.reason)

    def test_pushdown_refuses_naming_the_macro(self):
        record = run(PUSHDOWN, BKL).handler("fx_hidden_ioctl")
        self.assertIsNot(record.status, HandlerStatus.CONVERTED)
        self.assertRegex(record.reason or "", r"fx_hidden_need_power|fx_hidden_check_range")


class InitializerReadTest(unittest.TestCase):
    """fx_rmw: the read of dev->users must come after the lock is taken."""

    def check(self, strategy, lock):
        conversion = run(strategy, lock)
        record = conversion.handler("fx_rmw_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
        if record.strategy == "wrapper":
            return      # the whole handler runs under the lock
        body = conversion.function("fx_rmw.c", "fx_rmw_ioctl")
        self.assertRegex(body, r"\bint\s+users\s*;", "the declaration keeps no initializer")
        lock_at = LOCK_CALL.search(body)
        read_at = re.search(r"\busers\s*=\s*dev\s*->\s*users\s*;", body)
        self.assertTrue(lock_at and read_at, body)
        self.assertLess(lock_at.start(), read_at.start(), body)

    def test_auto_bkl(self):
        self.check(AUTO, BKL)

    def test_auto_mutex(self):
        self.check(AUTO, MUTEX)

    def test_pushdown_mutex(self):
        self.check(PUSHDOWN, MUTEX)


class ForwardingTest(unittest.TestCase):
    """fx_stack forwards to fx_lower, converted in the same run."""

    def check(self, lock):
        conversion = run(AUTO, lock)
        self.assertIs(conversion.handler("fx_lower_ioctl").status, HandlerStatus.CONVERTED)
        record = conversion.handler("fx_stack_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
        code = code_only(conversion.text["fx_stack.c"])
        self.assertNotRegex(code, r"->\s*ioctl\b", "a use of ->ioctl is left")
        self.assertEqual(len(re.findall(r"->\s*unlocked_ioctl\s*\(", code)), 2, code)

    def test_auto_bkl(self):
        """lower->f_op->ioctl(inode, file, cmd, arg), the handler's own inode
        and file, is forwarded (ctext/own_inode.py), its guard
        !lower->f_op->ioctl too: refused, every forwarded command got -ENOTTY
        once fx_lower.c was converted."""
        self.check(BKL)

    def test_auto_mutex(self):
        """Under the private mutex the forwarded call may reach a handler of
        fx_stack's own module (which file lower is, is not proven): had the
        handler been converted, the call would take the mutex it holds.  It
        is left alone with the site; its call stays on ->ioctl, which the
        target (3.9, no .ioctl) cannot build, and denies nothing there."""
        conversion = run(AUTO, MUTEX)
        self.assertIs(conversion.handler("fx_lower_ioctl").status, HandlerStatus.CONVERTED)
        record = conversion.handler("fx_stack_ioctl")
        self.assertIs(record.status, HandlerStatus.SKIPPED, record.reason)
        self.assertIn("it calls through lower->f_op->ioctl (line 73) (and 1 more), which may "
                      "reach this handler itself", record.reason)
        self.assertIn("would take the mutex its caller holds", record.reason)
        self.assertNotIn("unlocked_ioctl", code_only(conversion.text["fx_stack.c"]))

    def test_auto_bkl_multi_kernel(self):
        """The guard !lower->f_op->ioctl beside the call was refused by the
        multi-kernel output while fx_lower.c converted: every forwarded
        command got -ENOTTY.  Now the guard and both calls are written
        under #ifdef HAVE_UNLOCKED_IOCTL, and kept as they were under
        #else, for kernels without it.  Those with it still have .ioctl:
        the calls go through the helper that falls back to it (a lower
        driver outside the run), and the guard tests either member."""
        conversion = run(AUTO, BKL, multi_kernel=True)
        self.assertIs(conversion.handler("fx_lower_ioctl").status, HandlerStatus.CONVERTED)
        record = conversion.handler("fx_stack_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
        text = conversion.text["fx_stack.c"]
        code = code_only(text)
        legacy = [n for n, line in enumerate(code.split("\n"), 1)
                  if re.search(r"->\s*ioctl\b", line) and not falls_back(text, n)]
        self.assertEqual(len(legacy), 3, text)      # the guard and two calls
        for number in legacy:
            self.assertTrue(legacy_half(text, number), f"fx_stack.c:{number} is compiled "
                                                        "with HAVE_UNLOCKED_IOCTL")
        self.assertIn("!(lower->f_op->unlocked_ioctl || lower->f_op->ioctl)", code)
        self.assertIn("forward_ioctl(lower->f_op, inode, file, cmd, arg)", code)
        self.assertIn("forward_ioctl(lower->f_op, lower->f_dentry->d_inode, lower,", code)
        self.assertIn("#ifdef HAVE_UNLOCKED_IOCTL\n#include <linux/version.h>\n"
                      "static int forward_ioctl(", text)

    def test_auto_bkl_lower_left_legacy(self):
        """fx_stack converted for 2.6.20, which still has .ioctl, without
        fx_lower (a lower driver outside the run, still on .ioctl): the
        calls go through the helper, ->unlocked_ioctl or else ->ioctl under
        the BKL with the inode each passed, and the guard tests either
        member.  The proof boots it (variants.LOWER_LEGACY)."""
        conversion = run(AUTO, BKL, target=settings.Target((2, 6, 20)), drivers=("fx_stack.c",))
        record = conversion.handler("fx_stack_ioctl")
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
        text = conversion.text["fx_stack.c"]
        code = code_only(text)
        for number, line in enumerate(code.split("\n"), 1):
            if re.search(r"->\s*ioctl\b", line):
                self.assertTrue(falls_back(text, number), f"fx_stack.c:{number}: {line}")
        self.assertIn("if (!lower->f_op || !(lower->f_op->unlocked_ioctl || "
                      "lower->f_op->ioctl))", code)
        self.assertIn("ret = forward_ioctl(lower->f_op, inode, file, cmd, arg);", code)
        self.assertIn("return forward_ioctl(lower->f_op, lower->f_dentry->d_inode, lower,", code)
        self.assertIn("#include <linux/smp_lock.h>", text)


class CompositeModuleTest(unittest.TestCase):
    """fx_pair_main.c and fx_pair_ctl.c are one module (fx_pair-y) and share
    fx_pair_state: with --lock mutex, one mutex for both."""

    def check(self, strategy):
        """A DEFINE_MUTEX per file (fx_pair_main_mutex, fx_pair_ctl_mutex)
        would let the two handlers run together, silently; the module's one
        mutex is defined, not static, in fx_pair_main.c (first in the
        Kbuild's fx_pair-y) and declared extern in fx_pair_ctl.c."""
        conversion = run(strategy, MUTEX)
        records = [conversion.handler(h) for h in ("fx_pair_ioctl", "fx_pair_ctl_ioctl")]
        self.assertEqual([r.status for r in records], [HandlerStatus.CONVERTED] * 2,
                         [r.reason for r in records])
        main, ctl = (code_only(conversion.text[f]) for f in ("fx_pair_main.c", "fx_pair_ctl.c"))
        for code in (main, ctl):
            self.assertEqual(set(re.findall(r"\bmutex_(?:un)?lock\w*\s*\(\s*&\s*(\w+)", code)),
                             {"fx_pair_ioctl_mutex"})
        self.assertEqual(re.findall(r"(?m)^.*\bDEFINE_MUTEX\s*\(.*$", main),
                         ["DEFINE_MUTEX(fx_pair_ioctl_mutex);"])
        self.assertNotIn("DEFINE_MUTEX", ctl)
        self.assertRegex(ctl, r"(?m)^extern struct mutex fx_pair_ioctl_mutex;$")

    def test_auto_mutex_one_mutex_for_the_module(self):
        self.check(AUTO)

    def test_pushdown_mutex_one_mutex_for_the_module(self):
        self.check(PUSHDOWN)


class PollLoopTest(unittest.TestCase):
    """fx_poll: msleep() in a while on a file-scope flag, and in a do/while on
    a member in a helper."""

    def refused(self, strategy):
        record = run(strategy, MUTEX).handler("fx_poll_ioctl")
        self.assertIsNot(record.status, HandlerStatus.CONVERTED)
        self.assertRegex(record.reason or "", r"polls shared state \(msleep\(\) in the loop")
        self.assertIn("the private mutex is not dropped while it waits", record.reason)
        self.assertIn(".ioctl\t= fx_poll_ioctl", run(strategy, MUTEX).text["fx_poll.c"])

    def test_mutex_auto_refuses_with_the_reason(self):
        self.refused(AUTO)

    def test_mutex_pushdown_refuses_with_the_reason(self):
        self.refused(PUSHDOWN)

    def test_bkl_converts(self):
        conversion = run(AUTO, BKL)
        self.assertIs(conversion.handler("fx_poll_ioctl").status, HandlerStatus.CONVERTED)
        self.assertRegex(code_only(conversion.text["fx_poll.c"]),
                         r"\.unlocked_ioctl\s*=\s*fx_poll_ioctl")


if __name__ == "__main__":
    unittest.main()

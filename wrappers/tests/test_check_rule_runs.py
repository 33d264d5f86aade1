"""check runs the conversion rule once on a file it shows the conversion
of: the audit's legacy entries come from convert's patch-and-report run of
the rule (check.rule_runs.ConvertRuns), never from a run with other
options, and a run convert did not make (or that failed) is the audit's
own.  The findings are the same either way."""

import tempfile
import threading
import unittest
from dataclasses import replace
from pathlib import Path
from unittest import mock

from ioctl_rework import settings
from ioctl_rework.audit import scan
from ioctl_rework.check.rule_runs import ConversionJob, ConvertRuns, run_rules
from ioctl_rework.convert import runner as convert_runner
from ioctl_rework.convert.runner import RunTask
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from test_check_repo import fixture

TARGETS = ("2.6.9", "2.6.11", "2.6.36", "3.0", "6.1")
DRIVER = "drivers/misc/thermo.c"


def audit_legacy_run(target: settings.Target) -> scan.RuleRun:
    with tempfile.TemporaryDirectory() as tmp:
        return next(r for r in scan._rule_runs(target, Path(tmp)) if r.name == "legacy")


def convert_args(options: settings.ConversionOptions, task: RunTask) -> tuple[str, ...]:
    """What convert's runner gives spatch for TASK."""
    return tuple(convert_runner._args(options, {}, task))


def a_job(root: Path, options: settings.ConversionOptions) -> ConversionJob:
    return ConversionJob(root, (DRIVER,), options)


class SameOptionsTest(unittest.TestCase):
    def test_convert_first_run_stands_for_the_audit_report_run_on_every_target(self):
        for text in TARGETS:
            target = settings.Target.parse(text)
            for lock in settings.LockMode:
                options = replace(settings.ConversionOptions.for_target(target), lock=lock)
                run = replace(audit_legacy_run(target), args=tuple(
                    rules.rule_options(rules.CONVERSION_RULE) + options.spatch_args("report")))
                with self.subTest(target=text, lock=lock.name):
                    earlier = ConvertRuns([a_job(Path("/x"), options)])
                    self.assertTrue(earlier.covers(run))
                    self.assertEqual(earlier._key(run.args),
                                     earlier._key(convert_args(options, RunTask(DRIVER))))

    def test_a_run_with_other_options_does_not(self):
        target = settings.Target.parse("2.6.11")
        options = settings.ConversionOptions.for_target(target)
        run = audit_legacy_run(target)
        earlier = ConvertRuns([a_job(Path("/x"), options)])
        others = {
            "handlers listed": convert_args(options, RunTask(DRIVER, ("h",))),
            "handlers kept": convert_args(options, RunTask(DRIVER, (), ("h",))),
            "strategy": convert_args(replace(options, strategy=settings.Strategy.WRAPPER),
                                     RunTask(DRIVER)),
            "multi-kernel": convert_args(replace(options, multi_kernel=True), RunTask(DRIVER)),
            "patch alone": tuple(options.spatch_args("patch")),
            "context": tuple(options.spatch_args("context") + ["-D", "report"]),
            "another option": convert_args(options, RunTask(DRIVER)) + ("--smpl-spacing",),
        }
        for name, args in others.items():
            with self.subTest(name):
                self.assertNotEqual(earlier._key(args), earlier._key(run.args))
        self.assertFalse(earlier.covers(replace(run, rule=rules.FORWARDING_RULE)))
        self.assertFalse(ConvertRuns([]).covers(run), "no conversion: nothing to wait for")


class HeardTest(unittest.TestCase):
    """What ConvertRuns hands the audit, without spatch."""

    def setUp(self):
        self.options = settings.ConversionOptions.for_target(settings.Target.parse("2.6.11"))
        self.root = Path(tempfile.mkdtemp())
        self.addCleanup(lambda: __import__("shutil").rmtree(self.root))
        self.run = audit_legacy_run(self.options.target)
        self.earlier = ConvertRuns([a_job(self.root, self.options)])
        self.args = convert_args(self.options, RunTask(DRIVER))
        self.path = (self.root / DRIVER).resolve()

    def result(self, outcome: spatch.Outcome, stdout: str) -> spatch.SpatchResult:
        return spatch.SpatchResult(Path(DRIVER), outcome, stdout, "", 0.0)

    def test_the_report_part_only_named_by_its_absolute_path(self):
        said = ("drivers/misc/thermo.c:9: fops: convert h: pushdown\n"
                "--- a/drivers/misc/thermo.c\n+++ b/drivers/misc/thermo.c\n@@ -1 +1 @@\n")
        self.earlier.heard(self.root)(DRIVER, self.args, self.result(spatch.Outcome.OK, said))
        got = self.earlier.result(self.run, self.path)
        self.assertEqual(got.stdout, "drivers/misc/thermo.c:9: fops: convert h: pushdown")
        self.assertEqual(got.file, self.path)

    def test_a_failed_run_or_one_with_other_options_is_not_taken(self):
        told = self.earlier.heard(self.root)
        told(DRIVER, self.args, self.result(spatch.Outcome.CRASH, ""))
        told(DRIVER, self.args, self.result(spatch.Outcome.TIMEOUT, ""))
        told(DRIVER, convert_args(self.options, RunTask(DRIVER, ("h",))),
             self.result(spatch.Outcome.OK, "x"))
        self.earlier.ended()
        self.assertIsNone(self.earlier.result(self.run, self.path))

    def test_a_file_convert_was_not_asked_for_does_not_wait(self):
        # Nothing ends the conversion here: a wait would hang the test.
        self.assertIsNone(self.earlier.result(self.run, self.root / "drivers/other.c"))

    def test_the_audit_waits_for_the_run_and_no_longer_than_convert(self):
        waited = []
        reader = threading.Thread(target=lambda: waited.append(
            self.earlier.result(self.run, self.path)))
        reader.start()
        reader.join(0.2)
        self.assertTrue(reader.is_alive(), "returned before convert said anything")
        self.earlier.ended()
        reader.join(5)
        self.assertFalse(reader.is_alive())
        self.assertEqual(waited, [None])


class OneRunTest(unittest.TestCase):
    """The rules on the tests' legacy driver, with spatch."""

    def check(self, options: settings.ConversionOptions | None):
        """run_rules on the driver, converting it with OPTIONS (None: no
        conversion); the findings and the conversion rule's spatch starts."""
        starts = []
        command = spatch._command

        def counted(rule, args, timeout):
            if rule == rules.CONVERSION_RULE:
                starts.append(tuple(args))
            return command(rule, args, timeout)
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(spatch, "_command", counted):
            root = Path(tmp) / "patch-0"
            (root / DRIVER).parent.mkdir(parents=True)
            (root / DRIVER).write_text(fixture("legacy_driver.c"))
            jobs = [a_job(root, options)] if options else []
            target = settings.Target.parse("2.6.11")
            found, converted = run_rules([root / DRIVER], jobs, 2, 120, Path(tmp), target)
            raws = sorted((r.type, r.message, Path(r.file).relative_to(root).as_posix(), r.line,
                           r.struct, r.handler, r.note) for r in found.raws)
            skipped = sorted((s.file.relative_to(root).as_posix(), s.reason, s.partial)
                             for s in found.skipped)
            return raws, skipped, starts, converted

    def test_one_start_and_the_findings_of_the_audit_own_run(self):
        options = settings.ConversionOptions.for_target(settings.Target.parse("2.6.11"))
        alone = self.check(None)
        shared = self.check(options)
        self.assertEqual(len(alone[2]), 1, alone[2])
        self.assertEqual(len(shared[2]), 1, f"convert and the audit each ran it: {shared[2]}")
        self.assertIn("LEGACY_IOCTL", [r[0] for r in alone[0]])
        self.assertEqual(shared[0], alone[0])
        self.assertEqual(shared[1], alone[1])
        self.assertIn("+++ ", shared[3][0][DRIVER].diff)

    def test_other_options_run_it_twice_with_the_same_findings(self):
        target = settings.Target.parse("2.6.11")
        wrapper = replace(settings.ConversionOptions.for_target(target),
                          strategy=settings.Strategy.WRAPPER)
        alone, other = self.check(None), self.check(wrapper)
        self.assertEqual(len(other[2]), 2, other[2])
        self.assertEqual(other[0], alone[0])


if __name__ == "__main__":
    unittest.main()

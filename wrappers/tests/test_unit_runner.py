"""wrappers/tests/run: which modules share a worker, and what a shared
worker reports (every module's lines, its own cpu line)."""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

RUN = Path(__file__).resolve().parent / "run"


def _runner():
    loader = importlib.machinery.SourceFileLoader("unit_runner", str(RUN))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


class WorkerGroupsTest(unittest.TestCase):
    def test_a_slow_module_alone_the_others_in_groups_each_once(self):
        run = _runner()
        names = run.all_modules()
        groups = run.worker_groups(names)
        self.assertEqual(sorted(n for g in groups for n in g), sorted(names))
        slow = [g for g in groups if g[0] in run.SLOWEST_FIRST]
        self.assertTrue(slow and all(len(g) == 1 for g in slow))
        rest = [g for g in groups if g[0] not in run.SLOWEST_FIRST]
        self.assertTrue(rest and all(1 <= len(g) <= run.GROUP_SIZE for g in rest))
        self.assertFalse({n for g in rest for n in g} & set(run.SLOWEST_FIRST))
        # The slow ones start first, longest first.
        self.assertEqual(groups[:len(slow)], [[n] for n in run.in_start_order(
            [n for n in names if n in run.SLOWEST_FIRST])])

    def test_a_test_of_a_slow_module_named_alone_is_alone_too(self):
        run = _runner()
        groups = run.worker_groups(["test_tiers", "test_forwarding.DeniedTest", "test_cli"])
        self.assertEqual(groups, [["test_forwarding.DeniedTest"], ["test_tiers", "test_cli"]])

    def test_a_shared_worker_prints_each_module_and_logs_its_cpu(self):
        first = "test_tiers.CoverTest.test_the_full_tier_is_the_whole_product"
        second = "test_tiers.CoverTest.test_an_empty_axis_is_no_case"
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / "cpu.tsv"
            proc = subprocess.run([sys.executable, str(RUN), "--worker", first, second],
                                  capture_output=True, text=True,
                                  env={**os.environ, "IOCTL_REWORK_TEST_CPU_LOG": str(log)})
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertEqual([line.split(" - ")[1] for line in proc.stdout.splitlines()
                              if line.startswith("ok ")], [first, second])
            self.assertEqual([line.split("\t")[0] for line in log.read_text().splitlines()],
                             [first, second])


if __name__ == "__main__":
    unittest.main()

"""The one runner of audit, convert and check (stages.py): the progress
line (count, rate, ETA, in place on a terminal, nothing elsewhere), -q and
-v, and the time of each stage at the end, in the text and JSON summaries."""

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import stages
from ioctl_rework.convert import merge
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.stages import Stages, Verbosity

WRAPPERS = Path(__file__).resolve().parents[1]
CLI = WRAPPERS / "ioctl-rework"
DATA = Path(__file__).resolve().parent / "test_data" / "convert"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None
# The stages a convert run without --kdir and --compat enters, in order
# (branch runs only where a file has an #if branch around an entry).
CONVERT_STAGES = ["prefilter", "rule runs", "cross-file follow-up", "forwarding", "diffs",
                  "lock proof", "accounting", "writing"]


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def runner(verbosity=Verbosity.NORMAL, terminal=True):
    clock, stream = Clock(), io.StringIO()
    return Stages("convert", verbosity, stream, terminal, clock), clock, stream


class ProgressLineTest(unittest.TestCase):
    def last_line(self, stream: io.StringIO) -> str:
        return stream.getvalue().split("\r\033[K")[-1]

    def test_count_rate_and_eta_rewritten_in_place_on_a_terminal(self):
        run, clock, stream = runner()
        with run.stage("rule runs", 10) as stage:
            clock.now += 4
            stage.step(2)           # 2 files in 4 s: 0.5/s, 8 left: 16 s
            self.assertEqual(self.last_line(stream),
                             "convert: rule runs: 2/10 files, 0.5/s, ETA 16s")
            clock.now += 100
            stage.step(3)           # 5 in 104 s; 5 left at 0.048/s: 1m44s
            self.assertEqual(self.last_line(stream),
                             "convert: rule runs: 5/10 files, 0.0/s, ETA 1m44s")
        # Each redraw starts at the line's beginning and clears it: one line.
        self.assertNotIn("\n", stream.getvalue())
        self.assertTrue(stream.getvalue().endswith("\r\033[K"), "the line is not cleared")

    def test_cached_work_is_counted_but_left_out_of_the_rate(self):
        run, clock, stream = runner()
        with run.stage("rule runs", 10) as stage:
            stage.from_cache(6)
            clock.now += 2
            stage.step(1)           # one file ran in 2 s; 3 left: 6 s
            self.assertEqual(self.last_line(stream),
                             "convert: rule runs: 7/10 files, 0.5/s, ETA 6s")

    def test_nothing_when_stderr_is_not_a_terminal_or_with_q(self):
        for verbosity, terminal in ((Verbosity.NORMAL, False), (Verbosity.QUIET, True),
                                    (Verbosity.QUIET, False)):
            run, clock, stream = runner(verbosity, terminal)
            with run.stage("rule runs", 3) as stage:
                clock.now += 1
                stage.step(3)
            with run.stage("lock proof"):
                clock.now += 1
            self.assertEqual(stream.getvalue(), "", (verbosity, terminal))
            self.assertEqual(run.times(), {"rule runs": 1.0, "lock proof": 1.0})

    def test_v_says_each_finished_stage_even_off_a_terminal(self):
        run, clock, stream = runner(Verbosity.VERBOSE, terminal=False)
        with run.stage("rule runs", 4) as stage:
            stage.from_cache(1)
            clock.now += 3
            stage.step(3)
        with run.stage("writing"):
            clock.now += 0.25
        self.assertEqual(stream.getvalue(),
                         "convert: rule runs: 4 files, 1 cached, 3.0 s\n"
                         "convert: writing: 0.2 s\n")


class StageTimesTest(unittest.TestCase):
    def test_a_stage_inside_another_pauses_it_and_times_add_up(self):
        run, clock, _ = runner(terminal=False)
        with run.stage("rule runs"):
            clock.now += 2
            with run.stage("branch runs"):
                clock.now += 5
            clock.now += 1
        with run.stage("lock proof"):
            clock.now += 0.5
        self.assertEqual(run.times(), {"rule runs": 3.0, "branch runs": 5.0, "lock proof": 0.5})
        self.assertEqual(list(run.times()), ["rule runs", "branch runs", "lock proof"])

    def test_a_stage_entered_again_adds_and_inside_itself_is_one(self):
        run, clock, stream = runner(Verbosity.VERBOSE, terminal=False)
        with run.stage("cross-file follow-up", 2) as outer:
            clock.now += 1
            with run.stage("cross-file follow-up", 3) as inner:
                self.assertIs(inner, outer)
                clock.now += 2
                inner.step(5)
        with run.stage("cross-file follow-up"):
            clock.now += 4
        self.assertEqual(run.times(), {"cross-file follow-up": 7.0})
        self.assertEqual(run.records()[0].count, 5)
        # Said once per entry from outside, not for the one inside.
        self.assertEqual(stream.getvalue().count("\n"), 2)

    def test_a_stage_that_raises_is_still_timed(self):
        run, clock, _ = runner(terminal=False)
        with self.assertRaises(ValueError):
            with run.stage("compat"):
                clock.now += 3
                raise ValueError
        with run.stage("writing"):
            clock.now += 1
        self.assertEqual(run.times(), {"compat": 3.0, "writing": 1.0})

    def test_text_of_the_times_and_of_a_clock(self):
        self.assertEqual(stages.times_text({"prefilter": 0.04, "rule runs": 61.25}),
                         "stage times: prefilter 0.0 s, rule runs 61.2 s")
        self.assertEqual([stages.clock_text(s) for s in (0.2, 59.6, 61, 3725)],
                         ["0s", "1m00s", "1m01s", "1h02m"])

    def test_merge_sums_each_stage_over_the_shards(self):
        def part(index, times):
            return summary_mod.Summary(root="/t", target="2.6.9", options={}, spatch_version="1",
                                       started=float(index), shard=f"{index}/2",
                                       stage_seconds=times)
        merged = merge.merge([part(1, {"prefilter": 1.0, "rule runs": 2.0}),
                              part(2, {"prefilter": 0.5, "compat": 4.0, "rule runs": 1.0})])
        self.assertEqual(merged.stage_seconds, {"prefilter": 1.5, "rule runs": 3.0,
                                                "compat": 4.0})
        back = summary_mod.from_json(json.loads(json.dumps(summary_mod.to_json(merged))))
        self.assertEqual(back.stage_seconds, merged.stage_seconds)
        self.assertIn("stage times: prefilter 1.5 s, rule runs 3.0 s, compat 4.0 s",
                      summary_mod.text_report(merged))
        self.assertNotIn("stage times", summary_mod.text_report(merged, stage_times=False))


class VerbosityOptionsTest(unittest.TestCase):
    def parse(self, module, argv):
        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        return stages.verbosity_of(parser.parse_args(argv))

    def test_q_and_v_on_audit_convert_and_check(self):
        from ioctl_rework.audit import cli as audit_cli
        from ioctl_rework.check import cli as check_cli
        from ioctl_rework.convert import cli as convert_cli
        for module in (audit_cli, convert_cli, check_cli):
            self.assertEqual(self.parse(module, ["x"] if module is not check_cli else []),
                             Verbosity.NORMAL)
            for quiet in ("-q", "--quiet"):
                self.assertEqual(self.parse(module, [quiet]), Verbosity.QUIET)
            for verbose in ("-v", "--verbose"):
                self.assertEqual(self.parse(module, [verbose]), Verbosity.VERBOSE)
            parser = argparse.ArgumentParser()
            module.add_arguments(parser)
            with self.assertRaises(SystemExit), mock.patch("sys.stderr", io.StringIO()):
                parser.parse_args(["-q", "-v"])


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ConvertStagesTest(unittest.TestCase):
    """A whole convert run reports the time of each of its stages."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="stages-test-"))
        cls.tree = cls.tmp / "tree"
        shutil.copytree(DATA / "tree", cls.tree, symlinks=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def convert(self, *argv):
        json_path = self.tmp / "summary.json"
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--cache-dir",
                               str(self.tmp / "cache"), "--json", str(json_path), *argv,
                               str(self.tree)], capture_output=True, text=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        return json.loads(json_path.read_text()), proc.stderr

    def test_json_and_text_give_every_stage_cold_and_warm(self):
        # Warm, the run memo answers for every stage up to the writing.
        for run, stages in (("cold", ["run memo", *CONVERT_STAGES]),
                            ("warm", ["run memo", "writing"])):
            data, stderr = self.convert()
            times = data["stage_seconds"]
            self.assertEqual([s for s in times if s != "branch runs"], stages, run)
            self.assertEqual(data["warm"], run == "warm")
            self.assertTrue(all(isinstance(v, float) and v >= 0 for v in times.values()))
            self.assertLessEqual(sum(times.values()), data["wall_seconds"] + 1.0)
            line = next(l for l in stderr.splitlines() if l.startswith("stage times: "))
            self.assertEqual([part.rsplit(" ", 2)[0] for part in
                              line[len("stage times: "):].split(", ")], list(times))
            # Off a terminal the progress line is never drawn.
            self.assertNotIn("\r", stderr)

    def test_q_drops_the_times_and_v_adds_a_line_per_stage(self):
        _, quiet = self.convert("-q")
        self.assertNotIn("stage times", quiet)
        self.assertIn(".ioctl fops entries", quiet)
        data, verbose = self.convert("-v")
        said = [l.split(":")[1].strip() for l in verbose.splitlines()
                if l.startswith("convert: ") and l.rstrip().endswith(" s")]
        self.assertEqual(said, list(data["stage_seconds"]))


class Ticking:
    """A clock that moves on a second at each reading: every redraw of the
    progress line is drawn, and each rate is finite."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class AuditProgressTest(unittest.TestCase):
    """Every stage of an audit, the compat classification's among them,
    draws its count on a terminal, and an ETA while it has more than one
    item left to do (issue 24 section 4)."""

    ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"

    def test_every_stage_draws_its_count_and_an_eta(self):
        from ioctl_rework import cache
        from ioctl_rework.audit import scan
        from ioctl_rework.compat import probe
        if probe.tools_missing():
            self.skipTest("gcc or pahole missing (make deps)")
        stream = io.StringIO()
        run = Stages("audit", Verbosity.NORMAL, stream, terminal=True, clock=Ticking())
        # A report every file, so that a small tree's walks show partial counts.
        with mock.patch.object(cache, "PROGRESS_EVERY", 1):
            scan.audit([self.ERA], jobs=2, cache=cache.Cache(None), stages=run)
        drawn = stream.getvalue().split("\r\033[K")
        # The classifier's steps are stages of their own: the facts rule, the
        # table (the tree searched for register_ioctl32_conversion, then its
        # files), the layouts; "compat" counts the findings they decide.
        self.assertEqual([name for name in run.times() if name != "compat callees"],
                         ["prefilter", "rule runs", "compat", "compat facts", "compat table",
                          "compat layouts", "maintainers"])
        for record in run.records():
            name = record.name
            with self.subTest(name):
                lines = [line for line in drawn if line.startswith(f"audit: {name}: ")]
                # The name alone only while a walk finds the total.
                bare = [n for n, line in enumerate(drawn) if line == f"audit: {name}"]
                if name not in ("prefilter", "compat table"):
                    self.assertEqual(bare, [])
                self.assertTrue(all(n < drawn.index(lines[0]) for n in bare), bare)
                counts = [re.fullmatch(rf"audit: {re.escape(name)}: (\d+)/(\d+) "
                                       r"(files|findings)(, .*)?", line) for line in lines]
                self.assertTrue(counts and all(counts), lines)
                done, total = map(int, counts[-1].group(1, 2))
                self.assertEqual((done, total), (record.count, record.count))
                if name != "compat" and total > 1:
                    self.assertTrue(any(", ETA " in line for line in lines), lines)


if __name__ == "__main__":
    unittest.main()

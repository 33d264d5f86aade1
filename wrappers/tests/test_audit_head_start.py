"""The compat classes begun beside the audit's rules (audit.compat_head_start)
and their progress, kept and drawn later (audit.deferred_stages)."""

import io
import shutil
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import compat
from ioctl_rework.audit import compat_head_start
from ioctl_rework.audit import scan as audit
from ioctl_rework.audit.deferred_stages import DeferredStages
from ioctl_rework.cache import Cache
from ioctl_rework.compat import probe
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.stages import Stages, Verbosity
from test_stages import Ticking

TREE = Path(__file__).resolve().parent / "test_data" / "audit" / "tree"


def _work(stages, gate: threading.Event | None = None) -> None:
    """Stages as the classifier enters them: counts known up front, a
    walk that finds its total, cached items, a stage inside another."""
    with stages.stage("compat facts", 3) as stage:
        stage.from_cache(1)
        stage.step()
        if gate is not None:
            gate.wait()
        stage.step()
    with stages.stage("compat table") as stage:
        stage.add(4)
        stage.tally(1, 2)
        with stages.stage("compat table files", 2) as inner:
            inner.step(2)
        stage.step()
    with stages.stage("compat layouts", 2, unit="handlers") as stage:
        stage.step()
        stage.step()


def _terminal() -> Stages:
    return Stages("audit", Verbosity.VERBOSE, io.StringIO(), terminal=True, clock=Ticking())


class DeferredStagesTest(unittest.TestCase):
    def _replayed(self, gate=None, release=None) -> Stages:
        kept, shown = DeferredStages(), _terminal()

        def run():
            try:
                _work(kept, gate)
            finally:
                kept.end()
        worker = threading.Thread(target=run)
        worker.start()
        if release is not None:
            threading.Timer(0.2, release.set).start()
        with shown.stage("compat", 1, unit="findings"):
            kept.replay(shown)
        worker.join()
        return shown

    def test_replay_draws_what_the_stages_draw_where_they_run(self):
        there = _terminal()
        with there.stage("compat", 1, unit="findings"):
            _work(there)
        replayed = self._replayed()
        self.assertEqual(replayed.stream.getvalue(), there.stream.getvalue())
        self.assertEqual(replayed.times(), there.times())
        self.assertEqual([(r.name, r.count, r.cached) for r in replayed.records()],
                         [(r.name, r.count, r.cached) for r in there.records()])
        self.assertIn("audit: compat facts: 2/3 files", there.stream.getvalue())
        self.assertIn("ETA", there.stream.getvalue())

    def test_replay_waits_for_what_is_still_running(self):
        gate = threading.Event()
        replayed = self._replayed(gate, release=gate)
        self.assertTrue(gate.is_set())
        self.assertEqual({r.name: r.count for r in replayed.records()},
                         {"compat": 0, "compat facts": 3, "compat table": 4,
                          "compat table files": 2, "compat layouts": 2})

    def test_a_stage_the_work_left_by_an_error_is_closed(self):
        kept, shown = DeferredStages(), _terminal()
        try:
            with kept.stage("compat facts", 2) as stage:
                stage.step()
                raise OSError("gone")
        except OSError:
            pass
        kept.end()
        kept.replay(shown)
        with shown.stage("maintainers", 1) as stage:
            stage.step()
        self.assertEqual(list(shown.times()), ["compat facts", "maintainers"])
        self.assertIn("audit: compat facts: 1 files, ", shown.stream.getvalue())


class LikelyMissingCompatTest(unittest.TestCase):
    def test_an_unlocked_entry_without_compat_in_each_spelling(self):
        for text in (
                b"static struct file_operations f = {\n\t.unlocked_ioctl = f_ioctl,\n};\n",
                b"static const struct file_operations f = { .unlocked_ioctl=f_ioctl };",
                b"static struct file_operations f = {\n\tunlocked_ioctl: f_ioctl,\n};\n",
                # One fops of two lacks the compat entry.
                b"static struct file_operations a = { .unlocked_ioctl = a_ioctl,\n"
                b"\t.compat_ioctl = a_ioctl };\n"
                b"static struct file_operations b = { .unlocked_ioctl = b_ioctl };\n"):
            with self.subTest(text):
                self.assertTrue(compat_head_start.likely_missing_compat(text))

    def test_compat_set_or_no_unlocked_entry(self):
        for text in (
                b"static struct file_operations f = {\n\t.unlocked_ioctl = f_ioctl,\n"
                b"\t.compat_ioctl = f_compat_ioctl,\n};\n",
                b"static struct file_operations f = { unlocked_ioctl: f_ioctl,\n"
                b"\tcompat_ioctl: f_ioctl };\n",
                b"static struct file_operations f = {\n\t.ioctl = f_ioctl,\n};\n",
                b"static struct block_device_operations f = { .unlocked_ioctl = f_ioctl };\n",
                b"int unlocked_ioctl = 1;\n"):
            with self.subTest(text):
                self.assertFalse(compat_head_start.likely_missing_compat(text))


@unittest.skipIf(shutil.which(spatch.SPATCH) is None or probe.tools_missing(),
                 "spatch, gcc or pahole missing (make deps)")
class HeadStartTest(unittest.TestCase):
    """The recorded audit tree: its three files with a missing-compat
    finding are the three whose fops set .unlocked_ioctl without
    .compat_ioctl."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tree = Path(cls.tmp.name) / "tree"
        shutil.copytree(TREE, cls.tree)
        # On one core nothing runs beside the rules: the classes as before.
        cls.reference = audit.audit([cls.tree], jobs=1, cache=Cache(None))
        cache = Cache(Path(cls.tmp.name) / "cache", "audit")
        cls.started, cls.started_calls = cls._audit(cache)
        cls.warm, cls.warm_calls = cls._audit(cache)
        with mock.patch.object(compat_head_start, "likely_missing_compat",
                               lambda data: True):
            cls.guessed_wrong, cls.wrong_calls = cls._audit(Cache(None))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def _audit(cls, cache):
        """An audit on two cores, and the classifier's runs: (files, thread)."""
        calls, classify = [], compat.classify_files_read

        def spy(files, *args, **kwargs):
            calls.append((sorted(str(f) for f in files), threading.current_thread().name))
            return classify(files, *args, **kwargs)
        with mock.patch.object(compat, "classify_files_read", spy):
            return audit.audit([cls.tree], jobs=2, cache=cache), calls

    def _files(self, result):
        return sorted(str(self.tree / f.file) for f in result.findings
                      if f.compat_class is not None)

    def test_the_classes_run_beside_the_rules_once(self):
        self.assertEqual(len(self._files(self.reference)), 3)
        self.assertEqual(self.started_calls,
                         [(self._files(self.reference), "compat head start")])
        self.assertEqual(self.started.findings, self.reference.findings)
        self.assertEqual(self.started.skipped, self.reference.skipped)

    def test_a_wrong_guess_classifies_the_findings_files_again(self):
        (guessed, where), (again, here) = self.wrong_calls
        self.assertEqual(where, "compat head start")
        self.assertGreater(len(guessed), 3)
        self.assertEqual((again, here), (self._files(self.reference), "MainThread"))
        self.assertEqual(self.guessed_wrong.findings, self.reference.findings)

    def test_a_warm_rerun_starts_nothing(self):
        self.assertEqual(self.warm_calls, [])
        self.assertEqual(self.warm.findings, self.reference.findings)


if __name__ == "__main__":
    unittest.main()

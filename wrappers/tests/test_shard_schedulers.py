"""A run beyond one machine: --shard auto reads its part from Slurm's and
Kubernetes' array jobs, shards run through GNU parallel merge into the
series of one run, the shared cache stands concurrent writers and torn
entries, and a warm run at a modern target runs nothing again (compat
results come from the cache too)."""

import filecmp
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert import shard

WRAPPERS = Path(__file__).resolve().parents[1]
CLI = WRAPPERS / "ioctl-rework"
DATA = Path(__file__).resolve().parent / "test_data" / "convert"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None
HAVE_PARALLEL = shutil.which("parallel") is not None


class SchedulerShardTest(unittest.TestCase):
    def test_slurm_array_task_of_count_from_its_first_index(self):
        for first, ids in (("0", ("0", "1", "2")), ("1", ("1", "2", "3")), ("7", ("7", "8", "9"))):
            parts = [shard.parse("auto", {"SLURM_ARRAY_TASK_ID": task, "SLURM_ARRAY_TASK_MIN": first,
                                          "SLURM_ARRAY_TASK_COUNT": "3"}) for task in ids]
            self.assertEqual([str(p) for p in parts], ["1/3", "2/3", "3/3"], first)
        # Without SLURM_ARRAY_TASK_MIN (older Slurm): ids counted from 0.
        self.assertEqual(str(shard.parse("auto", {"SLURM_ARRAY_TASK_ID": "1",
                                                  "SLURM_ARRAY_TASK_COUNT": "4"})), "2/4")

    def test_kubernetes_indexed_job_with_the_completions_given(self):
        self.assertEqual(str(shard.parse("auto/5", {"JOB_COMPLETION_INDEX": "0"})), "1/5")
        self.assertEqual(str(shard.parse(" auto / 5 ", {"JOB_COMPLETION_INDEX": "4"})), "5/5")
        self.assertEqual(str(shard.parse("auto", {"JOB_COMPLETION_INDEX": "2",
                                                  "IOCTL_REWORK_SHARDS": "3"})), "3/3")
        # The option wins over the environment.
        self.assertEqual(str(shard.parse("auto/4", {"JOB_COMPLETION_INDEX": "2",
                                                    "IOCTL_REWORK_SHARDS": "3"})), "3/4")

    def test_what_cannot_say_a_part_is_refused_with_why(self):
        cases = [
            ("auto", {}, "neither SLURM_ARRAY_TASK_ID"),
            ("auto", {"JOB_COMPLETION_INDEX": "1"}, "does not say how many completions"),
            ("auto/2", {"JOB_COMPLETION_INDEX": "2"}, "K must be between 1 and N"),
            ("auto", {"SLURM_ARRAY_TASK_ID": "1"}, "not SLURM_ARRAY_TASK_COUNT"),
            ("auto", {"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"},
             "not a whole number"),
            ("auto", {"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "1",
                      "SLURM_ARRAY_TASK_COUNT": "2"}, "K must be between 1 and N"),
            ("automatic", {"JOB_COMPLETION_INDEX": "0"}, "want K/N, auto or auto/N"),
        ]
        for text, environ, why in cases:
            with self.assertRaisesRegex(shard.ShardError, why, msg=(text, environ)):
                shard.parse(text, environ)

    def test_the_command_line_reads_the_environment(self):
        environ = {**os.environ, "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3"}
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--shard", "auto",
                               "--target", "2.6.20", str(DATA / "tree")], env=environ,
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("K must be between 1 and N", proc.stderr)


def _write_many(directory: str, key: str, data: bytes, rounds: int) -> None:
    store = cache_mod.Cache(Path(directory), "shared")
    for _ in range(rounds):
        store.put_bytes(key, data)


def _read_many(directory: str, key: str, rounds: int) -> set:
    store = cache_mod.Cache(Path(directory), "shared")
    return {store.get_bytes(key) for _ in range(rounds)}


class SharedCacheTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="shared-cache-"))
        self.store = cache_mod.Cache(self.tmp, "shared")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_a_torn_or_foreign_entry_is_a_miss_never_wrong_data(self):
        data = b"--- a/x.c\n+++ b/x.c\n" + b"+line\n" * 500
        self.store.put_bytes("k" * 64, data)
        self.assertEqual(self.store.get_bytes("k" * 64), data)
        entry = self.store._path("k" * 64)
        whole = entry.read_bytes()
        for torn in (whole[:len(whole) // 2], whole[:10], b"", whole[:-1],
                     whole[:-6] + b"\0" * 6, data):      # data: an entry of the old format
            entry.write_bytes(torn)
            self.assertIsNone(self.store.get_bytes("k" * 64), torn[:40])
            self.assertIsNone(self.store.get_json("k" * 64))
        entry.unlink()
        self.assertIsNone(self.store.get_bytes("k" * 64))

    def test_concurrent_writers_and_readers_of_one_entry(self):
        key, data = "ab" * 32, os.urandom(1 << 18)
        context = multiprocessing.get_context("fork")
        with context.Pool(6) as pool:
            writers = [pool.apply_async(_write_many, (str(self.tmp), key, data, 40))
                       for _ in range(3)]
            readers = [pool.apply_async(_read_many, (str(self.tmp), key, 200)) for _ in range(3)]
            for writer in writers:
                writer.get(timeout=120)
            seen = set().union(*(reader.get(timeout=120) for reader in readers))
        self.assertLessEqual(seen, {None, data})
        self.assertEqual(self.store.get_bytes(key), data)
        # Every writer renamed its own temporary file: none is left behind.
        self.assertEqual([p.name for p in self.store._path(key).parent.iterdir()], [key])


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ParallelShardsTest(unittest.TestCase):
    """Three shards through GNU parallel, on a shared cache, give the
    series of one run once merged."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="parallel-shards-"))
        self.tree = self.tmp / "tree"
        shutil.copytree(DATA / "tree", self.tree, symlinks=True)
        self.env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000",
                    "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org",
                    "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.org"}

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def ioctl_rework(self, *argv: str) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, str(CLI), *argv], cwd=self.tmp, env=self.env,
                              capture_output=True, text=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        return proc

    @unittest.skipUnless(HAVE_PARALLEL, "GNU parallel is not installed (Debian parallel)")
    def test_three_shards_through_gnu_parallel_merge_into_the_whole_series(self):
        cache = self.tmp / "shared-cache"
        self.ioctl_rework("convert", "--cache-dir", str(cache), "--series", "whole",
                          str(self.tree))
        # As the README's recipe runs it (with --sshlogin, on other machines).
        command = (f"{sys.executable} {CLI} convert --cache-dir {cache} --shard {{}}/3 "
                   f"--json s{{}}.json {self.tree}")
        proc = subprocess.run(["parallel", "--will-cite", "--halt", "never", "--jobs", "3",
                               command, ":::", "1", "2", "3"],
                              cwd=self.tmp, env=self.env, capture_output=True, text=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        shards = [self.tmp / f"s{k}.json" for k in (1, 2, 3)]
        self.assertTrue(all(s.is_file() for s in shards), proc.stderr)
        self.ioctl_rework("merge", "--series", "merged", *map(str, shards))
        whole, merged = sorted(os.listdir(self.tmp / "whole")), \
            sorted(os.listdir(self.tmp / "merged"))
        self.assertGreater(len(whole), 2, "no patches to compare")
        self.assertEqual(merged, whole)
        _, mismatch, errors = filecmp.cmpfiles(self.tmp / "whole", self.tmp / "merged", whole,
                                               shallow=False)
        self.assertEqual(mismatch + errors, [])

    def test_warm_run_at_a_modern_target_runs_neither_spatch_nor_the_compat_probe(self):
        from ioctl_rework.compat import probe
        from ioctl_rework.convert import cli as convert
        from ioctl_rework.spatch import runner as spatch
        from test_forwarding import STACKERS

        # Calls through ->ioctl: the forwarding rule runs after the conversion
        # (with the BKL: under 6.1's default private mutex such a call is refused
        # before the rule runs, see test_forwarding's MutexForwardingTest).
        (self.tree / "drivers/char/stack.c").write_text(STACKERS["guard.c"])

        def run():
            parser = __import__("argparse").ArgumentParser()
            convert.add_arguments(parser)
            args = parser.parse_args(["--cache-dir", str(self.tmp / "cache"), "--target", "6.1",
                                      "--lock", "bkl", str(self.tree)])
            return convert.convert(convert.request_from_args(args))

        first = run()
        self.assertTrue(any(h.compat for h in first.summary.handlers), "compat did not run")
        self.assertTrue(any(c.kind == "forwarded-call" for c in first.summary.changes),
                        "the forwarding rule did not run")
        never = mock.Mock(side_effect=AssertionError("ran again on a warm cache"))
        with mock.patch.object(spatch, "run_files", never), \
                mock.patch.object(spatch, "run_batch", never), \
                mock.patch.object(probe, "_compile", never):
            again = run()
        self.assertEqual(again.diff, first.diff)
        self.assertEqual(again.summary.handlers, first.summary.handlers)


if __name__ == "__main__":
    unittest.main()

"""Tests for ioctl_rework.spatch.runner: batches of files in one spatch process,
and the split of its output back into one result per file."""

import os
import shutil
import stat
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from tiers import full_tier

DATA = Path(__file__).resolve().parent / "test_data" / "spatch"
FIXTURE_DRIVERS = Path(__file__).resolve().parents[2] / "kernel-fixtures" / "drivers"


def _have_spatch() -> bool:
    return shutil.which(spatch.SPATCH) is not None


class SourceFilesTest(unittest.TestCase):
    """spatch.source_files is the one walk of a source tree (audit, convert)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = self.root = Path(self.tmp.name)
        for rel in ("b.c", "a.h", "notes.txt", "sub/z.c", "sub/deep/y.c", "aa/x.c",
                    ".git/hidden.c"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("int x;\n")
        (root / "link.c").symlink_to(root / "b.c")
        (root / "dangling.h").symlink_to(root / "gone.h")
        (root / "dirlink.c").symlink_to(root / "sub")

    def names(self, **options):
        return [os.path.relpath(path, self.root)
                for path, _ in spatch.source_files([self.root], **options)]

    def test_walk_order_without_links_or_dot_directories(self):
        self.assertEqual(self.names(), ["a.h", "b.c", "aa/x.c", "sub/z.c", "sub/deep/y.c"])

    def test_symlinked_files_on_request_never_directories(self):
        self.assertEqual(self.names(symlinks=True),
                         ["a.h", "b.c", "dangling.h", "link.c", "aa/x.c", "sub/z.c",
                          "sub/deep/y.c"])
        link = dict(spatch.source_files([self.root], symlinks=True))[str(self.root / "link.c")]
        self.assertTrue(stat.S_ISLNK(link.st_mode))

    def test_a_file_path_is_its_own_walk(self):
        self.assertEqual(list(p for p, _ in spatch.source_files([self.root / "b.c"])),
                         [str(self.root / "b.c")])
        self.assertEqual(list(spatch.source_files([self.root / "link.c"])), [])
        self.assertEqual(list(spatch.source_files([self.root / "notes.txt"])), [])


class ReportBatchSplitTest(unittest.TestCase):
    """A report-mode run over six files, as spatch 1.1.1 printed it."""

    def setUp(self):
        files = [Path(f"/k/{name}.c") for name in ("ok", "slow", "broken", "partial", "crash",
                                                    "quiet")]
        results = spatch.split_batch(files, (DATA / "batch-stdout.txt").read_text(),
                                     (DATA / "batch-stderr.txt").read_text(), 6.0)
        self.results = {r.file.stem: r for r in results}

    def test_outcomes(self):
        outcomes = {name: r.outcome for name, r in self.results.items()}
        self.assertEqual(outcomes, {
            "ok": spatch.Outcome.OK, "slow": spatch.Outcome.TIMEOUT,
            "broken": spatch.Outcome.PARSE_ERROR, "partial": spatch.Outcome.OK,
            "crash": spatch.Outcome.CRASH, "quiet": spatch.Outcome.OK})

    def test_output_goes_to_its_file(self):
        self.assertEqual(len(self.results["ok"].stdout.splitlines()), 2)
        self.assertTrue(self.results["partial"].stdout.startswith("/k/partial.c:40:"))
        self.assertEqual(self.results["quiet"].stdout, "")

    def test_reasons(self):
        self.assertIn("timed out", self.results["slow"].reason)
        self.assertEqual(self.results["broken"].parse_errors, (6,))
        self.assertEqual(self.results["partial"].parse_errors, (12,))
        self.assertIn("Python script", self.results["crash"].reason)
        self.assertEqual(self.results["ok"].parse_errors, ())


class ErrorInAMacroFileTest(unittest.TestCase):
    """spatch names the macro file when the expansion of one of its macros
    does not parse; the line is then that file's, not the C file's."""

    STDERR = ("HANDLING: /k/net.c\n"
              "ERROR-RECOV: found sync col 0 at line 40\n"
              "parsing pass2: try again\n"
              "ERROR-RECOV: found sync col 0 at line 41\n"
              "parse error \n"
              " = File \"/usr/lib/coccinelle/standard.h\", line 436, column 30, charpos = 11890\n"
              "  around = '(',\n"
              "  whole content =     __typeof__(type) per_cpu__##name\n"
              "badcount: 3\n"
              "bad: static DEFINE_PER_CPU(int, x) = 0;\n"
              "parse error \n"
              " = File \"/k/net.c\", line 90, column 2, charpos = 2000\n"
              "badcount: 1\n")

    def test_it_stands_for_the_lines_spatch_skipped(self):
        self.assertEqual(spatch.parse_error_lines(self.STDERR, "/k/net.c"), (38, 39, 40, 90))
        self.assertEqual(spatch.parse_error_lines(self.STDERR, "/k/./net.c"), (38, 39, 40, 90))

    def test_not_the_errors_of_spatchs_output_file(self):
        # spatch re-parses the file it wrote; its errors repeat the input's,
        # at the output's lines (the define at 81 is at 81 in both here).
        stderr = ("ERROR-RECOV: found sync '}' at line 1861\n"
                  "ERROR-RECOV: found sync end of #define, line 81\n"
                  'parse error \n = File "/k/rme.c", line 81, column 37, charpos = 2640\n'
                  "badcount: 1\n"
                  "ERROR-RECOV: found sync '}' at line 1870\n"
                  "ERROR-RECOV: found sync end of #define, line 81\n"
                  'parse error \n = File "/tmp/cocci-output-20812-ca94a4-rme.c", line 81, '
                  "column 37, charpos = 2640\nbadcount: 1\n")
        self.assertEqual(spatch.parse_error_lines(stderr, "/k/rme.c"), (81,))

    def test_a_resumption_is_the_errors_own(self):
        # The sync line of an earlier error is no measure of this one.
        stderr = ("ERROR-RECOV: found sync '}' at line 1861\n"
                  'parse error \n = File "/k/a.c", line 1850, column 1, charpos = 9\n'
                  "badcount: 20\n"
                  'parse error \n = File "/r/macros.h", line 7, column 1, charpos = 9\n'
                  "badcount: 2\n")
        self.assertEqual(spatch.parse_error_lines(stderr, "/k/a.c"), (1, 1850))

    def test_never_lost_when_spatch_says_nothing_else(self):
        stderr = 'parse error \n = File "/r/macros.h", line 7, column 1, charpos = 9\n'
        self.assertEqual(spatch.parse_error_lines(stderr, "/k/net.c"), (1,))

    @unittest.skipUnless(_have_spatch(), "spatch is not installed")
    def test_a_real_run_parses_what_standard_h_broke(self):
        # Coccinelle's own standard.h made this DEFINE_PER_CPU an error in
        # standard.h; the builtins spatch gets now leave it to macros.h.
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp, "percpu.c")
            source.write_text("#include <linux/percpu.h>\n\nstatic int total;\n\n"
                              "static DEFINE_PER_CPU(int, count) = 0;\n\n"
                              "static int get(void)\n{\n\treturn total;\n}\n")
            result, = spatch.run_files(rules.CONVERSION_RULE, [source], ["-D", "report"])
        self.assertNotIn("Can't find macro file", result.stderr)
        self.assertNotIn("standard.h\", line", result.stderr)
        self.assertEqual(result.parse_errors, ())


class ReasonTest(unittest.TestCase):
    def test_the_rules_own_error_is_the_reason(self):
        stderr = ("Traceback (most recent call last):\n  File \"<string>\", line 6\n"
                  "RuntimeError: ioctl-rework: a.c:17: the first statement of a_ioctl is not "
                  "where its declarations end ((18, 1)); not converted\n"
                  "Error in Python script, line 699, file \"r.cocci\": Python failure\n")
        result = spatch.SpatchResult(Path("a.c"), spatch.Outcome.CRASH, "", stderr, 1.0)
        self.assertEqual(result.reason, "a.c:17: the first statement of a_ioctl is not where "
                                        "its declarations end ((18, 1)); not converted")

    def test_otherwise_the_last_line(self):
        result = spatch.SpatchResult(Path("a.c"), spatch.Outcome.CRASH, "", "x\nFatal: boom\n", 1.0)
        self.assertEqual(result.reason, "spatch failed: Fatal: boom")


class PatchBatchSplitTest(unittest.TestCase):
    """Patch and report mode at once: a file's report lines, then its diff."""

    def setUp(self):
        files = [Path(f"drivers/char/{name}.c") for name in "abcd"]
        results = spatch.split_batch(files, (DATA / "patch-batch-stdout.txt").read_text(),
                                     (DATA / "patch-batch-stderr.txt").read_text(), 4.0)
        self.out = {r.file.stem: r.stdout for r in results}

    def test_report_and_diff_stay_together(self):
        lines = self.out["a"].splitlines()
        self.assertTrue(lines[0].startswith("drivers/char/a.c:30: a_fops"))
        self.assertEqual(lines[1], "--- drivers/char/a.c")
        self.assertEqual(lines[-1], " \t\t   unsigned int cmd, unsigned long arg)")

    def test_no_output_and_report_only(self):
        self.assertEqual(self.out["b"], "")
        self.assertEqual(self.out["c"].splitlines(),
                         ["drivers/char/c.c:12: c_fops: .ioctl = c_ioctl: leave "
                          "(the inode is written)"])

    def test_diff_only(self):
        self.assertEqual(self.out["d"].splitlines()[:2],
                         ["--- drivers/char/d.c", "+++ /tmp/cocci-output-1-d.c"])
        self.assertNotIn("c.c", self.out["d"])


class BatchPlanTest(unittest.TestCase):
    def test_names_that_cannot_share_a_process_run_alone(self):
        plain = [f"d/f{i}.c" for i in range(8)]
        odd = ["b c.c", "-d.c", "e\nf.c", "$(x).c"]
        planned = spatch.batches(plain[:4] + odd + plain[4:], 3)
        for name in odd:
            self.assertIn([name], planned)
        shared = [b for b in planned if len(b) > 1]
        self.assertEqual(sorted(n for b in shared for n in b), sorted(plain))

    def test_enough_batches_for_every_job(self):
        self.assertEqual(spatch.batch_size(100, jobs=2), 13)
        self.assertEqual(spatch.batch_size(1000, jobs=2), 20)
        # A small run: a few files a start, but every job still gets a batch.
        self.assertEqual(spatch.batch_size(3, jobs=2), 2)
        self.assertEqual(spatch.batch_size(8, jobs=2), spatch.FILES_PER_START)
        self.assertEqual(spatch.batch_size(20, jobs=2), spatch.FILES_PER_START)
        self.assertEqual(spatch.batch_size(1, jobs=2), 1)
        self.assertEqual(spatch.batch_size(2, jobs=2), 1)
        # One batch per process for a rule whose start-up outweighs a file.
        self.assertEqual(spatch.batch_size(14, jobs=2, fewest=True), 7)
        self.assertEqual(spatch.batch_size(1000, jobs=2, fewest=True), 20)
        # ... and no process that its start-up would cost more than it saves.
        for count in (1, 2, 3, spatch.FILES_PER_START):
            self.assertEqual(spatch.batch_size(count, jobs=2, fewest=True), count)
        self.assertEqual(spatch.batch_size(spatch.FILES_PER_START + 1, jobs=2, fewest=True),
                         -(-(spatch.FILES_PER_START + 1) // 2))
        self.assertEqual(spatch.batch_size(30, jobs=4, fewest=True), 8)      # 4 processes
        self.assertEqual(spatch.batch_size(11, jobs=4, fewest=True), 4)      # 3 processes
        self.assertEqual(spatch.batch_size(0, jobs=2, fewest=True), 1)
        # The compat facts rule: one process for up to MAX_BATCH files.
        self.assertEqual(spatch.batch_size(14, jobs=2, fewest=True,
                                           files_per_start=spatch.MAX_BATCH), 14)
        self.assertEqual(spatch.batch_size(30, jobs=2, fewest=True,
                                           files_per_start=spatch.MAX_BATCH), 15)
        planned = spatch.batches([f"f{i}.c" for i in range(100)], 13)
        self.assertEqual([len(b) for b in planned], [13] * 7 + [9])


class FailedBatchTest(unittest.TestCase):
    """A batch process that dies runs its files again, one process each."""

    def test_falls_back_to_one_process_per_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = Path(tmp, "spatch")
            fake.write_text("#!/bin/sh\n"
                            "for a; do [ \"$a\" = --file-groups ] && exit 3; last=$a; done\n"
                            "echo \"$last:1: seen alone\"\n")
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            rule = Path(tmp, "r.cocci")
            rule.write_text("// Options: --no-includes\n")
            saved, spatch.SPATCH = spatch.SPATCH, str(fake)
            try:
                results = spatch.run_batch(rule, [Path("/t/a.c"), Path("/t/b.c")], [], 10)
            finally:
                spatch.SPATCH = saved
        self.assertEqual([r.stdout for r in results],
                         ["/t/a.c:1: seen alone\n", "/t/b.c:1: seen alone\n"])
        self.assertEqual({r.outcome for r in results}, {spatch.Outcome.OK})


class ProgressPerFileTest(unittest.TestCase):
    """One spatch process of many files moves the progress line as each
    file ends, while it runs (issue 24 s.4), not once when it exits."""

    def run_fake(self, script: str, names: list[str]):
        with tempfile.TemporaryDirectory() as tmp:
            fake = Path(tmp, "spatch")
            fake.write_text(script.replace("TMP", tmp))
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            rule = Path(tmp, "r.cocci")
            rule.write_text("// Options: --no-includes\n")
            calls = []

            def done(count):
                calls.append(count)
                Path(tmp, f"told{len(calls)}").touch()
            saved, spatch.SPATCH = spatch.SPATCH, str(fake)
            try:
                results = spatch.run_batched(rule, [Path(n) for n in names], [], jobs=2,
                                             timeout=10, fewest=True, done_count=done,
                                             files_per_start=spatch.MAX_BATCH)
            finally:
                spatch.SPATCH = saved
        return calls, results

    # Names each file of the groups as it starts it, and goes on only once
    # the runner has told the progress line that the one before is done:
    # without progress while it runs, it waits in vain and fails.
    WAITING = ("#!/bin/sh\n"
               "groups=; for a; do [ \"$prev\" = --file-groups ] && groups=$a; prev=$a; done\n"
               "[ -n \"$groups\" ] || { echo \"$prev:1: alone\"; exit 0; }\n"
               "n=0\n"
               "for f in $(cat \"$groups\"); do\n"
               "  echo \"HANDLING: $f\" >&2\n"
               "  if [ $n -gt 0 ]; then\n"
               "    i=0; while [ ! -e TMP/told$n ]; do\n"
               "      sleep 0.05; i=$((i+1)); [ $i -gt 100 ] && exit 3; done\n"
               "  fi\n"
               "  n=$((n+1)); echo \"$f:1: seen\"\n"
               "done\n")

    def test_each_file_counts_as_the_next_starts(self):
        names = ["/t/a.c", "/t/b.c", "/t/c.c"]
        calls, results = self.run_fake(self.WAITING, names)
        self.assertEqual(calls, [1, 1, 1])
        self.assertEqual([r.stdout for r in results], [f"{n}:1: seen\n" for n in names])

    def test_a_failed_batch_counts_each_file_once(self):
        # Dies after its first file: the files run alone, none counted twice.
        dies = ("#!/bin/sh\n"
                "for a; do [ \"$a\" = --file-groups ] && "
                "{ echo 'HANDLING: /t/a.c' >&2; echo 'HANDLING: /t/b.c' >&2; exit 3; }; "
                "last=$a; done\n"
                "echo \"$last:1: seen alone\"\n")
        calls, results = self.run_fake(dies, ["/t/a.c", "/t/b.c", "/t/c.c"])
        self.assertEqual(sum(calls), 3)
        self.assertEqual([r.stdout for r in results],
                         [f"/t/{n}.c:1: seen alone\n" for n in "abc"])


class InterpreterTest(unittest.TestCase):
    """The rules' Python runs in the wrapper's own interpreter, however PATH
    is set (spatch would search PATH for a python3, at every start)."""

    def test_spatch_is_told_the_wrappers_python(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake, said = Path(tmp, "spatch"), Path(tmp, "argv")
            # Each start writes the interpreter it was given (none: "-").
            fake.write_text("#!/bin/sh\npy=-\n"
                            "while [ $# -gt 0 ]; do [ \"$1\" = --python ] && py=$2; shift; done\n"
                            f"echo \"$py\" >> {said}\n")
            fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
            rule = Path(tmp, "r.cocci")
            rule.write_text("// Options: --no-includes\n")
            saved, spatch.SPATCH = spatch.SPATCH, str(fake)
            try:
                spatch.run_batch(rule, [Path("/t/a.c")], [], 10)
                spatch.run_batch(rule, [Path("/t/a.c"), Path("/t/b.c")], [], 10)
            finally:
                spatch.SPATCH = saved
            starts = said.read_text().split()
        self.assertGreaterEqual(len(starts), 2)
        self.assertEqual(set(starts), {sys.executable})


@unittest.skipUnless(_have_spatch(), "spatch is not installed")
class BatchEqualsSingleTest(unittest.TestCase):
    """The conversion rule gives each file the same report and diff in a
    batch as alone: nothing one file taught the rule leaks into the next."""

    def test_fixture_drivers(self):
        sources = sorted(FIXTURE_DRIVERS.glob("*.[ch]"))
        if not full_tier():
            # make check: every fourth driver, headers and .c files alike
            # (each alone is a spatch start, 43 in all), and fx_gnu.c, whose
            # twin below is the leak the test is made to show; make test
            # runs every one (tiers.py).
            sources = [s for i, s in enumerate(sources) if i % 4 == 0 or s.name == "fx_gnu.c"]
        with tempfile.TemporaryDirectory() as tmp:
            names = []
            for source in sources:
                shutil.copy(source, Path(tmp, source.name))
                names.append(Path(source.name))
            # Two drivers whose handlers share a name: a leak would show.
            twin = Path(tmp, "fx_gnu_twin.c")
            twin.write_text(Path(tmp, "fx_gnu.c").read_text())
            names.append(Path(twin.name))
            args = (settings.ConversionOptions.for_target(settings.DEFAULT_TARGET, lock=settings.LockMode.BKL)
                    .spatch_args("patch") + ["-D", "report"])
            alone = spatch.run_files(rules.CONVERSION_RULE, names, args, jobs=2, cwd=Path(tmp))
            together = spatch.run_batch(rules.CONVERSION_RULE, names, args, 120, cwd=Path(tmp))
        self.assertTrue(any("--- " in r.stdout for r in alone))
        for one, batched in zip(alone, together):
            self.assertEqual(batched.outcome, one.outcome, one.file)
            self.assertEqual(_stable(batched.stdout), _stable(one.stdout), one.file)


def _stable(stdout: str) -> str:
    """spatch's output without the temporary file name it diffs against, and
    with the ./ a lone run puts before a relative name."""
    return "\n".join(line.replace("./", "") for line in stdout.splitlines()
                     if not line.startswith("+++ "))


if __name__ == "__main__":
    unittest.main()

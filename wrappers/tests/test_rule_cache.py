"""Issue 26 section 2: a rule run's cache key reads the headers its file
includes, so it is made once a file (get, then put, asked for it twice),
and not at all under --no-cache; what is stored and found is unchanged."""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert import rule_cache
from ioctl_rework.convert.file_runs import Pending, RunTask
from ioctl_rework.spatch import runner as spatch


def _answer(outcome=spatch.Outcome.OK, stdout="--- a\n+++ b\n"):
    return spatch.SpatchResult(Path("x.c"), outcome, stdout, "", 1.5, ())


class RuleCacheKeyTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="rule-cache-"))
        (self.root / "x.c").write_text('#include "x.h"\nint a;\n')
        (self.root / "x.h").write_text("int b;\n")
        self.pending = Pending(RunTask("x.c"), (self.root / "x.c").read_bytes(), ("-D", "p"))
        self.spy = mock.patch.object(rule_cache, "headers_digest",
                                     wraps=rule_cache.headers_digest)

    def tearDown(self):
        shutil.rmtree(self.root)

    def _cache(self, enabled: bool) -> rule_cache.RuleCache:
        directory = self.root / "cache" if enabled else None
        return rule_cache.RuleCache(cache_mod.Cache(directory, "convert"), self.root, "1.1.1")

    def test_a_miss_then_a_put_reads_the_headers_once(self):
        answers = self._cache(True)
        with self.spy as digest:
            self.assertIsNone(answers.get(self.pending))
            answers.put(self.pending, _answer())
        self.assertEqual(digest.call_count, 1)

    def test_no_cache_reads_no_header_for_a_key(self):
        answers = self._cache(False)
        with self.spy as digest:
            self.assertIsNone(answers.get(self.pending))
            answers.put(self.pending, _answer())
            self.assertIsNone(answers.get(self.pending))
        digest.assert_not_called()

    def test_what_is_put_is_found_by_a_later_run_and_a_changed_header_misses(self):
        self._cache(True).put(self.pending, _answer(stdout="said\n"))
        found = self._cache(True).get(self.pending)
        self.assertEqual((found.outcome, found.stdout, found.seconds),
                         (spatch.Outcome.OK, "said\n", 1.5))
        (self.root / "x.h").write_text("int c;\n")
        self.assertIsNone(self._cache(True).get(self.pending))

    def test_a_timeout_or_a_crash_is_not_kept(self):
        for outcome in (spatch.Outcome.TIMEOUT, spatch.Outcome.CRASH):
            self._cache(True).put(self.pending, _answer(outcome))
            self.assertIsNone(self._cache(True).get(self.pending), outcome)


if __name__ == "__main__":
    unittest.main()

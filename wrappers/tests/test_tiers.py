"""tiers.cover: `make check` runs every value of every axis, `make test`
the whole product; tiers.full_tier_only: a test `make test` alone runs."""

import itertools
import os
import unittest
from unittest import mock

import tiers

AXES = (("2.6.11", "2.6.36"), ("a", "b", "c", "d", "e"), ("auto", "wrapper", "pushdown"))


class CoverTest(unittest.TestCase):
    def cases(self, full: str, *axes) -> list[tuple]:
        with mock.patch.dict(os.environ, {tiers.FULL_TIER_ENV: full}):
            return tiers.cover(*axes)

    def test_the_full_tier_is_the_whole_product(self):
        for axes in (AXES, AXES[:2], AXES[1:2]):
            with self.subTest(axes=len(axes)):
                self.assertEqual(self.cases("1", *axes), list(itertools.product(*axes)))

    def test_the_fast_tier_takes_every_value_of_every_axis(self):
        for full in ("", "0"):
            for axes in (AXES, AXES[:2], AXES[1:2], (("x",), ("p", "q"))):
                with self.subTest(full=full, axes=axes):
                    cases = self.cases(full, *axes)
                    self.assertEqual(len(cases), max(map(len, axes)))
                    self.assertTrue(set(cases) <= set(itertools.product(*axes)))
                    for i, axis in enumerate(axes):
                        self.assertEqual({case[i] for case in cases}, set(axis), i)

    def test_the_fast_tier_is_the_same_every_run(self):
        self.assertEqual(self.cases("", *AXES), self.cases("", *AXES))
        self.assertEqual(self.cases("", *AXES)[:3], [("2.6.11", "a", "auto"),
                                                     ("2.6.36", "b", "wrapper"),
                                                     ("2.6.11", "c", "pushdown")])

    def test_axes_given_as_iterators_and_views(self):
        spellings = {"one": 1, "two": 2, "three": 3}
        self.assertEqual(self.cases("", iter(("x", "y")), spellings.items()),
                         [("x", ("one", 1)), ("y", ("two", 2)), ("x", ("three", 3))])

    def test_an_empty_axis_is_no_case(self):
        self.assertEqual(self.cases("", (), ("a",)), [])
        self.assertEqual(self.cases("1", (), ("a",)), [])


class FullTierOnlyTest(unittest.TestCase):
    def outcome(self, full: str) -> unittest.TestResult:
        with mock.patch.dict(os.environ, {tiers.FULL_TIER_ENV: full}):
            class Case(unittest.TestCase):
                @tiers.full_tier_only("as test_kept")
                def test_moved(self):
                    raise AssertionError("ran")
        result = unittest.TestResult()
        unittest.defaultTestLoader.loadTestsFromTestCase(Case).run(result)
        return result

    def test_make_check_skips_it_saying_which_test_covers_its_class(self):
        result = self.outcome("")
        self.assertEqual(result.failures, [])
        self.assertEqual([reason for _, reason in result.skipped],
                         [f"make test only ({tiers.FULL_TIER_ENV}=1): as test_kept"])

    def test_make_test_runs_it(self):
        result = self.outcome("1")
        self.assertEqual((len(result.failures), result.skipped), (1, []))


if __name__ == "__main__":
    unittest.main()

"""Which spellings and variants a test module runs: all of them under
`make test`, a representative cover of them under `make check`.

`make check` has a budget of 5 minutes of wall on two idle cores
(bench/make_check.md, issue 25), and the modules that convert end to end
spend it on the product of their axes (targets x spellings, strategies x
drivers).  The fast tier runs a cover of that product instead: every
value of every axis at least once, so every class and every spelling is
still tested and a branch that one value takes still fails a check test;
`make test` (which exports IOCTL_REWORK_TEST_FULL) runs the whole product.
One helper for every module, so the two tiers mean the same everywhere.
"""

import itertools
import os
import unittest
from typing import Iterable, TypeVar

T = TypeVar("T")

# `make test` sets it (Makefile); `make check` and a run by hand leave it unset.
FULL_TIER_ENV = "IOCTL_REWORK_TEST_FULL"


def full_tier() -> bool:
    return os.environ.get(FULL_TIER_ENV, "") not in ("", "0")


def cover(*axes: Iterable) -> list[tuple]:
    """The cases of AXES this run's tier runs: their whole product under
    `make test`; otherwise as many cases as the longest axis has values,
    the i-th taking each axis's (i mod its length)-th value, so each value
    of each axis appears at least once (and, when the axes are the same
    length, once).  Deterministic: the same cases every run."""
    axes = [list(axis) for axis in axes]
    if full_tier():
        return list(itertools.product(*axes))
    longest = max((len(axis) for axis in axes), default=0)
    if any(not axis for axis in axes):
        return []
    return [tuple(axis[i % len(axis)] for axis in axes) for i in range(longest)]


def full_tier_only(why: str):
    """A test (or class) that runs under `make test` only: another spelling
    of a class that a test kept in `make check` already covers (WHY says
    which).  `make check` reports it as skipped, so the TAP still names it."""
    return unittest.skipUnless(full_tier(), f"make test only ({FULL_TIER_ENV}=1): {why}")

"""The fixture drivers converted for the lock proof's test modules, each
conversion made once a run whichever module asks for it first.

test_lockproof_conversions proves every distinct variant's conversion and
test_lockproof_mutants breaks the same conversions; the test runner starts
the two side by side.  Each asked convert for every variant cold, so both
converted the same variant at the same time (15-25 s of cpu each, 42% of
the unit suite's cpu together: bench/make_check.md).  Now a lock per
conversion lets the first module that asks convert it into convert's own
cache (build/ in a clone) while the other waits, then read it warm (a
fraction of a second); the mutants take the variants from the other end,
so the two modules convert different variants at the same time.

Which variants: all the distinct ones under `make test`, a representative
set of them under `make check` (tier_variants()).
"""

import fcntl
from pathlib import Path

from ioctl_rework import paths, settings
from ioctl_rework.cache import Cache, make_key
from ioctl_rework.convert.plan import convert
from ioctl_rework.convert.request import ConversionResult, ConvertRequest
from ioctl_rework.fixture import kernel, variants
# Under `make test` the modules prove and break every distinct variant;
# `make check` and a run by hand take REPRESENTATIVE (the tiers of every module).
from tiers import FULL_TIER_ENV, full_tier  # noqa: F401 (FULL_TIER_ENV: the tests set it)

# Beside the fixture kernel's cache (build/ in a clone): conversions take a while.
CACHE = paths.fixture_cache().parent / "lockproof-conversions"
DRIVERS = kernel.DRIVERS_DIR


def distinct_variants() -> list[variants.Variant]:
    """Conversion variants that differ in what the rule writes (compat only
    adds an entry; the pre-2.6.11 build compiles the same output)."""
    seen, found = set(), []
    for variant in variants.conversion_variants():
        o = variant.options
        key = (o.strategy, o.lock, o.target.inode_style, o.multi_kernel)
        if key not in seen:
            seen.add(key)
            found.append(variant)
    return found


# The fast tier's variants.  Every strategy x lock once, as a Latin square
# over the targets, so that each lock meets each class of shape the rule
# writes: the inode spelled through f_dentry (2.6.11), f_path (2.6.20) or
# file_inode() (3.9.0); and the multi-kernel output (#if around the old
# entry), the one shape of its own, which spells the inode through f_dentry
# (the BKL's 2.6.11 here).  The targets differ only in that spelling, in the
# declaration that derives the inode or in an expression at each use: the
# lock and unlock lines and the statements beside them are the same, so a
# second target of a strategy x lock proves and breaks nothing new.  The
# three 3.9.0 variants are the ones the negative variants break
# (test_lockproof_mutants converts them anyway: the conversions are
# shared), so the fast tier converts 7 variants in all, none for the
# negative variants alone (bench/make_check.md, tests34).
REPRESENTATIVE = ("pushdown-bkl-3.9.0", "auto-bkl-3.9.0", "pushdown-mutex-3.9.0",
                  "wrapper-bkl-2.6.20", "wrapper-mutex-2.6.11", "auto-mutex-2.6.20",
                  "auto-bkl-2.6.11-multi")


def tier_variants() -> list[variants.Variant]:
    """The distinct variants this run's tier proves and breaks: all of
    them under `make test`, REPRESENTATIVE otherwise (the fast tier's
    5-minute budget, bench/make_check.md: one cold conversion of the
    fixture drivers is 20-30 s of cpu)."""
    every = distinct_variants()
    if full_tier():
        return every
    return [variant for variant in every if variant.name in REPRESENTATIVE]


def fixture_conversion(options: settings.ConversionOptions,
              inputs: tuple[Path, ...] | None = None) -> ConversionResult:
    """convert of INPUTS (by default what the variant of OPTIONS converts of
    the fixture drivers), rooted at the drivers, through the shared cache.
    Another process converting the same request meanwhile is waited for."""
    inputs = variants.conversion_paths(DRIVERS, options) if inputs is None else inputs
    key = make_key(repr(options), *(str(path) for path in inputs))
    lock = CACHE / "locks" / f"{key[:24]}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        # Without the fixture kernel's headers, on purpose: with them a cold
        # conversion costs 2.7x the cpu (auto-bkl-2.6.11: 49.8 s against
        # 18.3 s) for the same output, and these modules prove and break what
        # the rule wrote, not what it read (the kernel proofs read them).
        return convert(ConvertRequest(paths=inputs, options=options, root=DRIVERS,
                                      cache=Cache(CACHE), kernel=None))

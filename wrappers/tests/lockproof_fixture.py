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
"""

import fcntl
from pathlib import Path

from ioctl_rework import paths, settings
from ioctl_rework.cache import Cache, make_key
from ioctl_rework.convert.plan import convert
from ioctl_rework.convert.request import ConversionResult, ConvertRequest
from ioctl_rework.fixture import kernel, variants

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


# The target of the variants whose conversions the mutants break: the one
# the negative variants break too (kernel-fixtures/proof/negative).
MUTANT_TARGET = max(variants.TARGETS)


def mutant_variants() -> list[variants.Variant]:
    """The distinct variants whose conversions test_lockproof_mutants breaks:
    every strategy and lock at MUTANT_TARGET, and the multi-kernel output.
    The other targets differ from these only in how the inode is spelled
    (f_dentry, f_path or file_inode(), the key of distinct_variants): in
    the declaration that derives it, which no mutation moves, drops or
    doubles, or in an expression at each use.  Their lock and unlock lines
    and the statements beside them are the same, so their mutants break
    nothing these do not.  test_lockproof_conversions still proves
    every distinct variant's conversion."""
    return [variant for variant in distinct_variants()
            if variant.options.multi_kernel or variant.options.target == MUTANT_TARGET]


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
        return convert(ConvertRequest(paths=inputs, options=options, root=DRIVERS,
                                      cache=Cache(CACHE)))

#!/usr/bin/python3
"""Time the compat classification of every missing-compat finding against
the audit without it, on one kernel tree, in one run.

Both audits start from an empty cache of their own (cold), one after the
other: first without classes (`audit --no-compat-classes`), then with them
(the facts rule on the files with a missing-compat finding, a layout probe
per file for both ABIs, cached per command and type).  The goal: the audit
with classes within 2x of the audit without.

Usage: bench/compat_bench.py --tree ~/linux-6.1 [--jobs 2] [--output bench/compat.md]
"""

import argparse
import collections
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework.audit import scan as audit
from ioctl_rework.spatch import runner as spatch  # noqa: E402
from ioctl_rework.cache import Cache  # noqa: E402
from ioctl_rework.audit.findings import Kind  # noqa: E402

GOAL = 2.0


def timed_audit(tree: Path, jobs: int, classes: bool) -> tuple[float, audit.AuditResult]:
    with tempfile.TemporaryDirectory(prefix="compat-bench-") as cache_dir:
        start = time.monotonic()
        result = audit.audit([tree], jobs, cache=Cache(Path(cache_dir), "audit"),
                             compat_classes=classes)
        return time.monotonic() - start, result


def report(tree: Path, jobs: int, plain: tuple, classified: tuple) -> str:
    (plain_s, plain_r), (with_s, with_r) = plain, classified
    missing = [f for f in with_r.findings if f.kind is Kind.MISSING_COMPAT]
    counts = collections.Counter(f.compat_class for f in missing)
    ratio = with_s / plain_s
    load = os.getloadavg()[0]
    lines = [
        "# Compat classification benchmark", "",
        f"Tree: linux {with_r.version}, jobs {jobs}, spatch {spatch.version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f} at the end, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "Measured in one run of `bench/compat_bench.py`; both audits cold (empty caches).", "",
        "| run | seconds | findings | missing-compat |", "|---|---:|---:|---:|",
        f"| audit --no-compat-classes | {plain_s:.1f} | {len(plain_r.findings)} | "
        f"{plain_r.count(Kind.MISSING_COMPAT)} |",
        f"| audit (with compat classes) | {with_s:.1f} | {len(with_r.findings)} | "
        f"{len(missing)} |", "",
        f"- ratio: **{ratio:.2f}x** (goal: <= {GOAL:.0f}x): "
        f"{'within' if ratio <= GOAL else 'NOT within'} the goal",
        "- classes of the missing-compat findings: "
        + ", ".join(f"{name} {counts[name]}" for name in sorted(counts)),
        f"- every missing-compat finding classified: "
        f"{'yes' if all(f.compat_class for f in missing) else 'no'}", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    plain = timed_audit(args.tree, args.jobs, classes=False)
    classified = timed_audit(args.tree, args.jobs, classes=True)
    text = report(args.tree, args.jobs, plain, classified)
    if args.output:
        args.output.write_text(text)
    print(text)
    ratio = classified[0] / plain[0]
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Time what `convert --kdir` adds to a run, against a plain make of the
same objects, in one run.

On a copy of the fixture drivers, with the fixture kernel's O= directory
as KDIR (`make fixture-build` makes it), one command after the other:

  make        make -C KDIR M=COPY OBJECTS: the objects the run rewrites,
              built once from the legacy text (what a maintainer would do)
  make C=2    the same with sparse
  plain       ioctl-rework convert --kernel-headers SOURCE COPY (KDIR's source
              tree: the headers --kdir reads too), empty cache (the proof included)
  kdir        ioctl-rework convert --kdir KDIR COPY, empty cache
  plain again the same as plain, cache warm (a re-run over the same tree)
  kdir again  the same as kdir, cache warm (the legacy builds come from it)

The cost of --kdir is kdir - plain, as a multiple of make (goal: at most 2),
in wall time and in CPU time (user + system of every process a command
ran: on a shared machine the wall time depends on the others' load).

Usage: bench/kdir_bench.py [--kdir DIR] [--jobs 2] [--output FILE]
"""

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "wrappers" / "ioctl-rework"
DRIVERS = ROOT / "kernel-fixtures" / "drivers"
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework import paths, settings  # noqa: E402


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], ok=(0, 1)) -> tuple[float, float]:
    """Wall and CPU seconds (of every process it ran) of COMMAND."""
    start, cpu = time.monotonic(), _cpu()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in ok:
        sys.exit(f"{' '.join(command[:4])} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return time.monotonic() - start, _cpu() - cpu


def fresh_copy(where: Path) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(DRIVERS, where, ignore=shutil.ignore_patterns(".*", "*.o", "*.cmd"))
    return where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kdir", type=Path, default=paths.fixture_cache() / "obj",
                        help="a prepared KDIR in which the fixture drivers build "
                             "(default: the fixture kernel's O= directory)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", type=Path, help="write the markdown table here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kdir-bench-") as tmp:
        work = Path(tmp)
        copy = fresh_copy(work / "drivers")

        def convert(cache: str, *more: str) -> tuple[float, float]:
            (work / "run.json").unlink(missing_ok=True)
            seconds = timed([sys.executable, str(ENTRY), "convert", "--target", "2.6.11",
                             "--jobs", str(args.jobs), "--cache-dir", str(work / cache),
                             "--json", str(work / "run.json"), *more, "--", str(copy)])
            if not (work / "run.json").exists():    # status 1 is a run with failures, or a crash
                sys.exit(f"convert {' '.join(more)} wrote no summary")
            return seconds

        # The headers --kdir reads, so that kdir - plain is the builds alone.
        headers = ("--kernel-headers", str(settings.kdir_source(args.kdir)))
        plain = convert("plain-cache", *headers)
        summary = json.loads((work / "run.json").read_text())
        objects = [f["file"][:-2] + ".o" for f in summary["files"]
                   if f["status"] == "converted" and f["file"].endswith(".c")]
        kdir = convert("kdir-cache", "--kdir", str(args.kdir))
        kept = json.loads((work / "run.json").read_text())["totals"]["handlers"]
        plain_again = convert("plain-cache", *headers)
        kdir_again = convert("kdir-cache", "--kdir", str(args.kdir))
        make = ["make", "-C", str(args.kdir), f"-j{args.jobs}"]
        plain_make = timed([*make, f"M={fresh_copy(work / 'make')}", *objects])
        sparse_make = timed([*make, f"M={fresh_copy(work / 'sparse')}", "C=2", *objects])
    def cost(with_kdir, without) -> list[str]:
        return [f"{(k - w) / m:.2f}x" for k, w, m in zip(with_kdir, without, plain_make)]

    rows = [("make of the rewritten objects", plain_make, ["1", "1"]),
            ("make C=2 of the same", sparse_make, [""] * 2),
            ("convert, empty cache", plain, [""] * 2),
            ("convert --kdir, empty cache", kdir, cost(kdir, plain)),
            ("convert, warm cache", plain_again, [""] * 2),
            ("convert --kdir, warm cache", kdir_again, cost(kdir_again, plain_again))]
    lines = ["| run | wall s | cpu s | --kdir cost / make, wall | cpu |",
             "| --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {name} | {wall:.1f} | {cpu:.1f} | {ratios[0]} | {ratios[1]} |"
              for name, (wall, cpu), ratios in rows]
    lines += ["", f"{len(objects)} objects; handlers with --kdir: {kept}",
              f"load average at the end: {os.getloadavg()[0]:.1f}; "
              f"{platform.machine()}, {os.cpu_count()} cores, --jobs {args.jobs}"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        args.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

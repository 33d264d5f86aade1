#!/usr/bin/python3
"""Time the lock-balance proof of a tree-wide conversion against the
conversion itself, in one run.

  cold     ioctl-rework convert TREE, with an empty cache
  cached   the same again over the unchanged tree (the cache is warm)
  prove    ioctl-rework prove --summary SUMMARY TREE: every file the run
           rewrote, proven (what convert's verify stage adds to each run),
           with an empty cache of verdicts
  again    the same again: every verdict comes from the cache, as on a
           re-run of convert over an unchanged tree

All three are whole-process timings, one after the other.  Peak memory is
the largest resident set of any one child, from getrusage.

Usage: bench/lockproof_bench.py --tree DIR [--jobs 2] [--output FILE]
"""

import argparse
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENTRY = ROOT / "wrappers" / "ioctl-rework"
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework import settings  # noqa: E402


def timed(command: list[str], ok=(0, 1)) -> tuple[float, str]:
    start = time.monotonic()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in ok:
        sys.exit(f"{' '.join(command[1:3])} failed: {proc.stderr}")
    return time.monotonic() - start, proc.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True,
                        help="the legacy tree to convert and prove (an unpacked 2.6.9)")
    parser.add_argument("--jobs", type=int, default=2, help="spatch processes for convert")
    parser.add_argument("--output", type=Path, help="write the markdown table here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lockproof-bench-") as tmp:
        cache, summary = Path(tmp) / "cache", Path(tmp) / "run.json"
        target = settings.conversion_target(settings.Target.from_makefile(args.tree))
        convert = [sys.executable, str(ENTRY), "convert", "--target", str(target),
                   "--jobs", str(args.jobs),
                   "--cache-dir", str(cache), "--json", str(summary), "--", str(args.tree)]
        cold, _ = timed(convert)
        cached, _ = timed(convert)
        prove_command = [sys.executable, str(ENTRY), "prove", "--summary", str(summary),
                         "--cache-dir", str(cache), str(args.tree)]
        prove, said = timed(prove_command)
        again, said_again = timed(prove_command)
        if said_again.strip().splitlines()[-1] != said.strip().splitlines()[-1]:
            sys.exit("the cached verdicts differ from the proven ones")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    counts = said.strip().splitlines()[-1]
    rows = [("convert, cold cache", cold, "1"),
            ("convert, cached re-run", cached, f"{cold / cached:.1f}x faster"),
            ("prove --summary (every rewritten file)", prove,
             f"{prove / cold:.2f} of cold, {prove / cached:.1f}x cached"),
            ("prove --summary again (cached verdicts)", again,
             f"{again / cold:.3f} of cold, {again / cached:.1f}x cached")]
    lines = ["| run | seconds | ratio |", "| --- | ---: | ---: |"]
    lines += [f"| {name} | {seconds:.1f} | {ratio} |" for name, seconds, ratio in rows]
    lines += ["", f"prove: {counts}.", "",
              f"Peak memory: {peak:.0f} MiB (largest of any one child).",
              f"Machine: {platform.machine()}, Python {platform.python_version()}."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        args.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

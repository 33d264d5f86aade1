#!/usr/bin/python3
"""Time a tree-wide `ioctl-rework convert` against the plain way, in one run.

  cold     ioctl-rework convert TREE, with an empty cache
  cached   the same again over the unchanged tree (the cache is warm)
  plain    spatch --sp-file RULE -D patch --macro-file macros.h --dir TREE
           --jobs 2 (what `make cocci MODE=patch` does), stopped after FACTOR x cold:
           if it has not finished by then, convert is at least FACTOR x
           faster, and what the plain run did produce in that time is
           compared file by file with convert's result ("at least as
           complete": every file plain changed, convert changed the same way).

Peak memory is the largest resident set of this process and of any one
child (spatch, grep), from getrusage.

Usage: bench/convert_bench.py --tree DIR [--factor 10] [--jobs 2] [--output bench/convert.md]
"""

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework import settings  # noqa: E402
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.patches import tidy  # noqa: E402
from ioctl_rework.patches.unified import apply_hunks  # noqa: E402

ENTRY = ROOT / "wrappers" / "ioctl-rework"


def timed_convert(tree: Path, cache: Path, jobs: int, summary: Path) -> float:
    start = time.monotonic()
    target = settings.conversion_target(settings.Target.from_makefile(tree))
    proc = subprocess.run([sys.executable, str(ENTRY), "convert", "--target", str(target),
                           "--jobs", str(jobs),
                           "--cache-dir", str(cache), "--json", str(summary), "--", str(tree)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"convert failed: {proc.stderr}")
    return time.monotonic() - start


def plain_run(tree: Path, jobs: int, limit: float, out: Path) -> tuple[float, bool]:
    """spatch --dir with a time limit; returns (seconds, finished)."""
    # The same rule with the same flags as convert chooses for the tree's
    # target (the inode spelling, the lock), as make coccicheck would run it.
    options = settings.ConversionOptions.for_target(
        settings.conversion_target(settings.Target.from_makefile(tree)))
    command = ["spatch", "--sp-file", str(rules.CONVERSION_RULE),
               *options.spatch_args("patch"),
               "--very-quiet", *rules.spatch_options(rules.CONVERSION_RULE),
               "--dir", str(tree), "--jobs", str(jobs)]
    start = time.monotonic()
    with open(out, "wb") as stream:
        proc = subprocess.Popen(command, stdout=stream, stderr=subprocess.DEVNULL,
                                env=rules.spatch_environment(rules.CONVERSION_RULE),
                                start_new_session=True)
        try:
            proc.wait(timeout=limit)
            return time.monotonic() - start, True
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return time.monotonic() - start, False


def plain_files(diff: bytes, tree: Path) -> dict[str, str]:
    """relpath -> that file's diff, for every complete file diff in the output
    (spatch --dir prints "diff -u -p a/PATH b/PATH", then --- a/PATH, +++ b/PATH)."""
    lines = diff.decode("utf-8", "surrogateescape").split("\n")
    found, name, body = {}, None, []
    for i, line in enumerate(lines):
        header = line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")
        if header or line.startswith("diff -u -p "):
            if name and body:
                found[name] = "\n".join(body) + "\n"
            name, body = None, []
            if header:
                path = line[4:].split("\t")[0].strip()
                rel = os.path.relpath(path, tree) if os.path.isabs(path) else path
                if not (tree / rel).exists() and rel.startswith("a/"):
                    rel = rel[2:]
                name, body = rel, [f"--- {rel}"]
            continue
        if name:
            body.append(line if not line.startswith("+++ ") else f"+++ {name}")
    if name and body:
        found[name] = "\n".join(body) + "\n"
    return found


def compare(tree: Path, summary: dict, plain: dict[str, str]) -> list[str]:
    """Files plain changed that convert did not change the same way.  convert
    puts the lines spatch adds in kernel style (tidy), so plain's result is
    compared after the same step."""
    ours = {f["file"]: f["diff"] for f in summary["files"]}
    worse = []
    for rel, diff in sorted(plain.items()):
        old = (tree / rel).read_bytes()
        try:
            theirs = tidy.tidy(apply_hunks(old, diff))
        except ValueError:
            continue
        if not ours.get(rel):
            worse.append(f"{rel}: changed by plain only")
            continue
        mine = apply_hunks(old, ours[rel]).new
        if mine != theirs:
            worse.append(f"{rel}: changed differently")
    return worse


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True,
                        help="an unpacked kernel tree (2.6.9)")
    parser.add_argument("--factor", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "convert.md")
    parser.add_argument("--keep-summary", type=Path, metavar="FILE",
                        help="also save the cold run's --json summary (for reports/)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="convert-bench-"))
    try:
        summary_path = work / "summary.json"
        cold = timed_convert(args.tree, work / "cache", args.jobs, summary_path)
        cached = timed_convert(args.tree, work / "cache", args.jobs, work / "again.json")
        summary = json.loads(summary_path.read_text())
        if args.keep_summary:
            shutil.copyfile(summary_path, args.keep_summary)
        plain_seconds, finished = plain_run(args.tree, args.jobs, args.factor * cold,
                                            work / "plain.diff")
        print(f"cold {cold:.1f} s, cached {cached:.1f} s, plain {plain_seconds:.1f} s "
              f"({'finished' if finished else 'stopped'})", file=sys.stderr, flush=True)
        if args.keep_summary:
            shutil.copyfile(work / "plain.diff", args.keep_summary.with_suffix(".plain.diff"))
        plain = plain_files((work / "plain.diff").read_bytes(), args.tree)
        worse = compare(args.tree, summary, plain)
        peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                   resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
        totals = summary["totals"]
        lines = [
            "# convert benchmark", "",
            f"Tree: {args.tree.name} ({summary['target']}), jobs {args.jobs}, "
            f"{platform.node()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the end.",
            "",
            "| run | seconds | ratio |", "| --- | ---: | ---: |",
            f"| convert, cold cache | {cold:.1f} | 1 |",
            f"| convert, cached re-run | {cached:.1f} | {cold / cached:.1f}x faster |",
            f"| plain spatch --dir --jobs {args.jobs} | {plain_seconds:.1f}"
            f"{'' if finished else ' (stopped, unfinished)'} | "
            f"{'>= ' if not finished else ''}{plain_seconds / cold:.1f}x slower |",
            "",
            f"convert: {totals['fops']} fops entries, {totals['handlers']}, "
            f"{totals['files']['converted']} files changed.",
            f"plain, in its {plain_seconds:.0f} s: {len(plain)} files changed; "
            f"{len(worse)} of them not changed the same way by convert.",
            *[f"- {w}" for w in worse[:20]],
            "", f"Peak memory: {peak:.0f} MiB (largest of this process and any one child).",
        ]
        args.output.write_text("\n".join(lines) + "\n")
        print("\n".join(lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

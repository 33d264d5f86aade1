#!/usr/bin/python3
"""Time a tree-wide `ioctl-rework convert` against its floors, in one run
(issue 26): every ratio comes from timings of the same run, one after the
other, on the same machine and load.

  floor    spatch parsing the files that name both `ioctl` and
           `file_operations` with a trivial rule (no prefilter: every file
           parsed), 40 files a process, JOBS processes
  cold     ioctl-rework convert TREE with an empty cache (its --json
           summary gives the time of each stage)
  warm     the same again over the unchanged tree, at the tree's target and
           at each --target asked (each after a cold run at that target)
  plain    spatch --sp-file RULE --dir TREE --jobs JOBS with the rule's own
           options (what `make coccicheck MODE=patch` runs), stopped after
           FACTOR x cold: unfinished by then, convert is at least FACTOR x
           faster; what it produced is compared file by file with convert's
  scaling  with --scaling: cold convert of the tree plus a copy of its
           drivers/ renamed beside it, minus the files that name `ioctl`
           (the same candidates in a tree about twice the size; hard links,
           not copies), against the cold run
  --path   every run over one directory of the tree (drivers/, drivers/char)
           instead of the whole tree, the tree's top still the root: a
           whole-tree cold run takes hours on a loaded 2-core machine.  The
           scaling run then converts that directory and its copy under the
           renamed drivers/ (its files less those naming ioctl)
  fixtures with --fixtures DIR: warm re-runs of the fixture drivers at 6.1
           and at 2.6.34 (issue 25: at most 1.5x)

Peak memory is the largest resident set of this process and of any one
child (convert, spatch, grep), from getrusage.  The machine may be shared:
the load average is recorded at the start and at the end.

Usage: bench/convert_bench.py --tree DIR [--path drivers] [--targets 6.1] [--scaling]
       [--plain-limit S] [--fixtures kernel-fixtures/drivers] [--factor 3] [--jobs 2]
       [--keep DIR] [--output bench/convert.md]
"""

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework import settings  # noqa: E402
from ioctl_rework.spatch import rule_parts, rules  # noqa: E402
from ioctl_rework.spatch import runner as spatch  # noqa: E402
from ioctl_rework.patches import tidy  # noqa: E402
from ioctl_rework.patches.unified import apply_hunks  # noqa: E402

ENTRY = ROOT / "wrappers" / "ioctl-rework"
FLOOR_BATCH = 40
# A rule that changes nothing: with the prefilter off, spatch parses every file.
TRIVIAL_RULE = """// Options: {options}
@@
@@
- ioctl_rework_parse_floor_never_called();
"""


CPU: dict[str, float] = {}     # run label -> CPU seconds of convert and its children


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_convert(tree: Path, cache: Path, jobs: int, summary: Path, *more: str,
                  label: str | None = None, paths: list[Path] | None = None) -> float:
    cpu = _children_cpu()
    start = time.monotonic()
    # The tree's own target (2.6.9 is converted for 2.6.11: the same spellings),
    # unless MORE names one (the fixture drivers have no top Makefile to read).
    chosen = [] if "--target" in more else [
        "--target", str(settings.conversion_target(settings.Target.from_makefile(tree)))]
    proc = subprocess.run([sys.executable, str(ENTRY), "convert", "-q", "--jobs", str(jobs),
                           "--cache-dir", str(cache), "--json", str(summary), *chosen, *more,
                           "--", *(str(p) for p in (paths or [tree]))],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"convert failed: {proc.stderr}")
    if label:
        CPU[label] = _children_cpu() - cpu
    return time.monotonic() - start


def parse_floor(tree: Path, jobs: int, work: Path) -> tuple[float, int]:
    """Seconds spatch takes to parse the files under TREE naming ioctl and file_operations."""
    files = sorted(Path(name) for name, _ in spatch.source_files([tree])
                   if _names_both(Path(name)))
    rule = work / "parse_floor.cocci"
    rule.write_text(TRIVIAL_RULE.format(
        options=" ".join(rules.rule_options(rules.CONVERSION_RULE))))
    batches = [files[i:i + FLOOR_BATCH] for i in range(0, len(files), FLOOR_BATCH)]
    cpu = _children_cpu()
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda batch: spatch.run_batch(rule, batch,
                                                     ["--disable-worth-trying-opt"], 120),
                      batches))
    CPU["floor"] = _children_cpu() - cpu
    return time.monotonic() - start, len(files)


def _names_both(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return b"ioctl" in data and b"file_operations" in data


def _session_cpu(session: int) -> float:
    """CPU seconds of the live processes of SESSION but its leader, and of the
    children they reaped (/proc): what getrusage never sees of a run killed
    before it ends, whose workers init reaps (the leader's is waited for)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # fields: the session, then utime, stime, cutime and cstime
        if int(fields[3]) == session and int(pid) != session:
            total += sum(int(f) for f in fields[11:15]) / tick
    return total


def plain_run(tree: Path, directory: Path, jobs: int, limit: float,
              out: Path) -> tuple[float, bool]:
    """spatch --dir DIRECTORY (TREE or one of its directories) with a time
    limit; returns (seconds, finished).  A run stopped at the limit adds
    its processes' CPU to CPU["plain stopped"]."""
    # The same rule with the same flags as convert chooses for the tree's
    # target (the inode spelling, the lock), as make coccicheck would run it.
    options = settings.ConversionOptions.for_target(
        settings.conversion_target(settings.Target.from_makefile(tree)))
    command = ["spatch", "--sp-file", str(rule_parts.sp_file(rules.CONVERSION_RULE)),
               *options.spatch_args("patch"),
               "--very-quiet", *rules.spatch_options(rules.CONVERSION_RULE),
               "--dir", str(directory.resolve()), "--jobs", str(jobs)]
    start = time.monotonic()
    with open(out, "wb") as stream:
        # spatch --jobs keeps its workers' output in a directory of its cwd,
        # left behind when it is stopped: the scratch directory, not the caller's.
        proc = subprocess.Popen(command, stdout=stream, stderr=subprocess.DEVNULL,
                                env=rules.spatch_environment(rules.CONVERSION_RULE),
                                start_new_session=True, cwd=out.parent)
        try:
            proc.wait(timeout=limit)
            return time.monotonic() - start, True
        except subprocess.TimeoutExpired:
            CPU["plain stopped"] = _session_cpu(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return time.monotonic() - start, False


def plain_files(diff: bytes, tree: Path, directory: Path | None = None) -> dict[str, str]:
    """relpath (to TREE) -> that file's diff, for every complete file diff in
    the output of spatch --dir DIRECTORY (TREE by default; it prints "diff -u
    -p a/PATH b/PATH", then --- a/PATH, +++ b/PATH, PATH relative to DIRECTORY)."""
    directory = directory or tree
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
                rel = path if os.path.isabs(path) else str(directory / path)
                if not os.path.exists(rel) and path.startswith("a/"):
                    rel = str(directory / path[2:])
                rel = os.path.relpath(rel, tree)
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


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:                 # another filesystem
        shutil.copy2(source, target)


def doubled_tree(tree: Path, work: Path) -> Path:
    """TREE with a copy of its drivers/ beside it as drivers_copy/, less the
    files that name ioctl: the same candidates, about twice the files.
    Hard links where the filesystem allows (no run writes in the tree)."""
    big = work / "doubled" / tree.name
    shutil.copytree(tree, big, symlinks=True, copy_function=_link_or_copy)
    copy = big / "drivers_copy"
    shutil.copytree(tree / "drivers", copy, symlinks=True, copy_function=_link_or_copy)
    for path in list(copy.rglob("*")):
        if path.is_file() and not path.is_symlink() and b"ioctl" in path.read_bytes():
            path.unlink()
    return big


def stage_table(runs: list[tuple[str, dict]]) -> list[str]:
    """Stage -> seconds, one column per run (the runs' --json summaries)."""
    names = list(dict.fromkeys(n for _, s in runs for n in s.get("stage_seconds", {})))
    lines = ["| stage | " + " | ".join(label for label, _ in runs) + " |",
             "| --- |" + " ---: |" * len(runs)]
    for name in names:
        cells = [f"{s['stage_seconds'][name]:.1f}" if name in s.get("stage_seconds", {})
                 else "-" for _, s in runs]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| (wall) | " + " | ".join(f"{s['wall_seconds']:.1f}" for _, s in runs) + " |")
    return lines


def verdict(value: float, goal: float, at_most: bool) -> str:
    met = value <= goal if at_most else value >= goal
    return "met" if met else "**not met**"


class Results:
    """What the run measured so far; rendered after each phase, so that a
    run stopped early (a loaded machine) still leaves its figures."""

    def __init__(self, args):
        self.args = args
        self.load_start = os.getloadavg()
        self.began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        self.floor = self.floor_files = None
        self.cold = self.summary = None
        self.runs: list[tuple[str, dict]] = []
        self.warms: dict[str, float] = {}
        self.plain = None           # (seconds, finished, files changed, worse)
        self.scaling = None         # (seconds, files, files of the tree)
        self.fixtures = None        # target -> seconds

    def write(self) -> str:
        a = self.args
        peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                   resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
        load_end = os.getloadavg()
        lines = ["# convert benchmark", "",
                 f"Tree: {a.tree.name}{f', every run over {a.path}/ only' if a.path else ''}, "
                 f"`--jobs {a.jobs}`, {os.cpu_count()} CPUs shared with "
                 f"other work: load average {self.load_start[0]:.1f} at the start "
                 f"({self.began}), {load_end[0]:.1f} at the end "
                 f"({time.strftime('%H:%M UTC', time.gmtime())}). One run of "
                 "`bench/convert_bench.py`; every ratio is of figures from that run. On a "
                 "loaded machine wall times stretch with the load; the CPU seconds (user and "
                 "system of the process and its children) do not, and are the figures to "
                 "compare.", "",
                 "| run | wall s | CPU s | ratio (CPU) |", "| --- | ---: | ---: | ---: |"]
        if self.floor is not None:
            lines.append(f"| parse floor: spatch parses the {self.floor_files} files naming "
                         f"ioctl and file_operations ({FLOOR_BATCH} a process, {a.jobs} "
                         f"processes) | {self.floor:.1f} | {CPU['floor']:.0f} | 1 |")
        if self.cold is not None:
            ratio = f"{CPU['cold'] / CPU['floor']:.1f}x the floor" if "floor" in CPU else ""
            lines.append(f"| convert, cold cache | {self.cold:.1f} | {CPU['cold']:.0f} | "
                         f"{ratio} |")
        summaries = dict(self.runs)
        for target, seconds in self.warms.items():
            label = "warm" if target == self.summary["target"] else f"warm {target}"
            # What the run memo said: "warm: ..." when it answered for the run.
            memo = summaries.get(label, {}).get("memo") or "no run memo"
            lines.append(f"| convert, warm re-run, target {target} ({memo}) | {seconds:.1f} | "
                         f"{CPU.get(label, 0):.1f} | |")
        if self.plain:
            seconds, finished, _, _ = self.plain
            bound = "" if finished else ">= "
            lines.append(f"| plain spatch --dir --jobs {a.jobs}"
                         f"{'' if finished else ' (stopped, unfinished)'} | {seconds:.1f} | "
                         f"{CPU['plain']:.0f} | {bound}{CPU['plain'] / CPU['cold']:.1f}x "
                         "convert's cold run |")
        if self.scaling:
            seconds, files, tree_files = self.scaling
            what = f"{a.path}/ and its renamed copy" if a.path else "tree plus a renamed copy " \
                "of drivers/"
            lines.append(f"| convert, cold, {what} less its ioctl files ({files} .c/.h files "
                         f"against {tree_files}) | {seconds:.1f} | {CPU['doubled']:.0f} | "
                         f"{CPU['doubled'] / CPU['cold']:.2f}x the cold run |")
        if self.fixtures:
            lines.append(f"| fixture drivers, warm, target 2.6.34 (best of 3) | "
                         f"{self.fixtures['2.6.34']:.2f} | | 1 |")
            lines.append(f"| fixture drivers, warm, target 6.1 (best of 3) | "
                         f"{self.fixtures['6.1']:.2f} | | "
                         f"{self.fixtures['6.1'] / self.fixtures['2.6.34']:.2f}x (wall) |")
        if self.runs:
            lines += ["", "Time of each stage (wall seconds, from the runs' `--json` summaries; "
                      "a stage inside another is counted in its own row only):", "",
                      *stage_table(self.runs)]
        if self.summary:
            totals = self.summary["totals"]
            lines += ["", f"convert: {totals['fops']} fops entries, {totals['handlers']}, "
                          f"{totals['files']['converted']} files changed."]
        if self.plain:
            seconds, finished, changed, worse = self.plain
            lines.append(f"plain, in its {seconds:.0f} s: {changed} files changed; "
                         f"{len(worse)} of them not changed the same way by convert.")
            lines += [f"- {w}" for w in worse[:20]]
        lines += ["", f"Peak memory: {peak:.0f} MiB (largest of this process and any one "
                      "child).", "", "Against the goals of issue 26 (and issue 25's warm "
                      "ratio), in CPU seconds where the machine was shared:"]
        if self.cold is not None and "floor" in CPU:
            ratio = CPU["cold"] / CPU["floor"]
            lines.append(f"- cold convert over the parse floor: **{ratio:.1f}x** (goal <= 2x): "
                         f"{verdict(ratio, 2, True)}.")
        if self.plain:
            ratio, finished = CPU["plain"] / CPU["cold"], self.plain[1]
            lines.append(f"- cold convert against plain spatch: **{'' if finished else '>= '}"
                         f"{ratio:.1f}x** faster (goal >= 3x): "
                         f"{verdict(ratio, 3, False) if finished or ratio >= 3 else 'not known (plain stopped first)'}.")
        if self.warms:
            # Mostly one thread: its CPU time is the wall time of a quiet machine.
            cpu = max(CPU.get("warm" if t == self.summary["target"] else f"warm {t}", 0)
                      for t in self.warms)
            lines.append(f"- warm re-run: at most **{cpu:.1f} CPU s** ({max(self.warms.values()):.1f} "
                         f"s wall on this load) at the targets measured "
                         f"({', '.join(self.warms)}) (goal <= 2 s): {verdict(cpu, 2, True)}.")
        lines.append(f"- peak memory **{peak:.0f} MiB** (goal < 1 GiB): "
                     f"{verdict(peak, 1023, True)}.")
        if self.scaling:
            ratio = CPU["doubled"] / CPU["cold"]
            lines.append(f"- twice the tree, same candidates: **{(ratio - 1) * 100:+.0f}%** CPU "
                         f"(goal <= +10%): {verdict(ratio, 1.10, True)}.")
        if self.fixtures:
            ratio = self.fixtures["6.1"] / self.fixtures["2.6.34"]
            lines.append(f"- warm fixture run at 6.1 over 2.6.34: **{ratio:.2f}x** (goal <= "
                         f"1.5x): {verdict(ratio, 1.5, True)}.")
        text = "\n".join(lines) + "\n"
        a.output.write_text(text)
        return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True,
                        help="an unpacked kernel tree (2.6.9)")
    parser.add_argument("--targets", nargs="*", default=[],
                        help="targets for a cold then warm run besides the tree's own (6.1)")
    parser.add_argument("--scaling", action="store_true",
                        help="also convert the tree with a renamed copy of drivers/")
    parser.add_argument("--path", type=Path,
                        help="a directory of the tree (drivers): every run over it alone")
    parser.add_argument("--fixtures", type=Path,
                        help="the fixture drivers: warm 6.1 against warm 2.6.34")
    parser.add_argument("--factor", type=float, default=3.0,
                        help="stop plain spatch after FACTOR x the cold run (default 3)")
    parser.add_argument("--plain-limit", type=float, metavar="SECONDS",
                        help="and after SECONDS at most (a loaded machine)")
    parser.add_argument("--skip", nargs="*", default=[], choices=("floor", "plain"),
                        help="leave out the parse floor or the plain run (measured by "
                             "another run of this script; the ratios need them)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep the cold run's --json summary and plain's diff here")
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "convert.md")
    args = parser.parse_args()
    found = Results(args)
    work = Path(tempfile.mkdtemp(prefix="convert-bench-"))
    # The tree's top stays the root of every run; --path narrows what is run.
    paths = [args.tree / args.path] if args.path else [args.tree]

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)
        found.write()

    try:
        if "floor" not in args.skip:
            found.floor, found.floor_files = parse_floor(paths[0], args.jobs, work)
            say(f"parse floor {found.floor:.1f} s ({found.floor_files} files)")
        found.cold = timed_convert(args.tree, work / "cache", args.jobs, work / "cold.json",
                                   label="cold", paths=paths)
        found.summary = json.loads((work / "cold.json").read_text())
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(work / "cold.json", args.keep / "cold.json")
        warm = timed_convert(args.tree, work / "cache", args.jobs, work / "warm.json",
                             label="warm", paths=paths)
        found.runs = [("cold", found.summary),
                      ("warm", json.loads((work / "warm.json").read_text()))]
        found.warms[found.summary["target"]] = warm
        say(f"cold {found.cold:.1f} s, warm {warm:.1f} s")
        if args.fixtures:
            timings = {}
            for target in ("2.6.34", "6.1"):
                cache = work / f"cache-fixtures-{target}"
                # No kernel tree around them: without the flag convert refuses (exit 2).
                more = ("--target", target, "--no-kernel-headers")
                timed_convert(args.fixtures, cache, args.jobs, work / "fx.json", *more)
                timings[target] = min(timed_convert(args.fixtures, cache, args.jobs,
                                                    work / "fx.json", *more)
                                      for _ in range(3))
            found.fixtures = timings
            say(f"fixtures warm: {timings}")
        if "plain" not in args.skip:
            limit = args.factor * found.cold
            if args.plain_limit:
                limit = min(limit, args.plain_limit)
            cpu = _children_cpu()
            seconds, finished = plain_run(args.tree, paths[0], args.jobs, limit,
                                          work / "plain.diff")
            CPU["plain"] = _children_cpu() - cpu + CPU.pop("plain stopped", 0.0)
            if args.keep:
                shutil.copyfile(work / "plain.diff", args.keep / "plain.diff")
            plain = plain_files((work / "plain.diff").read_bytes(), args.tree, paths[0])
            found.plain = (seconds, finished, len(plain),
                           compare(args.tree, found.summary, plain))
            say(f"plain {seconds:.1f} s ({'finished' if finished else 'stopped'})")
        if args.scaling:
            big = doubled_tree(args.tree, work)
            big_paths = [big]
            if args.path:
                big_paths = [big / args.path]
                if args.path.parts[0] == "drivers":
                    big_paths.append(big / "drivers_copy" / Path(*args.path.parts[1:]))
            files = sum(1 for _ in spatch.source_files(big_paths))
            found.scaling = (timed_convert(big, work / "cache-big", args.jobs,
                                           work / "big.json", label="doubled", paths=big_paths),
                             files, sum(1 for _ in spatch.source_files(paths)))
            found.runs.append(("cold, doubled tree", json.loads((work / "big.json").read_text())))
            shutil.rmtree(big.parent)
            say(f"doubled tree {found.scaling[0]:.1f} s")
        for target in args.targets:
            out = work / f"cold-{target}.json"
            timed_convert(args.tree, work / "cache", args.jobs, out, "--target", target,
                          label=f"cold {target}", paths=paths)
            found.warms[target] = timed_convert(args.tree, work / "cache", args.jobs,
                                                work / f"warm-{target}.json", "--target",
                                                target, label=f"warm {target}", paths=paths)
            found.runs += [(f"cold {target}", json.loads(out.read_text())),
                           (f"warm {target}",
                            json.loads((work / f"warm-{target}.json").read_text()))]
            say(f"warm at {target}: {found.warms[target]:.1f} s")
        print(found.write())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

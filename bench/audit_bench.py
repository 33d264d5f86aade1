#!/usr/bin/python3
"""Time `ioctl-rework audit` against plain whole-tree spatch on one kernel tree.

"plain" is what `make cocci MODE=report COCCI=RULE` runs for each rule
the audit uses (the conversion rule and the three audit rules):

    spatch -D report --very-quiet --cocci-file RULE <the rule's // Options>
           --macro-file semantic-patches/macros.h
           --dir TREE --jobs 2 --chunksize 1

All in one run, on the same tree, one after the other:
  1. the audit with an empty cache (cold);
  2. the audit again, unchanged tree (warm: every file from the cache);
  3. plain, once per rule, each stopped after --plain-limit seconds (then
     its time is a lower bound, and so is the speed-up).
The audit goes first so that a machine getting quieter during the run
favours plain, not us.  The findings of 1 and 3 are compared per kind
(file, fops, handler).  Peak
memory is the largest total RSS of the audit's whole process tree (python
and its spatch children), sampled every 0.1 s from /proc.

With --classes PATH (repeatable) it measures instead what the compat
classes cost (issue 24 s.3), per PATH, in one run: the audit without
classes (--no-compat-classes) and with them, each on its own empty cache
(cold), then each again on its cache (warm, three times, the median kept),
the two kinds interleaved so that a change of load hits both.  The
machine's load average is noted before each run.  That section of
--output ("## Compat classes") is replaced; the rest of the file is kept,
and the plain comparison keeps that section in turn.

Usage: bench/audit_bench.py --tree ~/linux-6.1 [--jobs 2] [--plain-limit 900]
                            [--output bench/audit.md]
       bench/audit_bench.py --classes ~/linux-6.1/drivers/char [--classes ...]
"""

import argparse
import json
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework.audit import scan as audit
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch  # noqa: E402
from ioctl_rework.audit.findings import Kind  # noqa: E402

ENTRY = ROOT / "wrappers" / "ioctl-rework"
PLAIN_RULES = (rules.CONVERSION_RULE, *audit.AUDIT_RULES)
CLASSES_HEADING = "## Compat classes"
# The goals of issue 24 s.3: with classes / without.
COLD_GOAL, WARM_GOAL = 1.5, 1.2
WARM_REPEATS = 5


def _tree_rss(pid: int) -> int:
    """Total resident memory of PID and its descendants, in bytes."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo += children.get(current, [])
    return total


def timed(command: list[str], env: dict | None = None, limit: float | None = None,
          cwd: Path | None = None) -> tuple[float, int, subprocess.CompletedProcess | None]:
    """Run COMMAND; return (seconds, peak RSS of its process tree, result),
    with result None when it was stopped after LIMIT seconds."""
    peak = 0
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=cwd, start_new_session=True)
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.1)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        out, err = proc.communicate(timeout=limit)
        result = subprocess.CompletedProcess(command, proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        result = None
    seconds = time.monotonic() - start
    done.set()
    sampler.join()
    return seconds, peak, result


def identities(findings) -> dict[str, set]:
    sets: dict[str, set] = {}
    for finding in findings:
        sets.setdefault(finding.kind.value, set()).add((finding.file, finding.struct,
                                                        finding.handler))
    return sets


def plain_findings(tree: Path, rule: Path, jobs: int,
                   limit: float) -> tuple[float, int, list | None]:
    command = [spatch.SPATCH, "-D", "report", "--very-quiet", "--cocci-file", str(rule),
               *rules.spatch_options(rule), "--dir", str(tree), "--jobs", str(jobs),
               "--chunksize", "1"]
    # spatch --jobs keeps its work files in the current directory.
    with tempfile.TemporaryDirectory(prefix="audit-bench-plain-") as cwd:
        seconds, peak, proc = timed(command, env=rules.spatch_environment(rule), limit=limit,
                                    cwd=Path(cwd))
    if proc is None:
        return seconds, peak, None
    stdout = proc.stdout.decode(errors="replace")
    if rule == rules.CONVERSION_RULE:
        found = audit.read_legacy_report(stdout)
    else:
        found = audit.first_per_handler(audit.read_unlocked_report(stdout))
    prefix = str(tree) + "/"
    return seconds, peak, [f.__class__(**{**f.__dict__, "file": f.file.removeprefix(prefix)})
                           for f in found]


def with_section(text: str, section: str) -> str:
    """TEXT with its CLASSES_HEADING section (to the end) replaced by SECTION."""
    head = text.split(CLASSES_HEADING, 1)[0].rstrip()
    return (head + "\n\n" if head else "") + section


def _audit_command(path: Path, cache: Path, jobs: int, classes: bool) -> list[str]:
    # The report goes beside the cache, never to the machine's /dev/null.
    return [sys.executable, str(ENTRY), "audit", "--jobs", str(jobs), "--cache-dir", str(cache),
            "--format", "json", "--output", str(cache) + ".json", str(path),
            *([] if classes else ["--no-compat-classes"])]


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def prefilter_cost(path: Path) -> dict:
    """The audit's prefilter on PATH with nothing cached (the file contents
    in the page cache), in this process: cpu seconds of the whole, and of
    the shared finder of legacy entries (ioctl_tokens.legacy_entries and the
    fops_holders it calls), which reads only files that may spell an entry
    the cheap tests miss."""
    from ioctl_rework import settings
    from ioctl_rework.ctext import ioctl_tokens
    finder = ioctl_tokens.legacy_entries
    spent = {"seconds": 0.0, "calls": 0}

    def timed_finder(text):
        start = time.process_time()
        try:
            return finder(text)
        finally:
            spent["seconds"] += time.process_time() - start
            spent["calls"] += 1
    files = list(spatch.source_files([path]))
    for file in files:                  # into the page cache: disk speed is not measured
        Path(file[0]).read_bytes()
    with tempfile.TemporaryDirectory(prefix="audit-bench-prefilter-") as tmp:
        runs = audit._rule_runs(settings.DEFAULT_TARGET, Path(tmp))
        ioctl_tokens.legacy_entries = timed_finder
        try:
            start = time.process_time()
            candidates = audit._candidates([path], runs, cache=None)
            total = time.process_time() - start
        finally:
            ioctl_tokens.legacy_entries = finder
    return {"files": len(files), "candidates": len(candidates), "seconds": total,
            "finder": spent["seconds"], "finder_files": spent["calls"]}


def classes_section(paths: list[Path], jobs: int) -> str:
    """The cost of the compat classes on each of PATHS, cold and warm, in
    wall and cpu seconds; and the cold prefilter's (prefilter_cost)."""
    rows, notes, prefilter_rows = [], [], []
    for path in paths:
        with tempfile.TemporaryDirectory(prefix="audit-bench-classes-") as tmp:
            times: dict[tuple[bool, str], list[float]] = {}
            cpus: dict[tuple[bool, str], list[float]] = {}
            loads = []
            for kind in ["cold"] + ["warm"] * WARM_REPEATS:
                for classes in (False, True):
                    loads.append(os.getloadavg()[0])
                    command = _audit_command(path, Path(tmp) / f"cache-{classes}", jobs, classes)
                    before = _cpu_of_children()
                    seconds, _, proc = timed(command)
                    cpu = _cpu_of_children() - before
                    if proc.returncode != 0:
                        sys.exit(f"audit failed: {proc.stderr.decode()[-2000:]}")
                    times.setdefault((classes, kind), []).append(seconds)
                    cpus.setdefault((classes, kind), []).append(cpu)
                    print(f"{path}: {'with' if classes else 'without'} classes, {kind}: "
                          f"{seconds:.1f} s, cpu {cpu:.2f} s (load {loads[-1]:.1f})",
                          file=sys.stderr)
        cold = [times[c, "cold"][0] for c in (False, True)]
        warm = [sorted(times[c, "warm"])[WARM_REPEATS // 2] for c in (False, True)]
        cold_cpu = [cpus[c, "cold"][0] for c in (False, True)]
        warm_cpu = [sorted(cpus[c, "warm"])[WARM_REPEATS // 2] for c in (False, True)]
        shown = path.resolve()
        tree = audit.find_tree(shown)
        name = f"{tree.name}/{shown.relative_to(tree)}" if tree else shown.name
        rows.append(f"| {name} | {cold[0]:.1f} | {cold[1]:.1f} | **{cold[1] / cold[0]:.2f}x** | "
                    f"{warm[0]:.2f} | {warm[1]:.2f} | **{warm[1] / warm[0]:.2f}x** | "
                    f"{cold_cpu[0]:.2f} / {cold_cpu[1]:.2f} = "
                    f"**{cold_cpu[1] / cold_cpu[0]:.2f}x** | "
                    f"{warm_cpu[0]:.2f} / {warm_cpu[1]:.2f} = "
                    f"**{warm_cpu[1] / warm_cpu[0]:.2f}x** | "
                    f"{min(loads):.0f}-{max(loads):.0f} |")
        cost = prefilter_cost(path)
        prefilter_rows.append(
            f"| {name} | {cost['files']} | {cost['candidates']} | {cost['seconds']:.2f} | "
            f"{cost['finder_files']} | {cost['finder']:.2f} |")
        notes.append(f"- {name}: cold {cold[1] / cold[0]:.2f}x (goal <= {COLD_GOAL}x: "
                     f"{'met' if cold[1] / cold[0] <= COLD_GOAL else 'NOT met'}), warm "
                     f"{warm[1] / warm[0]:.2f}x (goal <= {WARM_GOAL}x: "
                     f"{'met' if warm[1] / warm[0] <= WARM_GOAL else 'NOT met'}); warm runs: "
                     + ", ".join(f"{'with' if c else 'without'} "
                                 + " / ".join(f"{t:.2f}" for t in times[c, "warm"])
                                 for c in (False, True)))
    return "\n".join([
        CLASSES_HEADING, "",
        f"jobs {jobs}, spatch {spatch.version()}, {platform.node()}, {os.cpu_count()} CPUs, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; measured by "
        "`bench/audit_bench.py --classes PATH`.  Each kind on its own empty cache (cold), then "
        f"again on it (warm: the median of {WARM_REPEATS}), the two kinds interleaved; "
        "seconds of the whole command (python start-up included), wall and cpu (user + "
        "system of the command and every child: on a shared machine the better measure).",
        "",
        "| path | cold without | cold with | cold ratio | warm without | warm with | "
        "warm ratio | cold cpu without / with | warm cpu without / with | load average |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows, "", *notes, "",
        "The cold prefilter (which files the rules read), in the bench's own process with "
        "nothing cached but the page cache: its cpu seconds, and those of the shared finder "
        "of legacy entries (ctext/ioctl_tokens.py with fops_holders.py) on the files it reads.",
        "",
        "| path | files | candidates | prefilter cpu (s) | files the finder reads | "
        "finder cpu (s) |",
        "|---|---|---|---|---|---|",
        *prefilter_rows, ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path,
                        help="an unpacked linux-source-6.1 tree")
    parser.add_argument("--classes", type=Path, action="append", default=[], metavar="PATH",
                        help="measure the compat classes' cost on PATH instead")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--plain-limit", type=float, default=900, metavar="SECONDS")
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "audit.md")
    args = parser.parse_args()
    old = args.output.read_text() if args.output.is_file() else ""
    if args.classes:
        section = classes_section(args.classes, args.jobs)
        args.output.write_text(with_section(old, section))
        print(section)
        return 0
    if args.tree is None:
        parser.error("give --tree or --classes")
    tree = args.tree.resolve()

    with tempfile.TemporaryDirectory(prefix="audit-bench-") as tmp:
        env = dict(os.environ, XDG_CACHE_HOME=tmp)
        report = Path(tmp) / "audit.json"
        command = [sys.executable, str(ENTRY), "audit", "--jobs", str(args.jobs),
                   "--format", "json", "--output", str(report), str(tree)]
        cold, cold_peak, proc = timed(command, env)
        if proc.returncode != 0:
            sys.exit(f"audit failed: {proc.stderr.decode()[-2000:]}")
        value = json.loads(report.read_text())
        warm, warm_peak, proc = timed(command, env)
        warm_value = json.loads(report.read_text())
    print(f"audit: cold {cold:.1f} s, warm {warm:.1f} s", file=sys.stderr)

    plain = []
    for rule in PLAIN_RULES:
        seconds, peak, found = plain_findings(tree, rule, args.jobs, args.plain_limit)
        plain.append((rule.name, seconds, peak, found))
        print(f"plain {rule.name}: {seconds:.1f} s, "
              f"{'stopped' if found is None else len(found)} findings", file=sys.stderr)
    stopped = [p[0] for p in plain if p[3] is None]

    from ioctl_rework.audit.findings import Finding
    ours = [Finding.from_json(f) for f in value["trees"][0]["findings"]]
    same_warm = value["trees"][0]["findings"] == warm_value["trees"][0]["findings"]

    plain_total = sum(p[1] for p in plain)
    mine, theirs = identities(ours), identities(f for p in plain for f in p[3] or ())
    lines = [
        "# Audit benchmark",
        "",
        f"Tree: linux {value['trees'][0]['version']}, jobs {args.jobs}, "
        f"spatch {spatch.version()}, {platform.node()}, {os.cpu_count()} CPUs, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "Measured in one run of `bench/audit_bench.py`; the machine was shared, so "
        "absolute times vary, the ratios less.",
        "",
        "| run | seconds | peak RSS (MiB) | findings |",
        "|---|---|---|---|",
    ]
    for name, seconds, peak, found in plain:
        shown = f"stopped after {seconds:.0f} s" if found is None else f"{seconds:.1f}"
        lines.append(f"| plain spatch --dir, {name} | {shown} | {peak / 2**20:.0f} | "
                     f"{'-' if found is None else len(found)} |")
    bound = ">= " if stopped else ""
    lines += [
        f"| plain, all four rules | {bound}{plain_total:.1f} | | "
        f"{sum(len(p[3] or ()) for p in plain)} |",
        f"| ioctl-rework audit, cold cache | {cold:.1f} | {cold_peak / 2**20:.0f} | {len(ours)} |",
        f"| ioctl-rework audit, warm cache | {warm:.1f} | {warm_peak / 2**20:.0f} | "
        f"{len(warm_value['trees'][0]['findings'])} |",
        "",
        f"- cold audit vs plain: **{bound}{plain_total / cold:.1f}x** faster (goal: >= 5x)"
        + (f"; plain {', '.join(stopped)} was stopped, so this is a lower bound"
           if stopped else ""),
        f"- warm vs cold audit: **{cold / warm:.1f}x** faster (goal: >= 20x)",
        f"- peak memory: **{max(cold_peak, warm_peak) / 2**20:.0f} MiB** (goal: < 1024 MiB)",
        f"- warm findings identical to cold: {'yes' if same_warm else 'NO'}",
        "",
        "| kind | audit | plain | only audit | only plain |",
        "|---|---|---|---|---|",
    ]
    differences = []
    if stopped:
        lines += [f"Not compared: {', '.join(stopped)} (plain run stopped); its kinds show "
                  "0 under plain.", ""]
    # Every kind, found or not: a kind neither side reports is compared too.
    for kind in sorted({k.value for k in Kind} | set(mine) | set(theirs)):
        a, b = mine.get(kind, set()), theirs.get(kind, set())
        lines.append(f"| {kind} | {len(a)} | {len(b)} | {len(a - b)} | {len(b - a)} |")
        differences += [f"- only audit: {kind} `{f}` {s} {h}" for f, s, h in sorted(a - b)]
        differences += [f"- only plain: {kind} `{f}` {s} {h}" for f, s, h in sorted(b - a)]
    lines += ["", "Differences (explained in reports/audit-linux-6.1.md):" if differences
              else "The audit and plain spatch report the same findings.", "", *differences, ""]
    text = "\n".join(lines)
    kept = old.partition(CLASSES_HEADING)
    args.output.write_text(text + ("\n" + kept[1] + kept[2] if kept[1] else ""))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

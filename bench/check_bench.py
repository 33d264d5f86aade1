#!/usr/bin/python3
"""Time `ioctl-rework check` against the plain semantic patch on the same files.

Real legacy drivers are taken from a kernel tree (--tree, an unpacked
2.6.9) and committed to a scratch git repository, outside this one;
nothing of them is kept.  Scenarios:

  one-new      a one-file patch adding a legacy driver (an ERROR, with its
               conversion diff): the worst case for one file
  one-edit     a one-file patch changing a legacy driver outside its fops
               and handler (nothing to report): the common case
  series-new   a series of N commits (--files, default 100) adding N legacy drivers, checked as
               a range, commit by commit (every file an ERROR with its conversion)
  series-edit  a series of N commits changing N legacy drivers elsewhere
  range-new    a range of M commits (--range, default 50) adding M legacy drivers, checked
               commit by commit, against the same range checked as one diff (--squash)
  range-edit   a range of M commits changing M legacy drivers elsewhere, the same way
  one-kdir     with --kdir KDIR (a prepared kernel the driver builds in: the fixture
               kernel's O= directory): a one-file patch adding the tests' legacy misc
               driver, `check --kdir KDIR` against a plain `make -C KDIR M=DIR file.o` of
               the same object, and against check without --kdir (what --kdir adds)

The baseline of the one-file and series cases is "plain", what a
maintainer would run instead: the conversion rule, spatch --sp-file
ioctl_to_unlocked_ioctl.cocci -D patch, over the same files (one file; or
--dir over the N with --jobs 2, as coccicheck does).  That of the range
cases is "squash": check of the same range as one diff, which is what
checking commit by commit costs more than.

Usage: bench/check_bench.py --tree DIR [--files 100] [--range 50] [--repeat 5]
                            [--kdir KDIR] [--output bench/check.md]
"""

import argparse
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "wrappers"))

from ioctl_rework import settings  # noqa: E402
from ioctl_rework.spatch import rule_parts, rules
from ioctl_rework.spatch import runner as spatch  # noqa: E402

ENTRY = ROOT / "wrappers" / "ioctl-rework"
# A file_operations initializer that sets the legacy member (other ops
# structures have an .ioctl too; check rightly ignores those).
LEGACY_FOPS = re.compile(rb"struct\s+file_operations\s+\w+\s*=\s*\{[^}]*?(?<!\w)\.?ioctl\s*[=:]")
GIT_ENV = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}


def legacy_drivers(tree: Path, count: int) -> list[Path]:
    """COUNT legacy drivers spread evenly over the tree's drivers/ (sorted, so
    the same tree always gives the same files)."""
    found = sorted(p for p in (tree / "drivers").rglob("*.c")
                   if LEGACY_FOPS.search(p.read_bytes()))
    if len(found) < count:
        sys.exit(f"{tree}: only {len(found)} legacy drivers, {count} wanted")
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def typical_driver(files: list[Path]) -> Path:
    """The one-file cases use the driver nearest the median size that the
    conversion rule converts: neither a toy nor the worst, and one whose
    conversion check has to show (a file the rule fails on is cheaper)."""
    by_size = sorted(files, key=lambda p: p.stat().st_size)
    middle = len(by_size) // 2
    for path in sorted(by_size, key=lambda p: abs(by_size.index(p) - middle)):
        command = ["spatch", "--sp-file", str(rule_parts.sp_file(rules.CONVERSION_RULE)), "-D", "report",
                   "--very-quiet", *rules.spatch_options(rules.CONVERSION_RULE), path.name]
        proc = subprocess.run(command, cwd=path.parent, capture_output=True, text=True,
                              env=rules.spatch_environment(rules.CONVERSION_RULE), check=False)
        if proc.returncode == 0 and ": convert (" in proc.stdout:
            return path
    sys.exit("no driver the conversion rule converts")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, check=True,
                          capture_output=True, text=True).stdout


def edit_elsewhere(text: bytes) -> bytes:
    """A change far from the fops and the handler: a line after the includes."""
    lines = text.split(b"\n")
    last_include = max((i for i, l in enumerate(lines) if l.startswith(b"#include")), default=0)
    lines.insert(last_include + 1, b"/* bench: an unrelated change */")
    return b"\n".join(lines)


def build_repo(repo: Path, tree: Path, files: list[Path], mode: str) -> str:
    """A repository whose last len(FILES) commits add (mode "new") or edit
    ("edit") one driver each; returns the commit before them."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README").write_text("bench\n")
    if mode == "edit":
        for f in files:
            dest = repo / f.relative_to(tree)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.read_bytes())
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    for f in files:
        rel = f.relative_to(tree)
        dest = repo / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        data = f.read_bytes()
        dest.write_bytes(data if mode == "new" else edit_elsewhere(data))
        git(repo, "add", str(rel))
        git(repo, "commit", "-q", "-m", f"{mode} {rel}")
    return base


def timed(command: list[str], cwd: Path, limit: float | None = None
          ) -> tuple[float, float, subprocess.CompletedProcess | None]:
    """Wall seconds, CPU seconds (user + system, with every child), and the run.

    The machine is shared: the CPU time says what a run costs when the
    wall time is inflated by someone else's build."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        # The plain baseline is spatch itself, which needs the rule's package.
        proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False,
                              env=rules.spatch_environment(rules.CONVERSION_RULE, GIT_ENV),
                              timeout=limit)
    except subprocess.TimeoutExpired:
        proc = None                     # stopped: the wall time is a lower bound
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def plain_command(target: str, jobs: int, directory: bool) -> list[str]:
    command = ["spatch", "--sp-file", str(rule_parts.sp_file(rules.CONVERSION_RULE)), "-D", "patch",
               "--very-quiet", *rules.spatch_options(rules.CONVERSION_RULE)]
    if not directory:
        return command + [target]
    return command + ["--jobs", str(jobs), "--dir", target]


def summary(stdout: str) -> str:
    """The last total line: a range checked by commit sums its commits there."""
    found = re.findall(r"^total: .*$", stdout, re.M)
    return found[-1] if found else "(no summary)"


def run_scenario(name: str, tree: Path, files: list[Path], mode: str, repeat: int,
                 jobs: int, work: Path, plain_limit: float, baseline: str) -> dict:
    repo = work / name
    base = build_repo(repo, tree, files, mode)
    rev = "HEAD" if len(files) == 1 else f"{base}..HEAD"
    check = [sys.executable, str(ENTRY), "check", "--git", rev, "--jobs", str(jobs)]
    if baseline == "squash":
        command = check + ["--squash"]
    else:
        # One file, or --dir over a directory holding exactly these files.
        single = len(files) == 1
        command = plain_command(str(files[0].relative_to(tree)) if single else ".", jobs,
                                directory=not single)
    check_times, check_cpu, plain_times, plain_cpu = [], [], [], []
    out, stopped = None, False
    # Check and baseline take turns, so that both see the same load.
    for _ in range(repeat):
        seconds, cpu, out = timed(check, repo)
        if out.returncode not in (0, 1):
            sys.exit(f"{name}: check failed ({out.returncode}): {out.stderr}")
        check_times.append(seconds)
        check_cpu.append(cpu)
        seconds, cpu, proc = timed(command, repo, plain_limit)
        stopped = stopped or proc is None
        plain_times.append(seconds)
        plain_cpu.append(cpu)
    print(f"  check {statistics.median(check_times):.2f} s", file=sys.stderr, flush=True)
    check_median = statistics.median(check_times)
    plain_median = statistics.median(plain_times)
    return {"name": name, "files": len(files), "runs": repeat,
            "check": check_median, "check_min": min(check_times),
            "check_max": max(check_times), "plain": plain_median,
            "ratio": check_median / plain_median if plain_median else float("nan"),
            "check_cpu": statistics.median(check_cpu), "plain_cpu": statistics.median(plain_cpu),
            "load": os.getloadavg()[0], "result": summary(out.stdout), "stopped": stopped,
            "baseline": baseline}


KDIR_DRIVER = ROOT / "wrappers" / "tests" / "test_data" / "check" / "legacy_driver.c"


def run_kdir_scenario(kdir: Path, repeat: int, jobs: int, work: Path) -> list[dict]:
    """one-kdir: check --kdir, check alone and make of the object, in turns."""
    repo, plain = work / "one-kdir", work / "one-kdir-make"
    rel = Path("drivers/misc/thermo.c")
    (repo / rel.parent).mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    (repo / rel).write_bytes(KDIR_DRIVER.read_bytes())
    git(repo, "add", str(rel))
    git(repo, "commit", "-q", "-m", "new thermo")
    plain.mkdir()
    (plain / rel.name).write_bytes(KDIR_DRIVER.read_bytes())
    (plain / "Kbuild").write_text(f"obj-m += {rel.stem}.o\n")
    check = [sys.executable, str(ENTRY), "check", "--git", "HEAD", "--jobs", str(jobs)]
    commands = {"kdir": check + ["--kdir", str(kdir)], "check": check,
                "make": ["make", "-s", "-C", str(kdir), f"M={plain}", f"{rel.stem}.o"]}
    times = {name: ([], []) for name in commands}
    out = None
    for _ in range(repeat):
        for name, command in commands.items():
            for stale in (plain / f"{rel.stem}.o", plain / f".{rel.stem}.o.cmd"):
                stale.unlink(missing_ok=True)
            seconds, cpu, proc = timed(command, plain if name == "make" else repo)
            if proc is None or proc.returncode not in (0, 1):
                sys.exit(f"one-kdir: {name} failed: {proc.stderr if proc else 'timeout'}")
            times[name][0].append(seconds)
            times[name][1].append(cpu)
            out = proc if name == "kdir" else out
    kdir_wall, kdir_cpu = times["kdir"]
    rows = []
    for baseline in ("make", "check"):
        wall, cpu = times[baseline]
        rows.append({"name": "one-kdir", "files": 1, "runs": repeat,
                     "check": statistics.median(kdir_wall), "check_min": min(kdir_wall),
                     "check_max": max(kdir_wall), "plain": statistics.median(wall),
                     "ratio": statistics.median(kdir_wall) / statistics.median(wall),
                     "check_cpu": statistics.median(kdir_cpu),
                     "plain_cpu": statistics.median(cpu), "load": os.getloadavg()[0],
                     "result": summary(out.stdout), "stopped": False,
                     "baseline": baseline})
    # What --kdir adds to a check, as a multiple of the make (the budget).
    added = {what: (statistics.median(times["kdir"][i]) - statistics.median(times["check"][i]))
             / statistics.median(times["make"][i]) for i, what in enumerate(("wall", "cpu"))}
    rows[0]["added"] = added
    return rows


def _version(tree: Path) -> str:
    """The tree by its version: no path of this machine in the report."""
    try:
        return str(settings.Target.from_makefile(tree))
    except settings.TargetError:
        return tree.name


def write_report(results: list[dict], tree: Path, output: Path, jobs: int,
                 series: int, commits: int) -> str:
    lines = [
        "# check: time per patch, against the plain semantic patch",
        "",
        "Generated by `bench/check_bench.py`; do not edit by hand.",
        "",
        f"- machine: {platform.machine()}, {os.cpu_count()} cores (shared), "
        f"Python {platform.python_version()}, spatch {spatch.version()}; load average "
        f"{os.getloadavg()[0]:.1f} when the report was written",
        f"- drivers: real legacy drivers from linux {_version(tree)} (not kept), "
        f"`--jobs {jobs}`",
        "- check: `ioctl-rework check --git REV_RANGE` on a scratch repository (a range is "
        "checked commit by commit); median of the runs (min-max in brackets); check and its "
        "baseline take turns",
        "- baseline plain (one-*, series-*): `spatch --sp-file "
        "semantic-patches/ioctl_to_unlocked_ioctl.cocci -D patch` with the rule's options "
        "and the macro file, "
        f"over the same files (one file, or `--dir` with `--jobs {jobs}` over the {series})",
        f"- baseline squash (range-*): `check --git REV_RANGE --squash`, the same {commits} "
        "commits checked as one diff",
        "- baseline make (one-kdir): `make -C KDIR M=DIR thermo.o` of the same file, and "
        "check: the same check without --kdir",
        f"- budgets: one-file patch <= 1.0 s median, wall and cpu; {commits}-commit range "
        "commit by commit <= 1.5 x the same range as one diff; what --kdir adds <= 1.5 x make",
        "",
        "- cpu: user + system seconds of every process of a run (median); on a loaded "
        "machine it is the better measure of cost, and cpu / 2 the wall time on two idle cores "
        "when the run keeps both busy",
        "",
        "| scenario | files | runs | check wall (s) | baseline | baseline wall (s) | "
        "check / baseline | check cpu (s) | baseline cpu (s) | cpu ratio | load | check says |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    notes = []
    for r in results:
        if "added" in r:
            notes.append(f"- one-kdir: what --kdir adds to check (check --kdir minus check), "
                         f"as a multiple of make: {r['added']['wall']:.2f} x in wall time, "
                         f"{r['added']['cpu']:.2f} x in cpu (budget: 1.5 x)")
        cpu_ratio = r["check_cpu"] / r["plain_cpu"] if r["plain_cpu"] else float("nan")
        more = ">" if r["stopped"] else ""   # the plain run was stopped: a lower bound
        lines.append(f"| {r['name']} | {r['files']} | {r['runs']} | {r['check']:.2f} "
                     f"[{r['check_min']:.2f}-{r['check_max']:.2f}] | {r['baseline']} | "
                     f"{more}{r['plain']:.2f} | "
                     f"{r['ratio']:.2f} | {r['check_cpu']:.2f} | {more}{r['plain_cpu']:.2f} | "
                     f"{cpu_ratio:.2f} | {r['load']:.1f} | {r['result']} |")
    text = "\n".join(lines + ([""] + notes if notes else [])) + "\n"
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, output)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True,
                        help="an unpacked 2.6 tree with legacy drivers (2.6.9)")
    parser.add_argument("--files", type=int, default=100, help="commits of the series cases")
    parser.add_argument("--range", type=int, default=50, help="commits of the range cases")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each one-file case")
    parser.add_argument("--series-repeat", type=int, default=1, help="runs of each series")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--plain-limit", type=float, default=600,
                        help="stop a plain run after this many seconds (reported as >)")
    parser.add_argument("--only", nargs="*", help="scenario names to run")
    parser.add_argument("--kdir", type=Path,
                        help="a prepared kernel for the one-kdir scenario (else it is not run)")
    parser.add_argument("--output", type=Path, default=ROOT / "bench" / "check.md")
    args = parser.parse_args()
    files = legacy_drivers(args.tree, args.files)
    typical = typical_driver(files)
    step = max(1, len(files) // args.range)
    ranged = files[::step][:args.range]
    scenarios = [("one-new", [typical], "new", args.repeat, "plain"),
                 ("one-edit", [typical], "edit", args.repeat, "plain"),
                 ("range-new", ranged, "new", args.series_repeat, "squash"),
                 ("range-edit", ranged, "edit", args.series_repeat, "squash"),
                 ("series-new", files, "new", args.series_repeat, "plain"),
                 ("series-edit", files, "edit", args.series_repeat, "plain")]
    results = []
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-bench.") as tmp:
        for name, chosen, mode, repeat, baseline in scenarios:
            if args.only and name not in args.only:
                continue
            print(f"{name}: {len(chosen)} file(s), {repeat} run(s)...", file=sys.stderr,
                  flush=True)
            results.append(run_scenario(name, args.tree, chosen, mode, repeat, args.jobs,
                                        Path(tmp), args.plain_limit, baseline))
            print(f"  check {results[-1]['check']:.2f} s, {baseline} "
                  f"{results[-1]['plain']:.2f} s", file=sys.stderr, flush=True)
        if args.kdir and (not args.only or "one-kdir" in args.only):
            print(f"one-kdir: {args.repeat} run(s)...", file=sys.stderr, flush=True)
            results += run_kdir_scenario(args.kdir, args.repeat, args.jobs, Path(tmp))
    print(write_report(results, args.tree, args.output, args.jobs, args.files, args.range),
          end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

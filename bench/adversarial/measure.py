#!/usr/bin/python3
"""The adversarial measure: convert every driver of tree/drivers/adv in
every mode, build each result against the model VFS, run it, and compare it
with the legacy driver (README.md says what is modelled and what is not).

One line per driver (kbuild module) and mode:

  MODE  MODULE  conversion  compile  runtime

  conversion  converted | refused(reason) | failed(reason) | SILENT-SKIP
  compile     ok | BREAK(error) | WARN(new warning) | -   (not built: refused)
  runtime     ok | WRONG(first difference) | -
  RECORD(...) when a handler recorded as left alone was converted in the
              written file (a record that is not exact; not counted in the exit status)

then the totals per mode and class.  A refusal with a reason is safe; a
"runtime-wrong" is a build that runs differently from the legacy driver
(return value, user copies, hardware trace), leaves a lock held at an exit
or touches the hardware without the lock; a "silent skip" is a legacy entry
left in the compiled result that the run neither converted nor listed.
Exit status 1 when any runtime-wrong, compile break or silent skip (or a
legacy build that fails, which is the measure's own fault), else 0.

Usage: bench/adversarial/measure.py [--modes m1,m2] [--modules a,b] [--output FILE]
                                    [--keep DIR] [--jobs N]
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import vfsmodel

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ENTRY = ROOT / "wrappers" / "ioctl-rework"
DRIVERS = Path("drivers") / "adv"     # inside tree/
PYTHON = "/usr/bin/python3"


@dataclass(frozen=True)
class Mode:
    name: str
    options: tuple[str, ...]
    kernels: tuple[str, ...]      # the model kernels the result is built for
    tree: bool = True             # run inside the tree (its include/ readable)


# A driver outside the tree is converted as an out-of-tree module is built:
# against the kernel's headers (the model tree's, read, never written).
KERNEL = ("--kernel-headers", str(vfsmodel.TREE))
# Or with no kernel at all: outside a tree such a run is refused unless the
# user accepts, with --no-kernel-headers, that a <...> header's macros are
# not read (the run warns); this mode measures what that acceptance costs.
NO_KERNEL = ("--no-kernel-headers",)

MODES = [
    Mode("bkl-auto", ("--target", "2.6.11"), ("2.6.11",)),
    Mode("bkl-auto-notree", ("--target", "2.6.11", *KERNEL), ("2.6.11",), tree=False),
    Mode("bkl-wrapper", ("--target", "2.6.11", "--strategy", "wrapper"), ("2.6.11",)),
    Mode("bkl-pushdown", ("--target", "2.6.11", "--strategy", "pushdown"), ("2.6.11",)),
    Mode("mutex-auto", ("--target", "6.1"), ("6.1",)),
    Mode("mutex-auto-notree", ("--target", "6.1", *KERNEL), ("6.1",), tree=False),
    Mode("mutex-wrapper", ("--target", "6.1", "--strategy", "wrapper"), ("6.1",)),
    Mode("mutex-pushdown", ("--target", "6.1", "--strategy", "pushdown"), ("6.1",)),
    Mode("multi-kernel", ("--target", "2.6.11", "--multi-kernel"), ("2.6.9", "2.6.11")),
    Mode("bkl-auto-noheaders", ("--target", "2.6.11", *NO_KERNEL), ("2.6.11",), tree=False),
]


@dataclass(frozen=True)
class Module:
    name: str
    files: tuple[str, ...]        # paths relative to the drivers directory


def modules(directory: Path) -> list[Module]:
    """The kbuild modules of DIRECTORY's Makefile: obj-m lines, and the
    files of a composite object (name-objs / name-y)."""
    text = re.sub(r"\\\n", " ", (directory / "Makefile").read_text())
    composite: dict[str, list[str]] = {}
    objects: list[str] = []
    for line in text.splitlines():
        match = re.match(r"\s*([\w-]+?)-(?:objs|y)\s*[:+]?=\s*(.*)$", line)
        if match and not match.group(1).startswith("obj"):
            composite.setdefault(match.group(1), []).extend(
                o[:-2] + ".c" for o in match.group(2).split())
            continue
        match = re.match(r"\s*obj-(?:m|y|\$\([\w]+\))\s*[:+]?=\s*(.*)$", line)
        if match:
            objects += [o[:-2] for o in match.group(1).split() if o.endswith(".o")]
    return [Module(name, tuple(composite.get(name, [name + ".c"]))) for name in objects]


# --- the conversion of one mode -------------------------------------------

@dataclass
class Run:
    mode: Mode
    root: Path                    # the copy the run rewrote
    drivers: Path                 # its drivers directory
    summary: dict
    status: int
    stderr: str
    warnings: dict[str, str] = field(default_factory=dict)   # module: what its run said on stderr
    # module: its own run's summary.  A run also records files outside its
    # paths that name one of its handlers (another module's file, when two
    # drivers use one name): such a record is about that run, not the other
    # module, whose result only its own run decides.
    summaries: dict[str, dict] = field(default_factory=dict)

    def of(self, module: "Module") -> dict:
        return self.summaries.get(module.name, {})

    @property
    def headers(self) -> Path:
        """The tree whose include/ the written drivers are built against: the
        run's copy when it converted the tree (a run may rewrite a tree
        header, the prototype of an exported handler), else the model tree,
        which a run outside the tree only reads."""
        return self.root if self.mode.tree else vfsmodel.TREE


def convert(mode: Mode, work: Path, chosen: list[Module]) -> Run:
    """Copy the tree (or only its drivers directory) into WORK and convert
    the drivers in place, one kbuild module a run: a refusal that denies a
    whole run (a forwarding site) then stops only its own module, as it
    would in a maintainer's run over that driver."""
    if mode.tree:
        root = work / "tree"
        shutil.copytree(vfsmodel.TREE, root)
        drivers = root / DRIVERS
    else:
        root = work / "adv"
        shutil.copytree(vfsmodel.TREE / DRIVERS, root)
        drivers = root
    merged: dict = {"handlers": [], "files": [], "tokens": []}
    statuses, stderr, said, summaries = [], [], {}, {}
    for module in chosen:
        summary_path = work / f"summary-{module.name}.json"
        # -j 1: two modes at a time then run at most two spatch processes
        command = ["nice", PYTHON, str(ENTRY), "convert", *mode.options, "-j", "1", "--in-place",
                   "--no-cache", "-q", "--json", str(summary_path), "--",
                   *(str(drivers / name) for name in module.files)]
        proc = subprocess.run(command, capture_output=True, text=True)
        statuses.append(proc.returncode)
        if proc.returncode not in (0, 1):
            stderr.append(f"{module.name}: {proc.stderr[-300:]}")
        elif proc.stderr.strip():
            # its warnings (--no-kernel-headers' comes first) and how it ended
            text = proc.stderr.strip()
            warned = [line[:300] for line in text.splitlines() if "warning:" in line]
            said[module.name] = "\n".join(warned + [text[-200:]])
        summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
        summaries[module.name] = summary
        merged.setdefault("root", summary.get("root"))
        for key in ("handlers", "files", "tokens"):
            merged[key] += summary.get(key, [])
    status = next((s for s in statuses if s not in (0, 1)), max(statuses, default=0))
    return Run(mode, root, drivers, merged if merged.get("root") else {}, status,
               "\n".join(stderr), said, summaries)


def _relative(run: Run, name: str) -> str:
    """A summary's file name, relative to the drivers directory."""
    path = Path(run.summary.get("root", "")) / name
    try:
        return str(path.resolve().relative_to(run.drivers.resolve()))
    except ValueError:
        return name


# --- one module of one mode -------------------------------------------------

@dataclass
class Outcome:
    mode: str
    module: str
    conversion: str
    compile: str = "-"
    runtime: str = "-"
    record: str = ""      # a record the written code contradicts
    details: list[str] = field(default_factory=list)

    @property
    def conversion_class(self) -> str:
        return self.conversion.split("(")[0]

    def line(self) -> str:
        line = f"{self.mode:18} {self.module:20} {self.conversion:40.40} {self.compile:24.24} {self.runtime}"
        return line + (f"  RECORD({self.record})" if self.record else "")


def contradicted_records(run: Run, module: Module) -> list[str]:
    """Files of MODULE whose handlers the run recorded as left alone (skipped
    or failed) although the written file has no legacy entry left."""
    files = set(module.files)
    written = {_relative(run, f["file"]) for f in run.of(module).get("files", [])
               if f.get("diff") and _relative(run, f["file"]) in files}
    left_alone = {_relative(run, h["file"]) for h in run.of(module).get("handlers", [])
                  if h["status"] != "converted" and _relative(run, h["file"]) in written}
    found = []
    for name in sorted(left_alone):
        if not vfsmodel.legacy_members([run.drivers / name],
                                       vfsmodel.kbuild_includes(run.drivers, run.root),
                                       run.headers):
            found.append(name)
    return found


def classify_conversion(run: Run, module: Module) -> tuple[str, list[str], bool]:
    """converted / refused(reason) / failed(reason) / SILENT-SKIP, the
    records behind it, and whether the module's result should be built."""
    own = run.of(module)
    # The module's files, and the headers its own run recorded (a header of
    # the driver holding its fops is compiled into the module).
    files = set(module.files) | {_relative(run, r["file"]) for key in ("handlers", "tokens")
                                 for r in own.get(key, []) if r["file"].endswith(".h")}
    handlers = [h for h in own.get("handlers", []) if _relative(run, h["file"]) in files]
    records = [f for f in own.get("files", []) if _relative(run, f["file"]) in files]
    tokens = [t for t in own.get("tokens", []) if _relative(run, t["file"]) in files]
    details = [f"{h['file']}:{h['line']} {h['handler']}: {h['status']} "
               f"{h.get('strategy') or ''} {h.get('reason') or ''}".strip() for h in handlers]
    details += [f"{t['file']}:{t['line']}: token {t['kind']}: {t['reason']}" for t in tokens]
    failed = [h for h in handlers if h["status"] == "failed"] + \
             [f for f in records if f["status"] == "failed"]
    skipped = [h for h in handlers if h["status"] == "skipped"] + \
              [f for f in records if f["status"] == "skipped"]
    listed = {_relative(run, r["file"]) for r in skipped + failed + tokens}
    # A header's token is listed where a record names it (file:line), as a
    # refused macro site does ("macro M (include/linux/x.h:9) calls ...").
    listed |= {name for r in skipped + failed + tokens
               for name in re.findall(r"([\w./-]+\.h):\d+", r.get("reason") or "")}
    left = vfsmodel.legacy_members([run.drivers / f for f in module.files],
                                   vfsmodel.kbuild_includes(run.drivers, run.root), run.headers)
    unlisted = [(name, line) for name, line in left
                if not any(Path(f).name == name for f in listed)]
    if unlisted:
        return "SILENT-SKIP", details + [f"{n}:{line}: legacy .ioctl left in compiled code, not listed"
                                         for n, line in unlisted], True
    # A refused or failed module is still built when the run wrote part of
    # it: what was written must work beside what was left (reported apart).
    written = any(_relative(run, f["file"]) in files and f.get("diff")
                  for f in own.get("files", []))
    if failed:
        return f"failed({short(failed[0].get('reason'))})", details, written
    if skipped:
        return f"refused({short(skipped[0].get('reason'))})", details, written
    if not handlers:
        return "no-entry", details, True
    return "converted", details, True


def short(reason: str | None) -> str:
    reason = (reason or "no reason given").replace("\n", " ")
    return reason[:60]


class Legacy:
    """The legacy build of each module against the 2.6.9 model, made once."""

    def __init__(self, work: Path):
        self.work = work
        self.cache: dict[str, tuple[vfsmodel.Build, list[str]]] = {}

    def get(self, module: Module) -> tuple[vfsmodel.Build, list[str]]:
        if module.name not in self.cache:
            drivers = vfsmodel.TREE / DRIVERS
            sources = [drivers / f for f in module.files]
            built = vfsmodel.build(sources, labels_of(module, drivers), "2.6.9",
                                   self.work / "legacy" / module.name,
                                   vfsmodel.kbuild_includes(drivers, vfsmodel.TREE))
            self.cache[module.name] = (built, vfsmodel.run(built.exe) if built.ok else [])
        return self.cache[module.name]


def labels_of(module: Module, base: Path) -> dict[Path, list[str]]:
    """The command labels of the module's legacy files, keyed by the same
    file under BASE (a converted copy gets the legacy file's table)."""
    drivers = vfsmodel.TREE / DRIVERS
    return {base / f: vfsmodel.command_labels(drivers / f) for f in module.files}


def measure(run: Run, module: Module, legacy: Legacy, work: Path) -> Outcome:
    conversion, details, build_it = classify_conversion(run, module)
    outcome = Outcome(run.mode.name, module.name, conversion, details=details)
    if module.name in run.warnings:
        outcome.details.append("run said: " + run.warnings[module.name].replace("\n", " / "))
    contradicted = contradicted_records(run, module)
    if contradicted:
        outcome.record = "recorded left alone, converted: " + ", ".join(contradicted)
    if not build_it:
        return outcome
    legacy_build, legacy_lines = legacy.get(module)
    if not legacy_build.ok:
        outcome.compile = "LEGACY-BREAK"
        outcome.details.append("legacy build: " + "; ".join(legacy_build.errors))
        return outcome
    compiles, runtimes = [], []
    labels = labels_of(module, run.drivers)
    for kernel in run.mode.kernels:
        sources = [run.drivers / f for f in module.files]
        built = vfsmodel.build(sources, labels, kernel, work / run.mode.name / module.name / kernel,
                               vfsmodel.kbuild_includes(run.drivers, run.root), run.headers)
        if not built.ok:
            compiles.append(f"BREAK({kernel}: {built.errors[0] if built.errors else '?'})")
            outcome.details += [f"{kernel}: {e}" for e in built.errors]
            continue
        new = sorted(set(built.warnings) - set(legacy_build.warnings))
        if new:
            compiles.append(f"WARN({kernel}: {new[0]})")
            outcome.details += [f"{kernel}: new warning: {w}" for w in new]
        problems = vfsmodel.compare(legacy_lines, vfsmodel.run(built.exe))
        compat_lines = vfsmodel.run(built.exe, "compat")
        if any(line.startswith("call ") for line in compat_lines):
            problems += vfsmodel.compare(legacy_lines, compat_lines)
        if problems:
            runtimes.append(f"WRONG({kernel}: {problems[0]})")
            outcome.details += [f"{kernel}: {p}" for p in problems[:6]]
        else:
            runtimes.append("ok")
    outcome.compile = " ".join(c for c in compiles) or "ok"
    outcome.runtime = " ".join(r for r in runtimes if r != "ok") or ("ok" if runtimes else "-")
    if outcome.conversion_class in ("refused", "failed"):
        # the run said what it left: its build and behaviour are reported, not counted
        outcome.compile = outcome.compile.replace("BREAK", "break").replace("WARN", "warn")
        outcome.runtime = outcome.runtime.replace("WRONG", "differs")
    return outcome


# --- totals and the report ----------------------------------------------------

CLASSES = ("converted", "refused", "failed", "no-entry", "SILENT-SKIP")


def bad(outcome: Outcome) -> list[str]:
    """The classes of the measure that must be 0."""
    found = []
    if outcome.conversion_class == "SILENT-SKIP":
        found.append("silent skip")
    if outcome.compile.startswith(("BREAK", "WARN")) or "BREAK" in outcome.compile:
        found.append("compile break")
    if outcome.compile == "LEGACY-BREAK":
        found.append("measure error")
    if outcome.runtime.startswith("WRONG"):
        found.append("runtime-wrong")
    return found


def totals(outcomes: list[Outcome], modes: list[Mode]) -> list[str]:
    header = f"{'mode':18} " + " ".join(f"{c:>11}" for c in CLASSES) + \
        f" {'compile-brk':>11} {'runtime-wrg':>11} {'runtime-ok':>11} {'record-wrg':>11}"
    lines = [header]
    for mode in modes:
        mine = [o for o in outcomes if o.mode == mode.name]
        counts = [sum(o.conversion_class == c for o in mine) for c in CLASSES]
        breaks = sum("compile break" in bad(o) for o in mine)
        wrong = sum("runtime-wrong" in bad(o) for o in mine)
        fine = sum(o.runtime == "ok" for o in mine)
        records = sum(bool(o.record) for o in mine)
        lines.append(f"{mode.name:18} " + " ".join(f"{n:>11}" for n in counts) +
                     f" {breaks:>11} {wrong:>11} {fine:>11} {records:>11}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", help="comma-separated mode names (default: all)")
    parser.add_argument("--modules", help="comma-separated module names (default: all)")
    parser.add_argument("--output", type=Path, help="also write the lines and details here")
    parser.add_argument("--keep", type=Path, help="work here and keep it (default: a temporary dir)")
    parser.add_argument("--jobs", type=int, default=2, help="conversions at a time")
    args = parser.parse_args()
    modes = [m for m in MODES if not args.modes or m.name in args.modes.split(",")]
    all_modules = modules(vfsmodel.TREE / DRIVERS)
    chosen = [m for m in all_modules if not args.modules or m.name in args.modules.split(",")]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="adversarial-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for mode in modes:
            shutil.rmtree(work / "runs" / mode.name, ignore_errors=True)
            (work / "runs" / mode.name).mkdir(parents=True)
        with ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(lambda m: convert(m, work / "runs" / m.name, chosen), modes))
        legacy = Legacy(work)
        outcomes, report = [], []
        for run in runs:
            if run.status not in (0, 1) or not run.summary:
                report.append(f"{run.mode.name}: convert exited {run.status}: {run.stderr[-500:]}")
            for module in chosen:
                outcome = measure(run, module, legacy, work / "builds")
                outcomes.append(outcome)
                print(outcome.line(), flush=True)
                report.append(outcome.line())
                report += [f"    {d}" for d in outcome.details]
    summary = totals(outcomes, modes)
    findings = [f"{o.mode} {o.module}: {', '.join(bad(o))}" for o in outcomes if bad(o)]
    tail = ["", *summary, "",
            f"{len(chosen)} modules x {len(modes)} modes = {len(outcomes)} runs; "
            f"{len(findings)} with a runtime-wrong, compile break or silent skip "
            f"({time.monotonic() - started:.0f} s)"]
    print("\n".join(tail))
    if args.output:
        args.output.write_text("\n".join(report + tail + ["", *findings]) + "\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())

"""The two-phase plan of a convert run, and the summary it ends in.

Phase 1 runs the rule on every file that may declare a `.ioctl` entry.
Phase 2 (follow_up.py) makes every other file that names a handler of
phase 1 follow it: a handler defined in another file, a prototype in a
header, a caller, an export.  A handler whose files do not all follow is
converted nowhere, and the files run again, until nothing more is dropped.

convert() calls each stage once, in this order, and hands each the typed
values the earlier ones made: prefilter (tree.py), rule runs (runner.py),
cross-file follow-up (follow_up.py), compat (compat/apply.py), forwarding
(forwarding_stage.py), records and diffs (records.py), verify
(verification.py), accounting (records.py, through accounting.py); the
command line writes what it returns (output.py).  No stage's module calls
back into this one.
Where verify rejects a pushdown auto chose, the stages from the rule runs
to verify run again with the wrapper for that handler, before anything is
written; the prefilter, which the wrapper changes nothing of, runs once.
Before the first stage the run memo (run_memo.py) may answer for the whole
run, when an earlier one read the same files; after the last it keeps this
run's result.
"""

import re
import time
from dataclasses import dataclass, replace

from ioctl_rework import safe_write
from ioctl_rework.ctext import include_search
from ioctl_rework.convert import bkl_glue, follow_up, forwarding_stage, records
from ioctl_rework.convert import modules
from ioctl_rework.convert import series
from ioctl_rework.convert import verification as verify
from ioctl_rework.convert.groups import Groups
from ioctl_rework.convert.macro_sites import SitesMemo
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, Output
from ioctl_rework.convert.diffs import Diffs
from ioctl_rework.convert.run_memo import RunMemo
from ioctl_rework.convert.runner import FileRun, Runner, RunTask
from ioctl_rework.convert.sources import Sources
from ioctl_rework.stages import Stages, Verbosity
from ioctl_rework.convert.tree import Tree, groups, run_warnings, scan
from ioctl_rework.convert.summary import HandlerStatus, Summary


@dataclass(frozen=True)
class _Prefiltered:
    """The prefilter's answer, the same for every pass of a run (what
    --strategy auto's fallback changes, wrapper_for, changes none of it)."""

    tree: Tree
    linked: list[list[str]]     # the groups of files their handler names link
    files: set[str]             # the files of this run (of its shard)
    fops_files: list[str]       # those the rule runs on first
    in_modules: modules.ModulePlan


@dataclass
class _Pass:
    """One pass of the stages up to verify, and what the later stages read."""

    result: ConversionResult
    verification: verify.Verification
    sources: Sources
    read: set[str]          # the files whose ioctl members are accounted for
    runs: dict[RunTask, FileRun]    # every rule run of the pass
    cross: Groups


def convert(request: ConvertRequest, stages: Stages | None = None) -> ConversionResult:
    """The run REQUEST asks for, each stage timed through STAGES (the
    caller's, to show progress and time the writing that follows)."""
    if request.kernel is None:      # the kernel the caller uses, if any
        return _convert(request, stages)
    # Every reader of headers, the rule's Python in spatch included, reads this kernel's.
    with include_search.kernel_used(request.kernel.source, request.kernel.build):
        return _convert(request, stages)


def _convert(request: ConvertRequest, stages: Stages | None) -> ConversionResult:
    stages = stages or Stages("convert", Verbosity.QUIET)
    start = time.monotonic()
    started = series.now()
    # Once a run, before any stage: what the request warns of, and the
    # files an earlier in-place run was killed writing, completed or undone.
    warnings = run_warnings(request)
    recovered = safe_write.recover(request.root) if request.output is Output.IN_PLACE else []
    memo = RunMemo(request)
    if memo.used:
        with stages.stage("run memo"):
            remembered = memo.recall()
        if remembered is not None:
            return _finished(remembered, memo, recovered, start, started, stages)
    with stages.stage("prefilter"):
        prefiltered = _prefilter(request)
    fallbacks: dict[str, str] = {}
    kept: dict[RunTask, FileRun] = {}
    sites_memo = SitesMemo()    # the forwarding stage's macro sites, for a second pass
    while True:
        done = _stages_to_verify(request, stages, started, warnings, kept, sites_memo,
                                 prefiltered)
        fallback = verify.rejected_pushdowns(done.verification, done.result.summary,
                                             request.options)
        if not fallback:
            break
        # auto: a pushdown the verify stage rejects falls back to the wrapper,
        # and the stages (the wrapper's proof included) run again before
        # anything is written.
        fallbacks.update(fallback)
        wrapper_for = tuple(sorted({*request.options.wrapper_for, *fallback}))
        request = replace(request, options=replace(request.options, wrapper_for=wrapper_for))
        # Only the files that name a handler now on the wrapper run the rule again.
        kept = _untouched_runs(done, set(fallback))
    result = done.result
    verify.apply(done.verification, result)
    with stages.stage("accounting"):
        records.add_accounted(result.summary, result.changes, done.sources, done.read,
                              request.root, request.run_paths, request.options.target)
    _explain_fallback(result.summary, fallbacks)
    if memo.used:
        with stages.stage("run memo"):
            memo.keep(result)
    return _finished(result, memo, recovered, start, started, stages)


def _finished(result: ConversionResult, memo: RunMemo, recovered: list, start: float,
              started: str, stages: Stages) -> ConversionResult:
    """RESULT with this run's times and what its memo did (a kept result's
    were another run's)."""
    result.recovered = recovered
    result.summary.warm = memo.why.startswith("warm")
    result.summary.memo = memo.why
    result.summary.started = started
    result.summary.wall_seconds = time.monotonic() - start
    result.summary.stage_seconds = stages.times()
    return result


def _prefilter(request: ConvertRequest) -> _Prefiltered:
    """The tree read once a run: the candidates, the groups their handler
    names link, this run's share of them, and the composite modules
    (--lock mutex) whose files must leave the run."""
    root = request.root
    tree = scan(list(request.paths), root, request.cache)
    linked = groups(tree)
    mine = [g for g in linked if request.shard is None or request.shard.owns(g[0])]
    files = {rel for g in mine for rel in g}
    in_modules = modules.plan_for(request.options.lock, root, files,
                                  {rel for g in linked for rel in g} - files)
    fops_files = [rel for rel in tree.fops_files
                  if rel in files and rel not in in_modules.refused]
    return _Prefiltered(tree, linked, files, fops_files, in_modules)


def _stages_to_verify(request: ConvertRequest, stages: Stages, started: str,
                      warnings: list[str], kept: dict[RunTask, FileRun],
                      sites_memo: SitesMemo, prefiltered: _Prefiltered) -> _Pass:
    """Rule runs, follow-up, compat, forwarding, records and diffs, and
    verify, each once and in that order, each handed what the earlier ones
    made, starting from the run's PREFILTERED tree.
    WARNINGS: the run's, for its summary; KEPT: rule runs of an earlier
    pass that stand for this one's; SITES_MEMO: the forwarding stage's
    macro sites an earlier pass found."""
    root = request.root
    tree, linked, files, fops_files, in_modules = (
        prefiltered.tree, prefiltered.linked, prefiltered.files, prefiltered.fops_files,
        prefiltered.in_modules)
    shared = in_modules.refused
    sources = Sources(root)

    runner = Runner(request.options, root, request.jobs, request.timeout, request.cache, stages,
                    sources, {rel: m.name for rel, m in in_modules.mutexes.items()},
                    request.on_rule_run)
    runner.keep(kept)
    first = runner.run([RunTask(rel) for rel in fops_files], "rule runs")
    runs = {rel: first[RunTask(rel)] for rel in fops_files}
    with stages.stage("cross-file follow-up"):
        # A file whose kept glue the target cannot build is written in no part.
        glue = bkl_glue.unwritable(files, sources.read, request.options.target)
        followed = follow_up.follow(runs, tree.mentions, files, sources, in_modules,
                                    request.options, runner.run, request.unwritable, glue)
    final, cross, blocked, failures = (followed.final, followed.cross, followed.blocked,
                                       followed.failures)

    compat_decisions = []
    if request.options.compat:
        with stages.stage("compat", unit="files") as stage:
            # With nothing converted add_compat has nothing to add: compat/ is
            # loaded only for a run with --compat that changed a file (a
            # check of a patch the rule leaves alone never loads it).
            if any(run.changed for run in final.values()):
                from ioctl_rework.compat.apply import add_compat, compat_cache
                final, compat_decisions = add_compat(
                    root, final, request.options, request.jobs, request.timeout,
                    compat_cache(request.cache), stage)
    with stages.stage("forwarding"):
        read = forwarding_stage.files_read(tree, files, {rel for g in linked for rel in g},
                                           request.shard, list(request.paths))
        forwarded = forwarding_stage.forward(
            tree, read, final, sources, blocked, root=root, options=request.options,
            sharded=request.shard is not None, jobs=request.jobs, timeout=request.timeout,
            cache=request.cache, unwritable=request.unwritable, sites_memo=sites_memo)
    summary = Summary(root=str(root), target=str(request.options.target),
                      options=request.options.as_summary(),
                      spatch_version=runner.spatch_version,
                      started=started, shard=str(request.shard) if request.shard else None,
                      tree_top=tree.top, warnings=warnings)
    summary.handlers = records.handler_records(tree, fops_files, final, followed.handlers,
                                               blocked, followed.held)
    if compat_decisions:
        said = {(c.file, c.fops, c.handler): c.describe(request.options.target)
                for c in compat_decisions}
        # A handler not converted (its file held back) gets no .compat_ioctl either.
        summary.handlers = [replace(h, compat=said.get((h.file, h.fops, h.handler)))
                            if h.status is HandlerStatus.CONVERTED else h
                            for h in summary.handlers]
    with stages.stage("diffs"):
        changes = records.file_records(summary, tree, final, blocked, followed.held, failures,
                                       Diffs(request.cache))
    summary.changes += forwarded.changes
    summary.handlers += forwarded.refused + forwarded.listed
    records.add_left_out(summary, tree, final, failures, shared, request.shard)
    summary.sort()
    result = ConversionResult(summary, changes)
    return _Pass(result, verify.verify(request, result, stages, in_modules), sources, read,
                 runner.runs, cross)


def _untouched_runs(done: _Pass, handlers: set[str]) -> dict[RunTask, FileRun]:
    """The rule runs of DONE that -D wrapper_for=HANDLERS cannot change: of
    files that neither name one of HANDLERS (as a word of their text, in a
    decision of the rule) nor belong to the group of one."""
    names = re.compile(rb"(?<![A-Za-z0-9_])(?:" +
                       b"|".join(re.escape(h.encode()) for h in sorted(handlers)) +
                       rb")(?![A-Za-z0-9_])")
    touched = {rel for key, group in done.cross.groups.items() if key.name in handlers
               for rel in (*group.files, *group.decided, *group.elsewhere)}
    kept = {}
    for task, run in done.runs.items():
        if task.file in touched or any(d.handler in handlers for d in run.decisions):
            continue
        try:
            text = done.sources.read(task.file)
        except OSError:
            continue
        if not names.search(text):
            kept[task] = run
    return kept


def _explain_fallback(summary: Summary, fallback: dict[str, str]) -> None:
    """The wrapper records of a fallback say why the pushdown was not kept."""
    summary.handlers = [
        replace(h, reason=f"{fallback[h.handler]}; the wrapper was proven instead")
        if h.handler in fallback and h.status is HandlerStatus.CONVERTED and
        h.strategy == "wrapper" else h for h in summary.handlers]

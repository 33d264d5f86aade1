"""The two-phase plan of a convert run, and the summary it ends in.

Phase 1 runs the rule on every file that may declare a `.ioctl` entry.
Phase 2 (follow_up.py) makes every other file that names a handler of
phase 1 follow it: a handler defined in another file, a prototype in a
header, a caller, an export.  A handler whose files do not all follow is
converted nowhere, and the files run again, until nothing more is dropped.

convert() calls each stage once, in this order, and hands each the typed
values the earlier ones made: prefilter (tree.py), rule runs (runner.py),
cross-file follow-up (follow_up.py), compat (compat/apply.py), forwarding
(forwarding_stage.py), diffs (diffs.py), verify (verification.py), accounting
(accounting.py); the command line writes what it returns (output.py).
Where verify rejects a pushdown auto chose, the stages up to verify run
again with the wrapper for that handler, before anything is written.
"""

import os
import re
import time
from dataclasses import dataclass, replace

from ioctl_rework import safe_write, settings
from ioctl_rework.ctext import have_ioctl, include_search
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert import accounting, bkl_glue, file_runs, follow_up, forwarding_stage
from ioctl_rework.convert import modules
from ioctl_rework.convert import groups as convert_groups
from ioctl_rework.spatch import rules
from ioctl_rework.convert import series
from ioctl_rework.convert import verification as verify
from ioctl_rework.convert.groups import Groups
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, Output
from ioctl_rework.convert.diffs import Diffs
from ioctl_rework.convert.runner import FileRun, Runner, RunTask
from ioctl_rework.convert.sources import Sources
from ioctl_rework.stages import Stages, Verbosity
from ioctl_rework.convert.tree import Tree, groups, scan
from ioctl_rework.convert.summary import (ChangeRecord, FileRecord, FileStatus, HandlerRecord,
                                  HandlerStatus, Summary)


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
    recovered: list = []
    fallbacks: dict[str, str] = {}
    kept: dict[RunTask, FileRun] = {}
    while True:
        done = _stages_to_verify(request, stages, started, kept)
        recovered += done.result.recovered
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
        _account(request, result, done.sources, done.read)
    _explain_fallback(result.summary, fallbacks)
    result.recovered = recovered
    result.summary.wall_seconds = time.monotonic() - start
    result.summary.stage_seconds = stages.times()
    return result


def _stages_to_verify(request: ConvertRequest, stages: Stages, started: str,
                      kept: dict[RunTask, FileRun]) -> _Pass:
    """Prefilter, rule runs, follow-up, compat, forwarding, diffs and verify,
    each once and in that order, each handed what the earlier ones made.
    KEPT: rule runs of an earlier pass that stand for this one's."""
    root = request.root
    with stages.stage("prefilter"):
        recovered = safe_write.recover(root) if request.output is Output.IN_PLACE else []
        tree = scan(list(request.paths), root, request.cache)
        linked = groups(tree)
        mine = [g for g in linked if request.shard is None or request.shard.owns(g[0])]
        files = {rel for g in mine for rel in g}
        fops_files = [rel for rel in tree.fops_files if rel in files]
        in_modules = modules.plan_for(request.options.lock, root, files,
                                      {rel for g in linked for rel in g} - files)
        shared = in_modules.refused
        fops_files = [rel for rel in fops_files if rel not in shared]
    sources = Sources(root)

    runner = Runner(request, stages, sources,
                    {rel: m.name for rel, m in in_modules.mutexes.items()})
    runner.keep(kept)
    first = runner.run([RunTask(rel) for rel in fops_files], "rule runs")
    runs = {rel: first[RunTask(rel)] for rel in fops_files}
    with stages.stage("cross-file follow-up"):
        followed = follow_up.follow(runs, tree.mentions, files, sources, in_modules,
                                    request.options, runner.run, request.unwritable)
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
                                           request.shard)
        forwarded = forwarding_stage.forward(
            tree, read, final, sources, blocked, root=root, options=request.options,
            sharded=request.shard is not None, jobs=request.jobs, timeout=request.timeout,
            cache=request.cache, unwritable=request.unwritable)
    summary = Summary(root=str(root), target=str(request.options.target),
                      options=_options_json(request.options),
                      spatch_version=runner.spatch_version,
                      started=started, shard=str(request.shard) if request.shard else None,
                      tree_top=tree.top)
    summary.handlers = _handler_records(tree, fops_files, final, cross, blocked, followed.held,
                                        sources)
    if compat_decisions:
        said = {(c.file, c.fops, c.handler): c.describe() for c in compat_decisions}
        summary.handlers = [replace(h, compat=said.get((h.file, h.fops, h.handler)))
                            for h in summary.handlers]
    with stages.stage("diffs"):
        changes = _file_records(summary, tree, final, blocked, followed.held, failures,
                                Diffs(request.cache))
    summary.changes += forwarded.changes
    summary.handlers += forwarded.refused + forwarded.listed
    # A file that failed for a handler that was then dropped is still reported.
    summary.files += [FileRecord(rel, FileStatus.FAILED, why)
                      for rel, why in failures.items() if rel not in final]
    summary.files += [r for r in tree.skipped
                      if request.shard is None or request.shard.owns(r.file)]
    summary.files += [FileRecord(rel, FileStatus.SKIPPED, why) for rel, why in shared.items()]
    summary.handlers += [HandlerRecord(rel, entry.line, "?", entry.handler, HandlerStatus.SKIPPED,
                                       why)
                         for rel, why in shared.items() for entry in tree.fops_names.get(rel, [])]
    summary.sort()
    result = ConversionResult(summary, changes, recovered)
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


def _file_records(summary: Summary, tree: Tree, final: dict[str, FileRun],
                  blocked: dict[str, str], held: dict[str, str], failures: dict[str, str],
                  diffs: Diffs) -> dict[str, tuple[bytes, bytes]]:
    """Each file's record in SUMMARY, with its diff; returns the rewrites."""
    changes = {}
    for rel in sorted(final):
        run = final[rel]
        if rel in blocked:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, blocked[rel]))
        elif not run.ok:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, run.reason))
        elif rel in failures and rel in held:
            summary.files.append(FileRecord(rel, FileStatus.FAILED,
                                            f"{failures[rel]}; {held[rel]}"))
        elif rel in held:
            summary.files.append(FileRecord(rel, FileStatus.SKIPPED, held[rel]))
        elif rel in failures and not run.changed:
            # It stopped a handler: now run without it, it is still the file that failed.
            summary.files.append(FileRecord(rel, FileStatus.FAILED, failures[rel]))
        elif run.changed and _only_glue_resolved(run):
            # Written, it would change code the run says it left alone.
            summary.files.append(FileRecord(rel, FileStatus.UNCHANGED, _GLUE_KEPT))
        elif run.changed:
            changes[rel] = (run.old, run.new)
            summary.changes += [ChangeRecord(rel, c.line, c.kind.value, c.handler, c.where,
                                             c.reason) for c in run.changes]
            summary.files.append(FileRecord(rel, FileStatus.CONVERTED, run.reason,
                                            diffs(rel, run.old, run.new)))
        else:
            # Unchanged because spatch could not read part of it is a failure
            # when that part may hold a .ioctl entry of a file_operations (by
            # text).  Other files of a handler were checked line by line.
            needed = tree.fops_names.get(rel)
            decided = {d.handler for d in run.decisions}
            if needed and run.parse_errors and {e.handler for e in needed} <= decided:
                # Every entry was read; the skipped code matters only if it names one.
                needed = file_runs.named_where_unparsed(
                    run.old, run.parse_errors, sorted({e.handler for e in needed}
                                                      | {d.fops for d in run.decisions
                                                         if d.fops}))
            status = FileStatus.FAILED if run.reason and needed else FileStatus.UNCHANGED
            summary.files.append(FileRecord(rel, status, run.reason))
    return changes


_GLUE_KEPT = ("none of its entries was converted: its #ifdef HAVE_UNLOCKED_IOCTL and "
              "HAVE_COMPAT_IOCTL lines are kept as they were")


def _only_glue_resolved(run: FileRun) -> bool:
    """Whether RUN converted nothing (no entry, no other change) and its new
    text only resolves the file's HAVE_UNLOCKED_IOCTL / HAVE_COMPAT_IOCTL
    conditionals, as a target that has them does after a conversion."""
    if any(d.convert for d in run.decisions) or run.changes:
        return False
    old = run.old.decode("utf-8", "surrogateescape")
    return have_ioctl.resolve(old).text.encode("utf-8", "surrogateescape") == run.new


def _account(request: ConvertRequest, result: ConversionResult, sources: Sources,
             read: set[str]) -> None:
    """Every ioctl member of the files read, accounted for (accounting.py),
    and the multi-kernel glue the target cannot build (bkl_glue.py)."""
    summary = result.summary
    texts = {}
    for rel in sorted(read | set(result.changes)):
        try:
            old = sources.read(rel)
        except OSError:
            continue            # listed as skipped by the tree scan
        texts[rel] = (old, result.changes[rel][1] if rel in result.changes else old)
    found = accounting.account(summary, texts, request.root, _run_paths(request))
    summary.handlers += found.records
    summary.tokens += found.tokens
    target = request.options.target
    for rel, (old, _) in texts.items():
        summary.handlers += bkl_glue.refusals(rel, old.decode("utf-8", "surrogateescape"),
                                              target)
    summary.sort()


def _run_paths(request: ConvertRequest) -> tuple[str, ...]:
    """The run's paths relative to its root ("." for the root itself)."""
    return tuple(sorted({os.path.relpath(os.path.abspath(p), os.path.abspath(request.root))
                         for p in request.paths}))


# A member named ioctl given a pointer to data, as 2.6.9's mptctl.c does
# (ioc->ioctl = (MPT_IOCTL *) mem;): no file operation.  A handler is cast
# to void * or to a function pointer, if at all.
_DATA_CAST = re.compile(r"\bioctl\s*=\s*\(\s*(?!void\b)\w[\w\s]*\*\s*\)")

_UNPLACED = ("an .ioctl entry the rule does not see in a file_operations (one inside another "
             "structure, such as a fops member of a device table, or written by a macro): "
             "left alone; convert it by hand")


def _handler_records(tree: Tree, fops_files: list[str], final: dict[str, FileRun],
                     cross: Groups, blocked: dict[str, str], held: dict[str, str],
                     sources: Sources) -> list[HandlerRecord]:
    records = []
    for rel in fops_files:
        run = final[rel]
        decided = {d.handler for d in run.decisions}
        for d in _once_per_entry(run.decisions, tree.fops_names.get(rel, [])):
            records.append(_record(d, run, final, cross, blocked, held, sources))
        # A dead or NULL entry the rule removed is a change, not an entry left alone.
        removed = {(c.line, c.handler) for c in run.changes
                   if c.kind is rules.ChangeKind.REMOVED_ENTRY}
        for entry in tree.fops_names.get(rel, []):
            if entry.handler in decided or (entry.line, entry.handler) in removed:
                continue
            if run.ok and not run.reason:
                # The rule saw the file whole and no fops of it has this
                # entry: a never-compiled one, or one the rule cannot place.
                old = run.old.decode("latin-1")
                if _DATA_CAST.search(old.split("\n")[entry.line - 1]):
                    continue    # ioc->ioctl = (MPT_IOCTL *) mem;: no handler
                if c_spans.legacy_half(old, entry.line):
                    continue    # already multi-kernel: the entry old kernels use
                dead = c_spans.never_compiled(old, entry.line)
                records.append(HandlerRecord(
                    rel, entry.line, "?", entry.handler, HandlerStatus.SKIPPED,
                    _never_compiled_words(old, dead) if dead else
                    f"{entry.spelling}, which the rule does not read: left alone; convert "
                    "it by hand" if entry.spelling else _UNPLACED))
                continue
            why = blocked.get(rel) or run.reason or "not seen by spatch"
            # Found by text only (fops "?"): it may belong to another ops structure.
            records.append(HandlerRecord(rel, entry.line, "?", entry.handler,
                                         HandlerStatus.FAILED,
                                         f"the rule could not check this entry: {why}"))
        for entry in tree.macro_entries.get(rel, []):
            if entry.line in {d.line for d in run.decisions}:
                continue        # the rule reported it, with its reason
            records.append(HandlerRecord(
                rel, entry.line, "?", entry.handler, HandlerStatus.SKIPPED,
                f"the handler is named through a macro ({entry.handler}), which spatch "
                "cannot follow: convert this entry by hand"))
    return records


def _once_per_entry(decisions: list, entries) -> list:
    """DECISIONS with one per entry: the rule reports `. ioctl` + newline
    + `=` at both lines; ENTRIES (the finder's) say which lines are one."""
    kept = []
    for d in sorted(decisions, key=lambda d: d.line):
        span = next((e.lines for e in entries if d.line in e.lines), None)
        if span is not None and any(k.line in span and (k.fops, k.handler) == (d.fops, d.handler)
                                    for k in kept):
            continue
        kept.append(d)
    return kept


def _never_compiled_words(text: str, line: int) -> str:
    directive = " ".join(text.split("\n")[line - 1].split())
    if directive.startswith("#if 0"):
        return f"inside the #if 0 at line {line}: never compiled, left alone"
    return (f"in a branch of the {directive} at line {line}: never compiled with the "
            "converted file, left alone")


def _record(d: rules.HandlerDecision, run: FileRun, final: dict[str, FileRun],
            cross: Groups, blocked: dict[str, str], held: dict[str, str],
            sources: Sources) -> HandlerRecord:
    def record(status: HandlerStatus, reason: str | None, **more) -> HandlerRecord:
        return HandlerRecord(file=d.file, line=d.line, fops=d.fops, handler=d.handler,
                             uses_inode=d.uses_inode,
                             returns_enoioctlcmd=d.returns_enoioctlcmd,
                             status=status, reason=reason, **more)

    key = cross.key_of(run.file, d.handler)
    group = cross.groups.get(key)
    named_in = tuple(f for f in group.files if f != run.file) if group else ()
    if key in cross.dropped:
        verdict = cross.dropped[key]
        if run.reason:  # the refusal may come from what spatch could not parse
            return record(HandlerStatus.FAILED, f"{run.reason} ({verdict.reason})",
                          named_in=named_in)
        return record(verdict.status, verdict.reason, named_in=named_in)
    if run.file in blocked:
        return record(HandlerStatus.FAILED, blocked[run.file])
    if not run.ok:
        return record(HandlerStatus.FAILED, run.reason)
    if not d.convert:
        # A refusal may come from what spatch could not parse, unless the
        # rule converts the same handler for another entry: then it judged
        # this entry alone (one never compiled, or dead beside .unlocked_ioctl).
        converted_here = any(o.handler == d.handler and o.convert for o in run.decisions)
        # Code spatch skipped that names neither the handler nor its fops
        # (a #define it cannot parse) cannot have decided the refusal.
        unparsed_here = not run.parse_errors or file_runs.named_where_unparsed(
            run.old, run.parse_errors, [n for n in (d.handler, d.fops) if n])
        if run.reason and not converted_here and unparsed_here:
            return record(HandlerStatus.FAILED, f"{run.reason} (the rule: {d.reason})")
        return record(HandlerStatus.SKIPPED, d.reason)
    if run.file in held:
        return record(HandlerStatus.SKIPPED, held[run.file])
    # A converted handler keeps why auto chose the wrapper (None for pushdown).
    if group is None:
        return record(HandlerStatus.CONVERTED, d.reason, strategy=d.strategy)
    others = tuple(f for f in group.files
                   if f != run.file and f in final and final[f].changed)
    return record(HandlerStatus.CONVERTED, d.reason, strategy=d.strategy, other_files=others,
                  exported=convert_groups.exported(group, sources.read),
                  unparsed=convert_groups.unparsed_notes(group, final), named_in=named_in)


def _options_json(options: settings.ConversionOptions) -> dict:
    return {"strategy": options.strategy.value, "lock": options.lock.value,
            "target": str(options.target), "multi_kernel": options.multi_kernel,
            "compat": options.compat}

"""The two-phase plan of a convert run, and the summary it ends in.

Phase 1 runs the rule on every file that may declare a `.ioctl` entry.
A handler the rule left alone because it is defined in another file goes
to phase 2: every file of the tree that names it is run again with the
handler listed, and the handler is kept only when all of those files were
rewritten; otherwise it is dropped everywhere and the files run again
without it, until nothing more is dropped.
"""

import re
import time
from dataclasses import dataclass, field, replace

from ioctl_rework import c_spans, rules, safe_write, series, verify
from ioctl_rework.convert_request import ConversionResult, ConvertRequest, Output
from ioctl_rework.convert_runner import Diffs, FileRun, Progress, Runner, RunTask
from ioctl_rework.convert_tree import Tree, groups, scan
from ioctl_rework.summary import (ChangeRecord, FileRecord, FileStatus, HandlerRecord,
                                  HandlerStatus, Summary)

# Report reasons that mean "defined in another file": phase 2 resolves them.
_ELSEWHERE = ("not defined in this file", "defined in another file")


@dataclass(frozen=True)
class Verdict:
    """Why a cross-file handler was dropped from phase 2."""

    status: HandlerStatus
    reason: str


@dataclass
class CrossFile:
    """Phase 2: the handlers defined away from their fops and their files."""

    # handler -> the fops files whose entry needs it resolved
    elsewhere: dict[str, set[str]]
    # handler -> every file of the run that names it (all rewritten, or none)
    files: dict[str, list[str]]
    dropped: dict[str, Verdict] = field(default_factory=dict)

    def tasks(self) -> list[RunTask]:
        """Each file of a handler still kept, with all such handlers it names."""
        listed_for: dict[str, set[str]] = {}
        for handler, files in self.files.items():
            if handler not in self.dropped:
                for rel in files:
                    listed_for.setdefault(rel, set()).add(handler)
        return sorted(RunTask(rel, tuple(sorted(names))) for rel, names in listed_for.items())

    def names(self, rel: str) -> bool:
        return any(rel in files for files in self.files.values())


def convert(request: ConvertRequest) -> ConversionResult:
    start = time.monotonic()
    started = series.now()
    root = request.root
    recovered = safe_write.recover(root) if request.output is Output.IN_PLACE else []
    tree = scan(list(request.paths), root, request.cache)
    mine = [g for g in groups(tree)
            if request.shard is None or request.shard.owns(g[0])]
    files = {rel for g in mine for rel in g}
    fops_files = [rel for rel in tree.fops_files if rel in files]

    runner = Runner(request, Progress(request.progress))
    diffs = Diffs(request.cache)
    first = runner.run([RunTask(rel) for rel in fops_files], "phase 1")
    runs = {rel: first[RunTask(rel)] for rel in fops_files}
    blocked = _unwritable(request, fops_files)

    elsewhere: dict[str, set[str]] = {}
    for run in runs.values():
        for d in run.decisions:
            if not d.convert and any(w in (d.reason or "") for w in _ELSEWHERE):
                elsewhere.setdefault(d.handler, set()).add(run.file)
    cross = CrossFile(elsewhere, {h: sorted((tree.mentions.get(h, set()) & files) | fops)
                                  for h, fops in elsewhere.items()})
    failures = {rel: run.reason for rel, run in runs.items() if not run.ok}
    blocked.update(_unwritable(request, sorted({f for fs in cross.files.values()
                                                for f in fs} - set(blocked))))
    while True:
        tasks = cross.tasks()
        second = runner.run(tasks, "phase 2")
        final = dict(runs)
        final.update({task.file: second[task] for task in tasks})
        failures.update({run.file: run.reason for run in second.values() if not run.ok})
        newly = _check_cross_file(cross, final, blocked, diffs,
                                  _cross_file_refusal(request.options))
        if not newly:
            break
        cross.dropped.update(newly)

    compat_decisions = []
    if request.options.compat:
        from ioctl_rework.compat.apply import add_compat
        final, compat_decisions = add_compat(root, final, request.options, request.jobs,
                                             request.timeout)
    summary = Summary(root=str(root), target=str(request.options.target),
                      options=_options_json(request.options),
                      spatch_version=runner.spatch_version,
                      started=started, shard=str(request.shard) if request.shard else None)
    summary.handlers = _handler_records(tree, fops_files, final, cross, blocked)
    if compat_decisions:
        said = {(c.file, c.fops, c.handler): c.describe() for c in compat_decisions}
        summary.handlers = [replace(h, compat=said.get((h.file, h.fops, h.handler)))
                            for h in summary.handlers]
    changes = {}
    for rel in sorted(final):
        run = final[rel]
        if rel in blocked:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, blocked[rel]))
        elif not run.ok:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, run.reason))
        elif run.changed:
            changes[rel] = (run.old, run.new)
            summary.changes += [ChangeRecord(rel, c.line, c.kind.value, c.handler, c.where,
                                             c.reason) for c in run.changes]
            summary.files.append(FileRecord(rel, FileStatus.CONVERTED, run.reason,
                                            diffs(rel, run.old, run.new)))
        else:
            # Unchanged because spatch could not read part of it is a failure
            # when that part may hold what the run needed: a .ioctl entry of
            # a file_operations (by text), or a handler of the run.
            needed = tree.fops_names.get(rel) or cross.names(rel)
            status = FileStatus.FAILED if run.reason and needed else FileStatus.UNCHANGED
            summary.files.append(FileRecord(rel, status, run.reason))
    # A file that failed for a handler that was then dropped is still reported.
    summary.files += [FileRecord(rel, FileStatus.FAILED, why)
                      for rel, why in failures.items() if rel not in final]
    summary.files += [r for r in tree.skipped
                      if request.shard is None or request.shard.owns(r.file)]
    summary.sort()
    result = ConversionResult(summary, changes, recovered)
    verify.apply(verify.verify(request, result), result)
    summary.wall_seconds = time.monotonic() - start
    return result


def _unwritable(request: ConvertRequest, rels: list[str]) -> dict[str, str]:
    """In place, a file we may not write is a file that cannot be rewritten."""
    if request.output is not Output.IN_PLACE:
        return {}
    blocked = {}
    for rel in rels:
        try:
            safe_write.checked_target(request.root / rel, request.root)
        except safe_write.WriteError as err:
            blocked[rel] = err.message
    return blocked


def _cross_file_refusal(options: rules.ConversionOptions) -> str | None:
    """Why no handler defined away from its fops converts under OPTIONS."""
    if options.multi_kernel or options.strategy is rules.Strategy.WRAPPER:
        return ("the wrapper (and the multi-kernel output) needs the handler in the file "
                "of its fops; --strategy pushdown converts it there")
    return None


def _check_cross_file(cross: CrossFile, final: dict[str, FileRun], blocked: dict[str, str],
                      diffs: Diffs, refusal: str | None = None) -> dict[str, Verdict]:
    """Handlers resolved in another file that cannot be converted everywhere."""
    newly = {}
    for h, fs in cross.files.items():
        if h in cross.dropped:
            continue
        bad = [(f, blocked.get(f) or final[f].reason) for f in fs
               if f in blocked or not final[f].ok
               or final[f].reason and not final[f].changed]
        if bad:
            f, why = bad[0]
            newly[h] = Verdict(HandlerStatus.FAILED,
                               f"its files cannot all be rewritten ({f}: {why}); "
                               "converted nowhere")
            continue
        others = [f for f in fs if f not in cross.elsewhere[h]]
        if not any(_mentioned_in_change(final[f], h, diffs) for f in others):
            newly[h] = Verdict(HandlerStatus.SKIPPED, refusal or
                               "no definition with the .ioctl signature was found in the tree")
    return newly


def _mentioned_in_change(run: FileRun, name: str, diffs: Diffs) -> bool:
    if not run.changed:
        return False
    word = re.compile(rf"\b{re.escape(name)}\b")
    diff = diffs(run.file, run.old, run.new)
    return any(word.search(line) for line in diff.split("\n")
               if line[:1] in "+-" and not line.startswith(("+++ ", "--- ")))


def _handler_records(tree: Tree, fops_files: list[str], final: dict[str, FileRun],
                     cross: CrossFile, blocked: dict[str, str]) -> list[HandlerRecord]:
    records = []
    for rel in fops_files:
        run = final[rel]
        decided = {d.handler for d in run.decisions}
        for d in run.decisions:
            records.append(_record(d, run, final, cross, blocked))
        for entry in tree.fops_names.get(rel, []):
            if entry.handler in decided:
                continue
            if run.ok and not run.reason:
                # The rule saw the file whole: the text is no live entry.
                dead = c_spans.inside_if0(run.old.decode("latin-1"), entry.line)
                if dead:
                    records.append(HandlerRecord(
                        rel, entry.line, "?", entry.handler, HandlerStatus.SKIPPED,
                        f"inside the #if 0 at line {dead}: never compiled, left alone"))
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


def _record(d: rules.HandlerDecision, run: FileRun, final: dict[str, FileRun],
            cross: CrossFile, blocked: dict[str, str]) -> HandlerRecord:
    def record(status: HandlerStatus, reason: str | None, **more) -> HandlerRecord:
        return HandlerRecord(file=d.file, line=d.line, fops=d.fops, handler=d.handler,
                             uses_inode=d.uses_inode,
                             returns_enoioctlcmd=d.returns_enoioctlcmd,
                             status=status, reason=reason, **more)

    if d.handler in cross.dropped:
        verdict = cross.dropped[d.handler]
        if run.reason:  # the refusal may come from what spatch could not parse
            return record(HandlerStatus.FAILED, f"{run.reason} ({verdict.reason})")
        return record(verdict.status, verdict.reason)
    if run.file in blocked:
        return record(HandlerStatus.FAILED, blocked[run.file])
    if not run.ok:
        return record(HandlerStatus.FAILED, run.reason)
    if not d.convert:
        if run.reason:
            return record(HandlerStatus.FAILED, f"{run.reason} (the rule: {d.reason})")
        return record(HandlerStatus.SKIPPED, d.reason)
    others = tuple(f for f in cross.files.get(d.handler, ())
                   if f != run.file and final[f].changed)
    # A converted handler keeps why auto chose the wrapper (None for pushdown).
    return record(HandlerStatus.CONVERTED, d.reason, strategy=d.strategy, other_files=others)


def _options_json(options: rules.ConversionOptions) -> dict:
    return {"strategy": options.strategy.value, "lock": options.lock.value,
            "target": str(options.target), "multi_kernel": options.multi_kernel,
            "compat": options.compat}

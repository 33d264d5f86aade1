"""The records of a convert run's summary: each .ioctl entry's (converted,
skipped or failed, and why) and each file's (with its diff), from the final
rule runs, the cross-file groups and the files held or blocked; and, after
verify, every ioctl member of the files read, accounted for.

The orchestrator (plan.py) hands this module what the stages made; the
forwarding stage's records are its own (forwarding_stage.py).
"""

import re
from dataclasses import replace
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.ctext import have_ioctl, header_cache, include_search
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert import accounting, bkl_glue, shard as shard_mod
from ioctl_rework.convert.diffs import Diffs
from ioctl_rework.convert.file_runs import FileRun
from ioctl_rework.convert.groups import FollowedHandler
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import (ChangeRecord, FileRecord, FileStatus, HandlerRecord,
                                          HandlerStatus, Summary)
from ioctl_rework.convert.tree import Tree
from ioctl_rework.spatch import rules


# A member named ioctl given a pointer to data, as 2.6.9's mptctl.c does
# (ioc->ioctl = (MPT_IOCTL *) mem;): no file operation.  A handler is cast
# to void * or to a function pointer, if at all.
_DATA_CAST = re.compile(r"\bioctl\s*=\s*\(\s*(?!void\b)\w[\w\s]*\*\s*\)")

_UNPLACED = ("an .ioctl entry the rule does not see in a file_operations (one inside another "
             "structure, such as a fops member of a device table, or written by a macro): "
             "left alone; convert it by hand")


def handler_records(tree: Tree, fops_files: list[str], final: dict[str, FileRun],
                    followed: dict[tuple[str, str], FollowedHandler], blocked: dict[str, str],
                    held: dict[str, str]) -> list[HandlerRecord]:
    """The record of every .ioctl entry of FOPS_FILES: the rule's decision
    as the follow-up left it (FOLLOWED), or why the rule did not decide it."""
    records = []
    for rel in fops_files:
        run = final[rel]
        decided = {d.handler for d in run.decisions}
        for d in _once_per_entry(run.decisions, tree.fops_names.get(rel, [])):
            records.append(_record(d, run, final, followed.get((rel, d.handler)), blocked,
                                   held))
        # A dead or NULL entry the rule removed (or a run-time NULL it
        # cleared) is a change, not an entry left alone.
        removed = {(c.line, c.handler) for c in run.changes
                   if c.kind in (rules.ChangeKind.REMOVED_ENTRY,
                                 rules.ChangeKind.CLEARED_ENTRY)}
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
            followed: FollowedHandler | None, blocked: dict[str, str],
            held: dict[str, str]) -> HandlerRecord:
    def record(status: HandlerStatus, reason: str | None, **more) -> HandlerRecord:
        return HandlerRecord(file=d.file, line=d.line, fops=d.fops, handler=d.handler,
                             uses_inode=d.uses_inode,
                             returns_enoioctlcmd=d.returns_enoioctlcmd,
                             status=status, reason=reason, **more)

    named_in = tuple(f for f in followed.files if f != run.file) if followed else ()
    if followed is not None and followed.dropped is not None:
        verdict = followed.dropped
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
        unparsed_here = not run.parse_errors or c_spans.named_around(
            run.old, run.parse_errors, [n for n in (d.handler, d.fops) if n])
        if run.reason and not converted_here and unparsed_here:
            return record(HandlerStatus.FAILED, f"{run.reason} (the rule: {d.reason})")
        return record(HandlerStatus.SKIPPED, d.reason)
    if run.file in held:
        return record(HandlerStatus.SKIPPED, held[run.file])
    # A converted handler keeps why auto chose the wrapper (None for pushdown).
    if followed is None:
        return record(HandlerStatus.CONVERTED, d.reason, strategy=d.strategy)
    others = tuple(f for f in followed.files
                   if f != run.file and f in final and final[f].changed)
    return record(HandlerStatus.CONVERTED, d.reason, strategy=d.strategy, other_files=others,
                  exported=followed.exported,
                  unparsed=_unparsed_notes(d.handler, followed.files, final),
                  named_in=named_in)


def _unparsed_notes(handler: str, files: tuple[str, ...],
                    final: dict[str, FileRun]) -> tuple[str, ...]:
    """FILES (those naming HANDLER) that spatch did not read whole, though
    every line naming the handler was read."""
    return tuple(f"{rel}: {final[rel].reason}, where {handler} is not named"
                 for rel in files if rel in final and final[rel].ok and final[rel].reason)


def file_records(summary: Summary, tree: Tree, final: dict[str, FileRun],
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
                needed = c_spans.named_around(
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


def add_left_out(summary: Summary, tree: Tree, final: dict[str, FileRun],
                 failures: dict[str, str], shared: dict[str, str],
                 shard: shard_mod.Shard | None) -> None:
    """The records of the files no final run stands for: one that failed for
    a handler then dropped, one the tree scan skipped (of SHARD), one of a
    module SHARED with another shard (and its entries), one whose kbuild
    flags rename what the rules read and that the rule did not read (of
    SHARD; tree.renamed)."""
    # A file that failed for a handler that was then dropped is still reported.
    summary.files += [FileRecord(rel, FileStatus.FAILED, why)
                      for rel, why in failures.items() if rel not in final]
    summary.files += [r for r in tree.skipped
                      if shard is None or shard.owns(r.file)]
    # Refused, as the rule refuses such a file's handlers: skipped, with why.
    summary.files += [FileRecord(rel, FileStatus.SKIPPED, why)
                      for rel, why in tree.renamed.items()
                      if rel not in final and (shard is None or shard.owns(rel))]
    summary.files += [FileRecord(rel, FileStatus.SKIPPED, why) for rel, why in shared.items()]
    summary.handlers += [HandlerRecord(rel, entry.line, "?", entry.handler, HandlerStatus.SKIPPED,
                                       why)
                         for rel, why in shared.items() for entry in tree.fops_names.get(rel, [])]


def _account_included(summary: Summary, texts: dict[str, tuple[bytes, bytes]],
                      files: list[str], sources: Sources, root: Path) -> None:
    """The ioctl members of the headers FILES include with quotes (a
    driver's own header holding its handler and fops) that are not
    accounted for already (TEXTS): the compiler builds them into the file,
    so they are accounted for too, each record saying which file includes
    it."""
    headers = {}
    for header, includer in _quoted_headers(root, files).items():
        try:
            data = sources.read(header)
        except OSError:
            continue
        if header not in texts and accounting.has_member(data):
            headers[header] = (includer, (data, data))
    found = accounting.account(summary, {h: pair for h, (_, pair) in headers.items()}, root)
    for record in found.records:
        where = (f"{record.file}, a header that {headers[record.file][0]} includes, which is "
                 "not among the run's paths")
        entry = re.match(r"(an \.ioctl entry|a run-time assignment of \.ioctl)\b.*?"
                         r"(\(`[^`]*`\)): convert it by hand$", record.reason)
        if entry:
            # what the run never read is left alone, not failed
            record = replace(record, status=HandlerStatus.SKIPPED,
                             reason=f"{entry.group(1)} {entry.group(2)} in {where}: left "
                                    f"alone; convert it with {record.file} among the run's "
                                    "paths, or by hand")
        else:
            record = replace(record, reason=f"in {where}: {record.reason}")
        summary.handlers.append(record)
    summary.tokens += found.tokens


def _quoted_headers(root: Path, files: list[str]) -> dict[str, str]:
    """Header -> the first of FILES that includes it: the headers FILES
    include with quotes, and those these include with quotes, found as
    the compiler finds them (include_search: the including file's
    directory, the kbuild include path)."""
    found: dict[str, str] = {}
    for rel in files:
        search = include_search.search_path(root, rel)
        todo = [rel]
        while todo:
            path = todo.pop()
            text = header_cache.text(Path(root) / path)
            for name in re.findall(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', text or "", re.M):
                header = include_search.find_header(root, search, path, name, False)
                if header is not None and header != rel and header not in found:
                    found[header] = rel
                    todo.append(header)
    return found


def add_accounted(summary: Summary, changes: dict[str, tuple[bytes, bytes]], sources: Sources,
                  read: set[str], root: Path, run_paths: tuple[str, ...],
                  target: settings.Target) -> None:
    """Every ioctl member of the files READ (and those CHANGES rewrites),
    accounted for (accounting.py), and the multi-kernel glue TARGET cannot
    build (bkl_glue.py) of a file no other record stands for; RUN_PATHS: the run's paths relative to ROOT."""
    texts = {}
    for rel in sorted(read | set(changes)):
        try:
            old = sources.read(rel)
        except OSError:
            continue            # listed as skipped by the tree scan
        texts[rel] = (old, changes[rel][1] if rel in changes else old)
    found = accounting.account(summary, texts, root, run_paths)
    summary.handlers += found.records
    summary.tokens += found.tokens
    # The files the run names, though no member made them read, include too.
    named = [p for p in run_paths if p.endswith(".c") and (root / p).is_file()]
    _account_included(summary, texts, sorted(set(texts) | set(named)), sources, root)
    # Glue is no entry: said once, as the file's record (one the run did not
    # write for it has that record already, plan.py).
    recorded = {f.file for f in summary.files}
    for rel, why in bkl_glue.unwritable([r for r in texts if r not in recorded],
                                        lambda r: texts[r][0], target).items():
        summary.files.append(FileRecord(rel, FileStatus.SKIPPED, why))
    summary.sort()

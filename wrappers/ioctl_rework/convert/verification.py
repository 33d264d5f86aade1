"""The verify stage of convert: nothing the rule wrote is handed out
unchecked by code that shares nothing with the rule.

Every converted handler is proven by the lock proof (lockproof/): on every
path the lock is taken and released once, and what ran under the VFS's
lock still does.  With --kdir, every rewritten .c file (and every
unchanged .c file of the same directories that includes a rewritten
header) is built after the rewrite, and before it too when the new build
says anything that counts (verify_build.py): a new compiler error or
warning, or a new sparse context imbalance, is a failure
(verify_diagnostics.py); and the proof reads the preprocessor's output
of that build (the legacy file's made with the same flags) instead of
expanding macros itself.  On a port (KDIR does not build the legacy text:
a 2.6-era driver on a current kernel) only the new messages
verify_port.py lays at the conversion's door count; the rest is API
drift, or outside the ioctl path, and the summary says so.

A failure puts back every file of the handlers it concerns: the files
linked by a converted handler (its fops file, its definition, the other
files rewritten with it) go back to their original text together, their
handlers fail with the prover's or the compiler's words as the reason,
and the run goes on with the rest.  The files of a kbuild module that
share one mutex (modules.py) go back together, and are proven with that
mutex as their lock, and checked together (lockproof.module_problems).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ioctl_rework import cache as cache_mod
from ioctl_rework import settings
from ioctl_rework.convert.modules import ModulePlan
from ioctl_rework.convert.request import ConversionResult, ConvertRequest
from ioctl_rework.stages import Stages, Verbosity
from ioctl_rework.convert.summary import (FileRecord, FileStatus, HandlerStatus, LinkedFiles,
                                          Summary)

if TYPE_CHECKING:
    from ioctl_rework import lockproof
    from ioctl_rework.verify.build import ObjectBuild


@dataclass(frozen=True)
class Rejection:
    """Why the files of a group go back to their original text."""

    file: str                       # where the check failed
    check: str                      # "the lock proof", "the build (--kdir)"
    reason: str
    handler: str | None = None      # the handler it is about, when one is named


@dataclass
class Verification:
    rejected: dict[str, Rejection] = field(default_factory=dict)   # every file put back
    failures: list[Rejection] = field(default_factory=list)        # every check that failed
    notes: dict[str, list[str]] = field(default_factory=dict)      # kept files: not checked


def verify(request: ConvertRequest, result: ConversionResult,
           stages: Stages | None = None, in_modules: ModulePlan | None = None) -> Verification:
    stages = stages or Stages("convert", Verbosity.QUIET)
    in_modules = in_modules or ModulePlan({}, {})
    found = Verification()
    if not result.changes:
        return found
    groups = LinkedFiles(result.changes, result.summary.handlers)

    def reject(rel: str, rejection: Rejection) -> None:
        found.failures.append(rejection)
        todo, seen = [rel], set()
        while todo:     # the files linked to REL, and the files of their modules
            member = todo.pop()
            if member in seen:
                continue
            seen.add(member)
            found.rejected.setdefault(member, rejection)
            todo += [f for f in groups.members(member) if f not in seen]
            if member in in_modules.mutexes:
                todo += [f for f in in_modules.mutexes[member].files
                         if f in result.changes and f not in seen]

    _stale_prototypes(request.root, result, reject)
    _entries_left(request.root, request.options, in_modules, result, reject)
    builds = {}
    if request.verify.kdir:
        with stages.stage("--kdir builds"):
            builds = _build(request, result, found, reject)
    if request.verify.prove:
        with stages.stage("lock proof", len(result.changes)) as stage:
            _prove(request, result, builds, reject, in_modules)
            stage.step(len(result.changes))
    return found


def _entries_left(root: Path, options, in_modules: ModulePlan, result: ConversionResult,
                  reject) -> None:
    """A converted handler that an entry the run left may store goes back
    with its files (entries_left.py)."""
    from ioctl_rework.convert import entries_left

    def new_signature(h) -> bool:
        # a handler the run kept with its legacy signature (--multi-kernel,
        # one also used the old way: its wrapper calls it) may sit in .ioctl
        text = result.changes[h.file][1].decode("utf-8", "surrogateescape")
        name = re.escape(h.handler)
        return not re.search(rf"\b{name}\s*\(\s*(?:register\s+)?struct\s+inode\b", text) \
            or bool(re.search(rf"\b{name}\s*\(\s*(?:const\s+)?struct\s+file\b", text))

    converted = {h.handler: h.file for h in result.summary.handlers
                 if h.status is HandlerStatus.CONVERTED and h.file in result.changes
                 and new_signature(h)}
    entries_left.check(result.changes, converted, lambda rel, handler, why: reject(
        rel, Rejection(rel, "the entry check", why, handler)))
    if options.lock is not settings.LockMode.MUTEX:
        return
    modules = {rel: mutex.files for rel, mutex in in_modules.mutexes.items()}
    texts = {}
    for rel in {*result.changes, *(f for files in modules.values() for f in files)}:
        if rel in result.changes:
            texts[rel] = tuple(t.decode("utf-8", "surrogateescape")
                               for t in result.changes[rel])
        else:
            try:
                text = (root / rel).read_text("utf-8", "surrogateescape")
            except OSError:
                text = ""        # unreadable: the tree scan lists it
            texts[rel] = (text, text)
    entries_left.beside_the_bkl(texts, modules, converted, lambda rel, handler, why: reject(
        rel, Rejection(rel, "the BKL check", why, handler)))


def _stale_prototypes(root: Path, result: ConversionResult, reject) -> None:
    """A converted handler that is not static may be declared in a header
    its file includes: one the run rewrote says the new signature, but one
    it did not (a kernel header given with --kernel-headers, which a run
    never writes) still declares the legacy one, and the converted file no
    longer builds (`conflicting types`).  Such a handler's files go back."""
    from ioctl_rework.ctext import include_search
    from ioctl_rework.ctext.spans import code_only

    one_pass = include_search.Pass()
    for h in result.summary.handlers:
        if h.status is not HandlerStatus.CONVERTED or h.file not in result.changes:
            continue
        new = result.changes[h.file][1].decode("utf-8", "surrogateescape")
        name = re.escape(h.handler)
        if not re.search(rf"^(?![ \t]*static\b)[ \t]*\w[\w \t*]*\b{name}\s*\(\s*struct\s+file\b",
                         new, re.M):
            # static, not defined here, or kept with its legacy signature
            # (--multi-kernel's wrapper calls it as it was)
            continue
        legacy = re.compile(rf"\b{name}\s*\(\s*struct\s+inode\b")
        headers = include_search.read_headers(root, h.file, one_pass=one_pass).texts
        for header, text in headers.items():
            if header == h.file:
                continue
            if header in result.changes:
                text = result.changes[header][1].decode("utf-8", "surrogateescape")
            code = code_only(text)
            match = legacy.search(code)
            if match is None:
                continue
            line = code.count("\n", 0, match.start()) + 1
            shown = text.splitlines()[line - 1].strip()
            reject(h.file, Rejection(h.file, "the prototype check", (
                f"{h.handler} is declared with the legacy signature in {header}:{line} "
                f"(`{shown}`), a header {h.file} includes that this run does not rewrite: "
                "the converted definition would conflict with it, and its callers there "
                "pass the old arguments; convert the header with it, or by hand"),
                h.handler))
            break


def rejected_pushdowns(verification: Verification, summary: Summary,
                       options: settings.ConversionOptions) -> dict[str, str]:
    """Handlers auto pushed down that VERIFICATION rejected (and have not had
    the wrapper yet) -> why; empty unless the strategy is auto."""
    if options.strategy is not settings.Strategy.AUTO:
        return {}
    found = {}
    for h in summary.handlers:
        if h.status is not HandlerStatus.CONVERTED or h.strategy != "pushdown" or \
                h.handler in options.wrapper_for:
            continue
        hit = [verification.rejected[f] for f in (h.file, *h.other_files)
               if f in verification.rejected]
        if hit and hit[0].handler in (None, h.handler):
            found[h.handler] = f"{hit[0].check} rejected its pushdown: {hit[0].reason}"
    return found


def _cache(request: ConvertRequest, namespace: str) -> cache_mod.Cache | None:
    root = request.cache.root
    return cache_mod.Cache(root.parent, namespace) if root is not None else None


# -- the lock proof ---------------------------------------------------------

def _prove(request: ConvertRequest, result: ConversionResult,
           builds: dict[str, tuple[ObjectBuild, ObjectBuild]], reject,
           in_modules: ModulePlan) -> None:
    # The proof is imported where a conversion has something to prove: a
    # check whose patch converts nothing does not pay for loading it.
    from ioctl_rework import lockproof

    def preprocessed(rel: str):
        before, after = builds.get(rel, (None, None))
        if before is None or before.preprocessed is None or after.preprocessed is None:
            return None
        return lockproof.PreprocessedExpander(after.preprocessed, before.preprocessed)

    proofs = lockproof.prove_changes(request.root, result.changes,
                                     module_lock_for(in_modules, request.options),
                                     cache=_cache(request, "lockproof"),
                                     preprocessed=preprocessed)
    for problem in module_problems(in_modules, result.changes):
        reject(problem.file, Rejection(problem.file, "the lock proof", str(problem)))
    for item in proofs:
        proof = item.proof
        if proof.proven:
            continue
        if proof.unprovable is not None:
            reason = f"it cannot prove the lock balance: {proof.unprovable.reason}"
        else:
            first = proof.problems[0]
            more = f" (and {len(proof.problems) - 1} more)" if len(proof.problems) > 1 else ""
            reason = f"{first}{more}"
        reject(item.file, Rejection(item.file, "the lock proof", reason, proof.handler))


def module_lock_for(in_modules: ModulePlan, options: settings.ConversionOptions):
    """The lock of each file: its kbuild module's mutex where it shares one."""
    from ioctl_rework import lockproof

    def lock_for(rel: str) -> lockproof.LockCalls:
        if rel in in_modules.mutexes:
            return lockproof.LockCalls.mutex(in_modules.mutexes[rel].name)
        return lockproof.LockCalls.for_options(options, rel)
    return lock_for


def module_problems(in_modules: ModulePlan, changes: dict[str, tuple[bytes, bytes]]
                    ) -> list[lockproof.LockProblem]:
    """What is wrong with each module mutex across the files CHANGES rewrote."""
    from ioctl_rework import lockproof

    found = []
    for mutex in in_modules.modules():
        texts = {rel: (old.decode("latin-1"), new.decode("latin-1"))
                 for rel, (old, new) in changes.items() if rel in mutex.files}
        found += lockproof.module_problems(mutex.name, texts)
    return found


# -- the build ----------------------------------------------------------------

def _build(request: ConvertRequest, result: ConversionResult, found: Verification,
           reject) -> dict[str, tuple[ObjectBuild, ObjectBuild]]:
    """Build after and, where needed, before; returns each rewritten .c file's
    two builds (the legacy one may be its .i alone)."""
    # Imported here: only --kdir builds, so only it loads verify/.
    from ioctl_rework.verify import port as verify_port
    from ioctl_rework.verify.build import Builder
    from ioctl_rework.verify.diagnostics import added, describe
    context = request.verify.context_root or request.root
    cache = _cache(request, "kdir") or cache_mod.Cache(None)
    builder = Builder(request.verify.kdir, context, cache, request.jobs)
    changes = result.changes
    rewritten = sorted(rel for rel in changes if rel.endswith(".c"))
    including = _includers(context, changes)
    includers = {rel: header for rel, header in including.items() if rel not in changes}
    sources = rewritten + sorted(includers)
    legacy = {rel: old for rel, (old, _) in changes.items()}
    converted = {rel: new for rel, (_, new) in changes.items()}
    # One make per directory; each compile leaves the .i the proof reads.
    after = builder.build(converted, sources)
    # Only a file whose new build says something that counts needs the legacy
    # one compiled, to compare with.
    loud = [s for s in sources if not after[s].built or any(d.counts for d in after[s].diagnostics)]
    before = builder.build(legacy, loud, cached=True)
    # The other legacy files are only preprocessed, for the proof: with the
    # converted file's compile command (gcc -E, no make).  A compile that
    # failed left no whole .i: its file is preprocessed alone.
    after = _with_preprocessed(after, builder.build(
        converted, [s for s in rewritten if after[s].preprocessed is None], compile=False))
    before = _with_preprocessed(before, builder.build(
        legacy, [s for s in rewritten if s not in before or before[s].preprocessed is None],
        cached=True, compile=False,
        commands={s: after[s].command for s in rewritten if after[s].command}))
    converted_handlers = frozenset(h.handler for h in result.summary.handlers
                                   if h.status is HandlerStatus.CONVERTED)
    for source in loud:
        new = added(list(before[source].diagnostics), list(after[source].diagnostics))
        owner = source if source in changes else includers[source]
        if new and not before[source].built:
            # A port: what the legacy text hid is new now; only the conversion's counts.
            judged = verify_port.judge(new, changes, context, converted_handlers,
                                       request.options.target)
            new = list(judged.caused)
            if judged.excused and not new:
                found.notes.setdefault(owner, []).append(
                    f"--kdir: a port ({source} does not build against KDIR before the rewrite: "
                    f"{before[source].first_error}); kept, since its {len(judged.excused)} new "
                    f"message(s) are API drift or outside the ioctl path, first: "
                    f"{judged.excused[0]}")
                continue
        if new:
            # A message in a rewritten header is that header's group's.
            where = new[0].file if new[0].file in changes else owner
            reject(where, Rejection(where, "the build (--kdir)",
                                    f"new in {source}: {describe(new)}"))
        elif not before[source].built:
            found.notes.setdefault(owner, []).append(
                f"--kdir: {source} does not build against KDIR before the rewrite either "
                f"({before[source].first_error}); only new messages were compared")
    for rel in changes:
        if not rel.endswith(".c") and rel not in including.values():
            found.notes.setdefault(rel, []).append(
                "--kdir: no .c file beside it or rewritten with it includes it, so no "
                "build read it")
    return {rel: (before[rel], after[rel]) for rel in rewritten}


def _with_preprocessed(builds: dict[str, ObjectBuild], alone: dict[str, ObjectBuild]
                       ) -> dict[str, ObjectBuild]:
    """BUILDS with the .i of the files preprocessed ALONE (added when not built)."""
    merged = {**alone, **builds}
    for rel, only in alone.items():
        if rel in builds:
            merged[rel] = replace(builds[rel], preprocessed=only.preprocessed)
    return merged


_INCLUDE = re.compile(rb'^\s*#\s*include\s*["<]([^">]+)[">]', re.M)


def _includers(context: Path, changes: dict[str, tuple[bytes, bytes]]) -> dict[str, str]:
    """The .c files that include a rewritten header, in the header's
    directory and in the directories of the rewritten .c files -> that
    header.  (A header under include/ may be read by any file of the tree:
    only the ones beside the run's files are built.)"""
    headers = {os.path.basename(rel): rel for rel in changes if rel.endswith(".h")}
    if not headers:
        return {}
    dirs = {os.path.dirname(rel) for rel in changes}
    found = {}
    for directory in sorted(dirs):
        try:
            names = sorted(os.listdir(context / directory))
        except OSError:
            continue
        for name in names:
            rel = os.path.join(directory, name)
            if not name.endswith(".c"):
                continue
            try:
                data = changes[rel][0] if rel in changes else (context / rel).read_bytes()
            except OSError:
                continue
            for include in _INCLUDE.findall(data):
                header = headers.get(os.path.basename(include.decode("latin-1")))
                if header is not None:
                    found[rel] = header
                    break
    return found


# -- putting back -----------------------------------------------------------

def apply(verification: Verification, result: ConversionResult) -> None:
    """Put back the rejected files in RESULT, fail their handlers, and add
    the notes on what could not be checked to the files kept."""
    summary = result.summary
    rejected = verification.rejected
    for rel in rejected:
        result.changes.pop(rel, None)
    files = []
    for record in summary.files:
        why = rejected.get(record.file)
        if why is not None and record.status is FileStatus.CONVERTED:
            record = FileRecord(record.file, FileStatus.FAILED,
                                f"not rewritten: {why.check} of {why.file}: {why.reason}")
        elif record.file in verification.notes and record.status is FileStatus.CONVERTED:
            notes = "; ".join(verification.notes[record.file])
            record = replace(record, reason=f"{record.reason}; {notes}" if record.reason
                             else notes)
        files.append(record)
    summary.files = files
    handlers = []
    for h in summary.handlers:
        hit = [rejected[f] for f in (h.file, *h.other_files) if f in rejected] \
            if h.status is HandlerStatus.CONVERTED else []
        if hit:
            why = hit[0]
            if why.handler == h.handler or why.handler is None and why.file in \
                    (h.file, *h.other_files):
                reason = f"{why.check} failed: {why.reason}; its files were left as they were"
            else:
                reason = (f"left as it was with {why.handler or why.file}, whose files it "
                          f"shares: {why.check} failed: {why.reason}")
            h = replace(h, status=HandlerStatus.FAILED, reason=reason, strategy=None)
        handlers.append(h)
    summary.handlers = handlers

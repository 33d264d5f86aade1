"""Running the conversion rule on files through the cache: one spatch run
per (file, listed handlers), in batches, JOBS processes at a time; what a
run said, read into a FileRun (the rule's decisions and the new content).
"""

import hashlib
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert import branches as convert_branches
from ioctl_rework.ctext import have_ioctl
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.patches import tidy
from ioctl_rework.convert.request import ConvertRequest
from ioctl_rework.convert.sources import Sources
from ioctl_rework.lockproof.headers import included_headers
from ioctl_rework.ctext import include_search
from ioctl_rework.patches.unified import apply_hunks
from ioctl_rework.stages import Stages

# Put by the rule in a fops entry it could not rewrite validly.
_NO_MATCH = "ioctl_rework_no_match_"
_SPATCH_SAFE_NAME = re.compile(r"[\w./+-]+")


@dataclass(frozen=True)
class FileRun:
    """The rule on one file with one handler list: decisions and new content."""

    file: str
    listed: tuple[str, ...]
    decisions: tuple[rules.HandlerDecision, ...]
    old: bytes
    new: bytes | None          # None when the run failed
    reason: str | None         # why it failed, or a warning (partial parse)
    # Entries removed, handlers deleted, calls changed (when it succeeded).
    changes: tuple[rules.OtherChange, ...] = ()
    parse_errors: tuple[int, ...] = ()  # lines around which spatch skipped code

    @property
    def ok(self) -> bool:
        return self.new is not None

    @property
    def changed(self) -> bool:
        return self.new is not None and self.new != self.old


@dataclass(frozen=True, order=True)
class RunTask:
    """One file to run the rule on, with the handlers phase 2 lists for it."""

    file: str                   # relative to the tree
    listed: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()  # converted nowhere: a file naming them cannot follow
    module_home: bool = False   # defines its kbuild module's mutex (convert/module_runs.py)


@dataclass(frozen=True)
class _Pending:
    """A task not found in the cache: the content and arguments spatch gets."""

    task: RunTask
    data: bytes
    args: tuple[str, ...]
    resolve_have_ioctl: bool = False     # settings.ConversionOptions.resolves_have_ioctl


class Runner:
    """Runs the rule on files under ROOT, JOBS at a time, through the cache."""

    def __init__(self, request: ConvertRequest, stages: Stages, sources: Sources,
                 module_mutexes: dict[str, str] | None = None):
        self.request = request
        # --lock mutex: file -> the mutex of the kbuild module it shares (modules.py).
        self.module_mutexes = module_mutexes or {}
        self.root = request.root
        self.cache = request.cache
        self.stages = stages
        self.sources = sources
        self._rules = rules.rules_digest()
        self.spatch_version = spatch.version()
        self._memo: dict[RunTask, FileRun] = {}

    def _args(self, task: RunTask) -> list[str]:
        options = replace(self.request.options, handlers=task.listed, kept=task.kept,
                          module_mutex=self.module_mutexes.get(task.file, ""),
                          module_mutex_home=task.module_home)
        # Report and patch at once: one spatch start gives decisions and diff.
        return options.spatch_args("patch") + ["-D", "report"]

    def _key(self, pending: _Pending) -> str:
        return cache_mod.make_key("convert-run/2", pending.task.file,
                                  hashlib.sha256(pending.data).hexdigest(),
                                  headers_digest(self.root, pending.task.file, pending.data),
                                  self._rules, self.spatch_version, "\0".join(pending.args))

    def run(self, tasks: list[RunTask], stage_name: str) -> dict[RunTask, FileRun]:
        """The FileRun of every task, as the stage STAGE_NAME; then the
        runs per #if branch of the files that need them ("branch runs")."""
        results: dict[RunTask, FileRun] = {}
        with self.stages.stage(stage_name, len(tasks)) as stage:
            todo: list[_Pending] = []
            for task in tasks:
                if task in self._memo:
                    results[task] = self._memo[task]
                    continue
                try:
                    data = self.sources.read(task.file)
                except OSError as err:
                    results[task] = FileRun(task.file, task.listed, (), b"", None,
                                            f"cannot read: {err.strerror}")
                    continue
                pending = _Pending(task, data, tuple(self._args(task)),
                                   self.request.options.resolves_have_ioctl)
                hit = self.cache.get_json(self._key(pending))
                if hit is not None:
                    results[task] = _parse(pending, self._told(pending,
                                                               _from_cache(task.file, hit)))
                else:
                    todo.append(pending)
            stage.from_cache(len(tasks) - len(todo))

            def one_batch(batch: list[_Pending]):
                done = self._spatch(batch)
                for pending, result in zip(batch, done):
                    if result.outcome in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
                        self.cache.put_json(self._key(pending), _to_cache(result))
                    self._told(pending, result)
                stage.step(len(batch))
                return zip(batch, done)

            with ThreadPoolExecutor(max_workers=max(1, self.request.jobs)) as pool:
                for done in pool.map(one_batch, self._batches(todo)):
                    for pending, result in done:
                        results[pending.task] = _parse(pending, result)
        branching = [task for task, result in results.items()
                     if task not in self._memo
                     and convert_branches.needs_branch_runs(result.decisions)]
        if branching:
            with self.stages.stage("branch runs", len(branching)) as stage:
                for task in branching:
                    results[task] = convert_branches.convert_branches(
                        results[task],
                        lambda data, extra, task=task: self._run_variant(task, data, extra))
                    stage.step()
        self._memo.update(results)
        return results

    def _told(self, pending: _Pending, result: spatch.SpatchResult) -> spatch.SpatchResult:
        """RESULT, after the request's on_rule_run hears of it."""
        if self.request.on_rule_run is not None:
            self.request.on_rule_run(pending.task.file, pending.args, result)
        return result

    def _run_variant(self, task: RunTask, data: bytes, extra: list[str]) -> FileRun:
        """The rule on DATA in place of TASK's file, with EXTRA options."""
        pending = _Pending(task, data, tuple(self._args(task) + extra),
                           self.request.options.resolves_have_ioctl)
        hit = self.cache.get_json(self._key(pending))
        if hit is not None:
            return _parse(pending, _from_cache(task.file, hit))
        result = self._spatch_copy(pending)
        if result.outcome in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
            self.cache.put_json(self._key(pending), _to_cache(result))
        return _parse(pending, result)

    def _spatch_copy(self, pending: _Pending) -> spatch.SpatchResult:
        """spatch on PENDING's data, written at the file's place in a copy of
        the tree that holds only it and the headers it includes."""
        rel = pending.task.file
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-") as tmp:
            if not _SPATCH_SAFE_NAME.fullmatch(rel):
                rel = spatch.safe_name(rel)
            found = included_headers(self.root, pending.task.file,
                                     pending.data.decode("latin-1"))
            for path, content in [*found.items(), (rel, pending.data)]:
                if content is not None:
                    (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
                    (Path(tmp) / path).write_bytes(content)
            return spatch.run_files(rules.CONVERSION_RULE, [Path(rel)], list(pending.args),
                                    jobs=1, timeout=self.request.timeout, cwd=Path(tmp))[0]

    def _batches(self, todo: list[_Pending]) -> list[list[_Pending]]:
        """Tasks that share their spatch options, in batches of one process."""
        by_args: dict[tuple[str, ...], list[_Pending]] = {}
        for pending in todo:
            by_args.setdefault(pending.args, []).append(pending)
        size = spatch.batch_size(len(todo), self.request.jobs)
        return [batch for same in by_args.values()
                for batch in spatch.batches(same, size, name=lambda p: p.task.file)]

    def _spatch(self, batch: list[_Pending]) -> list[spatch.SpatchResult]:
        if len(batch) > 1:  # batchable names only (spatch.batches)
            return spatch.run_batch(rules.CONVERSION_RULE, [Path(p.task.file) for p in batch],
                                    list(batch[0].args), self.request.timeout, cwd=self.root)
        return [self._spatch_one(batch[0])]

    def _spatch_one(self, pending: _Pending) -> spatch.SpatchResult:
        rel, data, args = pending.task.file, pending.data, list(pending.args)
        if _SPATCH_SAFE_NAME.fullmatch(rel):
            return spatch.run_files(rules.CONVERSION_RULE, [Path(rel)], args, jobs=1,
                                    timeout=self.request.timeout, cwd=self.root)[0]
        return spatch.run_on_text(rules.CONVERSION_RULE, rel, data, args, self.request.timeout)


def headers_digest(root: Path, rel: str, data: bytes) -> str:
    """What the rule reads besides REL (include_search.read_headers: the
    headers found as the compiler finds them, the kbuild Makefiles that
    place them, and the names it could not find): a return hidden in one
    decides the strategy, so a change to one is a change to REL's run."""
    digest = hashlib.sha256()
    found = include_search.read_headers(root, rel)
    for path in sorted(set(found.texts) - {rel}) + list(found.search.makefiles):
        try:
            content = (Path(root) / path).read_bytes()
        except OSError:
            content = None
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(b"-" if content is None else hashlib.sha256(content).digest())
    digest.update(repr((found.missing, found.unread)).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _parse(pending: _Pending, result: spatch.SpatchResult) -> FileRun:
    """What spatch said about one file, read into decisions and new content."""
    rel, listed, data = pending.task.file, pending.task.listed, pending.data
    report, diff = spatch.split_report(result.stdout)
    # One process per file: every line is about REL, whatever its name
    # looks like after a newline in it.
    decisions = tuple(rules.HandlerDecision(**{**d.__dict__, "file": rel})
                      for d in rules.parse_report(report))
    if result.outcome is spatch.Outcome.PARSE_ERROR and not result.stdout.strip():
        # Nothing the rule could see needed a change; whether the part
        # spatch could not parse did is decided with the tree (convert_plan).
        return FileRun(rel, listed, decisions, data, data, _failure_reason(result),
                       parse_errors=result.parse_errors)
    if result.outcome is not spatch.Outcome.OK:
        return FileRun(rel, listed, decisions, data, None, _failure_reason(result))
    try:
        new = tidy.tidy(apply_hunks(data, diff)) if diff else data
    except ValueError as err:
        return FileRun(rel, listed, decisions, data, None,
                       f"spatch's diff does not apply: {err}")
    if _NO_MATCH.encode() in new and _NO_MATCH.encode() not in data:
        return FileRun(rel, listed, decisions, data, None,
                       "the rule produced an invalid fops entry; not rewritten")
    unseen = _unseen_uses(data, result.parse_errors,
                          [d.handler for d in decisions if d.convert] + list(listed))
    if unseen:
        return FileRun(rel, listed, decisions, data, None,
                       f"{result.reason}, where {unseen} is named: a use there "
                       "would keep the old signature")
    if pending.resolve_have_ioctl:
        new = have_ioctl.resolve(new.decode("utf-8", "surrogateescape")).text.encode(
            "utf-8", "surrogateescape")
    changes = tuple(replace(c, file=rel) for c in rules.parse_changes(report))
    return FileRun(rel, listed, decisions, data, new, result.reason or None, changes,
                   parse_errors=result.parse_errors)


def _unseen_uses(data: bytes, parse_errors, names) -> str | None:
    """A handler being converted that is named in code spatch skipped."""
    if not parse_errors or not names:
        return None
    code = c_spans.code_only(data.decode("utf-8", "surrogateescape"))
    for line in parse_errors:
        found = c_spans.named_in(code, c_spans.toplevel_span(code, line), names)
        if found:
            return found[0]
    return None


def _failure_reason(result: spatch.SpatchResult) -> str:
    if result.outcome is spatch.Outcome.CRASH and not result.stderr.strip():
        return "spatch was killed or exited without a message"
    return result.reason or result.outcome.value


def _to_cache(result: spatch.SpatchResult) -> dict:
    return {"outcome": result.outcome.value, "stdout": result.stdout,
            "stderr": result.stderr[-4000:], "seconds": result.seconds,
            "parse_errors": list(result.parse_errors)}


def _from_cache(rel: str, value: dict) -> spatch.SpatchResult:
    return spatch.SpatchResult(Path(rel), spatch.Outcome(value["outcome"]), value["stdout"],
                               value["stderr"], value["seconds"], tuple(value["parse_errors"]))


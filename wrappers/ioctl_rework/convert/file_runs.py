"""What one run of the conversion rule on one file says, read into a
FileRun: the rule's decisions about each handler and the new content
(the bottom of the rule-run stage: it calls nothing of convert/)."""

import re
from dataclasses import dataclass, replace

from ioctl_rework.ctext import have_ioctl
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.patches import tidy
from ioctl_rework.patches.unified import apply_hunks
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch

# Put by the rule in a fops entry it could not rewrite validly.
_NO_MATCH = "ioctl_rework_no_match_"
# A name spatch can be handed as it is (else it runs on a safely named copy).
SPATCH_SAFE_NAME = re.compile(r"[\w./+-]+")


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
class Pending:
    """A task about to run (or found in the cache): the content and the
    arguments spatch gets."""

    task: RunTask
    data: bytes
    args: tuple[str, ...]
    resolve_have_ioctl: bool = False     # settings.ConversionOptions.resolves_have_ioctl


def unreadable(task: RunTask, err: OSError) -> FileRun:
    return FileRun(task.file, task.listed, (), b"", None, f"cannot read: {err.strerror}")


def read_run(pending: Pending, result: spatch.SpatchResult) -> FileRun:
    """What spatch said about one file, read into decisions and new content."""
    rel, listed, data = pending.task.file, pending.task.listed, pending.data
    failure = _failure_reason(result)
    report, diff = spatch.split_report(result.stdout)
    # One process per file: every line is about REL, whatever its name
    # looks like after a newline in it.
    decisions = tuple(rules.HandlerDecision(**{**d.__dict__, "file": rel})
                      for d in rules.parse_report(report))
    if result.outcome is spatch.Outcome.PARSE_ERROR and not diff.strip():
        # Nothing the rule could see needed a change (it may have refused a
        # handler it read); whether the part spatch could not parse did is
        # decided with the tree (convert_plan).
        return FileRun(rel, listed, decisions, data, data, failure,
                       parse_errors=result.parse_errors)
    if result.outcome is not spatch.Outcome.OK:
        return FileRun(rel, listed, decisions, data, None, failure)
    try:
        new = tidy.tidy(apply_hunks(data, diff)) if diff else data
    except ValueError as err:
        return FileRun(rel, listed, decisions, data, None,
                       f"spatch's diff does not apply: {err}")
    if _NO_MATCH.encode() in new and _NO_MATCH.encode() not in data:
        return FileRun(rel, listed, decisions, data, None,
                       "the rule produced an invalid fops entry; not rewritten")
    # A handler being converted that is named in code spatch skipped.
    names = [d.handler for d in decisions if d.convert] + list(listed)
    unseen = c_spans.named_around(data, result.parse_errors, names)
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


def _failure_reason(result: spatch.SpatchResult) -> str:
    if result.outcome is spatch.Outcome.CRASH and not result.stderr.strip():
        return "spatch was killed or exited without a message"
    return result.reason or result.outcome.value

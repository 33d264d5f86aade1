"""The record of a convert run: what happened to every handler and file.

`convert --json` writes it, `merge` reads several and writes one, and the
series writer turns it into patches.  The file diffs travel inside it, so
a summary alone is enough to rebuild the series of its run.
"""

import collections
import enum
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ioctl_rework.stages import times_text

FORMAT = "ioctl-rework-convert/1"


class SummaryError(ValueError):
    """A summary file that cannot be read or does not fit with the others."""


class HandlerStatus(enum.Enum):
    CONVERTED = "converted"
    SKIPPED = "skipped"      # the rule refused it, and said why
    FAILED = "failed"        # it was to be converted, but a file could not be
    # An entry of a file outside the run's paths, read because it names a
    # handler name of the run: not converted by this run, and reaching
    # nothing the run converted (accounting.py); a run over its path takes it up.
    OUTSIDE = "outside"


class FileStatus(enum.Enum):
    CONVERTED = "converted"  # rewritten
    UNCHANGED = "unchanged"  # processed; nothing to change
    FAILED = "failed"        # spatch timed out, crashed or could not parse; or not written
    SKIPPED = "skipped"      # not processed (unreadable, a link out of the tree)


@dataclass(frozen=True)
class HandlerRecord:
    """One `.ioctl = handler` fops entry and what became of it."""

    file: str
    line: int
    fops: str
    handler: str
    status: HandlerStatus
    reason: str | None = None
    strategy: str | None = None
    uses_inode: bool = False
    returns_enoioctlcmd: bool = False
    # Other files rewritten with it: its definition, prototypes, callers.
    other_files: tuple[str, ...] = ()
    # With --compat: the compat class, and the .compat_ioctl added or why none.
    compat: str | None = None
    # EXPORT_SYMBOL()ed: callers outside the tree must follow the new signature.
    exported: bool = False
    # Files of it spatch did not read whole, and where (no line there names it).
    unparsed: tuple[str, ...] = ()
    # Every other file of the run that names it, rewritten or not.
    named_in: tuple[str, ...] = ()

    @property
    def sort_key(self):
        return (self.file, self.line, self.fops, self.handler)


@dataclass(frozen=True)
class FileRecord:
    file: str
    status: FileStatus
    reason: str | None = None
    diff: str = ""  # git-style diff of this file; "" when unchanged


@dataclass(frozen=True)
class ChangeRecord:
    """A change besides converting a handler: a dead or NULL entry removed
    (kind "removed-entry"), a run-time NULL assignment cleared ("cleared-entry"),
    a handler deleted with it ("deleted-handler"),
    a direct call that loses its inode argument ("changed-caller")."""

    file: str
    line: int
    kind: str
    handler: str
    where: str              # the fops of an entry, the function of a call
    reason: str


@dataclass(frozen=True)
class TokenRecord:
    """An ioctl member left in compiled code that is no .ioctl entry of a
    file_operations (accounting.py): kind "other-structure", "data" or
    "legacy-half", and why."""

    file: str
    line: int
    kind: str
    reason: str


@dataclass
class Summary:
    root: str
    target: str
    options: dict
    spatch_version: str
    started: float
    wall_seconds: float = 0.0
    shard: str | None = None  # "K/N", or None for a whole run
    # ROOT is the top of a kernel tree or git work tree, so paths from it
    # name the subsystem; else a directory of its own (a copied subdirectory).
    tree_top: bool = True
    # Stage name -> seconds (stages.py), in the order the run entered them.
    stage_seconds: dict[str, float] = field(default_factory=dict)
    handlers: list[HandlerRecord] = field(default_factory=list)
    files: list[FileRecord] = field(default_factory=list)
    changes: list[ChangeRecord] = field(default_factory=list)
    # Every other ioctl member the run read, accounted for (accounting.py).
    tokens: list[TokenRecord] = field(default_factory=list)
    # What the run warned of on stderr (an option that is almost surely
    # wrong, headers it could not read), so --json alone says it too.
    warnings: list[str] = field(default_factory=list)
    # The result of an earlier run of the same command over the same files,
    # read whole (run_memo.py); MEMO says what the run memo did, and why.
    warm: bool = False
    memo: str = ""

    def sort(self) -> None:
        self.handlers.sort(key=lambda h: h.sort_key)
        self.files.sort(key=lambda f: f.file)
        self.changes = sorted(set(self.changes),
                              key=lambda c: (c.file, c.line, c.kind, c.handler, c.where, c.reason))
        # The whole record is the key: two tokens of one line and kind would
        # otherwise come out in the set's order, which changes per process.
        self.tokens = sorted(set(self.tokens), key=lambda t: (t.file, t.line, t.kind, t.reason))

    @property
    def changed_files(self) -> list[FileRecord]:
        return [f for f in self.files if f.diff]

    def totals(self) -> dict:
        handlers = collections.Counter(h.status.value for h in self.handlers)
        files = collections.Counter(f.status.value for f in self.files)
        skipped = collections.Counter(_reason_kind(h.reason) for h in self.handlers
                                      if h.status is HandlerStatus.SKIPPED)
        failed = collections.Counter(_reason_kind(h.reason) for h in self.handlers
                                     if h.status is HandlerStatus.FAILED)
        strategies = collections.Counter(h.strategy for h in self.handlers
                                         if h.status is HandlerStatus.CONVERTED)
        # Why each strategy: pushdown only where every exit and early effect
        # was accounted for; the wrapper says what stopped the pushdown.
        why = collections.defaultdict(collections.Counter)
        for h in self.handlers:
            if h.status is HandlerStatus.CONVERTED:
                why[h.strategy][_strategy_reason(h)] += 1
        added = removed = 0
        for record in self.files:
            a, r = diff_counts(record.diff)
            added, removed = added + a, removed + r
        return {
            "fops": len(self.handlers),
            "handlers": {s.value: handlers.get(s.value, 0) for s in HandlerStatus},
            "files": {s.value: files.get(s.value, 0) for s in FileStatus},
            "strategies": dict(sorted(strategies.items())),
            "strategies_by_reason": {strategy: dict(sorted(why[strategy].items(),
                                                           key=lambda i: (-i[1], i[0])))
                                     for strategy in sorted(why, key=str)},
            "skipped_by_reason": dict(skipped.most_common()),
            "failed_by_reason": dict(failed.most_common()),
            "lines_added": added,
            "lines_removed": removed,
            "changes": dict(sorted(collections.Counter(c.kind for c in self.changes).items())),
            "tokens": dict(sorted(collections.Counter(t.kind for t in self.tokens).items())),
        }


class LinkedFiles:
    """Files that stand or fall together: those a converted handler links
    (its fops file, its definition, the other files rewritten with it).
    A patch or a put-back that took only some of them would not build."""

    def __init__(self, files, handlers: list[HandlerRecord]):
        self._parent = {rel: rel for rel in files}
        for h in handlers:
            if h.status is HandlerStatus.CONVERTED:
                linked = [f for f in (h.file, *h.other_files) if f in self._parent]
                for other in linked[1:]:
                    a, b = sorted((self.first(linked[0]), self.first(other)))
                    self._parent[b] = a

    def first(self, rel: str) -> str:
        """The first path, in sorted order, of REL's files."""
        while self._parent[rel] != rel:
            self._parent[rel] = self._parent[self._parent[rel]]
            rel = self._parent[rel]
        return rel

    def members(self, rel: str) -> list[str]:
        top = self.first(rel)
        return sorted(f for f in self._parent if self.first(f) == top)


def _strategy_reason(record: "HandlerRecord") -> str:
    """Why a converted handler got its strategy, without line numbers."""
    if record.reason:
        return _reason_kind(record.reason)
    if record.strategy == "pushdown":
        return "every exit and early side effect accounted for"
    return "requested (--strategy)" if record.strategy == "wrapper" else "no reason given"


def _reason_kind(reason: str | None) -> str:
    """A reason without its line numbers, for counting alike ones."""
    text = reason or "no reason given"
    text = re.sub(r"\bline \d+(, \d+)*", "line N", text)
    text = re.sub(r"after \d+ s\b", "after N s", text)
    return text


def diff_counts(diff: str) -> tuple[int, int]:
    """Lines added and removed by a unified diff."""
    added = removed = 0
    for line in diff.split("\n"):
        if line.startswith("+") and not line.startswith("+++ "):
            added += 1
        elif line.startswith("-") and not line.startswith("--- "):
            removed += 1
    return added, removed


def to_json(summary: Summary) -> dict:
    def plain(record) -> dict:
        data = asdict(record)
        data["status"] = record.status.value
        for name in ("other_files", "unparsed", "named_in"):
            if name in data:
                data[name] = list(data[name])
        return data

    return {
        "format": FORMAT,
        "root": summary.root,
        "target": summary.target,
        "options": summary.options,
        "spatch_version": summary.spatch_version,
        "shard": summary.shard,
        "tree_top": summary.tree_top,
        "started": summary.started,
        "wall_seconds": round(summary.wall_seconds, 3),
        "stage_seconds": {name: round(seconds, 3)
                          for name, seconds in summary.stage_seconds.items()},
        "totals": summary.totals(),
        "handlers": [plain(h) for h in summary.handlers],
        "files": [plain(f) for f in summary.files],
        "changes": [asdict(c) for c in summary.changes],
        "tokens": [asdict(t) for t in summary.tokens],
        "warnings": list(summary.warnings),
        "warm": summary.warm,
        "memo": summary.memo,
    }


def to_json_bytes(summary: Summary) -> bytes:
    # ensure_ascii keeps bytes that are not UTF-8 (surrogate escapes) readable back.
    return (json.dumps(to_json(summary), indent=1, ensure_ascii=True) + "\n").encode("ascii")


def write(summary: Summary, path: Path) -> None:
    from ioctl_rework import safe_write
    safe_write.write_atomic(Path(path), to_json_bytes(summary))


def from_json(data: dict, where: str = "summary") -> Summary:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SummaryError(f"{where}: not an ioctl-rework convert summary (format {FORMAT})")
    try:
        handlers = [HandlerRecord(**{**h, "status": HandlerStatus(h["status"]),
                                     "other_files": tuple(h.get("other_files", ())),
                                     "unparsed": tuple(h.get("unparsed", ())),
                                     "named_in": tuple(h.get("named_in", ()))})
                    for h in data["handlers"]]
        files = [FileRecord(**{**f, "status": FileStatus(f["status"])}) for f in data["files"]]
        return Summary(root=data["root"], target=data["target"], options=data["options"],
                       spatch_version=data["spatch_version"], started=data["started"],
                       wall_seconds=data["wall_seconds"], shard=data.get("shard"),
                       tree_top=bool(data.get("tree_top", True)),
                       stage_seconds=dict(data.get("stage_seconds", {})),
                       handlers=handlers, files=files,
                       changes=[ChangeRecord(**c) for c in data.get("changes", [])],
                       tokens=[TokenRecord(**t) for t in data.get("tokens", [])],
                       warnings=[str(w) for w in data.get("warnings", [])],
                       warm=bool(data.get("warm", False)), memo=str(data.get("memo", "")))
    except (KeyError, TypeError, ValueError) as err:
        raise SummaryError(f"{where}: malformed summary: {err}") from err


def load(path: Path) -> Summary:
    try:
        data = json.loads(Path(path).read_text(encoding="ascii", errors="strict"))
    except (OSError, ValueError) as err:
        raise SummaryError(f"{path}: cannot read: {err}") from err
    return from_json(data, str(path))


def text_report(summary: Summary, stage_times: bool = True) -> str:
    """The few lines a person reads after a run (without the time of each
    stage when not STAGE_TIMES: -q)."""
    totals = summary.totals()
    h, f = totals["handlers"], totals["files"]
    lines = [f"{totals['fops']} .ioctl fops entries: {h['converted']} converted, "
             f"{h['skipped']} skipped, {h['failed']} failed"
             + (f", {h['outside']} outside the run's paths (not converted by this run)"
                if h["outside"] else ""),
             f"files: {f['converted']} rewritten, {f['unchanged']} unchanged, "
             f"{f['failed']} failed, {f['skipped']} skipped "
             f"(+{totals['lines_added']} -{totals['lines_removed']} lines)"]
    for strategy, count in totals["strategies"].items():
        lines.append(f"  {strategy}: {count}")
        for reason, alike in totals["strategies_by_reason"].get(strategy, {}).items():
            lines.append(f"    {alike}: {reason}")
    # Every entry not converted, by where it is: file:line, fops, handler, why.
    for status in (HandlerStatus.SKIPPED, HandlerStatus.FAILED, HandlerStatus.OUTSIDE):
        for record in summary.handlers:
            if record.status is status:
                lines.append(f"  {status.value}: {record.file}:{record.line}: {record.fops}: "
                             f"{record.handler}: {record.reason or 'no reason given'}")
    if summary.tokens:
        kinds = ", ".join(f"{kind} {count}" for kind, count in totals["tokens"].items())
        lines.append(f"  other ioctl members, no .ioctl entry of a file_operations "
                     f"({kinds}): listed in the JSON summary")
    for record in summary.handlers:
        if record.compat:
            lines.append(f"  compat: {record.file}: {record.fops}: {record.compat}")
    for record in summary.files:
        if record.status in (FileStatus.FAILED, FileStatus.SKIPPED):
            lines.append(f"  file {record.status.value}: {record.file}: {record.reason}")
    for change in summary.changes:
        lines.append(f"  {change.kind}: {change.file}:{change.line}: {change.handler} "
                     f"({change.where}): {change.reason}")
    # What userspace sees changes: said in every output mode, not only in the patch.
    for h in summary.handlers:
        if h.status is HandlerStatus.CONVERTED and h.returns_enoioctlcmd:
            lines.append(f"warning: {h.file}:{h.line}: {h.fops}: .ioctl = {h.handler}: "
                         "the handler returns -ENOIOCTLCMD: "
                         "after conversion the VFS turns it into EINVAL; userspace saw "
                         "errno 515 before")
    if summary.warm:
        lines.append("warm: the result of an earlier run of this command over the same "
                     "files (run memo)")
    if stage_times and summary.stage_seconds:
        lines.append(times_text(summary.stage_seconds))
    lines.append(f"wall time {summary.wall_seconds:.1f} s")
    return "\n".join(lines)


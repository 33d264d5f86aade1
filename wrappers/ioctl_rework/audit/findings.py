"""What an audit finds: one typed record per problem, and the result of a
whole audit, shared by every output (formats, trend) and the audit itself."""

import enum
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path


class Kind(enum.Enum):
    LEGACY_IOCTL = "legacy-ioctl"
    MISSING_COMPAT = "missing-compat"
    BKL_IN_UNLOCKED = "bkl-in-unlocked"
    ENOIOCTLCMD_UNLOCKED = "enoioctlcmd-unlocked"
    FORWARDING = "forwarding"

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Kind.LEGACY_IOCTL: "file_operations still uses .ioctl (called under the BKL)",
    Kind.MISSING_COMPAT: ".unlocked_ioctl without .compat_ioctl: 32-bit processes get an error "
                         "for the commands the tree's compat table does not handle",
    Kind.BKL_IN_UNLOCKED: "unlocked handler still takes the BKL (pushed down, not yet removed)",
    Kind.ENOIOCTLCMD_UNLOCKED: "unlocked handler returns -ENOIOCTLCMD, which userspace sees "
                               "as ENOTTY or EINVAL",
    Kind.FORWARDING: "a call or test through a file's ->ioctl (a driver forwarding to the "
                     "file below it), which a converted lower driver leaves NULL",
}


class Effort(enum.Enum):
    """How a legacy-ioctl would be converted, as the conversion rule decides."""

    AUTO_PUSHDOWN = "auto-pushdown"
    AUTO_WRAPPER = "auto-wrapper"
    # A NULL or dead .ioctl entry (the fops also sets .unlocked_ioctl):
    # the rule deletes the entry and converts nothing.
    AUTO_REMOVE = "auto-remove"
    MANUAL = "manual"
    # A forwarding site convert rewrites to ->unlocked_ioctl.
    AUTO_FORWARD = "auto-forward"


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    kind: Kind
    struct: str
    handler: str
    subsystem: str = ""
    maintainers: tuple[str, ...] = ()
    uses_inode: bool | None = None
    returns_enoioctlcmd: bool | None = None
    dead_ioctl: bool | None = None
    effort: str | None = None
    reason: str | None = None
    # missing-compat: the compat class, and the line to add or why none
    # (the offending commands for needs-translation).
    compat_class: str | None = None
    compat_detail: str | None = None
    # missing-compat: what decided what 32-bit processes get (the tree's
    # compat table entries, or compat_sys_ioctl's error without one).
    compat_source: str | None = None
    # forwarding: the source line of the call or test.
    expression: str | None = None

    @property
    def identity(self) -> tuple[str, str, str]:
        """What stays the same across kernel versions (herodotos-style matching)."""
        return (self.kind.value, self.file, self.handler)

    @property
    def message(self) -> str:
        text = f"{self.struct}: {self.handler}: {self.kind.description}"
        if self.effort:
            text += f"; effort: {self.effort}" + (f" ({self.reason})" if self.reason else "")
        if self.compat_class:
            text += f"; compat: {self.compat_class}: {self.compat_detail}"
        return text

    def to_json(self) -> dict:
        value = asdict(self)
        value["kind"] = self.kind.value
        value["maintainers"] = list(self.maintainers)
        return value

    @classmethod
    def from_json(cls, value: dict) -> "Finding":
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in value.items() if k in known}
        data["kind"] = Kind(data["kind"])
        data["maintainers"] = tuple(data.get("maintainers", ()))
        return cls(**data)


def sort_key(finding: Finding) -> tuple:
    return (finding.file, finding.line, finding.kind.value, finding.handler)


@dataclass(frozen=True)
class SkippedFile:
    file: str
    reason: str
    # True when spatch parsed only part of the file: findings from the
    # rest are kept, but some code was not seen.
    partial: bool = False


@dataclass
class AuditStats:
    candidates: int = 0
    cached: int = 0
    spatch_runs: int = 0
    seconds: float = 0.0
    # missing-compat findings the tree's own compat table contradicts
    # (it passes every command): dropped, counted here.
    passed_by_table: int = 0
    # Stage name -> seconds (stages.py): prefilter, rule runs, compat, maintainers.
    stage_seconds: dict = field(default_factory=dict)


@dataclass
class AuditResult:
    findings: list[Finding]
    skipped: list[SkippedFile]
    tree: Path | None = None
    version: str | None = None
    stats: AuditStats = field(default_factory=AuditStats)

    def count(self, kind: Kind) -> int:
        return sum(1 for f in self.findings if f.kind is kind)

    @property
    def tree_name(self) -> str | None:
        """The tree's directory name: what a report may show of where it was."""
        return self.tree.name if self.tree else None

    def title(self) -> str:
        """How reports name the tree: by version, never by a path of this machine."""
        if self.version:
            return f"linux {self.version}"
        return self.tree_name or "paths outside a kernel tree"

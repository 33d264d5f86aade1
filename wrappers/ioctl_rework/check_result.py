"""What `check` found, and its three renderings: checkpatch-style text,
json and SARIF 2.1.0."""

import enum
import hashlib
import json
from dataclasses import dataclass, field

from ioctl_rework import __version__, rules
from ioctl_rework.formats import TOOL, sarif


class Level(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    level: Level
    type: str                           # LEGACY_IOCTL, MISSING_COMPAT, ...
    message: str
    file: str
    line: int                           # in the new file: the added line it is shown at
    patch_line: int                     # the same line in the patch
    text: str                           # that line, with its "+" or " " prefix
    struct: str = ""
    handler: str = ""
    conversion: str = ""                # for LEGACY_IOCTL: the diff the conversion rule makes
    note: str = ""                      # why there is no conversion, or what it cannot do


@dataclass(frozen=True)
class Skipped:
    file: str
    reason: str
    partial: bool = False               # checked, but spatch did not parse all of it

    def describe(self) -> str:
        return f"{self.file} {'checked only in part' if self.partial else 'not checked'}: " \
               f"{self.reason}"


@dataclass
class CheckResult:
    name: str                           # what was checked, for the summary line
    problems: list[Problem] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    lines_checked: int = 0
    files_checked: list[str] = field(default_factory=list)
    fix_diff: str | None = None
    notes: list[str] = field(default_factory=list)

    def count(self, level: Level) -> int:
        return sum(1 for p in self.problems if p.level is level)

    @property
    def exit_status(self) -> int:
        return 1 if self.count(Level.ERROR) else 0


def format_text(result: CheckResult) -> str:
    out = []
    for p in result.problems:
        out.append(f"{p.level.name}:{p.type}: {p.message}")
        out.append(f"#{p.patch_line}: FILE: {p.file}:{p.line}:")
        out.append(p.text)
        if p.note:
            out.append(f"NOTE: {p.note}")
        if p.conversion:
            out.append(f"the conversion {rules.CONVERSION_RULE.name} would make:")
            out.append(p.conversion.rstrip("\n"))
        out.append("")
    for s in result.skipped:
        out.append(f"NOTE: {s.describe()}")
    out += [f"NOTE: {note}" for note in result.notes]
    if result.skipped or result.notes:
        out.append("")
    errors, warnings = result.count(Level.ERROR), result.count(Level.WARNING)
    out.append(f"total: {errors} errors, {warnings} warnings, "
               f"{result.lines_checked} lines checked")
    out.append("")
    if errors or warnings:
        out.append(f"{result.name} has legacy ioctl problems, please review.")
    else:
        out.append(f"{result.name} has no obvious legacy ioctl problems.")
    if result.fix_diff is not None:
        out += ["", "the conversion of the files the patch touches:" if result.fix_diff
                else "--fix: the conversion changes nothing in the files the patch touches",
                result.fix_diff.rstrip("\n")]
    return "\n".join(out).rstrip("\n") + "\n"


def _problem_dict(p: Problem) -> dict:
    return {"level": p.level.value, "type": p.type, "message": p.message, "file": p.file,
            "line": p.line, "patch_line": p.patch_line, "text": p.text,
            "struct": p.struct, "handler": p.handler, "conversion": p.conversion or None,
            "note": p.note or None}


def format_json(result: CheckResult) -> str:
    doc = {
        "tool": f"{TOOL} check", "version": __version__, "patch": result.name,
        "problems": [_problem_dict(p) for p in result.problems],
        "skipped": [{"file": s.file, "reason": s.reason, "partial": s.partial}
                    for s in result.skipped],
        "files_checked": result.files_checked,
        "total": {"errors": result.count(Level.ERROR),
                  "warnings": result.count(Level.WARNING),
                  "lines_checked": result.lines_checked},
        "fix": result.fix_diff,
        "notes": result.notes,
    }
    return json.dumps(doc, indent=2) + "\n"


def _sarif_result(p: Problem, rule_ids: list[str]) -> dict:
    identity = "\0".join((p.type, p.file, p.struct, p.handler)).encode()
    return {
        "ruleId": p.type,
        "ruleIndex": rule_ids.index(p.type),
        "level": p.level.value,
        "message": {"text": p.message + (f" ({p.note})" if p.note else "")},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": p.file},
            "region": {"startLine": p.line, "snippet": {"text": p.text[1:]}}}}],
        # Stable when lines move, as the audit's SARIF is.
        "partialFingerprints": {"ioctlReworkCheck/v1": hashlib.sha256(identity).hexdigest()},
    }


def format_sarif(result: CheckResult) -> str:
    """SARIF 2.1.0 with the audit's schema and tool identity; check's own levels."""
    rule_ids = sorted({p.type for p in result.problems})
    doc = {
        "$schema": sarif.SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": f"{TOOL} check", "version": __version__,
                "informationUri": sarif.INFORMATION_URI,
                "rules": [{"id": r, "name": r.title().replace("_", "")} for r in rule_ids]}},
            "results": [_sarif_result(p, rule_ids) for p in result.problems],
            "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": [
                {"level": "note", "message": {"text": s.describe()},
                 "locations": [{"physicalLocation": {"artifactLocation": {"uri": s.file}}}]}
                for s in result.skipped]}],
        }],
    }
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"text": format_text, "json": format_json, "sarif": format_sarif}

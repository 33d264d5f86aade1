"""What `check` found, and its three renderings: checkpatch-style text,
json and SARIF 2.1.0."""

import enum
import hashlib
import json
from dataclasses import dataclass, field

from ioctl_rework import __version__
from ioctl_rework.spatch import rules
from ioctl_rework.audit.formats import TOOL, sarif
from ioctl_rework.names import shown, uri


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
                                        # (0: the file as a whole)
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
        return f"{shown(self.file)} " \
               f"{'checked only in part' if self.partial else 'not checked'}: {self.reason}"


@dataclass
class CheckResult:
    """What check found in one patch, or in one commit of a range."""
    name: str                           # what was checked, for the summary line
    problems: list[Problem] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    lines_checked: int = 0
    files_checked: list[str] = field(default_factory=list)
    fix_diff: str | None = None
    notes: list[str] = field(default_factory=list)
    commit: str | None = None           # the commit's id, when a range is checked by commit

    def count(self, level: Level) -> int:
        return sum(1 for p in self.problems if p.level is level)


@dataclass
class CheckReport:
    """Every result of one run: one, or one per commit of a range."""
    name: str
    results: list[CheckResult]
    # Stage name -> seconds (stages.py): input, rule runs, judging, conversions, fix.
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def count(self, level: Level) -> int:
        return sum(r.count(level) for r in self.results)

    @property
    def lines_checked(self) -> int:
        return sum(r.lines_checked for r in self.results)

    @property
    def by_commit(self) -> bool:
        """Reported part by part: the commits of a range, the mails of an mbox."""
        return len(self.results) > 1 or any(r.commit for r in self.results)

    @property
    def exit_status(self) -> int:
        return 1 if self.count(Level.ERROR) else 0


def _verdict(name: str, errors: int, warnings: int) -> str:
    if errors or warnings:
        return f"{name} has legacy ioctl problems, please review."
    return f"{name} has no obvious legacy ioctl problems."


def _total(errors: int, warnings: int, lines: int) -> str:
    return f"total: {errors} errors, {warnings} warnings, {lines} lines checked"


def _body(result: CheckResult) -> list[str]:
    out = []
    for p in result.problems:
        out.append(f"{p.level.name}:{p.type}: {p.message}")
        if p.file:
            out.append(f"#{p.patch_line}: FILE: {shown(p.file)}"
                       + (f":{p.line}:" if p.line else ""))
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
    out += [_total(errors, warnings, result.lines_checked), "",
            _verdict(result.name, errors, warnings)]
    if result.fix_diff is not None:
        out += ["", "the conversion of the files the patch touches:" if result.fix_diff
                else "--fix: the conversion changes nothing in the files the patch touches",
                result.fix_diff.rstrip("\n")]
    return out


def format_text(report: CheckReport) -> str:
    """As checkpatch.pl prints: a range checked by commit gets a section per
    commit under its subject, then the total of them all."""
    if not report.by_commit:
        out = _body(report.results[0])
    else:
        out = []
        for result in report.results:
            out += ["-" * len(result.name), result.name, "-" * len(result.name)]
            out += _body(result) + [""]
        errors, warnings = report.count(Level.ERROR), report.count(Level.WARNING)
        out += [_total(errors, warnings, report.lines_checked), "",
                _verdict(report.name, errors, warnings)]
    return "\n".join(out).rstrip("\n") + "\n"


def _problem_dict(p: Problem, commit: str | None) -> dict:
    value = {"level": p.level.value, "type": p.type, "message": p.message,
             "file": p.file, "line": p.line, "patch_line": p.patch_line,
             "text": p.text, "struct": p.struct, "handler": p.handler,
             "conversion": p.conversion or None, "note": p.note or None}
    return {**value, "commit": commit} if commit else value


def _totals(errors: int, warnings: int, lines: int) -> dict:
    return {"errors": errors, "warnings": warnings, "lines_checked": lines}


def format_json(report: CheckReport) -> str:
    results = report.results
    fixes = [r.fix_diff for r in results if r.fix_diff is not None]
    doc = {
        "tool": f"{TOOL} check", "version": __version__, "patch": report.name,
        "problems": [_problem_dict(p, r.commit) for r in results for p in r.problems],
        "skipped": [{"file": s.file, "reason": s.reason, "partial": s.partial,
                     **({"commit": r.commit} if r.commit else {})}
                    for r in results for s in r.skipped],
        "files_checked": list(dict.fromkeys(f for r in results for f in r.files_checked)),
        "total": _totals(report.count(Level.ERROR), report.count(Level.WARNING),
                         report.lines_checked),
        "fix": "".join(fixes) if fixes else None,
        "notes": [note for r in results for note in r.notes],
        "stage_seconds": report.stage_seconds,
    }
    if report.by_commit:
        doc["commits"] = [{"commit": r.commit, "title": r.name,
                           "total": _totals(r.count(Level.ERROR), r.count(Level.WARNING),
                                            r.lines_checked)} for r in results]
    return json.dumps(doc, indent=2) + "\n"


def _sarif_result(p: Problem, rule_ids: list[str], commit: str | None) -> dict:
    identity = "\0".join((p.type, p.file, p.struct, p.handler)).encode(
        "utf-8", "surrogateescape")
    region = {"startLine": p.line, "snippet": {"text": p.text[1:]}} if p.line else {}
    location = {"artifactLocation": {"uri": uri(p.file)}}
    value = {
        "ruleId": p.type,
        "ruleIndex": rule_ids.index(p.type),
        "level": p.level.value,
        "message": {"text": p.message + (f" ({p.note})" if p.note else "")},
        "locations": [{"physicalLocation": {**location, **({"region": region} if region
                                                            else {})}}] if p.file else [],
        # Stable when lines move, as the audit's SARIF is.
        "partialFingerprints": {"ioctlReworkCheck/v1": hashlib.sha256(identity).hexdigest()},
    }
    return {**value, "properties": {"commit": commit}} if commit else value


def format_sarif(report: CheckReport) -> str:
    """SARIF 2.1.0 with the audit's schema and tool identity; check's own levels."""
    problems = [(p, r.commit) for r in report.results for p in r.problems]
    rule_ids = sorted({p.type for p, _ in problems})
    doc = {
        "$schema": sarif.SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": f"{TOOL} check", "version": __version__,
                "informationUri": sarif.INFORMATION_URI,
                "rules": [{"id": r, "name": r.title().replace("_", "")} for r in rule_ids]}},
            "results": [_sarif_result(p, rule_ids, commit) for p, commit in problems],
            "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": [
                {"level": "note", "message": {"text": s.describe()},
                 "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri(s.file)}}}]}
                for r in report.results for s in r.skipped]}],
        }],
    }
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"text": format_text, "json": format_json, "sarif": format_sarif}

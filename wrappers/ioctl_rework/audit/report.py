"""What the audit's rules print, and earlier runs saved, read into findings.

The conversion rule's report mode gives the legacy entries (through
rules.parse_report(), and the entries it removes rather than converts);
the unlocked-handler rules print one `file:line: fops: .unlocked_ioctl =
handler: kind: message` line per site.  audit.py runs the rules; this
module only reads what they said, and the JSON of an earlier run.
"""

import json
import re
from pathlib import Path

from ioctl_rework.spatch import rules
from ioctl_rework.audit.findings import (AuditResult, AuditStats, Effort, Finding, Kind,
                                   SkippedFile, sort_key)


class AuditError(Exception):
    """An audit that cannot start: a missing path, an unreadable tree."""


_AUDIT_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+): (?P<fops>\w+): \.unlocked_ioctl = (?P<handler>\w+): "
    r"(?P<kind>[a-z-]+): (?P<message>.*)$")
# Entries the conversion rule removes rather than converts (a NULL or dead
# .ioctl).  rules.parse_report() reads only convert/left-alone lines.
_REMOVE_LINE = rules.REMOVE_LINE


def read_legacy_report(stdout: str) -> list[Finding]:
    found = []
    for d in rules.parse_report(stdout):
        if d.convert:
            effort = {"pushdown": Effort.AUTO_PUSHDOWN,
                      "wrapper": Effort.AUTO_WRAPPER}.get(d.strategy, Effort.MANUAL)
            reason = None if effort is not Effort.MANUAL else f"strategy {d.strategy}"
        else:
            effort, reason = Effort.MANUAL, d.reason
        found.append(Finding(
            file=d.file, line=d.line, kind=Kind.LEGACY_IOCTL, struct=d.fops, handler=d.handler,
            uses_inode=d.uses_inode, returns_enoioctlcmd=d.returns_enoioctlcmd,
            dead_ioctl="dead" in (d.reason or ""), effort=effort.value, reason=reason))
    for line in stdout.splitlines():
        match = _REMOVE_LINE.match(line)
        if match:
            found.append(Finding(
                file=match["file"], line=int(match["line"]), kind=Kind.LEGACY_IOCTL,
                struct=match["fops"], handler=match["handler"],
                dead_ioctl="dead" in match["reason"], effort=Effort.AUTO_REMOVE.value,
                reason=match["reason"]))
    return found


def read_unlocked_report(stdout: str) -> list[Finding]:
    found = []
    for line in stdout.splitlines():
        match = _AUDIT_LINE.match(line)
        if not match:
            continue
        kind = Kind(match["kind"])
        found.append(Finding(
            file=match["file"], line=int(match["line"]), kind=kind, struct=match["fops"],
            handler=match["handler"], reason=match["message"],
            returns_enoioctlcmd=True if kind is Kind.ENOIOCTLCMD_UNLOCKED else None))
    return found


def read_forwarding_report(stdout: str) -> list[Finding]:
    """The forwarding rule's sites: what convert does with each (effort
    auto-forward), or why it leaves it (manual, which refuses the run)."""
    found = []
    for match in map(rules.FORWARD_LINE.match, stdout.splitlines()):
        if not match:
            continue
        refused = rules.forward_refused(match["what"])
        found.append(Finding(
            file=match["file"], line=int(match["line"]), kind=Kind.FORWARDING,
            struct="file_operations", handler=match["function"],
            effort=(Effort.MANUAL if refused else Effort.AUTO_FORWARD).value,
            reason=match["what"] + ("; convert leaves every file of its run as it was"
                                    if refused else "")))
    return found


READERS = {"legacy": read_legacy_report, "unlocked": read_unlocked_report,
           "forwarding": read_forwarding_report}


def first_per_handler(findings: list[Finding]) -> list[Finding]:
    """One finding per (file, kind, fops, handler): the first line.  The
    BKL and -ENOIOCTLCMD rules report every site; the handler is the unit
    a maintainer fixes and a trend counts.  A legacy entry is its own unit:
    one fops name may have two definitions, one in each #if branch; so is
    a forwarding site (a test and a call of one function are two)."""
    first: dict[tuple, Finding] = {}
    for finding in sorted(findings, key=sort_key):
        entry = finding.line if finding.kind in (Kind.LEGACY_IOCTL, Kind.FORWARDING) else None
        first.setdefault((finding.file, finding.kind, finding.struct, finding.handler, entry),
                         finding)
    return sorted(first.values(), key=sort_key)


def load_json(path: Path) -> list[AuditResult]:
    """The results of an earlier `audit --format json` run."""
    try:
        value = json.loads(Path(path).read_text())
        return [AuditResult(
            [Finding.from_json(f) for f in tree["findings"]],
            [SkippedFile(s["file"], s["reason"], s.get("partial", False))
             for s in tree["skipped"]],
            Path(tree["tree"]) if tree.get("tree") else None, tree.get("version"),
            AuditStats(tree["stats"]["candidates"], tree["stats"]["cached"], 0,
                       tree["stats"]["seconds"], tree["stats"].get("passed_by_table", 0),
                       tree["stats"].get("stage_seconds", {})))
            for tree in value["trees"]]
    except OSError as err:
        raise AuditError(f"{path}: {err.strerror}") from err
    except (ValueError, KeyError, TypeError) as err:
        raise AuditError(f"{path}: not an `audit --format json` report ({err})") from err

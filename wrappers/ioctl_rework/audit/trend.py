"""Findings across kernel versions, the way herodotos follows a rule's
reports: counts per kind per version, and what is new and what was fixed
between consecutive versions.  Findings are the same across versions when
their kind, file and handler are (line numbers move; fops get renamed
less often than they move, and a handler is what gets converted)."""

from collections import Counter
from dataclasses import dataclass

from ioctl_rework.audit.findings import AuditResult, Finding, Kind


@dataclass(frozen=True)
class VersionCounts:
    label: str                  # the kernel version, or the tree's name without one
    counts: dict                # Kind -> int

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True)
class Change:
    before: str
    after: str
    new: tuple[Finding, ...]
    fixed: tuple[Finding, ...]


@dataclass(frozen=True)
class Trend:
    rows: tuple[VersionCounts, ...]
    changes: tuple[Change, ...]


def label(result: AuditResult) -> str:
    if result.version:
        return result.version
    return result.tree_name or "(files)"


def counts(findings: list[Finding]) -> dict:
    found = Counter(f.kind for f in findings)
    return {kind: found.get(kind, 0) for kind in Kind}


def _unique(findings: list[Finding]) -> dict:
    first = {}
    for finding in findings:
        first.setdefault(finding.identity, finding)
    return first


def labels(results: list[AuditResult]) -> list[str]:
    """Each result's label; two trees of one version are told apart by
    their directory names ("2.6.18 (linux-2.6.18-rhel)")."""
    plain = [label(r) for r in results]
    named = [f"{text} ({r.tree_name})" if plain.count(text) > 1 and r.tree_name
             and r.tree_name != text else text for text, r in zip(plain, results)]
    # One name in two places (/a/linux, /b/linux; a tree audited before and
    # after a change): the order of the trend tells them apart.
    seen: dict[str, int] = {}
    told = []
    for text in named:
        if named.count(text) == 1:
            told.append(text)
            continue
        seen[text] = seen.get(text, 0) + 1
        ordinal = _ordinal(seen[text])
        told.append(f"{text[:-1]}, {ordinal})" if text.endswith(")") else f"{text} ({ordinal})")
    return told


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else \
        {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def build(results: list[AuditResult]) -> Trend:
    """RESULTS in version order (audit.audit_trees sorts them)."""
    names = labels(results)
    rows = tuple(VersionCounts(name, counts(r.findings)) for name, r in zip(names, results))
    changes = []
    for (before, name_before), (after, name_after) in zip(zip(results, names),
                                                         list(zip(results, names))[1:]):
        old, new = _unique(before.findings), _unique(after.findings)
        changes.append(Change(
            name_before, name_after,
            tuple(new[k] for k in sorted(new.keys() - old.keys())),
            tuple(old[k] for k in sorted(old.keys() - new.keys()))))
    return Trend(rows, tuple(changes))


def by_subsystem(findings: list[Finding]) -> list[tuple[str, dict]]:
    """(subsystem, counts per kind), most findings first."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.subsystem or "(none)", []).append(finding)
    table = [(name, counts(group)) for name, group in groups.items()]
    return sorted(table, key=lambda row: (-sum(row[1].values()), row[0]))


def by_effort(findings: list[Finding]) -> Counter:
    return Counter(f.effort for f in findings if f.kind is Kind.LEGACY_IOCTL)

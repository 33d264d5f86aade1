"""The audit's missing-compat findings, each with its compat class: what a
maintainer should add (the exact line), or why nothing may be added, and
what decided what 32-bit processes get.  A handler whose every command the
tree's own compat table passes is no finding (compat.era)."""

from dataclasses import replace
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.cache import Cache
from ioctl_rework.compat import Classification, CompatClass, classify_files
from ioctl_rework.compat.apply import expected_line
from ioctl_rework.audit.findings import Finding, Kind


def line_to_add(classification: Classification, handler: str, target: settings.Target) -> str | None:
    """The .compat_ioctl line for a clean class, None otherwise.  Before 5.5
    a compat-ptr handler needs the NAME_compat_ioctl entry that
    semantic-patches/add_compat_ioctl.cocci writes."""
    if not classification.compat_class.adds_compat:
        return None
    return expected_line(classification.compat_class, handler, target)


def detail(classification: Classification, handler: str, target: settings.Target) -> str:
    line = line_to_add(classification, handler, target)
    if line:
        return f"add `{line}` ({classification.reason})"
    if classification.offenders:
        return "; ".join(map(str, classification.offenders))
    return classification.reason


def classify_findings(findings: list[Finding], tree: Path | None, jobs: int = 2,
                      timeout: int = 120, cache: Cache | None = None, *,
                      target: settings.Target) -> list[Finding]:
    """FINDINGS with compat_class, compat_detail and compat_source set on each
    missing-compat one, without those the tree's compat table passes."""
    missing = [f for f in findings if f.kind is Kind.MISSING_COMPAT]
    if not missing:
        return findings
    files = sorted({f.file for f in missing})
    where = {file: (tree / file if tree and not Path(file).is_absolute() else Path(file))
             for file in files}
    found = classify_files([where[f] for f in files], tree, jobs, timeout, cache)
    shown = {str(path): file for file, path in where.items()}
    by_handler = {(shown.get(c.file, c.file), c.handler): c for c in found}
    result = []
    for finding in findings:
        if finding.kind is Kind.MISSING_COMPAT:
            decided = by_handler.get((finding.file, finding.handler)) or Classification(
                finding.file, finding.handler, CompatClass.UNKNOWN,
                reason=f"no definition of {finding.handler} with cmd and arg parameters was "
                       "found in this file (or spatch could not read it)")
            if decided.compat_class is CompatClass.TABLE_PASSES:
                continue
            finding = replace(finding, compat_class=decided.compat_class.value,
                              compat_detail=detail(decided, finding.handler, target),
                              compat_source=decided.source or None)
        result.append(finding)
    return result

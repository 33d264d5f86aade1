"""Plain text, grouped by subsystem so each maintainer finds their part."""

from ioctl_rework.audit import trend
from ioctl_rework.audit.findings import Finding, Kind
from ioctl_rework.audit.formats import Report
from ioctl_rework.names import shown


def describe(finding: Finding) -> str:
    """One line: where, what, and for legacy-ioctl how hard."""
    member = ".ioctl" if finding.kind is Kind.LEGACY_IOCTL else ".unlocked_ioctl"
    text = f"{shown(finding.file)}:{finding.line}: {finding.kind.value}: " \
           f"{finding.struct}: {member} = {finding.handler}"
    if finding.kind is Kind.FORWARDING:
        text = f"{shown(finding.file)}:{finding.line}: {finding.kind.value}: " \
               f"{finding.handler}: `{finding.expression or '?'}`"
    notes = []
    if finding.effort:
        notes.append(finding.effort + (f": {finding.reason}" if finding.reason else ""))
    if finding.compat_class:
        notes.append(f"compat: {finding.compat_class}: {finding.compat_detail}")
    if finding.uses_inode:
        notes.append("uses inode")
    if finding.returns_enoioctlcmd and finding.kind is Kind.LEGACY_IOCTL:
        notes.append("returns -ENOIOCTLCMD")
    return text + (f" [{'; '.join(notes)}]" if notes else "")


def _counts_line(counts: dict) -> str:
    return ", ".join(f"{kind.value} {counts[kind]}" for kind in Kind)


def _tree(result, lines: list[str]) -> None:
    lines.append(f"== {result.title()}: {len(result.findings)} findings")
    lines.append(_counts_line(trend.counts(result.findings)))
    efforts = trend.by_effort(result.findings)
    if efforts:
        lines.append("legacy-ioctl effort: " + ", ".join(
            f"{name} {efforts[name]}" for name in sorted(efforts)))
    groups: dict[str, list[Finding]] = {}
    for finding in result.findings:
        groups.setdefault(finding.subsystem, []).append(finding)
    for name, _ in trend.by_subsystem(result.findings):
        group = groups[name]
        lines.append("")
        lines.append(f"{name} ({len(group)})")
        if group[0].maintainers:
            lines.append("  " + ", ".join(group[0].maintainers))
        lines.extend("  " + describe(f) for f in group)
    if result.skipped:
        lines.append("")
        lines.append(f"not fully checked ({len(result.skipped)}):")
        for skipped in result.skipped:
            label = "partly parsed" if skipped.partial else "skipped"
            lines.append(f"  {shown(skipped.file)}: {label}: {skipped.reason}")
    lines.append("")


def render(report: Report) -> str:
    lines: list[str] = []
    for result in report.results:
        _tree(result, lines)
    if report.several:
        lines.append("== trend")
        header = f"{'version':<16}" + "".join(f"{k.value:>22}" for k in Kind) + f"{'total':>8}"
        lines.append(header)
        for row in report.trend.rows:
            lines.append(f"{row.label:<16}" + "".join(f"{row.counts[k]:>22}" for k in Kind)
                         + f"{row.total:>8}")
        for change in report.trend.changes:
            lines.append("")
            lines.append(f"{change.before} -> {change.after}: "
                         f"{len(change.new)} new, {len(change.fixed)} fixed")
            lines.extend("  new:   " + describe(f) for f in change.new)
            lines.extend("  fixed: " + describe(f) for f in change.fixed)
        lines.append("")
    return "\n".join(lines)

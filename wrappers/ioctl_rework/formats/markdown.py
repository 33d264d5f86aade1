"""Markdown: summary tables and the findings per subsystem, for mails and
issue trackers (file paths only, never code)."""

from ioctl_rework import trend
from ioctl_rework.findings import Kind
from ioctl_rework.formats import Report


def _escape(text) -> str:
    return str(text if text is not None else "").replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_escape(c) for c in row) + " |" for row in rows]
    return lines


def _result(result, lines: list[str]) -> None:
    lines += [f"## {result.title()}", ""]
    if result.tree:
        lines += [f"{result.stats.candidates} candidate files; "
                  f"{len(result.skipped)} not fully checked.", ""]
    lines += _table(["kind", "findings"], [[k.value, result.count(k)] for k in Kind]) + [""]
    efforts = trend.by_effort(result.findings)
    if efforts:
        lines += _table(["legacy-ioctl effort", "findings"],
                        [[e, efforts[e]] for e in sorted(efforts)]) + [""]
    subsystems = trend.by_subsystem(result.findings)
    if subsystems:
        lines += ["### By subsystem", ""]
        lines += _table(["subsystem", *[k.value for k in Kind]],
                        [[name, *[c[k] for k in Kind]] for name, c in subsystems]) + [""]
        lines += ["### Findings", ""]
        lines += _table(["file", "line", "kind", "struct", "handler", "effort", "reason",
                         "subsystem"],
                        [[f"`{f.file}`", f.line, f.kind.value, f.struct, f.handler,
                          f.effort, f.reason, f.subsystem] for f in result.findings]) + [""]
    if result.skipped:
        lines += ["### Not fully checked", ""]
        lines += _table(["file", "state", "reason"],
                        [[f"`{s.file}`", "partly parsed" if s.partial else "skipped", s.reason]
                         for s in result.skipped]) + [""]


def render(report: Report) -> str:
    lines = ["# ioctl-rework audit", ""]
    if report.several:
        lines += ["## Trend", ""]
        lines += _table(["version", *[k.value for k in Kind], "total"],
                        [[row.label, *[row.counts[k] for k in Kind], row.total]
                         for row in report.trend.rows]) + [""]
        for change in report.trend.changes:
            lines += [f"{change.before} → {change.after}: {len(change.new)} new, "
                      f"{len(change.fixed)} fixed.", ""]
    for result in report.results:
        _result(result, lines)
    return "\n".join(lines)

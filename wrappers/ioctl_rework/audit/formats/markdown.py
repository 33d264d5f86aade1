"""Markdown: summary tables and the findings per subsystem, for mails and
issue trackers (file paths only, never code)."""

import re

from ioctl_rework.audit import trend
from ioctl_rework.audit.findings import Kind
from ioctl_rework.audit.formats import Report
from ioctl_rework.names import shown


# Characters Markdown gives a meaning to: a MAINTAINERS title such as
# "*_ROBUST" or "FOO <BAR>" must be shown as written, not as emphasis or a tag.
_MARKUP = re.compile(r"([\\`*_{}\[\]<>()#+!|~$])")


def _escape(text) -> str:
    if isinstance(text, _Markup):
        return text
    return _MARKUP.sub(r"\\\1", str(text if text is not None else "")).replace("\n", " ")


class _Markup(str):
    """A table cell that is Markdown already."""


def _file(name: str) -> _Markup:
    """A file name as a code span: nothing in it is markup but the `|`
    that would end a table cell; a name with a backtick gets two."""
    name = shown(name).replace("|", "\\|")
    fence = "``" if "`" in name else "`"
    pad = " " if "`" in name else ""
    return _Markup(f"{fence}{pad}{name}{pad}{fence}")


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
        lines += _table(["file", "line", "kind", "struct", "handler", "expression", "effort",
                         "reason", "subsystem"],
                        [[_file(f.file), f.line, f.kind.value, f.struct, f.handler,
                          f.expression, f.effort, f.reason, f.subsystem]
                         for f in result.findings]) + [""]
    if result.skipped:
        lines += ["### Not fully checked", ""]
        lines += _table(["file", "state", "reason"],
                        [[_file(s.file), "partly parsed" if s.partial else "skipped", s.reason]
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

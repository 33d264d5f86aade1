"""One self-contained html page: sortable tables, charts as inline PNG."""

import base64
import html

from ioctl_rework.audit import trend
from ioctl_rework.audit.findings import Kind
from ioctl_rework.audit.formats import TOOL, OutputError, Report
from ioctl_rework.audit.formats import charts
from ioctl_rework.names import shown

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; vertical-align: top; }
/* The findings tables fit the page: long cells wrap, the rest scrolls in its box. */
div.scroll { max-width: 100%; overflow-x: auto; }
table.findings { table-layout: auto; width: 100%; }
table.findings td { overflow-wrap: anywhere; max-width: 28em; }
th { background: #dde4ee; cursor: pointer; user-select: none; }
th.sorted-asc::after { content: " \\25B2"; } th.sorted-desc::after { content: " \\25BC"; }
td.num { text-align: right; }
tr:nth-child(even) td { background: #f6f7f9; }
img.chart { display: block; margin: 0.5em 0 1.5em; border: 1px solid #ddd; }
"""

# Click a header to sort by that column; click again to reverse.
SCRIPT = """
document.querySelectorAll("table.sortable th").forEach(function (th, _) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0];
    var column = Array.prototype.indexOf.call(th.parentNode.children, th);
    var ascending = !th.classList.contains("sorted-asc");
    table.querySelectorAll("th").forEach(function (h) {
      h.classList.remove("sorted-asc", "sorted-desc"); });
    th.classList.add(ascending ? "sorted-asc" : "sorted-desc");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column].textContent, y = b.cells[column].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""


def _table(header: list[str], rows: list[list], table_id: str, wide: bool = False) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for cell in row:
            numeric = isinstance(cell, int) and not isinstance(cell, bool)
            text = "" if cell is None else str(cell)
            cells.append(f'<td class="num">{text}</td>' if numeric
                         else f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    classes = "sortable findings" if wide else "sortable"
    table = (f'<table class="{classes}" id="{table_id}"><thead><tr>{head}</tr></thead>'
             f'<tbody>{"".join(body)}</tbody></table>')
    return f'<div class="scroll">{table}</div>' if wide else table


def _image(png: bytes, alt: str, image_id: str) -> str:
    data = base64.b64encode(png).decode()
    return f'<img class="chart" id="{image_id}" alt="{html.escape(alt)}" ' \
           f'src="data:image/png;base64,{data}">'


def _finding_rows(findings) -> list[list]:
    return [[shown(f.file), f.line, f.kind.value, f.struct, f.handler, f.expression,
             f.effort, f.reason, f.compat_class, f.compat_detail, f.compat_source,
             f.subsystem, ", ".join(f.maintainers)] for f in findings]


FINDING_COLUMNS = ["file", "line", "kind", "struct", "handler", "expression", "effort",
                   "reason", "compat class", "compat reason", "decided by", "subsystem",
                   "maintainers"]


def _result(result, index: int) -> list[str]:
    title = result.title()
    parts = [f"<h2>{html.escape(title)}</h2>"]
    if result.tree:
        parts.append(f"<p>{result.stats.candidates} candidate files, "
                     f"{len(result.skipped)} not fully checked.</p>")
    parts.append(_table(["kind", "findings"], [[k.value, result.count(k)] for k in Kind],
                        f"kinds-{index}"))
    efforts = trend.by_effort(result.findings)
    if efforts:
        parts.append(_table(["legacy-ioctl effort", "findings"],
                            [[e, efforts[e]] for e in sorted(efforts)], f"effort-{index}"))
    subsystems = trend.by_subsystem(result.findings)
    if subsystems:
        parts.append(_image(charts.subsystem_chart(subsystems, f"Findings per subsystem, {title}"),
                            f"findings per subsystem, {title}", f"subsystem-chart-{index}"))
        parts.append("<h3>By subsystem</h3>")
        parts.append(_table(["subsystem", *[k.value for k in Kind]],
                            [[name, *[c[k] for k in Kind]] for name, c in subsystems],
                            f"subsystems-{index}"))
        parts.append("<h3>Findings</h3>")
        parts.append(_table(FINDING_COLUMNS, _finding_rows(result.findings),
                            f"findings-{index}", wide=True))
    if result.skipped:
        parts.append("<h3>Not fully checked</h3>")
        parts.append(_table(["file", "state", "reason"],
                            [[shown(s.file), "partly parsed" if s.partial else "skipped", s.reason]
                             for s in result.skipped], f"skipped-{index}"))
    return parts


def render(report: Report) -> str:
    try:
        parts = [f"<h1>{TOOL} audit</h1>"]
        if report.several:
            rows = report.trend.rows
            parts.append("<h2>Trend</h2>")
            parts.append(_image(charts.trend_chart(rows), "findings per kernel version",
                                "trend-chart"))
            parts.append(_table(["version", *[k.value for k in Kind], "total"],
                                [[r.label, *[r.counts[k] for k in Kind], r.total]
                                 for r in rows], "trend"))
            for n, change in enumerate(report.trend.changes):
                parts.append(f"<h3>{html.escape(change.before)} &rarr; "
                             f"{html.escape(change.after)}: {len(change.new)} new, "
                             f"{len(change.fixed)} fixed</h3>")
                rows_ = [["new", *row] for row in _finding_rows(change.new)] + \
                        [["fixed", *row] for row in _finding_rows(change.fixed)]
                parts.append(_table(["change", *FINDING_COLUMNS], rows_, f"changes-{n}",
                                    wide=True))
        for index, result in enumerate(report.results):
            parts += _result(result, index)
    except charts.ChartError as err:
        raise OutputError(str(err)) from err
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{TOOL} audit</title><style>{STYLE}</style></head><body>\n"
            + "\n".join(parts)
            + f"\n<script>{SCRIPT}</script>\n</body></html>\n")

"""CSV: one row per finding, for spreadsheets."""

import csv
import io

from ioctl_rework.audit.formats import Report
from ioctl_rework.names import shown

COLUMNS = ("version", "file", "line", "kind", "struct", "handler", "subsystem",
           "maintainers", "uses_inode", "returns_enoioctlcmd", "dead_ioctl", "effort", "reason")


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def render(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for result in report.results:
        for f in result.findings:
            writer.writerow([_cell(result.version), shown(f.file), f.line, f.kind.value, f.struct,
                             f.handler, f.subsystem, "; ".join(f.maintainers),
                             _cell(f.uses_inode), _cell(f.returns_enoioctlcmd),
                             _cell(f.dead_ioctl), _cell(f.effort), _cell(f.reason)])
    return out.getvalue()

"""CSV: one row per finding, for spreadsheets."""

import csv
import io

from ioctl_rework.audit.formats import Report
from ioctl_rework.names import shown

COLUMNS = ("version", "tree", "file", "line", "kind", "struct", "handler", "subsystem",
           "maintainers", "uses_inode", "returns_enoioctlcmd", "dead_ioctl", "effort", "reason",
           "compat_class", "compat_detail", "compat_source", "expression")


def _name(file: str) -> str:
    """FILE as written: the csv module quotes a cell with a comma, a quote or
    a newline itself.  Only bytes that are not UTF-8 (surrogate escapes,
    which cannot be written) take git's C quoting."""
    try:
        file.encode("utf-8")
        return file
    except UnicodeEncodeError:
        return shown(file)


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
            writer.writerow([_cell(result.version), _cell(result.tree_name), _name(f.file),
                             f.line, f.kind.value, f.struct,
                             f.handler, f.subsystem, "; ".join(f.maintainers),
                             _cell(f.uses_inode), _cell(f.returns_enoioctlcmd),
                             _cell(f.dead_ioctl), _cell(f.effort), _cell(f.reason),
                             _cell(f.compat_class), _cell(f.compat_detail),
                             _cell(f.compat_source), _cell(f.expression)])
    return out.getvalue()

"""Audit reports in every output format; one module per format, each with
`render(report: Report) -> str | bytes`."""

import importlib
import sys
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import __version__, safe_write
from ioctl_rework.audit import trend
from ioctl_rework.audit.findings import AuditResult

TOOL = "ioctl-rework"
MODULES = {"text": "text", "json": "json", "csv": "csv", "markdown": "markdown",
           "html": "html", "sarif": "sarif"}


class OutputError(Exception):
    """A report that cannot be written."""


@dataclass(frozen=True)
class Report:
    results: tuple[AuditResult, ...]
    trend: trend.Trend
    tool_version: str = __version__

    @property
    def several(self) -> bool:
        return len(self.results) > 1

    @property
    def findings(self):
        return [f for r in self.results for f in r.findings]


def make_report(results: list[AuditResult]) -> Report:
    return Report(tuple(results), trend.build(results))


def render(results: list[AuditResult], fmt: str) -> bytes:
    if fmt not in MODULES:
        raise OutputError(f"unknown format {fmt!r}")
    module = importlib.import_module(f"ioctl_rework.audit.formats.{MODULES[fmt]}")
    out = module.render(make_report(results))
    return out.encode() if isinstance(out, str) else out


def write(results: list[AuditResult], fmt: str, output: Path | None) -> None:
    """Write the report to OUTPUT atomically (never half-written), or stdout."""
    data = render(results, fmt)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        safe_write.write_atomic(Path(output), data)
    except safe_write.WriteError as err:
        raise OutputError(str(err)) from err

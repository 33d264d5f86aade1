"""Writing what a convert run made: the files in place (all or none), a
git format-patch series, and the reports (the diff, the summary as JSON
or text) on stdout or into the files named; then the summary on stderr."""

import sys
from pathlib import Path

from ioctl_rework import safe_write
from ioctl_rework.convert import series
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, Output, Report
from ioctl_rework.convert.summary import Summary
from ioctl_rework.stages import Stages, Verbosity

SUMMARY = "the summary (every handler and file, totals, wall time)"
FORMATS = {"diff": "the unified diff of every rewritten file",
           "json": SUMMARY.replace("the summary", "the summary as JSON", 1),
           "text": "the summary as text, as printed on stderr"}


def reports(fmt: str, output: Path | None, json_path: Path | None,
            diff_on_stdout: bool) -> tuple[Report, ...]:
    """The reports a run writes: FMT into OUTPUT, or stdout without one
    (the diff only when DIFF_ON_STDOUT: not when the files are rewritten
    or a series written, which is the diff), and the JSON summary into
    JSON_PATH."""
    found = []
    if output is not None or fmt != "diff" or diff_on_stdout:
        found.append(Report(fmt, output))
    if json_path is not None:
        found.append(Report("json", json_path))
    return tuple(found)


def render(summary: Summary, fmt: str) -> bytes:
    if fmt == "diff":
        return "".join(f.diff for f in summary.files if f.diff).encode("utf-8", "surrogateescape")
    if fmt == "json":
        return summary_mod.to_json_bytes(summary)
    if fmt == "text":
        return (summary_mod.text_report(summary) + "\n").encode("utf-8", "surrogateescape")
    raise ValueError(f"unknown convert output format {fmt!r}")


def write_reports(summary: Summary, wanted: tuple[Report, ...]) -> None:
    for report in wanted:
        data = render(summary, report.format)
        if report.path is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            safe_write.write_atomic(report.path, data)


def write_in_place(result: ConversionResult, root: Path) -> None:
    """All rewritten files, or none of them."""
    with safe_write.Transaction(root) as transaction:
        for rel, (_, new) in sorted(result.changes.items()):
            transaction.stage(root / rel, new)
        transaction.commit()


def emit(result: ConversionResult, request: ConvertRequest,
         stages: Stages | None = None) -> None:
    """Write what the request asked for, then the summary on stderr; the
    writing is the last stage of STAGES, timed in the summary."""
    stages = stages or Stages("convert", Verbosity.QUIET)
    summary = result.summary
    with stages.stage("writing"):
        if request.output is Output.IN_PLACE:
            write_in_place(result, request.root)
        elif request.output is Output.SERIES:
            paths = series.write_for_tree(summary, request.series_dir, request.split,
                                          request.root)
            print(f"convert: series of {len(paths) - 1} patches in {request.series_dir}",
                  file=sys.stderr)
    summary.stage_seconds = stages.times()
    write_reports(summary, request.reports)
    print(summary_mod.text_report(summary, stages.verbosity >= Verbosity.NORMAL),
          file=sys.stderr)

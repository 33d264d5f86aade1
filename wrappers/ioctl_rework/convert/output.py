"""Writing what a convert run made: the files in place (all or none), a
git format-patch series, or the diff on stdout; then the summary."""

import sys
from pathlib import Path

from ioctl_rework import safe_write
from ioctl_rework.convert import series
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, Output
from ioctl_rework.stages import Stages, Verbosity


def write_in_place(result: ConversionResult, root: Path) -> None:
    """All rewritten files, or none of them."""
    with safe_write.Transaction(root) as transaction:
        for rel, (_, new) in sorted(result.changes.items()):
            transaction.stage(root / rel, new)
        transaction.commit()


def emit(result: ConversionResult, request: ConvertRequest, json_path: Path | None,
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
        else:
            sys.stdout.buffer.write(result.diff.encode("utf-8", "surrogateescape"))
            sys.stdout.flush()
    summary.stage_seconds = stages.times()
    if json_path:
        summary_mod.write(summary, json_path)
    print(summary_mod.text_report(summary, stages.verbosity >= Verbosity.NORMAL),
          file=sys.stderr)

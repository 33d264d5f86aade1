"""`ioctl-rework convert`: rewrite every .ioctl handler under PATH... with the rule.

This module is only the command line: it turns arguments into a
ConvertRequest, runs the plan and maps the result to an exit status.
The stages of a run, one module each, in the order data flows:

  request       ConvertRequest, ConversionResult, Output: what crosses the stages
  tree          candidate files, their .ioctl entries, the files naming each handler
  runner        the rule on one file through the cache and spatch -> FileRun
  plan          phase 1, phase 2 (handlers defined in another file) -> Summary
  verification  the lock proof of every converted handler, and with --kdir the
                builds before and after (verify/build.py): failures are put back
  output        the in-place writer, the series, the diff, the JSON summary

Files are grouped by the handler names they share; groups are independent,
which is what lets `--shard K/N` split a run by group and `merge` put the
pieces back together exactly.
"""

import argparse
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework import options, safe_write, settings
from ioctl_rework.convert import series
from ioctl_rework.convert import shard as shard_mod
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.verify import module_build as port
from ioctl_rework.verify import build as verify_build
from ioctl_rework.convert import output as output_mod
from ioctl_rework.convert.output import emit, write_in_place
from ioctl_rework.convert.plan import convert
from ioctl_rework.convert.request import (ConversionResult, ConvertRequest, InputError, Output,
                                          VerifyOptions)
from ioctl_rework.convert import tree as tree_mod
from ioctl_rework.convert.tree import find_root
from ioctl_rework.stages import Stages, add_verbosity_arguments, verbosity_of

# What other modules and the tests use of convert, wherever it now lives.
__all__ = ["ConversionResult", "ConvertRequest", "InputError", "Output", "add_arguments",
           "clear_cache", "convert", "emit", "main", "request_from_args", "write_in_place"]


EXAMPLES = """\
examples:
  ioctl-rework convert drivers/char/ds1620.c          print the diff
  ioctl-rework convert --in-place drivers/char        rewrite the files
  ioctl-rework convert --series out --split maintainer --json out.json /src/linux
  ioctl-rework convert --target 2.6.20 --kernel-headers ~/linux-2.6.20 ~/old-driver
      a driver outside a tree, against the headers of its kernel (or --kdir KDIR;
      --no-kernel-headers runs without them, at the risk the run warns of)
  ioctl-rework convert --kdir ~/linux-build --series out ~/linux/drivers/char
      build each rewritten file before and after; keep only what builds as before
  ioctl-rework convert --shard 2/3 --json s2.json /src/linux   one machine of three;
      then: ioctl-rework merge --series out s1.json s2.json s3.json
  sbatch --array=1-3 --wrap 'ioctl-rework convert --shard auto --json s$SLURM_ARRAY_TASK_ID.json /src/linux'
  parallel ioctl-rework convert --shard {}/3 --json s{}.json /src/linux ::: 1 2 3
  git am $(ls out/*.patch | grep -v 0000-cover-letter)   apply the series

exit status: 0 when every handler was converted or refused with a reason,
1 when a handler or file failed (the summary says why; a conversion the lock
proof or the --kdir build rejected and put back is a failure), 2 on bad input
(a --kdir that is not a configured and prepared kernel tree, too, and a run
outside a kernel tree given neither --kernel-headers, --kdir nor
--no-kernel-headers).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXAMPLES
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="files or directories to convert (a file name starting with "
                             "'-' needs '--' before it)")
    options.add_target_group(parser)
    options.add_parallel_group(parser)
    options.add_timeout_argument(parser, 120, "per file")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--in-place", action="store_true",
                     help="rewrite the files atomically (each file old or new, never half)")
    out.add_argument("--series", type=Path, metavar="DIR",
                     help="write a git format-patch series into DIR")
    series.add_split_argument(parser)
    options.add_output_group(parser, output_mod.FORMATS, "diff", json_alias=output_mod.SUMMARY)
    parser.add_argument("--shard", type=_shard, metavar="K/N|auto[/N]",
                        help="do part K of N of the run (each group of files that share a "
                             "handler goes to the part a hash of its first file's path picks); "
                             "combine the parts with `ioctl-rework merge`. auto: the part "
                             "of a Slurm array job (SLURM_ARRAY_TASK_ID of "
                             "SLURM_ARRAY_TASK_COUNT) or of a Kubernetes Indexed Job "
                             "(JOB_COMPLETION_INDEX of N, from auto/N or IOCTL_REWORK_SHARDS)")
    parser.add_argument("--kdir", type=Path, metavar="KDIR",
                        help="a configured and prepared kernel tree (or its O= directory) "
                             "matching the input: build every rewritten .c file against it "
                             "before and after (make M=, C=2 with sparse) and put back the "
                             "files of a handler that gain an error, a warning or a sparse "
                             "context imbalance; the lock proof then reads the preprocessed "
                             "file; for a driver outside a tree, KDIR's kernel is the one "
                             "whose headers are read (as --kernel-headers, which wins)")
    options.add_cache_group(parser)
    parser.add_argument("--clear-cache", action="store_true",
                        help="delete the cache (then convert PATHs, if any)")
    add_verbosity_arguments(parser)


def _shard(text: str) -> shard_mod.Shard:
    try:
        return shard_mod.parse(text)
    except shard_mod.ShardError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def request_from_args(args) -> ConvertRequest:
    """The request ARGS make, resolved once (settings.resolve): refused with
    InputError before any work when it cannot be right."""
    for path in args.paths:
        if not os.path.lexists(path):
            raise InputError(f"{path}: no such file or directory")
    paths = tuple(Path(os.path.abspath(p)) for p in args.paths)
    root = find_root(list(paths))
    kdir = getattr(args, "kdir", None)
    # A --kdir that cannot be built against is refused before it is asked anything.
    try:
        kernel_dir = verify_build.KernelDir.open(kdir) if kdir else None
    except verify_build.KdirError as err:
        raise InputError(str(err)) from err
    try:
        series.check_split(args)
        # --kdir (an out-of-tree module's kernel) says the target when --target does not.
        run = settings.resolve(args, settings.KernelTree(root, settings.tree_version(root)),
                               kdir=kdir, fallback=None,
                               outputs=options.output_paths(args))
        author = None
        if args.series:
            safe_write.check_output_dir(args.series)
            # A series needs an author: found out before the run, not after it.
            author = series.series_author(root)
    except (settings.SettingsError, series.SeriesError, safe_write.WriteError) as err:
        raise InputError(str(err)) from err
    refused = tree_mod.unread_headers_refusal(root, run.kernel)
    if refused and not run.unread_headers_accepted:
        raise InputError(refused)
    mode = Output.IN_PLACE if args.in_place else Output.SERIES if args.series else Output.DIFF
    return ConvertRequest(paths=paths, options=run.conversion, root=root, jobs=run.jobs,
                          timeout=args.timeout, output=mode, series_dir=args.series,
                          split=series.Split(args.split or "file"), author=author,
                          shard=args.shard, cache=run.cache("convert"),
                          verify=VerifyOptions(kdir=kernel_dir), kernel=run.kernel,
                          reports=output_mod.reports(args.format, args.output, args.json,
                                                     diff_on_stdout=mode is Output.DIFF))


def clear_cache(directory: Path) -> int:
    """Remove the convert cache; returns the number of entries removed."""
    target = Path(directory) / "convert"
    count = sum(1 for _ in target.glob("*/*")) if target.is_dir() else 0
    shutil.rmtree(target, ignore_errors=True)
    return count


def main(args) -> int:
    if args.clear_cache:
        removed = clear_cache(args.cache_dir or cache_mod.default_directory())
        print(f"convert: cache cleared ({removed} entries)", file=sys.stderr)
        if not args.paths:
            return 0
    if not args.paths:
        print("ioctl-rework convert: error: give at least one PATH", file=sys.stderr)
        return 2
    stages = Stages("convert", verbosity_of(args))
    try:
        request = request_from_args(args)
        for warning in tree_mod.run_warnings(request):
            print(f"convert: warning: {warning}", file=sys.stderr)
        result = convert(replace(request, run_memo=True), stages)
    except (InputError, shard_mod.ShardError) as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        return 2
    except (spatch.SpatchMissing, verify_build.BuildError) as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        return 2
    for path in result.recovered:
        print(f"convert: completed the interrupted write of {path}", file=sys.stderr)
    status = 1 if result.failed else 0
    try:
        emit(result, request, stages)
    except (safe_write.WriteError, series.SeriesError) as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        print("convert: nothing was written", file=sys.stderr)
        return 1
    if request.output is Output.IN_PLACE and getattr(args, "kdir", None):
        status = max(status, port.report_in_place(request, args.kdir, args.jobs))
    return status

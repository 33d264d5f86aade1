"""`ioctl-rework audit`: the command line.  The audit itself is audit.scan."""

import argparse
import sys
from pathlib import Path

from ioctl_rework import options, settings
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.audit.report import AuditError, load_json
from ioctl_rework.stages import Verbosity, add_verbosity_arguments, times_text, verbosity_of
from ioctl_rework.audit.scan import DEFAULT_TIMEOUT, _version_key, audit_trees, kernel_trees

FORMATS = {"text": "grouped by subsystem", "json": "re-read by --from-json", "csv": "a row "
           "per finding", "markdown": "tables", "html": "a self-contained page with charts",
           "sarif": "SARIF 2.1.0 for code-scanning views"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "List file_operations that still use .ioctl (with the effort the conversion "
        "rule expects), and unlocked handlers that lack .compat_ioctl, take the BKL "
        "or return -ENOIOCTLCMD, with their MAINTAINERS section. Several kernel "
        "trees give a trend across versions.")
    parser.epilog = (
        "examples:\n"
        "  ioctl-rework audit drivers/char\n"
        "  ioctl-rework audit --format sarif -o audit.sarif ~/linux-6.1\n"
        "  ioctl-rework audit --format html -o trend.html ~/linux-2.6.9 ~/linux-6.1\n\n"
        "exit status: 0 when the audit ran (whatever it found; use `check` to gate),\n"
        "2 on a usage or input error.")
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="files or directories; several kernel trees give a trend")
    parser.add_argument("--from-json", action="append", type=Path, default=[], metavar="FILE",
                        help="use the results of earlier `--format json` runs instead of "
                             "running the rules (repeat for a trend)")
    options.add_output_group(parser, FORMATS, "text")
    options.add_target_group(parser, "target")
    # The compat classes start beside the audit's rules (audit.compat_head_start),
    # each side with N processes: say so, -j is what a user sets to bound the load.
    options.add_parallel_group(
        parser, what="spatch processes of the audit's rules (with N > 1, the compat "
                    "classes begun beside them run up to N more)")
    options.add_timeout_argument(parser, DEFAULT_TIMEOUT, "per file")
    options.add_cache_group(parser)
    parser.add_argument("--no-compat-classes", action="store_true",
                        help="do not classify missing-compat findings (same-handler, "
                             "compat-ptr, needs-translation, unknown)")
    add_verbosity_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from ioctl_rework.audit import formats

    if not args.paths and not args.from_json:
        print("ioctl-rework audit: error: give a PATH to audit or --from-json FILE",
              file=sys.stderr)
        return 2
    try:
        trees = kernel_trees(args.paths)
        # Each tree is audited for its own version, unless --target names one.
        run = settings.resolve(args, settings.KernelTree(None), converts=False,
                               outputs=options.output_paths(args))
        for tree in trees:
            if tree.version is not None:
                settings.validated(tree.version, f"{tree.root}/Makefile", False, converts=False)
        results = [r for path in args.from_json for r in load_json(path)]
        if args.paths:
            results += audit_trees(args.paths, run.jobs, args.timeout, run.cache("audit"),
                                   not args.no_compat_classes,
                                   run.target if args.target != "auto" else None, trees,
                                   verbosity_of(args))
        results.sort(key=_version_key)
    except (AuditError, spatch.SpatchMissing, settings.SettingsError) as err:
        print(f"ioctl-rework audit: error: {err}", file=sys.stderr)
        return 2
    for result in results:
        where = str(result.tree or ", ".join(map(str, args.paths)))
        print(f"ioctl-rework audit: {where}: {len(result.findings)} findings, "
              f"{result.stats.candidates} candidate files ({result.stats.cached} cached), "
              f"{sum(not s.partial for s in result.skipped)} skipped, "
              f"{result.stats.seconds:.1f} s", file=sys.stderr)
        if verbosity_of(args) >= Verbosity.NORMAL and result.stats.stage_seconds:
            print(f"ioctl-rework audit: {times_text(result.stats.stage_seconds)}",
                  file=sys.stderr)
        for skipped in result.skipped:
            label = "partly parsed" if skipped.partial else "skipped"
            print(f"ioctl-rework audit: {label}: {skipped.file}: {skipped.reason}",
                  file=sys.stderr)
    try:
        formats.write(results, args.format, args.output)
    except formats.OutputError as err:
        print(f"ioctl-rework audit: error: {err}", file=sys.stderr)
        return 2
    return 0

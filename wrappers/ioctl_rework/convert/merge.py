"""`ioctl-rework merge`: put the summaries of sharded convert runs back together.

The result is what one machine running the whole conversion would have
produced: the same handler and file records, the same diff, the same
series.  Shards must come from the same rules, spatch version and options,
and together cover 1..N exactly once.
"""

import argparse
import sys
from pathlib import Path

from ioctl_rework import options, safe_write, settings
from ioctl_rework.convert import series
from ioctl_rework.convert import output as output_mod
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import Summary, SummaryError


def merge(parts: list[Summary], allow_partial: bool = False) -> Summary:
    if not parts:
        raise SummaryError("nothing to merge")
    first = parts[0]
    for part in parts[1:]:
        for name in ("options", "target", "spatch_version"):
            if getattr(part, name) != getattr(first, name):
                raise SummaryError(f"the runs differ in {name}: {getattr(first, name)!r} "
                                   f"vs {getattr(part, name)!r}; run every shard alike")
    _check_shards(parts, allow_partial)
    merged = Summary(root=first.root, target=first.target, options=first.options,
                     tree_top=first.tree_top,
                     spatch_version=first.spatch_version,
                     started=min(p.started for p in parts),
                     # the time one machine would have needed
                     wall_seconds=sum(p.wall_seconds for p in parts),
                     stage_seconds=_summed_stages(parts))
    seen = {}
    for part in parts:
        for record in part.files:
            if record.file in seen and seen[record.file] != record:
                raise SummaryError(f"{record.file} is in two runs with different results")
            seen[record.file] = record
        merged.handlers += part.handlers
        merged.changes += part.changes
        merged.tokens += part.tokens
        merged.warnings += [w for w in part.warnings if w not in merged.warnings]
    merged.files = list(seen.values())
    merged.handlers = list({h.sort_key: h for h in merged.handlers}.values())
    merged.sort()
    return merged


def _summed_stages(parts: list[Summary]) -> dict[str, float]:
    """Each stage's time summed over the parts, in the order they first name it."""
    total: dict[str, float] = {}
    for part in parts:
        for name, seconds in part.stage_seconds.items():
            total[name] = total.get(name, 0.0) + seconds
    return total


def _check_shards(parts: list[Summary], allow_partial: bool) -> None:
    shards = [p.shard for p in parts if p.shard]
    if not shards:
        return
    if len(shards) != len(parts):
        raise SummaryError("some summaries are shards and some are whole runs")
    counts = {s.split("/")[1] for s in shards}
    if len(counts) != 1:
        raise SummaryError(f"shards of different splits: {', '.join(sorted(shards))}")
    count = int(counts.pop())
    indexes = [int(s.split("/")[0]) for s in shards]
    twice = sorted({i for i in indexes if indexes.count(i) > 1})
    if twice:
        raise SummaryError(f"shard {twice[0]}/{count} is given twice")
    missing = sorted(set(range(1, count + 1)) - set(indexes))
    if missing and not allow_partial:
        raise SummaryError("missing shard " + ", ".join(f"{i}/{count}" for i in missing)
                           + " (--allow-partial merges what is there)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = """\
examples:
  ioctl-rework convert --shard 1/3 --json s1.json /src/linux    (on three machines)
  ioctl-rework merge --json all.json --series out s1.json s2.json s3.json
"""
    parser.add_argument("summaries", nargs="+", type=Path, metavar="SUMMARY.json",
                        help="summaries written by `convert --shard K/N --json FILE`")
    parser.add_argument("--series", type=Path, metavar="DIR",
                        help="write the merged git format-patch series into DIR")
    series.add_split_argument(parser)
    options.add_output_group(parser, output_mod.FORMATS, "diff",
                             json_alias=output_mod.SUMMARY.replace("the summary",
                                                                   "the merged summary", 1))
    parser.add_argument("--tree", type=Path, metavar="DIR",
                        help="the tree the runs converted: its files make the series, "
                             "its MAINTAINERS the Cc lines (default: the root the runs "
                             "recorded)")
    parser.add_argument("--allow-partial", action="store_true",
                        help="merge even when some shards are missing")


def main(args) -> int:
    try:
        # Every output is checked before anything is read or merged.
        series.check_split(args)
        settings.check_outputs(options.output_paths(args))
        if args.series:
            safe_write.check_output_dir(args.series)
    except (settings.SettingsError, series.SeriesError, safe_write.WriteError) as err:
        print(f"ioctl-rework merge: error: {err}", file=sys.stderr)
        return 2
    # The diff goes to stdout when nothing else was asked for.
    reports = output_mod.reports(args.format, args.output, args.json,
                                 diff_on_stdout=not args.series and not args.json)
    try:
        merged = merge([summary_mod.load(p) for p in args.summaries], args.allow_partial)
        if args.series:
            tree = args.tree or Path(merged.root)
            paths = series.write_for_tree(merged, args.series, series.Split(args.split or "file"),
                                          tree, series.series_author(tree))
            print(f"merge: {series.describe(paths, args.series)}", file=sys.stderr)
        output_mod.write_reports(merged, reports)
    except (SummaryError, safe_write.WriteError, series.SeriesError) as err:
        print(f"ioctl-rework merge: error: {err}", file=sys.stderr)
        return 2
    print(summary_mod.text_report(merged), file=sys.stderr)
    return 0

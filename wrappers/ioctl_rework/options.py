"""The options several subcommands share, written once so that each is
spelled, checked and explained the same way everywhere: --jobs N and
--timeout SECONDS are whole numbers of at least 1 (0 is a usage error, not
"no limit"), and the cache is --cache-dir DIR."""

import argparse
from pathlib import Path


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (--jobs, --timeout)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"want a whole number of at least 1, not {text!r}")
    return value


def add_jobs_argument(parser: argparse.ArgumentParser, default: int = 2) -> None:
    parser.add_argument("-j", "--jobs", type=positive_int, default=default, metavar="N",
                        help="spatch processes at a time (default: %(default)s)")


def add_timeout_argument(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument("--timeout", type=positive_int, default=default, metavar="SECONDS",
                        help=f"time limit {what}; what takes longer is reported "
                             "(default: %(default)s)")


def add_cache_dir_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                        help="where results are cached (default: $XDG_CACHE_HOME/ioctl-rework, "
                             "~/.cache/ioctl-rework without it)")

"""The options several subcommands share, declared once in groups so that
each is spelled, checked and explained the same way everywhere:

  target    --target, --lock, --strategy, --multi-kernel, --compat
            (a subcommand takes the ones it uses; settings.resolve reads them)
  output    -o/--output FILE and --format, on every subcommand that writes
            a report; --json FILE where it was spelled so before
  cache     --cache-dir DIR and --no-cache
  parallel  -j/--jobs N, by default the cores this process may use

--jobs N and --timeout SECONDS are whole numbers of at least 1 (0 is a
usage error, not "no limit").
"""

import argparse
from pathlib import Path

from ioctl_rework import settings


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (--jobs, --timeout)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"want a whole number of at least 1, not {text!r}")
    return value


# ---------------------------------------------------------------- target

TARGET_OPTIONS = ("target", "lock", "strategy", "multi_kernel", "compat", "kernel_headers")


def add_target_group(parser: argparse.ArgumentParser, *names: str,
                     lock_default: str | None = None) -> None:
    """The target options NAMES (default: all of TARGET_OPTIONS).  LOCK_DEFAULT
    is what --lock's help says is taken without it, where a subcommand has its
    own rule (prove: the summary's lock)."""
    names = names or TARGET_OPTIONS
    unknown = set(names) - set(TARGET_OPTIONS)
    if unknown:
        raise ValueError(f"no target option {', '.join(sorted(unknown))}")
    group = parser.add_argument_group("target", "the kernel the result is for, and how")
    if "target" in names:
        group.add_argument(
            "--target", default="auto", metavar="auto|VERSION",
            help="kernel version the result is for; auto reads the tree's top Makefile "
                 "(use VERSION for a driver outside a tree); a version no kernel had is "
                 f"refused, and one before {settings.FIRST_UNLOCKED} (no .unlocked_ioctl) "
                 "without --multi-kernel")
    if "lock" in names:
        group.add_argument(
            "--lock", choices=[m.value for m in settings.LockMode],
            help="bkl: lock_kernel(); mutex: a per-file mutex (default: "
                 + (lock_default or "bkl, or mutex when the target has no BKL, >= 2.6.39") + ")")
    if "strategy" in names:
        group.add_argument(
            "--strategy", choices=[s.value for s in settings.Strategy], default="auto",
            help="pushdown: lock inside the handler; wrapper: a new locked wrapper calls "
                 "it; auto: pushdown where it is safe (default)")
    if "multi_kernel" in names:
        group.add_argument(
            "--multi-kernel", action="store_true",
            help="keep .ioctl under #ifndef HAVE_UNLOCKED_IOCTL for older kernels")
    if "compat" in names:
        group.add_argument(
            "--compat", action=argparse.BooleanOptionalAction, default=None,
            help="also set .compat_ioctl where the compat classifier proves every command "
                 "the same for 32-bit callers (same handler, or compat_ptr); the summary "
                 "says why elsewhere (default: on for targets >= 2.6.36, without "
                 "--multi-kernel)")
    if "kernel_headers" in names:
        # Outside a tree a run is refused without one of the two: a macro of
        # a header not read may forward through ->ioctl unseen (issue 22).
        kernel = group.add_mutually_exclusive_group()
        kernel.add_argument(
            "--kernel-headers", type=Path, metavar="DIR",
            help="for a driver outside a kernel tree: the source tree of the kernel it is "
                 "built against (not built; its include/ and arch/*/include are enough), "
                 "whose headers are read as kbuild finds them for an out-of-tree module "
                 "(--kdir KDIR reads its kernel's the same way); outside a tree a run "
                 "needs one of them or --no-kernel-headers")
        kernel.add_argument(
            "--no-kernel-headers", action="store_true",
            help="outside a kernel tree, run without any kernel's headers: accept that a "
                 "macro of a <...> header that calls through ->ioctl is not seen (the run "
                 "warns); without this, --kernel-headers or --kdir, such a run is refused")


# ---------------------------------------------------------------- output

def add_output_group(parser: argparse.ArgumentParser, formats: dict[str, str],
                     default: str, json_alias: str | None = None) -> None:
    """-o/--output FILE and --format, FORMATS mapping each format to what it
    is.  JSON_ALIAS, where --json FILE was an option before, keeps it: it
    writes the JSON named there besides the --format output."""
    group = parser.add_argument_group("output")
    group.add_argument("-o", "--output", type=Path, metavar="FILE",
                       help="write the --format output here instead of stdout (a regular "
                            "file atomically; /dev/null, a FIFO or /dev/stdout is written, "
                            "never replaced); refused before any work when it cannot be "
                            "written")
    group.add_argument("--format", choices=list(formats), default=default,
                       help="; ".join(f"{name}: {what}" for name, what in formats.items())
                            + " (default: %(default)s)")
    if json_alias:
        group.add_argument("--json", type=Path, metavar="FILE",
                           help=f"also write {json_alias} as JSON to FILE (what "
                                "`--format json -o FILE` writes)")


def output_paths(args: argparse.Namespace) -> list[Path]:
    """The files the output group's arguments name."""
    return [p for p in (getattr(args, "output", None), getattr(args, "json", None)) if p]


# ---------------------------------------------------------------- cache

def add_cache_group(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("cache")
    group.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                       help="where results are cached (default: $XDG_CACHE_HOME/ioctl-rework, "
                            "~/.cache/ioctl-rework without it)")
    group.add_argument("--no-cache", action="store_true",
                       help="neither read nor write the cache: every result is computed again")


# ---------------------------------------------------------------- parallel

def add_parallel_group(parser: argparse.ArgumentParser, what: str = "spatch processes",
                       default: int | None = None) -> None:
    group = parser.add_argument_group("parallel")
    group.add_argument("-j", "--jobs", type=positive_int, metavar="N",
                       default=default or settings.default_jobs(),
                       help=f"{what} at a time (default: the cores this process may use, "
                            "%(default)s here)")


def add_timeout_argument(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument("--timeout", type=positive_int, default=default, metavar="SECONDS",
                        help=f"time limit {what}; what takes longer is reported "
                             "(default: %(default)s)")

"""The `ioctl-rework` command line: parse arguments, dispatch to a subcommand.

Each subcommand lives in its own module, ioctl_rework/<name>.py (fixture:
ioctl_rework/fixture/__init__.py), which exposes
`add_arguments(parser)` and `main(args) -> int`.  Only the module of the
subcommand being run is imported, so a slow or broken stage never costs
the others anything.
"""

import argparse
import importlib
import os
import sys
import traceback
from dataclasses import dataclass

from ioctl_rework import __version__
from ioctl_rework.names import shown


@dataclass(frozen=True)
class Subcommand:
    name: str
    module: str
    summary: str


SUBCOMMANDS = (
    Subcommand("audit", "ioctl_rework.audit.cli",
               "list drivers that still use .ioctl (and related problems), by maintainer"),
    Subcommand("convert", "ioctl_rework.convert.cli",
               "rewrite .ioctl handlers to .unlocked_ioctl/.compat_ioctl"),
    Subcommand("merge", "ioctl_rework.convert.merge",
               "combine the JSON summaries and series of sharded convert runs"),
    Subcommand("check", "ioctl_rework.check.cli",
               "pre-merge gate: fail when a patch adds or keeps legacy ioctl code"),
    Subcommand("fixture", "ioctl_rework.fixture",
               "build and boot the fixture kernel that proves converted drivers"),
    Subcommand("prove", "ioctl_rework.convert.prove",
               "check a conversion's locking on every path, without trusting the rule"),
)

EPILOG = """\
examples:
  ioctl-rework audit drivers/char                  findings as text
  ioctl-rework audit --format html -o report.html ~/linux-2.6.9 ~/linux-6.1
  ioctl-rework audit --format sarif -o audit.sarif .
  ioctl-rework convert --strategy pushdown drivers/char/foo.c
  ioctl-rework SUBCOMMAND --help                   options of one subcommand

exit status: 0 when the command ran, 2 on a usage or input error
(audit reports findings with status 0; use `check` to gate).
"""


class CliError(Exception):
    """A subcommand that cannot be loaded; reported as a usage error."""


def _selected(argv: list[str]) -> Subcommand | None:
    for word in argv:
        if not word.startswith("-"):
            return next((c for c in SUBCOMMANDS if c.name == word), None)
    return None


def _load(command: Subcommand):
    try:
        module = importlib.import_module(command.module)
    except ModuleNotFoundError as err:
        if err.name and command.module.startswith(err.name):
            raise CliError(f"the {command.name} subcommand is not available "
                           f"in this installation ({command.module} is missing)") from err
        raise
    return module


def build_parser(argv: list[str]) -> tuple[argparse.ArgumentParser, object | None]:
    """The parser, with the selected subcommand's arguments loaded."""
    parser = argparse.ArgumentParser(
        prog="ioctl-rework",
        description="Migrate Linux drivers from the legacy .ioctl file operation "
                    "to .unlocked_ioctl and .compat_ioctl.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="SUBCOMMAND")
    selected = _selected(argv)
    module = None
    for command in SUBCOMMANDS:
        sub = commands.add_parser(command.name, help=command.summary,
                                  description=command.summary,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        if command is selected:
            module = _load(command)
            module.add_arguments(sub)
    return parser, module


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        parser, module = build_parser(argv)
    except CliError as err:
        print(f"ioctl-rework: error: {err}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if module is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return module.main(args)
    except KeyboardInterrupt:
        print("ioctl-rework: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `ioctl-rework audit . | head` is a normal thing to do.
        sys.stderr.close()
        return 0
    except Exception as err:        # noqa: BLE001 - the last line of defence
        # Every failure a subcommand knows of is a one-line message already;
        # this keeps the unforeseen ones from ending in a traceback.
        if os.environ.get("IOCTL_REWORK_DEBUG"):
            traceback.print_exc()
        print(f"ioctl-rework {args.command}: error: {describe_error(err)} "
              "(IOCTL_REWORK_DEBUG=1 shows where)", file=sys.stderr)
        return 2


def describe_error(err: Exception) -> str:
    """ERR in one line, with the file it concerns when it has one."""
    if isinstance(err, OSError) and err.filename is not None:
        name = os.fsdecode(err.filename) if isinstance(err.filename, bytes) else str(err.filename)
        return f"{shown(name)}: {err.strerror or err}"
    return " ".join(f"{type(err).__name__}: {err}".split())

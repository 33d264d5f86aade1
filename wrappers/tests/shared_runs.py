"""Many independent cases of a test module in ONE convert run.

A conversion's cost is mostly spatch's start (bench/make_check.md), once
per file or batch of files; a test that converts one small driver per
case pays a whole run for each.  Here each case gets a directory of its
own under one scratch tree, and the cases that share the run's options
are converted together, once a module; each test then reads its own
case's part of the result (Part).

convert links handlers across files by name (the cross-file follow-up,
the fallback that reruns a rejected handler's group with the wrapper,
module composite objects), so cases of one run must not see each other:
each case is in its own directory with its own Makefile, and every
lower-case name that starts with the case's prefix ("fl_" in the
drivers; file names and Makefiles too) is renamed to one of the run's
own (distinct(), same length, so that no line of the output moves).
Only cases converted outside a tree, whose includes and flags name
nothing above their directory, can share a run: a tree's top, a parent
Makefile or a flag relative to the top would be the run's, not theirs.
"""

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.convert.summary import FileRecord, HandlerRecord

# Two-character prefixes no C keyword or kernel name takes: q0..q9, qa..qz, r0...
_PREFIXES = [first + second for first in "qr"
             for second in "0123456789abcdefghijklmnopqrstuvwxyz"]


def distinct(text: str, old: str, index: int) -> str:
    """TEXT with each lower-case name starting OLD ("fl") renamed to start
    with the INDEXth prefix of the same length."""
    assert len(old) == 2, "a prefix of two characters keeps every line's length"
    return re.sub(rf"\b{old}_", _PREFIXES[index] + "_", text)


def distinct_files(files: dict[str, str], old: str, index: int) -> dict[str, str]:
    """FILES (name: text), names and texts renamed by distinct()."""
    return {distinct(rel, old, index): distinct(text, old, index) for rel, text in files.items()}


@dataclass
class Part:
    """One case's share of a run: its files' changes and records, with
    paths relative to its directory (as a run of the directory alone)."""

    directory: Path
    changes: dict[str, tuple[bytes, bytes]]
    handlers: list[HandlerRecord]
    files: list[FileRecord]

    @property
    def diff(self) -> str:
        """The case's files' diffs, as ConversionResult.diff (paths as in the run)."""
        return "".join(f.diff for f in self.files if f.diff)


class SharedRuns:
    """The cases of a module, by the run's options; each run converted
    once, when a test first asks for one of its cases."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.root: Path | None = None   # made by the first run: importing makes nothing
        self.cases: dict[tuple[str, ...], dict[str, dict[str, str]]] = {}
        self.parts: dict[tuple[str, ...], dict[str, Part]] = {}

    def add(self, argv: tuple[str, ...], name: str, files: dict[str, str]) -> None:
        """Case NAME (a directory name): FILES, converted with ARGV."""
        self.cases.setdefault(tuple(argv), {})[name] = files

    def part(self, argv: tuple[str, ...], name: str) -> Part:
        """Case NAME's part of the run of ARGV (convert's options) over the
        directory holding every case of the run."""
        argv = tuple(argv)
        if argv not in self.parts:
            self.root = self.root or Path(tempfile.mkdtemp(prefix=self.prefix))
            run_dir = self.root / f"run{len(self.parts)}"
            for case, files in self.cases[argv].items():
                for rel, text in files.items():
                    (run_dir / case / rel).parent.mkdir(parents=True, exist_ok=True)
                    (run_dir / case / rel).write_text(text)
            result = convert(run_dir, argv)
            self.parts[argv] = {case: split(result, run_dir, case) for case in self.cases[argv]}
        return self.parts[argv][name]

    def remove(self) -> None:
        if self.root:
            shutil.rmtree(self.root, ignore_errors=True)


def convert(directory: Path, argv: tuple[str, ...]):
    """convert ARGV over DIRECTORY, in this process, as one job: a run cuts
    its files into batches for jobs x 4 spatch processes (spatch.runner.
    batch_size), so on two cores a run of eight files still started eight."""
    from test_convert import parse_args
    from ioctl_rework.convert import cli
    return cli.convert(cli.request_from_args(parse_args([*argv, "-j", "1", "--",
                                                         str(directory)])))


def split(result, run_dir: Path, case: str) -> Part:
    """CASE's share of RESULT, a run over RUN_DIR."""
    head = case + "/"

    def mine(rel: str) -> bool:
        return rel.startswith(head)

    return Part(run_dir / case,
                {rel[len(head):]: change for rel, change in result.changes.items() if mine(rel)},
                [h for h in result.summary.handlers if mine(h.file)],
                [f for f in result.summary.files if mine(f.file)])

"""What a convert run is asked to do and what it hands back: the typed
values that pass between the stages of convert (see convert.py)."""

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ioctl_rework import cache as cache_mod
from ioctl_rework import safe_write, settings
from ioctl_rework.convert import series
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.patches.identity import Identity
from ioctl_rework.convert import shard as shard_mod
from ioctl_rework.convert.summary import FileStatus, HandlerStatus, Summary

if TYPE_CHECKING:     # only --kdir loads verify/
    from ioctl_rework.verify.build import KernelDir


# The files among those given that the run may not write, and why
# (ConvertRequest.unwritable).
Unwritable = Callable[[list[str]], dict[str, str]]


class InputError(Exception):
    """Bad input: a path that does not exist, a target that cannot be read."""


class Output(enum.Enum):
    DIFF = "diff"
    IN_PLACE = "in-place"
    SERIES = "series"


@dataclass(frozen=True)
class VerifyOptions:
    """What the verify stage checks before a rewrite is handed out (verify.py)."""

    prove: bool = True                  # the lock proof of every converted handler
    kdir: "KernelDir | None" = None     # build before and after against this kernel
    # Where the files around the rewritten ones are (default: the run's root);
    # check --fix runs in a scratch copy of a patch and reads them from --tree.
    context_root: Path | None = None


@dataclass(frozen=True)
class Report:
    """One output of a run: what (a format of output.FORMATS) and where (None: stdout)."""

    format: str
    path: Path | None = None


@dataclass(frozen=True)
class ConvertRequest:
    paths: tuple[Path, ...]
    options: settings.ConversionOptions
    root: Path
    jobs: int = 2
    timeout: int = 120
    output: Output = Output.DIFF
    series_dir: Path | None = None
    split: series.Split = series.Split.FILE
    author: Identity | None = None      # of the series; asked of git before the run
    shard: shard_mod.Shard | None = None
    cache: cache_mod.Cache = field(default_factory=lambda: cache_mod.Cache(None))
    verify: VerifyOptions = VerifyOptions()
    reports: tuple[Report, ...] = ()    # written by output.emit after the run
    # Outside a tree: the kernel whose headers the run reads (--kernel-headers, --kdir).
    kernel: settings.KernelHeaders | None = None
    # Told of every run of the rule on a file as it ends: (the file relative
    # to ROOT, spatch's arguments, what it said).  check's audit reads its
    # legacy entries from them instead of running the rule again.
    on_rule_run: Callable[[str, tuple[str, ...], "spatch.SpatchResult"], None] | None = None
    # Keep the run's result whole, and read it back on an unchanged re-run
    # (run_memo.py): the command line's; a caller in a process that may
    # change the code between runs (a test's patch) does not ask for it.
    run_memo: bool = False

    @property
    def run_paths(self) -> tuple[str, ...]:
        """The run's paths relative to its root ("." for the root itself)."""
        return tuple(sorted({os.path.relpath(os.path.abspath(p), os.path.abspath(self.root))
                             for p in self.paths}))

    def unwritable(self, rels: list[str]) -> dict[str, str]:
        """The files of RELS the run may not write, and why: in place, a
        file we may not write is a file that cannot be rewritten."""
        if self.output is not Output.IN_PLACE:
            return {}
        blocked = {}
        for rel in rels:
            try:
                safe_write.checked_target(self.root / rel, self.root)
            except safe_write.WriteError as err:
                blocked[rel] = err.message
        return blocked


@dataclass
class ConversionResult:
    summary: Summary
    # relpath -> (old bytes, new bytes) of every file the run rewrites
    changes: dict[str, tuple[bytes, bytes]]
    recovered: list[Path] = field(default_factory=list)

    @property
    def diff(self) -> str:
        return "".join(f.diff for f in self.summary.files if f.diff)

    @property
    def failed(self) -> bool:
        return any(h.status is HandlerStatus.FAILED for h in self.summary.handlers) or \
            any(f.status is FileStatus.FAILED for f in self.summary.files)

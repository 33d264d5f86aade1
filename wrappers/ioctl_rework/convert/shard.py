"""`--shard K/N`: which part of a run one machine does.

Files are split by a hash of their path relative to the tree, so every
machine computes the same split without talking to the others, and a file
keeps its shard when others are added or removed.  convert splits by the
first file of each group of files that share a handler, so a handler and
all the files it touches are always in the same shard.

`--shard auto` takes its part from the array-job scheduler that started
it: Slurm (SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, from
SLURM_ARRAY_TASK_MIN on), or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
from 0, of the completions given as `auto/N` or in IOCTL_REWORK_SHARDS,
since Kubernetes does not pass that count on).  GNU parallel passes the
part in the command line: --shard {}/N ::: 1 2 ... N.
"""

import hashlib
import os
import re
from dataclasses import dataclass


class ShardError(ValueError):
    """A --shard value that is not K/N with 1 <= K <= N."""


@dataclass(frozen=True)
class Shard:
    index: int   # 1-based
    count: int

    @classmethod
    def parse(cls, text: str) -> "Shard":
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match:
            raise ShardError(f"not a shard: {text!r} (want K/N, e.g. 2/3)")
        index, count = int(match.group(1)), int(match.group(2))
        if not 1 <= index <= count:
            raise ShardError(f"shard {index}/{count}: K must be between 1 and N")
        return cls(index, count)

    @classmethod
    def from_environment(cls, text: str, environ=None) -> "Shard":
        """TEXT "auto" or "auto/N": the part the scheduler's variables say."""
        environ = os.environ if environ is None else environ
        match = re.fullmatch(r"\s*auto\s*(?:/\s*(\d+)\s*)?", text)
        if not match:
            raise ShardError(f"not a shard: {text!r} (want K/N, auto or auto/N)")
        given = match.group(1) or environ.get("IOCTL_REWORK_SHARDS")
        if "SLURM_ARRAY_TASK_ID" in environ:
            task = _number(environ, "SLURM_ARRAY_TASK_ID")
            first = _number(environ, "SLURM_ARRAY_TASK_MIN") \
                if "SLURM_ARRAY_TASK_MIN" in environ else 0
            if "SLURM_ARRAY_TASK_COUNT" not in environ:
                raise ShardError("--shard auto: SLURM_ARRAY_TASK_ID is set but not "
                                 "SLURM_ARRAY_TASK_COUNT (submit with sbatch --array)")
            count = _number(environ, "SLURM_ARRAY_TASK_COUNT")
            # --array=0-2 and --array=1-3 are both three parts.
            return cls.parse(f"{task - first + 1}/{count}")
        if "JOB_COMPLETION_INDEX" in environ:
            if not given:
                raise ShardError("--shard auto: a Kubernetes Indexed Job does not say how "
                                 "many completions it has: give --shard auto/N or set "
                                 "IOCTL_REWORK_SHARDS=N (the Job's completions)")
            index = _number(environ, "JOB_COMPLETION_INDEX")
            return cls.parse(f"{index + 1}/{given}")
        raise ShardError("--shard auto: neither SLURM_ARRAY_TASK_ID (Slurm array job) nor "
                         "JOB_COMPLETION_INDEX (Kubernetes Indexed Job) is set; give K/N")

    def owns(self, relpath: str) -> bool:
        return shard_of(relpath, self.count) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def _number(environ, name: str) -> int:
    value = environ[name].strip()
    if not value.isdigit():
        raise ShardError(f"--shard auto: {name}={environ[name]!r} is not a whole number")
    return int(value)


def parse(text: str, environ=None) -> Shard:
    """A --shard value: K/N, or auto[/N] read from the scheduler's variables."""
    if text.strip().startswith("auto"):
        return Shard.from_environment(text, environ)
    return Shard.parse(text)


def shard_of(relpath: str, count: int) -> int:
    digest = hashlib.sha256(relpath.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1

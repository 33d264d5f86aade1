"""`--shard K/N`: which part of a run one machine does.

Files are split by a hash of their path relative to the tree, so every
machine computes the same split without talking to the others, and a file
keeps its shard when others are added or removed.  convert splits by the
first file of each group of files that share a handler, so a handler and
all the files it touches are always in the same shard.
"""

import hashlib
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

    def owns(self, relpath: str) -> bool:
        return shard_of(relpath, self.count) == self.index

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def shard_of(relpath: str, count: int) -> int:
    digest = hashlib.sha256(relpath.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1

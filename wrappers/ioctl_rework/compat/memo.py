"""What the layouts decide for one driver file, kept in the cache by the
content of every file the decision read.

The key holds the driver's text, the facts rule's report on it, where its
headers are looked for and the classifier's own code; the entry lists the
headers read to choose the probe's includes and those gcc read for it,
with their digests, and is used again only while each has that content.
The tree's compat table is not part of it: its verdicts are looked up
afresh per command (era.py), so a changed table file changes no layout
verdict and a changed header no table entry.
"""

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.cache import Cache, FileDigests, code_digest, make_key
from ioctl_rework.compat.classify import Classification

LAYOUTS_FORMAT = "compat-layouts-1"
# The modules whose logic a stored decision came from.
_DECIDING_MODULES = ("__init__.py", "callees.py", "classify.py", "facts.py", "headers.py",
                     "layout.py", "probe.py", "memo.py")


@dataclass(frozen=True)
class FileLayouts:
    """The handlers of one file as their layouts decide them (before the
    tree's compat table), and what the table lookup needs of the probe."""

    decided: tuple[Classification, ...]
    numbers: dict           # command -> its number for a 32-bit caller, None: not probed
    sizes: dict             # type -> its x86_64 size, as the probe found it

    def to_json(self) -> dict:
        return {"decided": [c.to_json() for c in self.decided], "numbers": self.numbers,
                "sizes": self.sizes}

    @classmethod
    def from_json(cls, value: dict) -> "FileLayouts":
        return cls(tuple(map(Classification.from_json, value["decided"])),
                   value["numbers"], value["sizes"])


def _code_digest() -> str:
    here = Path(__file__).resolve().parent
    return code_digest(*(here / name for name in _DECIDING_MODULES))


def key(source: Path, text: str, stdout: str, dirs: tuple[Path, ...], asm: dict,
        numbers_read: bool = True) -> str:
    """NUMBERS_READ: whether the commands of every handler were probed for
    the table (a tree that gains a table must not reuse an entry without)."""
    return make_key(LAYOUTS_FORMAT, _code_digest(), str(source.resolve()),
                    hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest(),
                    stdout, *map(str, dirs), *(f"{abi}={d}" for abi, d in sorted(asm.items())),
                    f"numbers_read={numbers_read}")


def get(cache: Cache | None, entry_key: str, digests: FileDigests) -> FileLayouts | None:
    stored = cache.get_json(entry_key) if cache is not None else None
    if stored is None or not digests.unchanged(stored["reads"]):
        return None
    return FileLayouts.from_json(stored["layouts"])


def put(cache: Cache | None, entry_key: str, layouts: FileLayouts, reads,
        digests: FileDigests) -> None:
    if cache is not None:
        cache.put_json(entry_key, {"layouts": layouts.to_json(), "reads": digests.record(reads)})

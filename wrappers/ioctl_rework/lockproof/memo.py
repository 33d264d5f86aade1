"""Proofs kept by content: an unchanged file is not proven again.

convert runs the proof on every run, and a re-run over an unchanged tree
takes seconds; so a file's verdicts are cached under a key of everything
they depend on: the prover's own source, the file's legacy and converted
text, its handlers and their entry points, the lock, and the bytes of
every header the proof may read for either text (headers.py: quoted,
kbuild and tree headers, recursively) and of the Makefiles that decide
where they are found.
"""

import hashlib
import re
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.ctext import include_search
from ioctl_rework.ctext.include_search import search_path
from ioctl_rework.lockproof.model import HandlerProof, LockCalls, LockProblem, Unprovable
from ioctl_rework.lockproof.headers import HeaderReader, included_headers

FORMAT = "lockproof/2"


def prover_sources() -> list[Path]:
    """The prover's modules, the header search it reads through and the
    ctext modules that search imports (header_cache: how a header's text is
    read), so that a change to any of them proves every file again."""
    search = Path(include_search.__file__)
    imported = re.findall(r"^from ioctl_rework\.ctext import (\w+)", search.read_text(), re.M)
    return (sorted(Path(__file__).parent.glob("*.py")) + [search]
            + [search.with_name(name + ".py") for name in sorted(set(imported))])


def _prover_digest() -> str:
    digest = hashlib.sha256()
    for path in prover_sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


PROVER = _prover_digest()


def key(root: Path, rel: str, old: str, new: str, entries: dict[str, str], lock: LockCalls,
        reads: bool, reader: HeaderReader | None = None) -> str:
    """READER: the run's, whose files are read once for every key."""
    search = reader.search(rel) if reader else search_path(root, rel)
    headers = included_headers(root, rel, old + "\n" + new, search,
                               reader.files if reader else None)
    parts = [FORMAT, PROVER, rel, old, new, repr(sorted(entries.items())),
             repr((lock.acquire, lock.release, lock.argument)), repr(reads), repr(search)]
    for path in search.makefiles:
        headers.setdefault(path, _read(Path(root) / path))
    for path, data in sorted(headers.items()):
        parts += [path, data if data is not None else b"\0missing"]
    return cache_mod.make_key(*parts)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def to_json(proofs: list[HandlerProof]) -> list:
    return [{"handler": p.handler, "entry": p.entry,
             "problems": [[q.file, q.line, q.function, q.message] for q in p.problems],
             "unprovable": None if p.unprovable is None else
             [p.unprovable.file, p.unprovable.function, p.unprovable.reason, p.unprovable.line]}
            for p in proofs]


def from_json(data: list) -> list[HandlerProof] | None:
    try:
        return [HandlerProof(d["handler"], d["entry"],
                             tuple(LockProblem(*q) for q in d["problems"]),
                             Unprovable(*d["unprovable"]) if d["unprovable"] else None)
                for d in data]
    except (KeyError, TypeError, ValueError):
        return None             # an entry of another shape: prove again

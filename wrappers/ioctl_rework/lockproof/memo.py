"""Proofs kept by content: an unchanged file is not proven again.

convert runs the proof on every run, and a re-run over an unchanged tree
takes seconds; so a file's verdicts are cached under a key of everything
they depend on: the prover's own source, the file's legacy and converted
text, its handlers and their entry points, the lock, and the bytes of
every header the file includes with quotes (recursively).
"""

import hashlib
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.lockproof.model import HandlerProof, LockCalls, LockProblem, Unprovable
from ioctl_rework.lockproof.headers import included_headers

FORMAT = "lockproof/1"


def _prover_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


PROVER = _prover_digest()


def key(root: Path, rel: str, old: str, new: str, entries: dict[str, str], lock: LockCalls,
        reads: bool) -> str:
    headers = included_headers(root, rel, old)
    parts = [FORMAT, PROVER, rel, old, new, repr(sorted(entries.items())),
             repr((lock.acquire, lock.release, lock.argument)), repr(reads)]
    for path, data in sorted(headers.items()):
        parts += [path, data if data is not None else b"\0missing"]
    return cache_mod.make_key(*parts)


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

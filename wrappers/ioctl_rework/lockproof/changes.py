"""Proving a whole conversion: the files a run rewrote, old and new.

Which handlers were converted, and through which entry point, is read
from the file_operations of the two texts (entries.py), and each handler
is proven in the file that defines it; a handler whose fops changed but
whose definition is in none of the rewritten files is a failure too (its
definition kept the legacy signature).
"""

import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.lockproof.entries import entry_points
from ioctl_rework.lockproof.expanders import PreprocessedExpander, TextualExpander
from ioctl_rework.lockproof.model import HandlerProof, LockCalls, Unprovable, lock_for_text
from ioctl_rework.lockproof.proof import prove_each
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework import cache as cache_mod
from ioctl_rework.cache import Cache
from ioctl_rework.lockproof import memo
from ioctl_rework.lockproof.headers import HeaderReader
from ioctl_rework.lockproof.source import SourceError, Unit


@dataclass(frozen=True)
class FileProof:
    file: str                         # where the handler is defined (or its fops)
    proof: HandlerProof


def _text(data: bytes) -> str:
    return data.decode("latin-1")     # every byte kept, whatever the encoding


@dataclass
class Converted:
    """The handlers of a run by the file that defines them, and the ones
    whose fops changed but whose definition is in no rewritten file."""

    by_file: dict[str, dict[str, str]] = field(default_factory=dict)   # rel -> handler -> entry
    undefined: list[tuple[str, str, str]] = field(default_factory=list)  # (fops file, handler, entry)


def converted_handlers(texts: dict[str, tuple[str, str]]) -> Converted:
    """Who was converted, read from the file_operations of TEXTS (rel -> old, new).
    A handler is looked for in its fops file first (static handlers of the
    same name in other files are other functions), then in the others."""
    found = Converted()
    codes: dict[str, str] = {}

    def defines(rel: str, handler: str, linked: bool) -> bool:
        """Whether REL defines HANDLER (LINKED: so that another file can call
        it, which a static function can only through a header).  By text:
        the proof itself reads the definition token by token."""
        if handler not in texts[rel][0] or \
                not re.search(rf"\b{re.escape(handler)}\s*\(", texts[rel][0]):
            return False
        if rel not in codes:
            codes[rel] = c_spans.code_only(texts[rel][0])
        lines = codes[rel].split("\n")
        for span in c_spans.definition_spans(texts[rel][0], handler):
            head = " ".join(lines[span.start - 1:span.start + 2])
            head = head[:head.find(handler)] if handler in head else head
            if not (linked and re.search(r"\bstatic\b", head)):
                return True
        return False

    for fops_file, (old, new) in texts.items():
        for handler, entry in sorted(entry_points(old, new).items()):
            home = fops_file if defines(fops_file, handler, False) else next(
                (rel for rel in texts if rel != fops_file and
                 defines(rel, handler, not (rel.endswith(".h") or fops_file.endswith(".h")))),
                None)
            if home is None:
                found.undefined.append((fops_file, handler, entry))
            else:
                found.by_file.setdefault(home, {})[handler] = entry
    return found


# Verdicts of this process by memo.key (every byte they depend on): convert
# proves every file again when a pushdown falls back to the wrapper, and
# the files that did not change keep their verdicts, with or without a
# cache on disk.  The oldest go past this many files.
MAX_REMEMBERED = 4096
_REMEMBERED: OrderedDict[str, list[HandlerProof]] = OrderedDict()


def _remembered(key: str) -> list[HandlerProof] | None:
    proofs = _REMEMBERED.get(key)
    if proofs is not None:
        _REMEMBERED.move_to_end(key)
    return proofs


def _remember(key: str, proofs: list[HandlerProof]) -> None:
    _REMEMBERED[key] = proofs
    while len(_REMEMBERED) > MAX_REMEMBERED:
        _REMEMBERED.popitem(last=False)


def _cached_handlers(texts, changes, cache: Cache | None) -> Converted:
    """converted_handlers(TEXTS), kept under a key of every text of the run."""
    if cache is None:
        return converted_handlers(texts)
    key = cache_mod.make_key("lockproof-handlers", memo.PROVER,
                             *(part for rel in sorted(changes) for part in (rel, *changes[rel])))
    stored = cache.get_json(key)
    if isinstance(stored, dict) and set(stored) == {"by_file", "undefined"}:
        return Converted(stored["by_file"], [tuple(u) for u in stored["undefined"]])
    found = converted_handlers(texts)
    cache.put_json(key, {"by_file": found.by_file, "undefined": found.undefined})
    return found


def _undefined(rel: str, old: str, entry: str) -> str:
    try:
        broken = Unit(rel, old).unbalanced()
    except SourceError as err:
        return str(err)
    if broken:
        return f"the braces of the legacy {rel} do not balance (a '}}' too many by line {broken})"
    return (f"its file_operations now use {entry}, but no rewritten file defines it: "
            "its definition kept the legacy signature")


def prove_changes(root: Path, changes: dict[str, tuple[bytes, bytes]],
                  lock_for: Callable[[str], LockCalls], reads_need_lock: bool = False,
                  cache: Cache | None = None,
                  preprocessed: Callable[[str], PreprocessedExpander | None] | None = None
                  ) -> list[FileProof]:
    """Prove every handler the rewritten files CHANGES (rel -> old, new)
    converted; a file proven before with the same inputs (memo.py) is not
    proven again: earlier in this process, or with CACHE, in another.
    PREPROCESSED(rel) gives the expander of a file whose preprocessor
    output is at hand (convert --kdir); the others are expanded textually."""
    texts = {rel: (_text(old), _text(new)) for rel, (old, new) in sorted(changes.items())}
    converted = _cached_handlers(texts, changes, cache)
    results = [FileProof(fops_file, HandlerProof(handler, entry, (), Unprovable(
        fops_file, handler, _undefined(fops_file, texts[fops_file][0], entry))))
        for fops_file, handler, entry in converted.undefined]
    headers = HeaderReader(Path(root))
    for rel, mine in sorted(converted.by_file.items()):
        old, new = texts[rel]
        lock = lock_for_text(lock_for(rel), rel, old, new)
        expander = (preprocessed(rel) if preprocessed else None) or \
            TextualExpander(root, rel, headers)
        key = memo.key(Path(root), rel, old, new, mine, lock, reads_need_lock, headers)
        if expander.preprocessed:
            key = cache_mod.make_key(key, expander.old_text or "", expander.text)
        proofs = memo.from_json(cache.get_json(key) or []) if cache else None
        if not proofs:
            proofs = _remembered(key) or prove_each(rel, old, new, mine, lock, expander,
                                                    reads_need_lock)
            if cache:
                cache.put_json(key, memo.to_json(proofs))
        _remember(key, proofs)
        results += [FileProof(rel, proof) for proof in proofs]
    return results

"""Shared by the lockproof tests: run the prover on texts, find lines."""

import tempfile
from pathlib import Path

from ioctl_rework import lockproof

BKL = lockproof.LockCalls.bkl()


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The line (1-based) of the NTH occurrence of NEEDLE in TEXT."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1


def prove(old: str, new: str, entries: dict[str, str], lock=BKL,
          rel: str = "drivers/char/demo.c", headers: dict[str, str] | None = None,
          reads: bool = False):
    """lockproof.prove_each on OLD -> NEW, with HEADERS (name -> text) next to REL."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, text in (headers or {}).items():
            path = root / Path(rel).parent / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        expander = lockproof.TextualExpander(root, rel)
        return lockproof.prove_each(rel, old, new, entries, lock, expander, reads)


def messages(results) -> list[str]:
    """Every problem as "LINE: MESSAGE", and every refusal as "unprovable: REASON"."""
    found = []
    for result in results:
        found += [f"{p.line}: {p.message}" for p in result.problems]
        if result.unprovable is not None:
            found.append(f"unprovable: {result.unprovable.reason}")
    return found

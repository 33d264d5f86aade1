"""The headers a file includes with quotes, found next to it.

What the prover reads beyond a file's own text: its `#include "x.h"`,
recursively, resolved against the including file's directory and never
outside the tree.  memo.py keys cached verdicts by their bytes.
"""

import os
import re
from pathlib import Path

from ioctl_rework.lockproof.lexer import LexError, Token, tokenize


def header_path(including: str, name: str) -> str | None:
    """Where `#include "NAME"` in INCLUDING is, relative to the tree (None
    for a path that leaves it)."""
    path = os.path.normpath(os.path.join(os.path.dirname(including), name))
    return None if path.startswith("..") or os.path.isabs(path) else path


_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)


def included_headers(root: Path, rel: str, text: str) -> dict[str, bytes | None]:
    """Every header REL's TEXT includes with quotes, recursively: path ->
    its bytes (None when it is not there).  What a reading of REL depends
    on besides its own text."""
    found: dict[str, bytes | None] = {}
    todo = [(rel, text)]
    while todo:
        including, source = todo.pop()
        for name in _QUOTED_INCLUDE.findall(source):
            path = header_path(including, name)
            if path is None or path in found or len(found) > 64:
                continue
            try:
                found[path] = (Path(root) / path).read_bytes()
            except OSError:
                found[path] = None
                continue
            todo.append((path, found[path].decode("latin-1")))
    return found


class HeaderReader:
    """Reads `#include "x.h"` next to the including file, once each."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._cache: dict[str, list[Token] | None] = {}

    def read(self, including: str, name: str, include_stack: tuple):
        key = header_path(including, name)
        if key is None or key in include_stack:
            return None
        if key not in self._cache:
            path = self.root / key
            try:
                self._cache[key] = tokenize(path.read_text(errors="replace"))
            except (OSError, LexError):
                self._cache[key] = None
        tokens = self._cache[key]
        return None if tokens is None else (key, tokens)

"""The headers the prover reads beyond a file's own text, found as the
compiler finds them.

`#include "x.h"`: next to the including file, then in the directories
the file's kbuild Makefile adds (`EXTRA_CFLAGS += -I...`, `ccflags-y`,
`$(src)`, `$(srctree)`), then the tree's include directories.
`#include <x.h>`: the kbuild directories, then the tree's include
directories (`include/`, `arch/x86/include/` or `include/asm-i386/` as
the tree has them), found from the tree's top Makefile (VERSION and
PATCHLEVEL); outside a tree an angle-bracket header is not read.  Nothing
outside the tree is read.  memo.py keys cached verdicts by the bytes of
every file read here, the Makefiles that decide the search included.
"""

import os
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.ctext import include_search
from ioctl_rework.lockproof.conditionals import include_guard
from ioctl_rework.lockproof.lexer import LexError, Token, directive, tokenize
from ioctl_rework.lockproof.noreturn import Declarations

# A tree's header files read for one file, at most: <linux/fs.h> of 2.6.9
# reaches about 150; past this the rest are not read (their macros stay calls).
MAX_HEADERS = 400
# Headers are found by one search, the compiler's, for the prover and the
# rule it checks (ctext/include_search.py): the prover reads what the rule
# reads, and more (the bodies of a tree's macros, where the rule reads names).
SearchPath = include_search.SearchPath


class Files:
    """The files under ROOT as included_headers reads them, each once (one
    instance serves the files of a run)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._data: dict[str, bytes | None] = {}
        self._includes: dict[str, list[tuple[str, str]]] = {}

    def data(self, path: str) -> bytes | None:
        """PATH's bytes, None when it is no readable file."""
        if path not in self._data:
            full = self.root / path
            try:
                self._data[path] = full.read_bytes() if full.is_file() else None
            except OSError:
                self._data[path] = None
        return self._data[path]

    def includes(self, path: str) -> list[tuple[str, str]]:
        """The (quoted, angled) names PATH includes."""
        if path not in self._includes:
            data = self.data(path)
            self._includes[path] = include_search.INCLUDE.findall(data.decode("latin-1")) if data else []
        return self._includes[path]


def included_headers(root: Path, rel: str, text: str, search: SearchPath | None = None,
                     files: Files | None = None) -> dict[str, bytes | None]:
    """Every header REL's TEXT includes, recursively: path -> its bytes (None
    for a quoted one that is not there).  Without SEARCH, the quoted ones
    next to the including file only (what the conversion rule reads); with
    it, every one the prover reads (HeaderReader)."""
    files = files if files is not None else Files(root)
    found: dict[str, bytes | None] = {}
    todo = [(rel, include_search.INCLUDE.findall(text))]
    while todo:
        including, names = todo.pop()
        for quoted, angled in names:
            if angled and search is None:
                continue
            places = include_search.candidates(search, including, quoted or angled, bool(angled))
            if not places or (search is None and len(found) > 64):
                continue
            path = next((p for p in places if files.data(p) is not None), None)
            if path is None:
                if quoted:
                    found.setdefault(places[0], None)
                continue
            if path in found:
                continue
            found[path] = files.data(path)
            todo.append((path, files.includes(path)))
    return found


@dataclass(frozen=True)
class Summary:
    """What a header gives a file that includes it outside a function: its
    directives in order (keyword, rest, line, whether it is the include
    guard) and the functions it declares (noreturn.Declarations)."""

    directives: tuple[tuple[str, str, int, bool], ...]
    declared: tuple


class HeaderReader:
    """Finds and tokenizes included headers, once each, for the files of a
    run (the search path of each directory is read once too)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._cache: dict[str, list[Token] | None] = {}
        self._found: dict[tuple, str | None] = {}
        self._searches: dict[str, SearchPath] = {}
        self._summaries: dict[str, Summary] = {}
        self.files = Files(self.root)

    def summary(self, path: str, tokens: list[Token]) -> Summary:
        """The Summary of header PATH (TOKENS: what read() gave for it)."""
        if path not in self._summaries:
            guard = include_guard(tokens)
            declarations = Declarations()
            directives, depth = [], 0
            for token in tokens:
                if token.kind == "directive":
                    keyword, rest = directive(token)
                    directives.append((keyword, rest, token.line, token is guard))
                    continue
                declarations.token(token, depth)
                depth += token.is_("{") - token.is_("}")
            self._summaries[path] = Summary(tuple(directives), declarations.declared)
        return self._summaries[path]

    def search(self, rel: str) -> SearchPath:
        directory = os.path.dirname(rel)
        if directory not in self._searches:
            self._searches[directory] = include_search.search_path(self.root, rel)
        return self._searches[directory]

    def read(self, including: str, name: str, include_stack: tuple,
             search: SearchPath | None = None, angle: bool = False):
        """(path, tokens) of the header `#include` NAME in INCLUDING names, or
        None (not found, not readable, or already on INCLUDE_STACK)."""
        key = (including if not angle else "", name, angle, search)
        if key not in self._found:
            self._found[key] = next((p for p in include_search.candidates(search, including, name, angle)
                                     if (self.root / p).is_file()), None)
        path = self._found[key]
        if path is None or path in include_stack:
            return None
        if path not in self._cache:
            try:
                self._cache[path] = tokenize((self.root / path).read_text(errors="replace"))
            except (OSError, LexError):
                self._cache[path] = None
        tokens = self._cache[path]
        return None if tokens is None else (path, tokens)

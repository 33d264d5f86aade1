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
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ioctl_rework.ctext import header_cache, include_search
from ioctl_rework.lockproof.conditionals import Condition, condition, include_guard
from ioctl_rework.lockproof.lexer import LexError, Token, directive, tokenize
from ioctl_rework.lockproof.noreturn import Declarations, defined_words

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


class HeaderDirective(NamedTuple):
    """A directive of a header as a file including it reads it, reduced
    once: the condition of an #if/#elif, the name and body of a #define
    and the names its body uses (NAME None: not a name)."""

    keyword: str
    rest: str
    line: int
    is_guard: bool
    condition: Condition | None = None
    name: str | None = None
    body: str = ""
    words: frozenset = frozenset()


@dataclass(frozen=True)
class Summary:
    """What a header gives a file that includes it outside a function: its
    directives in order (HeaderDirective) and the functions it declares
    (noreturn.Declarations) and the variables it declares."""

    directives: tuple[HeaderDirective, ...]
    declared: tuple
    variables: frozenset = frozenset()


_DEFINED_NAME = re.compile(r"[A-Za-z_]\w*")


def _directive(token: Token, is_guard: bool) -> HeaderDirective:
    keyword, rest = directive(token)
    if keyword in ("if", "ifdef", "ifndef", "elif"):
        return HeaderDirective(keyword, rest, token.line, is_guard,
                               condition("if" if keyword == "elif" else keyword, rest))
    if keyword == "define":
        name = _DEFINED_NAME.match(rest)
        if name is not None:
            body = rest[name.end():]
            return HeaderDirective(keyword, rest, token.line, is_guard, None, name.group(),
                                   body, frozenset(defined_words(body)))
    return HeaderDirective(keyword, rest, token.line, is_guard)


def _summarize(tokens: list[Token]) -> Summary:
    guard = include_guard(tokens)
    declarations = Declarations()
    directives, depth = [], 0
    for token in tokens:
        if token.kind == "directive":
            directives.append(_directive(token, token is guard))
            continue
        declarations.token(token, depth)
        depth += token.is_("{") - token.is_("}")
    return Summary(tuple(directives), declarations.declared, declarations.variables)


@header_cache.by_content
def _lexed(text: str) -> tuple[list[Token], Summary] | None:
    """TEXT's tokens and Summary, or None where it cannot be lexed: once
    per process for each text (a run proves its files in two passes when
    a pushdown falls back, and the files of a tree include the same
    headers), whatever the path it was read at.  Callers change neither."""
    try:
        tokens = tokenize(text)
    except LexError:
        return None
    return tokens, _summarize(tokens)


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
                lexed = _lexed((self.root / path).read_text(errors="replace"))
            except OSError:
                lexed = None
            self._cache[path] = None if lexed is None else lexed[0]
            if lexed is not None:
                self._summaries[path] = lexed[1]
        tokens = self._cache[path]
        return None if tokens is None else (path, tokens)

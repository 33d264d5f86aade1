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

from ioctl_rework.lockproof.conditionals import include_guard
from ioctl_rework.lockproof.lexer import LexError, Token, directive, tokenize
from ioctl_rework.lockproof.noreturn import Declarations

# A tree's header files read for one file, at most: <linux/fs.h> of 2.6.9
# reaches about 150; past this the rest are not read (their macros stay calls).
MAX_HEADERS = 400
# The architecture whose headers are read where the tree has several (the
# one a tree's asm symlink, once configured, names comes first).
_ARCHES = ("x86", "i386", "x86_64")


@dataclass(frozen=True)
class SearchPath:
    """Where a file's includes are looked for: directories relative to the
    tree (ROOT), in order."""

    kbuild: tuple[str, ...] = ()      # the -I directories of the file's kbuild Makefile
    system: tuple[str, ...] = ()      # the tree's include directories
    asm: str | None = None            # where <asm/x.h> is when the tree has no include/asm
    makefiles: tuple[str, ...] = ()   # the files this search was read from

    def is_system(self, path: str) -> bool:
        """Whether PATH is a header of the tree's include directories."""
        return any(path.startswith(d + "/") for d in self.system + ((self.asm,) if self.asm
                                                                    else ()))


def tree_top(root: Path, rel: str) -> str | None:
    """The top of the kernel tree holding REL (relative to ROOT): the nearest
    directory up to ROOT whose Makefile sets VERSION and PATCHLEVEL."""
    parts = Path(rel).parent.parts
    for n in range(len(parts), -1, -1):
        top = "/".join(parts[:n])
        try:
            with open(Path(root) / top / "Makefile", "rb") as handle:
                head = handle.read(4096)
        except OSError:
            continue
        if re.search(rb"^VERSION\s*=\s*\d", head, re.M) and \
                re.search(rb"^PATCHLEVEL\s*=\s*\d", head, re.M):
            return top
    return None


_FLAGS = re.compile(r"^(?:EXTRA_CFLAGS|EXTRA_CPPFLAGS|ccflags-[\w$()]+|subdir-ccflags-[\w$()]+|"
                    r"CFLAGS_[\w.-]+|CPPFLAGS_[\w.-]+)\s*[:+?]?=(.*)$", re.M)
_INCLUDE_FLAG = re.compile(r"-I\s*(\S+)")


def search_path(root: Path, rel: str) -> SearchPath:
    """The search path of REL under ROOT (see the module doc)."""
    root = Path(root)
    top = tree_top(root, rel)
    directory = os.path.dirname(rel)
    kbuild, makefiles = [], []
    for name in ("Makefile", "Kbuild"):
        path = os.path.join(directory, name)
        try:
            text = (root / path).read_text(errors="replace")
        except OSError:
            continue
        makefiles.append(path)
        for directory_flag in _kbuild_includes(text, directory, top or ""):
            if directory_flag not in kbuild:
                kbuild.append(directory_flag)
    if top is None:
        return SearchPath(tuple(kbuild), (), None, tuple(makefiles))
    system, asm = _system_dirs(root, top, rel)
    return SearchPath(tuple(kbuild), system, asm, tuple(makefiles))


def _kbuild_includes(text: str, directory: str, top: str) -> list[str]:
    """The -I directories a kbuild Makefile's flags add, relative to the tree
    (make runs at the top: a plain relative directory is the top's)."""
    text = re.sub(r"\\\n", " ", text)
    found = []
    for value in _FLAGS.findall(text):
        for flag in _INCLUDE_FLAG.findall(value):
            spelled = flag.replace("$(src)", "$(obj)").replace("$(obj)", "/" + directory) \
                .replace("$(srctree)", "/" + top).replace("$(objtree)", "/" + top) \
                .replace("$(TOPDIR)", "/" + top)
            if "$" in spelled:
                continue                   # a variable this reading does not know
            path = os.path.normpath(spelled.lstrip("/") if spelled.startswith("/")
                                    else os.path.join(top, spelled))
            if not path.startswith("..") and not os.path.isabs(path):
                found.append("" if path == "." else path)
    return found


def _system_dirs(root: Path, top: str, rel: str) -> tuple[tuple[str, ...], str | None]:
    """The tree's include directories, and where <asm/...> is if the tree
    has no include/asm (an unconfigured 2.6 tree: include/asm-<arch>)."""
    def exists(path: str) -> bool:
        return (root / path).is_dir()

    def at(*parts: str) -> str:
        return os.path.join(top, *parts) if top else os.path.join(*parts)

    arch_of_file = re.match(r"arch/([^/]+)/", os.path.relpath(rel, top or "."))
    arches = ((arch_of_file.group(1),) if arch_of_file else ()) + _ARCHES
    system = []
    arch = next((a for a in arches if exists(at("arch", a, "include"))), None)
    if arch:
        system += [at("arch", arch, "include"), at("arch", arch, "include", "generated")]
    system.append(at("include"))
    if arch:
        system.append(at("arch", arch, "include", "uapi"))
    system.append(at("include", "uapi"))
    asm = None
    if not exists(at("include", "asm")) and not arch:
        asm = next((at("include", "asm-" + a) for a in arches
                    if exists(at("include", "asm-" + a))), None)
    return tuple(d for d in system if exists(d)), asm


def _inside(path: str) -> str | None:
    path = os.path.normpath(path)
    return None if path.startswith("..") or os.path.isabs(path) else path


def candidates(search: SearchPath | None, including: str, name: str,
               angle: bool) -> list[str]:
    """Where `#include "NAME"` (or <NAME>) in INCLUDING may be, in order."""
    found = []
    if not angle:
        found.append(os.path.join(os.path.dirname(including), name))
    if search is not None:
        found += [os.path.join(d, name) for d in search.kbuild + search.system]
        if search.asm and name.startswith("asm/"):
            found.append(os.path.join(search.asm, name[4:]))
    return [p for p in map(_inside, found) if p is not None]


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', re.MULTILINE)


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
            self._includes[path] = _INCLUDE.findall(data.decode("latin-1")) if data else []
        return self._includes[path]


def included_headers(root: Path, rel: str, text: str, search: SearchPath | None = None,
                     files: Files | None = None) -> dict[str, bytes | None]:
    """Every header REL's TEXT includes, recursively: path -> its bytes (None
    for a quoted one that is not there).  Without SEARCH, the quoted ones
    next to the including file only (what the conversion rule reads); with
    it, every one the prover reads (HeaderReader)."""
    files = files if files is not None else Files(root)
    found: dict[str, bytes | None] = {}
    todo = [(rel, _INCLUDE.findall(text))]
    while todo:
        including, names = todo.pop()
        for quoted, angled in names:
            if angled and search is None:
                continue
            places = candidates(search, including, quoted or angled, bool(angled))
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
            self._searches[directory] = search_path(self.root, rel)
        return self._searches[directory]

    def read(self, including: str, name: str, include_stack: tuple,
             search: SearchPath | None = None, angle: bool = False):
        """(path, tokens) of the header `#include` NAME in INCLUDING names, or
        None (not found, not readable, or already on INCLUDE_STACK)."""
        key = (including if not angle else "", name, angle, search)
        if key not in self._found:
            self._found[key] = next((p for p in candidates(search, including, name, angle)
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

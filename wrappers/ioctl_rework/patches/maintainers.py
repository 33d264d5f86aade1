"""Who owns a file, read from a tree's MAINTAINERS the way
scripts/get_maintainer.pl reads it.

A section matches a file when one of its F: patterns or N: regexes does
and none of its X: patterns does.  Sections are ordered most specific
first: by the depth of the F: pattern that matched (N: counts as 0, and a
pattern starting with a wildcard, like THE REST's `*`, as -1), ties in
file order.
"""

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

_TYPED_LINE = re.compile(r"^([A-Z]):\s*(.*?)\s*$")


class MaintainersError(ValueError):
    """A MAINTAINERS file that cannot be read."""


@dataclass(frozen=True)
class Section:
    title: str
    maintainers: tuple[str, ...] = ()   # M:, with the P: name before it (2.6 era)
    lists: tuple[str, ...] = ()         # L:
    status: str = ""                    # S:
    files: tuple[str, ...] = ()         # F: as written
    excludes: tuple[str, ...] = ()      # X:
    regexes: tuple[str, ...] = ()       # N:

    @property
    def contacts(self) -> tuple[str, ...]:
        return self.maintainers + self.lists


def _pattern_regex(pattern: str, tree: Path | None) -> str:
    """An F:/X: glob as get_maintainer.pl turns it into a regex."""
    regex = pattern.replace(".", r"\.").replace("*", ".*").replace("?", ".")
    # Like get_maintainer.pl: a directory named without its trailing slash
    # still means everything below it.
    if not regex.endswith("/") and tree is not None and (tree / pattern).is_dir():
        regex += "/"
    return regex


@dataclass(frozen=True)
class _FilePattern:
    """One F: or X: line, compiled."""

    regex: re.Pattern
    slashes: int
    directory: bool
    depth: int

    @classmethod
    def compile(cls, pattern: str, tree: Path | None) -> "_FilePattern":
        text = _pattern_regex(pattern, tree)
        directory = text.endswith("/")
        if text.startswith(".*"):
            depth = -1
        else:
            depth = text.count("/") + (0 if directory else 1)
        return cls(re.compile(text), text.count("/"), directory, depth)

    def matches(self, relpath: str) -> bool:
        if not self.regex.match(relpath):
            return False
        # A file pattern (not a directory) only matches at its own depth.
        return self.directory or relpath.count("/") == self.slashes


def _top_directory(pattern: str) -> str | None:
    """The first path component every match of PATTERN starts with, if fixed."""
    head, slash, _ = pattern.partition("/")
    if not slash or any(c in head for c in "*?[") or not head:
        return None
    return head


class Maintainers:
    def __init__(self, sections: list[Section], tree: Path | None = None):
        self.sections = sections
        self._tree = tree
        self._excludes = []
        self._regexes = []
        # F: patterns indexed by their fixed top directory, so a lookup only
        # tries the few hundred patterns that can match instead of all
        # ~20000, and compiled on the first lookup under that directory.
        self._raw_by_top: dict[str | None, list[tuple[int, str]]] = {}
        self._by_top: dict[str | None, list[tuple[int, _FilePattern]]] = {}
        for order, section in enumerate(sections):
            self._excludes.append(section.excludes)
            regexes = []
            for text in section.regexes:
                try:
                    regexes.append(re.compile(text, re.VERBOSE))
                except re.error:
                    continue  # get_maintainer.pl would die; one bad N: should not
            self._regexes.append(tuple(regexes))
            for pattern in section.files:
                self._raw_by_top.setdefault(_top_directory(pattern), []).append((order, pattern))

    def _patterns(self, top: str | None) -> list[tuple[int, _FilePattern]]:
        if top not in self._by_top:
            self._by_top[top] = [(order, _FilePattern.compile(pattern, self._tree))
                                 for order, pattern in self._raw_by_top.get(top, ())]
        return self._by_top[top]

    def _excluded(self, order: int, relpath: str) -> bool:
        return any(_FilePattern.compile(x, self._tree).matches(relpath)
                   for x in self._excludes[order])

    @classmethod
    def load(cls, tree: Path) -> "Maintainers | None":
        """The tree's MAINTAINERS, or None when it has none."""
        path = Path(tree) / "MAINTAINERS"
        if not path.is_file():
            return None
        try:
            text = path.read_text(errors="replace")
        except OSError as err:
            raise MaintainersError(f"{path}: {err.strerror}") from err
        return cls(parse(text), Path(tree))

    def lookup(self, relpath: str) -> list[Section]:
        """Sections for RELPATH (relative to the tree), most specific first."""
        relpath = str(PurePosixPath(relpath))
        depths: dict[int, int] = {}
        top = relpath.split("/", 1)[0] if "/" in relpath else None
        candidates = self._patterns(None) + (self._patterns(top) if top else [])
        for order, pattern in candidates:
            if pattern.matches(relpath):
                depths[order] = max(pattern.depth, depths.get(order, -2))
        for order, regexes in enumerate(self._regexes):
            if order not in depths and any(r.search(relpath) for r in regexes):
                depths[order] = 0
        matched = [order for order in depths if not self._excluded(order, relpath)]
        matched.sort(key=lambda order: (-depths[order], order))
        return [self.sections[order] for order in matched]


def parse(text: str) -> list[Section]:
    """Sections of a MAINTAINERS text: a title line, then `T:\\tvalue` lines.

    Old files (2.6.x) use the same layout with P:/M:/L:/S: (a P: name is
    kept with its M: address) and, before 2.6.28, no F:, so their sections
    parse but match no file.
    """
    sections = []
    title = None
    fields: dict[str, list[str]] = {}

    def close():
        if title is not None and fields:
            sections.append(Section(
                title=title, maintainers=_people(fields.get("P", []), fields.get("M", [])),
                lists=tuple(fields.get("L", ())), status=" ".join(fields.get("S", ())),
                files=tuple(fields.get("F", ())), excludes=tuple(fields.get("X", ())),
                regexes=tuple(fields.get("N", ()))))

    for line in text.splitlines():
        typed = _TYPED_LINE.match(line)
        if typed and title is not None:
            fields.setdefault(typed.group(1), []).append(typed.group(2))
        elif not line.strip():
            close()
            title, fields = None, {}
        elif not typed:
            # A new untyped line starts a section; prose lines of the
            # header simply end up as titles without fields.
            close()
            title, fields = line.strip(), {}
    close()
    return sections


def _people(names: list[str], mails: list[str]) -> tuple[str, ...]:
    """The maintainers of a section.  Until 2.6.31 a P: line named a person
    and the M: line after it gave the address; as one contact that is
    "Name <address>", as M: lines have been written since."""
    if names and len(names) == len(mails):
        return tuple(f"{name} <{mail}>" if "<" not in mail else mail
                     for name, mail in zip(names, mails))
    return tuple(names) + tuple(mails)


def directory_subsystem(relpath: str) -> str:
    """A subsystem name from the path alone, for trees without MAINTAINERS
    or files no section covers: the first two directories (drivers/char,
    fs/ext2, sound/core)."""
    parts = [p for p in PurePosixPath(relpath).parts[:-1] if p not in ("/", ".", "..")]
    return "/".join(parts[:2]) if parts else "."

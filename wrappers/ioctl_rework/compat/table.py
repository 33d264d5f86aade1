"""What a tree itself does with a 32-bit ioctl whose file has no
.compat_ioctl: its compat table, read as the tree wrote it.

Until 5.x, compat_sys_ioctl() looked a command up in generic tables
before it gave up: COMPATIBLE_IOCTL and ULONG_IOCTL entries pass the
command to the native handler, HANDLE_IOCTL entries (and the cases of
do_ioctl_trans() from 2.6.33) translate it.  The tables are
fs/compat_ioctl.c and include/linux/compat_ioctl.h (2.6.10-2.6.2x), the
architecture's own (arch/x86_64/ia32/ia32_ioctl.c in 2.6.9; only x86 is
read, the compat question here being i386 on x86_64) and, before 2.6.15,
every register_ioctl32_conversion() call of the tree.  Entries are
matched by command number: their macros are expanded with the tree's own
headers (compat.cexpr).  Every other command gets what compat_sys_ioctl
returns for it in that tree: -EINVAL in 2.6, -ENOTTY later.

`#if` around entries is not evaluated: an entry under a config option is
taken as built.

The table is read once a run and kept in the cache with the content of
every file read for it (the table files, the headers they include, the
registering files): reading it costs seconds on a 2.6.9 tree.
"""

import enum
import functools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.cache import Cache, FileDigests, make_key, stat_index
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.compat import cexpr, layout
from ioctl_rework.stages import Stage

_ENTRY = re.compile(r"\b(COMPATIBLE_IOCTL|ULONG_IOCTL|HANDLE_IOCTL|IGNORE_IOCTL)\s*\(")
_REGISTER = re.compile(r"\bregister_ioctl32_conversion\s*\(")
_TABLE_FILES = ("fs/compat_ioctl.c", "include/linux/compat_ioctl.h")
_ARCH_TABLES = ("arch/x86_64/ia32/ia32_ioctl.c", "arch/x86_64/kernel/ioctl32.c",
                "arch/x86/ia32/ia32_ioctl.c", "arch/x86/kernel/ioctl32.c")
_SYSCALL_FILES = ("fs/compat_ioctl.c", "fs/compat.c", "fs/ioctl.c")
# Handlers that hand the command to the native one unchanged.
_NATIVE = re.compile(r"\b(sys_ioctl|do_ioctl32_pointer)\b")
TABLE_FORMAT = "compat-table-1"
REGISTERING_FORMAT = "compat-registering-1"
_REGISTER_WORD = re.compile(rb"\bregister_ioctl32_conversion\b")
# The size field of an _IOC number on x86: what an unknown sizeof leaves open.
SIZE_MASK = 0x3FFF << 16


class TableAction(enum.Enum):
    PASSED = "passed"
    TRANSLATED = "translated"


@dataclass(frozen=True)
class TableEntry:
    expression: str             # the command as the entry writes it
    expanded: tuple[str, ...]   # its tokens after the tree's macros
    action: TableAction
    source: str                 # "fs/compat_ioctl.c:123 COMPATIBLE_IOCTL"

    def describe(self) -> str:
        return f"{self.source}({self.expression})"


@dataclass(frozen=True)
class TableVerdict:
    """What the table does with one command: ENTRY decides it, or nothing
    in the table does (entry None); UNCERTAIN says why it cannot be told."""

    entry: TableEntry | None = None
    uncertain: str | None = None

    @property
    def action(self) -> TableAction | None:
        return self.entry.action if self.entry and not self.uncertain else None


@dataclass(frozen=True)
class CompatTable:
    entries: tuple[TableEntry, ...] = ()
    fallback: str = "-ENOTTY"       # what compat_sys_ioctl returns for the rest
    fallback_source: str = ""       # where the tree says so
    files: tuple[str, ...] = ()     # the table files read, relative to the tree
    # Calls that register a command the text cannot compute (a loop over
    # an array): a handler of such a file cannot be told apart.
    unresolved_files: frozenset = field(default_factory=frozenset)
    # The structures the table files declare (their compat ...32 types):
    # name -> member declarations, for the sizes their commands encode.
    structs: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"entries": [[e.expression, list(e.expanded), e.action.value, e.source]
                            for e in self.entries],
                "fallback": self.fallback, "fallback_source": self.fallback_source,
                "files": list(self.files), "unresolved_files": sorted(self.unresolved_files),
                "structs": {name: list(members) for name, members in self.structs.items()}}

    @classmethod
    def from_json(cls, value: dict) -> "CompatTable":
        return cls(tuple(TableEntry(expression, tuple(expanded), TableAction(action), source)
                         for expression, expanded, action, source in value["entries"]),
                   value["fallback"], value["fallback_source"], tuple(value["files"]),
                   frozenset(value["unresolved_files"]),
                   {name: tuple(members) for name, members in value["structs"].items()})

    @functools.cached_property
    def digest(self) -> str:
        """A key of everything a lookup reads: the verdicts kept by it
        (compat.verdict_memo) hold for any table with the same content."""
        return make_key(TABLE_FORMAT, json.dumps(self.to_json(), sort_keys=True))

    def no_entry(self) -> str:
        """What the rest gets, and who says so."""
        where = f" ({self.fallback_source})" if self.fallback_source else ""
        if not self.files:
            return f"no compat table in the tree: 32-bit processes get {self.fallback}{where}"
        return (f"not in the compat table ({', '.join(self.files)}, {len(self.entries)} "
                f"entries): 32-bit processes get {self.fallback}{where}")

    @functools.cached_property
    def _certain(self) -> dict:
        """Value -> entries, for the entries whose value needs no size."""
        found: dict[int, list[TableEntry]] = {}
        for entry in self.entries:
            try:
                found.setdefault(cexpr.evaluate(entry.expanded), []).append(entry)
            except cexpr.Uncertain:
                continue
        return found

    @functools.cached_property
    def _sized(self) -> tuple[TableEntry, ...]:
        certain = {id(e) for group in self._certain.values() for e in group}
        return tuple(e for e in self.entries if id(e) not in certain)

    def lookup(self, name: str, value: int | None, sizes, file: str = "") -> TableVerdict:
        """The entry for the command NAME whose number for a 32-bit caller is
        VALUE (None: the probe could not compute it); SIZES(type) gives the
        x86_64 sizes known for the entries' types."""
        if file in self.unresolved_files:
            return TableVerdict(uncertain=f"{file} registers commands the text does not give "
                                          "(register_ioctl32_conversion with a computed command)")
        if value is None:
            named = [e for e in self.entries if e.expression == name]
            if named:
                return TableVerdict(named[0], uncertain=(
                    f"{name} could not be probed; {named[0].describe()} names it"))
            return TableVerdict(uncertain=f"{name} could not be probed, so it cannot be "
                                          "looked up in the compat table")
        known = sizes

        def sizes(type_text: str) -> int | None:
            own = re.fullmatch(r"struct (\w+)", type_text)
            return (known(type_text) if known else None) or (
                cexpr.struct_size(own[1], self.structs, sizes) if own else None)
        exact = list(self._certain.get(value, ()))
        possible = []
        for entry in self._sized:
            try:
                if cexpr.evaluate(entry.expanded, sizes) == value:
                    exact.append(entry)
                continue
            except cexpr.Uncertain as why:
                reason = str(why)
            try:
                unsized = cexpr.evaluate(entry.expanded, lambda _: 0)
            except cexpr.Uncertain:
                continue
            if unsized & ~SIZE_MASK == value & ~SIZE_MASK:
                possible.append((entry, reason))
        if exact:
            # A translation wins over a pass: it is looked up first.
            exact.sort(key=lambda e: e.action is not TableAction.TRANSLATED)
            return TableVerdict(exact[0])
        if possible:
            entry, reason = possible[0]
            return TableVerdict(entry, uncertain=f"{entry.describe()} may be {name}: {reason}")
        return TableVerdict()


# ---------------------------------------------------------------- reading

def _context(tree: Path, files: list[Path], read: set[Path]) -> dict[str, cexpr.Macro]:
    """The macros FILES see: their own first, then those of the headers they
    include, transitively, as the x86_64 build resolves them; every file
    read goes to READ."""
    macros: dict[str, cexpr.Macro] = {}
    seen: set[Path] = set()
    todo = list(files)
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        read.add(path)
        try:
            text = cexpr.file_text(path)
        except OSError:
            continue
        for name, macro in [*cexpr.definitions(text).items(),
                            *cexpr.enumerators(text).items()]:
            macros.setdefault(name, macro)
        for quote, name in cexpr.includes(text):
            found = layout.kernel_header(tree, name, quote, path.parent)
            if found is not None:
                todo.append(found)
    return macros


def _arguments(code: str, open_at: int) -> list[str]:
    end = c_spans.closing(code, open_at, "()")
    return [" ".join(a.split()) for a in c_spans.split_top_level(code[open_at + 1:end])]


def _line_of(code: str, offset: int) -> int:
    return code.count("\n", 0, offset) + 1


def _is_directive(code: str, offset: int) -> bool:
    start = code.rfind("\n", 0, offset) + 1
    return code[start:offset].lstrip().startswith("#")


def _action(macro: str, args: list[str], definitions: dict) -> TableAction | None:
    if macro in ("COMPATIBLE_IOCTL", "ULONG_IOCTL"):
        return TableAction.PASSED
    if macro == "HANDLE_IOCTL":
        return TableAction.PASSED if len(args) > 1 and _NATIVE.search(args[1]) \
            else TableAction.TRANSLATED
    # IGNORE_IOCTL means what the tree defines it as.
    body = " ".join(definitions.get(macro, cexpr.Macro(None, ())).body)
    return TableAction.PASSED if "COMPATIBLE_IOCTL" in body or "XFORM" in body else None


def _entries(tree: Path, rel: str, macros: dict) -> list[TableEntry]:
    code = cexpr.file_text(tree / rel)
    own = cexpr.definitions(code)
    found = []
    for match in _ENTRY.finditer(code):
        if _is_directive(code, match.start()):
            continue
        args = _arguments(code, match.end() - 1)
        action = _action(match[1], args, own)
        if action is None or not args[0]:
            continue
        found.append(TableEntry(args[0], tuple(cexpr.expand(args[0], macros.get)), action,
                                f"{rel}:{_line_of(code, match.start())} {match[1]}"))
    found += _switch_entries(tree, rel, code, macros)
    return found


def _function_body(code: str, name: str) -> tuple[int, int] | None:
    match = re.search(rf"\b{name}\s*\([^;{{]*\)\s*\{{", code)
    if not match:
        return None
    return match.end() - 1, c_spans.closing(code, match.end() - 1)


def _switch_entries(tree: Path, rel: str, code: str, macros: dict) -> list[TableEntry]:
    """The cases of do_ioctl_trans() (2.6.33 on): translations."""
    body = _function_body(code, "do_ioctl_trans")
    if body is None:
        return []
    found = []
    for match in re.finditer(r"\bcase\s+([^:]+?)\s*:", code[body[0]:body[1]]):
        offset = body[0] + match.start()
        found.append(TableEntry(match[1], tuple(cexpr.expand(match[1], macros.get)),
                                TableAction.TRANSLATED,
                                f"{rel}:{_line_of(code, offset)} do_ioctl_trans case"))
    return found


def registering_files(tree: Path, cache: Cache | None, stage: Stage | None = None) -> list[str]:
    """The .c files of TREE that name register_ioctl32_conversion (its
    callers, before 2.6.15), through a stat index: a re-run reads none.
    STAGE counts the files."""
    def files():
        for directory, subdirs, names in os.walk(tree):
            subdirs.sort()
            for name in sorted(names):
                if name.endswith(".c"):
                    path = os.path.join(directory, name)
                    try:
                        yield path, os.stat(path)
                    except OSError:
                        continue

    def names_it(path: str) -> bool:
        try:
            return bool(_REGISTER_WORD.search(Path(path).read_bytes()))
        except OSError:
            return False
    walked = list(files())     # first, for the progress line's total
    if stage is not None:
        stage.add(len(walked))
    verdicts = stat_index(cache, make_key(REGISTERING_FORMAT, str(tree)), walked, names_it,
                          stage.tally if stage is not None else None)
    found = (Path(path).relative_to(tree).as_posix() for path, yes in verdicts.items() if yes)
    return sorted(rel for rel in found if rel not in _SYSCALL_FILES)


def _registered(tree: Path, files: list[str],
                read: set[Path]) -> tuple[list[TableEntry], set[str]]:
    """The register_ioctl32_conversion() calls of FILES."""
    found, unresolved = [], set()
    for rel in files:
        read.add(tree / rel)
        code = cexpr.file_text(tree / rel)
        macros = None
        for match in _REGISTER.finditer(code):
            if _is_directive(code, match.start()):
                continue
            args = _arguments(code, match.end() - 1)
            if len(args) != 2 or re.fullmatch(r"(unsigned\s+)?(int|long)\s+\w+", args[0]):
                continue        # a declaration
            macros = macros if macros is not None else _context(tree, [tree / rel], read)
            expanded = tuple(cexpr.expand(args[0], macros.get))
            try:
                cexpr.evaluate(expanded, lambda _: 0)
            except cexpr.Uncertain:
                unresolved.add(rel)
                continue
            action = TableAction.PASSED if args[1] in ("NULL", "0") else TableAction.TRANSLATED
            found.append(TableEntry(args[0], expanded, action,
                                    f"{rel}:{_line_of(code, match.start())} "
                                    "register_ioctl32_conversion"))
    return found, unresolved


_FALLBACK_ANCHOR = re.compile(r"compat_ioctl_error\s*\(|Unknown cmd|==\s*-ENOIOCTLCMD\s*\)")
_ERRNO_SET = re.compile(r"\b\w+\s*=\s*(-E[A-Z]+)\s*;")
_SYSCALL = (re.compile(r"\bcompat_sys_ioctl\s*\([^;{]*\)\s*\{"),
            re.compile(r"\bCOMPAT_SYSCALL_DEFINE3\s*\(\s*ioctl\b[^;{]*\)\s*\{"))


def _fallback(tree: Path) -> tuple[str, str]:
    """What compat_sys_ioctl returns for a command nothing handles (the
    error it sets after its last "unknown command" test), and where."""
    for rel in _SYSCALL_FILES:
        try:
            code = cexpr.file_text(tree / rel)
        except OSError:
            continue
        match = next(filter(None, (p.search(code) for p in _SYSCALL)), None)
        if match is None:
            continue
        start, end = match.end() - 1, c_spans.closing(code, match.end() - 1)
        anchors = list(_FALLBACK_ANCHOR.finditer(code, start, end))
        errno = _ERRNO_SET.search(code, anchors[-1].end(), end) if anchors else None
        if errno:
            return errno[1], f"compat_sys_ioctl, {rel}:{_line_of(code, errno.start())}"
    return "-ENOTTY", ""


def registering(tree: Path) -> bool:
    """Whether the tree has register_ioctl32_conversion() (before 2.6.15)."""
    compat = tree / "fs/compat.c"
    return compat.is_file() and "register_ioctl32_conversion" in cexpr.file_text(compat)


def read(tree: Path | None, cache: Cache | None = None,
         digests: FileDigests | None = None, stage: Stage | None = None) -> CompatTable:
    """TREE's compat table (an empty one without a tree), from CACHE while
    every file read for it has the content it had (DIGESTS: the run's).
    STAGE counts the files: those of the tree searched for registrations,
    then those the table is read from."""
    if tree is None:
        return CompatTable()
    tree = tree.resolve()
    digests = digests or FileDigests()
    names = tuple(rel for rel in (*_TABLE_FILES, *_ARCH_TABLES) if (tree / rel).is_file())
    registrars = registering_files(tree, cache, stage) if names and registering(tree) else []
    roots = [*names, *_SYSCALL_FILES, *registrars]
    key = make_key(TABLE_FORMAT, str(tree), *(f"{rel}\0{digests.digest(tree / rel)}"
                                              for rel in roots))
    if stage is not None:
        stage.add(len(roots))
    stored = cache.get_json(key) if cache is not None else None
    if stored is not None and digests.unchanged(stored["reads"]):
        if stage is not None:
            stage.from_cache(len(roots))
        return CompatTable.from_json(stored["table"])
    read_files: set[Path] = {tree / rel for rel in roots}
    found = _read(tree, names, registrars, read_files)
    if cache is not None:
        cache.put_json(key, {"reads": digests.record(read_files), "table": found.to_json()})
    if stage is not None:
        stage.step(len(roots))
    return found


def _read(tree: Path, names: tuple[str, ...], registering: list[str],
          read: set[Path]) -> CompatTable:
    fallback, where = _fallback(tree)
    entries: list[TableEntry] = []
    unresolved: set[str] = set()
    if names:
        macros = _context(tree, [tree / n for n in names], read)
        for rel in names:
            entries += _entries(tree, rel, macros)
        registered, unresolved = _registered(tree, registering, read)
        entries += registered
    shown = tuple(n for n in names if any(e.source.startswith(n + ":") for e in entries))
    structs = {}
    for rel in names:
        for name, members in cexpr.struct_members(cexpr.file_text(tree / rel)).items():
            structs.setdefault(name, members)
    return CompatTable(tuple(entries), fallback, where, shown, frozenset(unresolved), structs)

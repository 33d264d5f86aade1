"""The files of a run that use a forwarding macro (ctext/macro_forwarding.py)
of a header the run would not read, and those headers a quoted #include
reaches.

The scan reads the files under the run's paths that spell an ioctl member
(tree.member_files).  A driver whose only call through ->ioctl is a macro
of a header elsewhere in the tree, found through its directory's kbuild
include path (`EXTRA_CFLAGS += -I$(src)/../inc`) or a quoted `../`
include, spells none: it was never read, and a run over its directory
converted the lower driver with that call left on a NULL .ioctl, exit 0.
Nor was a header (or a .c file) whose macro pastes the member's name
(`->io##ctl(...)`), anywhere, nor the files that use it: its call was
never refused.  Here the tree's headers that spell the member or paste
a member's name are grepped once, their forwarding macros read (with the
macros of other headers that expand one), and the run's paths grepped
for the names: each file that names one is read by the forwarding stage
(its uses are refused, macro_sites), and a header outside the paths that
spells the member and that it reaches by a quoted #include is a header
of the run, whose macros are rewritten and written with it
(macro_sites.written_headers) or refused."""

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.ctext import include_search, macro_forwarding

# A member named ioctl, as grep -E reads it (the header prefilter), and
# a member whose name is pasted.
_MEMBER = r"(->|\.)[[:space:]]*ioctl([^[:alnum:]_]|$)"
_PASTED_MEMBER = r"(->|\.)[[:space:]]*[[:alnum:]_]*[[:space:]]*##"
# Macros of headers that expand one found: this many levels are followed.
_LEVELS = 8


@dataclass
class Users:
    files: set[str] = field(default_factory=set)     # files under the paths naming a macro
    headers: set[str] = field(default_factory=set)   # outside headers they quote


def find(root: Path, paths: list[Path]) -> Users:
    """The Users, under PATHS (the run's), of the forwarding macros of
    ROOT's headers: those of a header that spells the member, and those of
    one whose body pastes a member's name (`->io##ctl`, `->type##ctl`),
    anywhere in the tree (the scan reads neither kind of header unless it
    spells the member under PATHS, nor a file that only uses the macro)."""
    root = Path(root)
    under = [_relative(root, p) for p in paths]
    if any(rel is None for rel in under):
        return Users()
    under = [rel for rel in under if rel is not None]
    whole = any(rel == "" for rel in under)
    spelled = _grep(root, ["-E", "-e", _MEMBER], [root], ("*.h",))
    pasted = _grep(root, ["-E", "-e", _PASTED_MEMBER], [root], ("*.h",))
    defined: dict[str, str] = {}            # macro name -> its header
    for rel in sorted(spelled | pasted):
        try:
            data = (root / rel).read_bytes()
        except OSError:
            continue
        for macro in macro_forwarding.header_macros(data, rel):
            defined.setdefault(macro.name, rel)
    names = set(defined)
    for _ in range(_LEVELS):                # macros that expand one, in other headers
        if not names:
            break
        grown = set()
        for rel in _grep(root, ["-w", "-F"] + _each(names), [root], ("*.h",)):
            try:
                text = (root / rel).read_bytes().decode("latin-1")
            except OSError:
                continue
            for macro in macro_forwarding.forwarding_macros(text, rel, unprovable_names=names):
                if macro.unprovable and macro.name not in defined:
                    defined[macro.name] = rel
                    grown.add(macro.name)
        if not grown:
            break
        names = grown
    where = [root] if whole else [root / p for p in under]
    # A .c file's own macro that pastes a member's name is one too.
    files = _grep(root, ["-E", "-e", _PASTED_MEMBER], where, ("*.c",))
    if defined:
        files |= _grep(root, ["-w", "-F"] + _each(set(defined)), where, ("*.c", "*.h"))
    # A header under the paths that spells the member is read already.
    outside = {rel for rel in spelled if not whole and not _inside(rel, under)}
    return Users(files, _quoted(root, files, outside & set(defined.values())))


def _quoted(root: Path, files: set[str], wanted: set[str]) -> set[str]:
    """The headers of WANTED that FILES reach through quoted #includes alone
    (any depth), as the compiler finds them (the directory, then its kbuild
    include path, then the tree's include/)."""
    found, seen, todo = set(), set(files), sorted(files)
    while todo:
        rel = todo.pop()
        try:
            text = (root / rel).read_bytes().decode("latin-1")
        except OSError:
            continue
        search = include_search.search_path(root, rel)
        for quoted, _ in include_search.INCLUDE.findall(text):
            if not quoted:
                continue
            header = include_search.find_header(root, search, rel, quoted, False)
            if header is None or os.path.isabs(header) or header in seen:
                continue
            seen.add(header)
            todo.append(header)
            if header in wanted:
                found.add(header)
    return found


def _each(names: set[str]) -> list[str]:
    return [arg for name in sorted(names) for arg in ("-e", name)]


def _grep(root: Path, pattern: list[str], where: list[Path], globs: tuple[str, ...]) -> set[str]:
    """The files under WHERE (relative to ROOT) matching PATTERN (grep's)."""
    command = ["grep", "-r", "-l", "-Z", "-I"] + [f"--include={g}" for g in globs] + \
        pattern + ["--"] + [str(w) for w in where]
    proc = subprocess.run(command, capture_output=True)
    if proc.returncode not in (0, 1):
        raise OSError(f"grep failed: {proc.stderr.decode(errors='replace').strip()}")
    found = set()
    for name in proc.stdout.split(b"\0"):
        if name:
            rel = _relative(root, Path(os.fsdecode(name)))
            if rel is not None:
                found.add(rel)
    return found


def _relative(root: Path, path: Path) -> str | None:
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return None if rel.startswith("..") else ("" if rel == "." else rel)


def _inside(rel: str, under: list[str]) -> bool:
    return any(rel == u or rel.startswith(u.rstrip("/") + "/") for u in under)

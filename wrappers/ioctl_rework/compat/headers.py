"""Which headers a driver's layout probe includes: the userspace (uapi)
headers that define its commands and the types they carry (before 3.7,
the headers of include/linux/ whose userspace half does: compat.layout).

A driver names its ABI header directly (`<linux/foo.h>`, whose uapi half
has the same name, or `<uapi/linux/foo.h>`), or through a kernel-only
header of its own or of the tree that includes it.  Kernel-only headers
never compile for userspace, so they are read, not included: the uapi
headers they include are taken, a few levels deep, as the kernel build
would find them.
"""

import functools
import os
import re
from pathlib import Path

from ioctl_rework.compat import layout

_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)
# Included by the probe's prelude already.
_PRELUDE_HEADERS = {"linux/types.h", "linux/ioctl.h", "asm/ioctl.h"}
# How far through kernel-only headers a uapi header is looked for.
KERNEL_HEADER_DEPTH = 3


def include_dirs(source: Path, tree: Path | None) -> tuple[Path, ...]:
    """Where a driver's headers are found as userspace sees them: beside
    the driver (and its include/uapi, include: the fixture drivers' Kbuild
    layout), then the tree's uapi directories."""
    here = source.resolve().parent
    found = [here / "include" / "uapi", here / "include", *layout.user_dirs(tree)]
    return tuple(dict.fromkeys(d for d in found if d.is_dir()))


def _uapi_names(name: str) -> list[str]:
    """The names a uapi header included as NAME may have: `<uapi/X>` is X
    in a uapi directory, and x86 takes an `<asm/X>` it lacks from
    asm-generic (Kbuild's generated wrappers)."""
    if name.startswith("uapi/"):
        return [name[len("uapi/"):]]
    if name.startswith("asm/"):
        return [name, "asm-generic/" + name[len("asm/"):]]
    return [name]


def _kernel_dirs(tree: Path | None) -> list[Path]:
    if tree is None:
        return []
    return [d for d in (tree / "include", tree / "arch" / "x86" / "include") if d.is_dir()]


def asm_dirs(tree: Path | None) -> dict[str, Path]:
    """ABI -> the directory <asm/X> means for it, in a tree before uapi."""
    found = {abi: layout.asm_dir(tree, abi) for abi in layout.ABIS}
    return {abi: d for abi, d in found.items() if d is not None}


def _includes(header: Path) -> tuple[tuple[str, str], ...]:
    """(quote, name) of each #include of HEADER."""
    return _read_includes(header, header.stat().st_mtime_ns)


def _defined(header: Path) -> frozenset[str]:
    """The macros HEADER defines, and the structures, unions and typedefs
    it declares."""
    return _read_defined(header, header.stat().st_mtime_ns)


# Compiled once, not looked up in re's cache for each of the hundreds of
# headers a run reads.
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)
_AGGREGATE = re.compile(r"\b(?:struct|union)[ \t]+(\w+)[ \t\n]*\{")
_TYPEDEF = re.compile(r"\btypedef\b[^;{]*?(\w+)[ \t]*;")


# Each header read once per run (and again if it changed): the tree's
# headers are shared by many drivers.  Its includes and its definitions
# are two reads: most headers are only walked through for their includes,
# and the three patterns of the definitions were most of the cost.
@functools.lru_cache(maxsize=None)
def _read_includes(header: Path, _mtime: int) -> tuple[tuple[str, str], ...]:
    return tuple(_INCLUDE.findall(header.read_text(errors="replace")))


@functools.lru_cache(maxsize=None)
def _read_defined(header: Path, _mtime: int) -> frozenset[str]:
    text = header.read_text(errors="replace")
    return (frozenset(_DEFINE.findall(text)) | frozenset(_AGGREGATE.findall(text))
            | frozenset(_TYPEDEF.findall(text)))


@functools.lru_cache(maxsize=None)
def _first_file(name: str, places: tuple[Path, ...]) -> Path | None:
    # Strings, not a Path per candidate: most candidates do not exist, and
    # pathlib's joins were most of the probe's header walk.
    for place in places:
        candidate = os.path.join(place, name)
        if os.path.isfile(candidate):
            return Path(os.path.normpath(candidate))
    return None


def _uapi(name: str, dirs: tuple[Path, ...]) -> Path | None:
    return next(filter(None, (_first_file(candidate, dirs) for candidate in _uapi_names(name))),
                None)


@functools.lru_cache(maxsize=None)
def _beneath(header: Path, depth: int, dirs: tuple[Path, ...],
             kernel_dirs: tuple[Path, ...]) -> tuple[frozenset[Path], frozenset[Path]]:
    """The uapi headers HEADER includes, and those the headers it includes
    that are not uapi ones include, DEPTH levels down; and the headers read
    to know it.  Once per run."""
    found, read = set(), {header}
    for quote, name in _includes(header):
        if name in _PRELUDE_HEADERS:
            continue
        own = _first_file(name, (header.parent,)) if quote == '"' else None
        uapi = None if own is not None else _uapi(name, dirs)
        if uapi is not None:
            found.add(uapi)
            continue
        inner = own or (_first_file(name, kernel_dirs) if quote == "<" else None)
        if inner is not None and depth > 0:
            below, inner_read = _beneath(inner, depth - 1, dirs, kernel_dirs)
            found |= below
            read |= inner_read
    return frozenset(found), frozenset(read)


def probe_headers(source: Path, text: str, dirs: tuple[Path, ...],
                  tree: Path | None = None, commands: frozenset[str] = frozenset()
                  ) -> tuple[tuple[Path, ...], frozenset[Path]]:
    """The uapi headers SOURCE includes, and those its kernel-only headers
    (its own, or the TREE's) include that define one of COMMANDS: only
    those, as uapi headers pulled in by kernel ones clash with the C
    library's (struct timeval).  Before uapi, a header of the tree is
    included only when it declares one of COMMANDS (the commands and type
    names): most of include/linux/ is kernel-only there.  Also the headers
    read to choose them, on which the choice depends."""
    found: list[Path] = []
    read: set[Path] = set()
    here, kernel_dirs = source.resolve().parent, tuple(_kernel_dirs(tree))
    shared = tree is not None and not layout.has_uapi(tree)
    for quote, name in _INCLUDE.findall(text):
        if name in _PRELUDE_HEADERS:
            continue
        own = _first_file(name, (here,)) if quote == '"' else None
        uapi = None if own is not None else _uapi(name, dirs)
        if uapi is not None and shared and tree.resolve() in uapi.resolve().parents:
            read.add(uapi)
            if _defined(uapi) & commands:
                found.append(uapi)
            continue
        if uapi is not None:
            found.append(uapi)
            continue
        # The driver's own header is probed as it is, and read for the uapi
        # headers it includes, in case it does not compile for userspace.
        if own is not None:
            found.append(own)
        inner = own or (_first_file(name, kernel_dirs) if quote == "<" else None)
        if inner is not None:
            below, below_read = _beneath(inner, KERNEL_HEADER_DEPTH - 1, dirs, kernel_dirs)
            read |= below_read | below
            found += sorted(h for h in below if _defined(h) & commands)
    return tuple(dict.fromkeys(found)), frozenset(read)

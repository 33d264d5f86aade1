"""Which headers a driver's layout probe includes: the userspace (uapi)
headers that define its commands and the types they carry.

A driver names its ABI header directly (`<linux/foo.h>`, whose uapi half
has the same name, or `<uapi/linux/foo.h>`), or through a kernel-only
header of its own or of the tree that includes it.  Kernel-only headers
never compile for userspace, so they are read, not included: the uapi
headers they include are taken, a few levels deep, as the kernel build
would find them.
"""

import re
from pathlib import Path

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
    found = [here / "include" / "uapi", here / "include"]
    if tree is not None:
        found += [tree / "include" / "uapi", tree / "arch" / "x86" / "include" / "uapi"]
    return tuple(d for d in found if d.is_dir())


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


def _defines(header: Path, names: frozenset[str]) -> bool:
    if not names:
        return False
    text = header.read_text(errors="replace")
    return re.search(r"^[ \t]*#[ \t]*define[ \t]+(%s)\b" % "|".join(map(re.escape, sorted(names))),
                     text, re.MULTILINE) is not None


def probe_headers(source: Path, text: str, dirs: tuple[Path, ...],
                  tree: Path | None = None, commands: frozenset[str] = frozenset()
                  ) -> tuple[Path, ...]:
    """The uapi headers SOURCE includes, and those its kernel-only headers
    (its own, or the TREE's) include that define one of COMMANDS: only
    those, as uapi headers pulled in by kernel ones clash with the C
    library's (struct timeval)."""
    found: list[Path] = []
    seen: set[Path] = set()

    def read(header: Path, depth: int) -> None:
        if depth > 0 and header.resolve() not in seen:
            seen.add(header.resolve())
            visit(header, header.read_text(errors="replace"), depth - 1)

    def visit(including: Path, text: str, depth: int) -> None:
        for quote, name in _INCLUDE.findall(text):
            if name in _PRELUDE_HEADERS:
                continue
            own = including.resolve().parent / name
            if quote == '"' and own.is_file():
                # The driver's own header: probed as it is when the driver
                # includes it, and read for the uapi headers it includes,
                # in case it does not compile for userspace.
                read(own, depth)
                if including == source:
                    found.append(own.resolve())
                continue
            header = next((place / candidate for candidate in _uapi_names(name)
                           for place in dirs if (place / candidate).is_file()), None)
            if header is not None:
                if including == source or _defines(header, commands):
                    found.append(header.resolve())
            elif quote == "<":
                kernel = next((d / name for d in _kernel_dirs(tree) if (d / name).is_file()), None)
                if kernel is not None:
                    read(kernel, depth)

    visit(source, text, KERNEL_HEADER_DEPTH)
    return tuple(dict.fromkeys(found))

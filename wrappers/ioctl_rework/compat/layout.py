"""Where a kernel tree of any era keeps its headers.

uapi directories arrived in 3.7; before them include/linux/ held the
headers userspace and the kernel share (the userspace half outside
`#ifdef __KERNEL__`), and <asm/...> was one directory per architecture:
include/asm-i386 and include/asm-x86_64 until 2.6.23, include/asm-x86 in
2.6.24-2.6.27, arch/x86/include/asm from 2.6.28.  Only x86 is read: the
compat question here is i386 on x86_64.
"""

from pathlib import Path

ABIS = ("i386", "x86_64")


def has_uapi(tree: Path | None) -> bool:
    return tree is not None and (tree / "include" / "uapi").is_dir()


def asm_dir(tree: Path | None, abi: str) -> Path | None:
    """The directory <asm/X> means for ABI in TREE, before uapi; None in a
    uapi tree (arch/x86/include/uapi holds asm/ itself) or without a tree."""
    if tree is None or has_uapi(tree):
        return None
    for candidate in (tree / "include" / f"asm-{abi}", tree / "include" / "asm-x86",
                      tree / "arch" / "x86" / "include" / "asm"):
        if candidate.is_dir():
            return candidate
    return None


def user_dirs(tree: Path | None) -> list[Path]:
    """The directories userspace headers of TREE are found in (<asm/> aside)."""
    if tree is None:
        return []
    if has_uapi(tree):
        found = [tree / "include" / "uapi", tree / "arch" / "x86" / "include" / "uapi"]
    else:
        found = [tree / "include"]
    return [d for d in found if d.is_dir()]


def kernel_dirs(tree: Path | None) -> list[Path]:
    """Where the kernel's own build finds <X>, for x86_64, <asm/> aside."""
    if tree is None:
        return []
    found = [tree / "include", tree / "arch" / "x86" / "include",
             tree / "include" / "uapi", tree / "arch" / "x86" / "include" / "uapi"]
    return [d for d in found if d.is_dir()]


def kernel_header(tree: Path, name: str, quote: str, here: Path) -> Path | None:
    """The file `#include QUOTE NAME` in a file of directory HERE reads when
    TREE is built for x86_64; None when it is not in the tree (a generated
    header)."""
    places = [here] if quote == '"' else []
    if name.startswith("asm/"):
        asm = asm_dir(tree, "x86_64")
        rest = name[len("asm/"):]
        places_named = [(d, rest) for d in ([asm] if asm else [])]
        places_named += [(d / "asm", rest) for d in kernel_dirs(tree)]
        places_named += [(d / "asm-generic", rest) for d in kernel_dirs(tree)]
        candidates = [(p, name) for p in places] + places_named
    else:
        candidates = [(p, name) for p in places + kernel_dirs(tree)]
    for directory, relative in candidates:
        path = directory / relative
        if path.is_file():
            return path
    return None

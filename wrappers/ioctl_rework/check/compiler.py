"""The compiler as the last word (`check --kdir KDIR`).

The rules and check's own reading see the text; gcc sees what the
preprocessor makes of it: a member spelled across a line splice, pasted
by `##`, named by `#define OLD_OP ioctl` or written by a macro of any
header.  With --kdir, each .c file a patch changes is compiled against
KDIR as kbuild compiles an external module (verify.build), with
KDIR's include/linux/fs.h put before its own in a copy whose struct
file_operations has no `ioctl` member, as from 2.6.36 on.  Its slot keeps
its place under a name of ours and a pointer type nothing converts to,
so that a positional initializer is caught too.  Every use of the member
is then an error gcc reports with its file and line (and, for a macro,
where the macro was used): an ERROR:LEGACY_IOCTL where one of those lines
is one the patch changes, a WARNING where none is.  A compile that stops
early (a fatal error, make failing) has not read the whole file: it is
NOT_CHECKED.  One that read it settles the legacy question for every file
it read: code the rules could not read there is no longer an error.
"""

import re
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework.verify.build import Builder, KdirError, KernelDir
from ioctl_rework.verify.diagnostics import Diagnostic
from ioctl_rework import cache as cache_mod

FOPS_HEADER = "include/linux/fs.h"
SLOT = "ioctl_rework_legacy_ioctl_member"
_STRUCT = re.compile(r"^struct\s+file_operations\s*\{", re.M)
_MEMBER = re.compile(r"[^;{}]*\(\s*\*\s*ioctl\s*\)\s*\([^;{}]*\)\s*;")
# gcc's words for a use of the member, with ASCII quotes (LC_ALL=C) or typographic.
_USE = re.compile(r"[`'\u2018](?:const |volatile )*struct file_operations['\u2019] has no "
                  r"member named [`'\u2018]ioctl['\u2019]|\b" + SLOT + r"\b")


def marked_header(kdir: Path, patched: dict[str, bytes]) -> dict[str, bytes]:
    """{FOPS_HEADER: the header with the legacy member taken out}, from
    PATCHED when the patch changes it, else from KDIR (or the source tree
    an O= KDIR links); {} when struct file_operations has no such member
    (gcc then refuses every use as it is).  KdirError when there is no
    struct file_operations to mark."""
    text = patched.get(FOPS_HEADER)
    if text is None:
        for base in (kdir, kdir / "source"):
            try:
                text = (base / FOPS_HEADER).read_bytes()
                break
            except OSError:
                continue
    if text is None:
        raise KdirError(f"--kdir {kdir}: no {FOPS_HEADER} (in KDIR or KDIR/source)")
    source = text.decode("latin-1")
    start = _STRUCT.search(source)
    if start is None:
        raise KdirError(f"--kdir {kdir}: no struct file_operations in {FOPS_HEADER}, so "
                        "check cannot mark its ioctl member")
    end = source.find("\n}", start.end())
    member = _MEMBER.search(source, start.end(), end if end >= 0 else len(source))
    if member is None:
        return {}
    # _MEMBER starts after the member before: the slot goes on that line,
    # and the lines it took stay, so that gcc's lines in the header are KDIR's.
    slot = f" struct {SLOT} *{SLOT};" + "\n" * member[0].count("\n")
    return {FOPS_HEADER: (source[:member.start()] + slot + source[member.end():])
            .encode("latin-1")}


@dataclass(frozen=True)
class Use:
    """One use of the legacy member gcc reports."""
    diagnostic: Diagnostic

    @property
    def places(self) -> tuple[tuple[str, int], ...]:
        """Where gcc points, then where each macro it came out of was used
        (the file being compiled last)."""
        d = self.diagnostic
        return ((d.file, d.line), *d.expansions)

    def __str__(self) -> str:
        d = self.diagnostic
        return f"{d.file}:{d.line}: {d.severity}: {d.text}"


@dataclass(frozen=True)
class Compiled:
    """What gcc said of one .c file compiled with the member marked."""
    source: str
    uses: tuple[Use, ...]
    stopped: str | None             # why gcc did not read the whole file
    other_errors: tuple[Diagnostic, ...]
    read: tuple[str, ...] = ()      # the files of the run gcc read: SOURCE and its headers


def compile_marked(kdir: KernelDir, tree: Path, files: dict[str, bytes], sources: list[str],
                   jobs: int) -> dict[str, Compiled]:
    """Each of SOURCES compiled against KDIR with FILES (relpath -> the
    patch's text) over TREE's, the legacy member marked; no sparse, no .i
    (only gcc's word is wanted, and as fast as a plain make)."""
    files = {**files, **marked_header(kdir.path, files)}
    builder = Builder(replace(kdir, sparse=False), tree, cache_mod.Cache(None), jobs)
    found = {}
    for source, built in builder.build(files, sources, keep_preprocessed=False).items():
        uses = tuple(Use(d) for d in built.diagnostics if _USE.search(d.text))
        # gcc takes `.ioctl = h` for a positional `h` once it refuses `.ioctl`.
        at_uses = {place for use in uses for place in use.places}
        others = tuple(d for d in built.diagnostics if d.severity == "error"
                       and not _USE.search(d.text) and (d.file, d.line) not in at_uses)
        fatal = next((d for d in others if d.fatal or d.line == 0), None)
        stopped = None
        if fatal is not None:
            stopped = f"gcc stopped: {fatal}"
        elif not built.built and not built.diagnostics:
            stopped = "make built nothing and gcc said no error"
        found[source] = Compiled(source, uses, stopped, others, built.read or (source,))
    return found

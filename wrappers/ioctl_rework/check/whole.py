"""Files a patch brings in without showing their lines, judged as added whole.

A rename or a copy (100% similar, no hunks) into a .c or .h, the file a new
`#include` reads, the target of a new symbolic link: the compiler reads
all of it, so check does too, as if the patch added every line (shown at
the patch line that brings it in: the rename header, the #include).  A
bare patch (no tree around it) cannot read what it does not carry: that
is NOT_CHECKED (Unread), never passed.
"""

import posixpath
import re
from dataclasses import dataclass
from typing import Callable

from ioctl_rework.ctext import candidates
from ioctl_rework.ctext.conditionals import TARGET_NAMES
from ioctl_rework.ctext.spans import code_only
from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.patches.parser import FinalFile, Status

# How deep `#include "..."` is followed from a file a patch changes.
MAX_INCLUDE_DEPTH = 4


@dataclass(frozen=True)
class Unread:
    """Code a bare patch brings in without carrying it: NOT_CHECKED."""
    path: str
    patch_line: int
    reason: str


@dataclass(frozen=True)
class Whole:
    """Why a file is judged as added whole, and the patch line that brings it."""
    reason: str
    patch_line: int


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)


# A local header that (re)defines what decides a multi-kernel driver's
# halves decides them in every file including it (check.compiled).
_TARGET_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(?:define|undef)[ \t]+(?:%s)\b"
                               % "|".join(TARGET_NAMES).encode(), re.M)


def _claims_ioctl(data: bytes, local: bool = True) -> bool:
    """Whether the code of DATA, an included file, may set the legacy .ioctl
    (then it is judged whole): an ioctl member, or for a LOCAL file (not a
    kernel header) a file_operations in any spelling or a #define or #undef
    of a target macro (HAVE_UNLOCKED_IOCTL)."""
    if not candidates.names_an_entry(data) and not (local and b"file_operations" in data) \
            and not (local and (b"IOCTL" in data or b"VERSION" in data)):
        return False
    code = code_only(data.decode(errors="surrogateescape")).encode(errors="surrogateescape")
    return candidates.names_an_entry(code) or (local and b"file_operations" in code) or \
        (local and _TARGET_DIRECTIVE.search(code) is not None)


def includes(text: str) -> list[tuple[str, bool, int]]:
    """(name, angle, line) of each #include of TEXT: "name" or <name>."""
    return [(m[1] or m[2], m[2] is not None, text.count("\n", 0, m.start()) + 1)
            for m in _INCLUDE.finditer(text)]


def _new_includes(f: FinalFile, text: str,
                  whole: Whole | None) -> list[tuple[str, bool, int]]:
    """(name, angle, patch line) of each #include F's patch adds: every
    one of a file brought in WHOLE, shown at the line that brings it."""
    found = []
    for name, angle, n in includes(text):
        if whole is not None:
            found.append((name, angle, whole.patch_line))
        elif n in f.added:
            found.append((name, angle, f.added[n].patch_line))
    return found


def resolve(base: str, name: str, angle: bool) -> list[str]:
    """Where `#include "NAME"` in BASE may read: BASE's directory, then the
    top of the tree; `#include <NAME>`: the kernel's include directories.
    Names that climb out of the tree are left out."""
    found = []
    starts = ("include", "include/uapi") if angle else (posixpath.dirname(base), "")
    for start in starts:
        path = posixpath.normpath(posixpath.join(start, name))
        if not path.startswith(("../", "/")) and path != "..":
            found.append(path)
    return list(dict.fromkeys(found))


ReadMany = Callable[[list[str]], dict[str, bytes | None]]


def whole_files(patch_set: patch_parser.PatchSet, images: dict[str, bytes],
                read_many: ReadMany, bare: bool
                ) -> tuple[dict[str, Whole], dict[str, bytes], list[Unread]]:
    """The files PATCH_SET brings in whole, their contents, and what a bare
    patch (BARE: no tree around it) brings in that it does not carry.
    READ_MANY gives the contents of paths as the patch leaves the tree
    (None: not known), many at once (one git process for a commit's)."""
    whole: dict[str, Whole] = {}
    contents: dict[str, bytes | None] = dict(images)
    unread: list[Unread] = []

    def fetch(paths) -> None:
        todo = [p for p in dict.fromkeys(paths) if p not in contents]
        if todo:
            contents.update(read_many(todo))

    finals = [f for f in patch_set.final_files() if not f.deleted and not f.binary]
    links = {f.path: _link_target(f) for f in finals if f.symlink}
    fetch([f.path for f in finals if f.symlink and links[f.path] is None])
    links.update({p: contents[p].decode(errors="surrogateescape")
                  for p, target in links.items() if target is None and contents.get(p)})
    fetch([f.path for f in finals if f.is_source and not f.symlink]
          + [_link_path(p, t) for p, t in links.items() if t is not None and _link_path(p, t)])
    for f in finals:
        header = f.patches[-1].patch_line
        if f.symlink:
            target = links.get(f.path)
            resolved = _link_path(f.path, target) if target is not None else None
            if target is None:
                why = "the patch makes this a symbolic link, but does not say to what"
            elif resolved is None:
                why = f"a symbolic link to {target}, outside the tree: what it holds " \
                      "cannot be read"
            elif contents.get(resolved) is None:
                why = f"a symbolic link to {resolved}, which the patch does not carry"
            else:
                if f.is_source or _claims_ioctl(contents[resolved]):
                    whole[f.path] = Whole(f"a symbolic link to {resolved}", header)
                    contents[f.path] = contents[resolved]
                continue
            if f.is_source:
                unread.append(Unread(f.path, header, why))
            continue
        # A copy is new code; so is a rename that makes a file a C file or
        # header it was not (a .c renamed to a .c is the same code moved).
        brought = [p for p in f.patches if p.status is Status.COPIED or (
            p.status is Status.RENAMED
            and posixpath.splitext(p.old_path)[1] != posixpath.splitext(f.path)[1])]
        if brought and f.is_source:
            source = brought[-1]
            verb = "renamed" if source.status is Status.RENAMED else "copied"
            if contents.get(f.path) is None:
                unread.append(Unread(f.path, source.patch_line,
                                     f"{verb} from {source.old_path}, whose lines the patch "
                                     "does not carry"))
                continue
            whole[f.path] = Whole(f"{verb} from {source.old_path}", source.patch_line)
    _follow_includes(finals, whole, contents, fetch, unread, bare)
    return whole, {p: contents[p] for p in whole}, unread


def _link_path(link: str, target: str) -> str | None:
    """The path in the tree a symbolic link LINK to TARGET leads to; None out of it."""
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(link), target))
    if target.startswith("/") or resolved.startswith("../") or resolved == "..":
        return None
    return resolved


def _follow_includes(finals, whole, contents, fetch, unread, bare) -> None:
    """Judge whole what the new #include lines read, level by level (each
    level's files fetched at once), MAX_INCLUDE_DEPTH deep.  A kernel
    header (<...>) counts only if it sets .ioctl itself; a file of the
    tree ("...") is followed further in any case."""
    level = []
    for f in finals:
        data = contents.get(f.path) if (f.is_source or f.path in whole) else None
        if data is None or f.symlink:
            continue
        text = data.decode(errors="surrogateescape")
        level += [(f.path, name, angle, patch_line)
                  for name, angle, patch_line in _new_includes(f, text, whole.get(f.path))]
    seen = set()
    for _ in range(MAX_INCLUDE_DEPTH):
        # A bare patch has no tree to find <linux/...> in.
        level = [item for item in level if (item[0], item[1]) not in seen
                 and not (item[2] and bare)]
        seen.update((base, name) for base, name, _, _ in level)
        fetch([p for base, name, angle, _ in level for p in resolve(base, name, angle)])
        following = []
        for base, name, angle, patch_line in level:
            path = next((p for p in resolve(base, name, angle)
                         if contents.get(p) is not None), None)
            if path is None:
                if bare:
                    unread.append(Unread(base, patch_line, f'the patch includes "{name}", '
                                         "which it does not carry: what it holds cannot be "
                                         "read"))
                continue
            data = contents[path]
            if _claims_ioctl(data, local=not angle) and path not in whole:
                whole[path] = Whole(f"included by {base}", patch_line)
            if not angle:
                following += [(path, inner, inner_angle, patch_line) for inner, inner_angle, _
                              in includes(data.decode(errors="surrogateescape"))]
        level = following


def _link_target(f: FinalFile) -> str | None:
    """What the symbolic link F points to, when the patch shows it (git's
    objects hold a link as its target, read otherwise)."""
    shown = [ln.text for _, ln in sorted(f.added.items())]
    return shown[0] if len(shown) == 1 else None

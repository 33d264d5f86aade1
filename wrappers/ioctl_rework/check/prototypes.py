"""A handler a patch converts whose header still declares it the old way.

knob.h says `int knob_ioctl(struct inode *, struct file *, unsigned int,
unsigned long);` and the patch converts knob.c's definition to `long
knob_ioctl(struct file *, unsigned int, unsigned long)` but leaves knob.h:
where knob.c includes it the tree no longer builds, and a file that calls
the handler through the header passes it the old arguments.  check judges
the files a patch changes; a header it does not change is read by nobody.
So each function a changed .c file converts (defined with the unlocked
signature on lines the patch changes, the legacy one on lines it removes)
is looked for in the headers that file includes, as the patch leaves them
(quoted ones as check follows them, to MAX_INCLUDE_DEPTH; <...> ones of
the tree's include/ directly included), and a declaration there that
still takes an inode first is an ERROR (the project's first rule: a patch
that leaves the tree wrong does not pass).
A converted handler that is not static may be declared too in a header
its own file does not include: a shared header of its module that only the
other files include, which they call it through.  So the headers among the
patch's files, and the tree's headers that name it (DECLARING: found as
the patch leaves the tree), are searched for it too.
A bare patch cannot read the headers: a converted handler that is not
static (other files may call it through one) is NOT_CHECKED there.
"""

import re
from dataclasses import dataclass
from typing import Callable

from ioctl_rework.check.whole import MAX_INCLUDE_DEPTH, Unread, includes, resolve
from ioctl_rework.ctext.spans import code_only
from ioctl_rework.patches.parser import FinalFile

# The type of the problem a StalePrototype is.
STALE_PROTOTYPE = "STALE_PROTOTYPE"
# A definition with the unlocked signature: (struct file *, unsigned int, unsigned long).
_UNLOCKED_DEFINITION = re.compile(
    r"^[ \t]*((?:static\s+)?(?:inline\s+)?)(?:long|int)\s+(\w+)\s*\(\s*struct\s+file\s*\*\s*\w*"
    r"\s*,\s*unsigned\s+int\s*\w*\s*,\s*unsigned\s+long\s*\w*\s*\)\s*\{", re.M)


@dataclass(frozen=True)
class StalePrototype:
    """HEADER:HEADER_LINE declares HANDLER with the legacy prototype, which
    PATH (line LINE, patch line PATCH_LINE) now defines unlocked."""
    handler: str
    header: str
    header_line: int
    path: str
    line: int
    patch_line: int
    text: str


ReadMany = Callable[[list[str]], dict[str, bytes | None]]
# The tree's .h files whose text names a word, as the patch leaves them.
Declaring = Callable[[str], list[str]]


def _converted(f: FinalFile, text: str) -> list[tuple[str, bool, int]]:
    """(name, static, line) of each function F defines unlocked on a
    line the patch changes (from its return type to its brace) whose
    legacy signature a removed line shows: converted, not new."""
    code = code_only(text)
    removed = code_only("\n".join(ln.text for p in f.patches for hunk in p.hunks
                                   for ln in hunk.lines if ln.kind == "-"))
    found = []
    for match in _UNLOCKED_DEFINITION.finditer(code):
        first = code.count("\n", 0, match.start()) + 1
        last = code.count("\n", 0, match.end()) + 1
        changed = [n for n in range(first, last + 1) if n in f.added]
        if changed and re.search(r"\b%s\s*\(\s*struct\s+inode\b" % match.group(2), removed):
            found.append((match.group(2), "static" in match.group(1), changed[0]))
    return found


def _headers(path: str, text: str, contents: dict, fetch) -> list[str]:
    """The headers PATH (whose text is TEXT) includes that can be read:
    quoted ones followed MAX_INCLUDE_DEPTH deep, <...> ones directly."""
    found: list[str] = []
    level = [(path, name, angle) for name, angle, _ in includes(text)]
    for _ in range(MAX_INCLUDE_DEPTH):
        fetch([p for base, name, angle in level for p in resolve(base, name, angle)])
        following = []
        for base, name, angle in level:
            header = next((p for p in resolve(base, name, angle)
                           if contents.get(p) is not None), None)
            if header is None or header in found:
                continue
            found.append(header)
            if not angle:
                following += [(header, inner, inner_angle) for inner, inner_angle, _
                              in includes(contents[header].decode(errors="surrogateescape"))
                              if not inner_angle]
        level = following
    return found


def stale_prototypes(finals: list[FinalFile], images: dict[str, bytes], read_many: ReadMany,
                     bare: bool, declaring: Declaring | None = None
                     ) -> tuple[list[StalePrototype], list[Unread]]:
    """The legacy declarations, in the headers they include, of the
    handlers FINALS' .c files convert (IMAGES: the patch's files as it
    leaves them; READ_MANY: any other file so, None when not known), and
    what a BARE patch cannot read.  Of a handler not static, also in the
    patch's headers and those DECLARING finds (module doc)."""
    contents: dict[str, bytes | None] = dict(images)

    def fetch(paths) -> None:
        todo = [p for p in dict.fromkeys(paths) if p not in contents]
        if todo:
            contents.update(read_many(todo))

    stale, unread = [], []
    for f in finals:
        if not f.path.endswith(".c") or f.deleted or images.get(f.path) is None:
            continue
        text = images[f.path].decode(errors="surrogateescape")
        converted = _converted(f, text)
        if not converted:
            continue
        if bare:
            for name, static, line in converted:
                if not static:
                    unread.append(Unread(f.path, f.added[line].patch_line, (
                        f"{name} is converted to the unlocked signature, and is not static: "
                        "a header of the tree may still declare its legacy prototype, which a "
                        "bare patch does not carry")))
            continue
        included = _headers(f.path, text, contents, fetch)
        for name, static, line in converted:
            legacy = re.compile(r"\b%s\s*\(\s*struct\s+inode\b" % re.escape(name))
            headers = list(included)
            if not static:
                others = [p for p in images if p.endswith(".h")]
                others += declaring(name) if declaring is not None else []
                fetch(others)
                headers += [p for p in dict.fromkeys(others)
                            if p not in headers and contents.get(p) is not None]
            for header in headers:
                code = code_only(contents[header].decode(errors="surrogateescape"))
                for match in legacy.finditer(code):
                    shown = f.added[line]
                    stale.append(StalePrototype(name, header, code.count("\n", 0, match.start())
                                                + 1, f.path, line, shown.patch_line,
                                                shown.kind + shown.text))
    return stale, unread

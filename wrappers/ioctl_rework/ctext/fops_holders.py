"""Which object an initializer's braces initialize, by text: a declared
variable, an element of an array, a member of an enclosing structure
(a file_operations embedded in a drm_driver), a compound literal
(`&(struct file_operations){ ... }`), or one of these inside a device
table.  ioctl_tokens asks it where each `.ioctl` entry is.

A member's type comes from the structures the text declares; a structure
it does not declare (a kernel header's) leaves the type unknown (None),
and the caller decides what an unknown holder means.
"""

import enum
import re
from dataclasses import dataclass

from ioctl_rework.ctext import spans


class Shape(enum.Enum):
    DECLARED = "declared"       # `struct file_operations x = {` (or an array of them)
    EMBEDDED = "embedded"       # a member of another structure: `.fops = {`
    COMPOUND = "compound"       # `(struct file_operations){ ... }`
    TABLE = "table"             # inside an element of an array of other structures
    UNPLACED = "unplaced"       # braces the text does not say the type of (a macro)


@dataclass(frozen=True)
class Holder:
    """The object whose member an initializer entry sets."""

    type: str | None        # its struct type; None when the text does not say
    shape: Shape
    name: str               # as a person reads it: `drv.fops`, `devs[1].ops`
    outer: str | None       # the type of the outermost object, as written:
                            # `struct board`, `union ops`, a typedef's name
    is_array: bool = False  # the braces hold elements of an array, not members
    # The type name of a declaration written without `struct`
    # (`snd_pcm_ops_t ops = {`): a typedef or a macro this text cannot tell
    # apart, so TYPE stays None and SHAPE UNPLACED; member_types proves it.
    typedef: str | None = None


@dataclass(frozen=True)
class Member:
    name: str
    type: str | None        # the struct type, or the first word of another type
    is_array: bool


# "struct T name =", "struct T name[] =", and the DRM templates' "struct T DRM(fops) =".
# The name may be pasted in a macro body (`struct proto_ops name##_ops = {`).
_DECLARED = re.compile(r"\b(struct|union)\s+(\w+)\s+[\w\s*]*?(\w+\s*\(\s*\w+\s*\)|\w+(?:\s*##\s*\w+)*)"
                       r"\s*(\[[^\]]*\])?\s*=\s*$")
# "T name =", "static const T name[] =": T a typedef'd name (or a macro).
_TYPEDEF_DECLARED = re.compile(r"(?:^|[;{}\n])\s*(?:(?:static|const|volatile|extern)\s+)*"
                               r"(?!(?:struct|union|enum|return|case|else|do|goto|sizeof)\b)"
                               r"([A-Za-z_]\w*)\s+(?:const\s+)?([A-Za-z_]\w*)\s*"
                               r"(\[[^\]]*\])?\s*=\s*$")
_COMPOUND = re.compile(r"\(\s*(?:(?:const|volatile)\s+)*struct\s+(\w+)\s*(\[[^\]]*\])?\s*\)\s*$")
_DESIGNATOR = re.compile(r"(?:\.\s*(\w+)\s*(?:\[[^\]]*\]\s*)?=|(?<![\w.>?])(\w+)\s*:)\s*$")
_INDEX = re.compile(r"\[\s*([^\]]*?)\s*\]\s*=\s*$")
# What a compound literal is stored in: `x.fops = &`, `p->ops =`.
_TARGET = re.compile(r"([A-Za-z_][\w.\[\]>-]*)\s*=(?<!==)\s*&?\s*$")
_STRUCT_BODY = re.compile(r"\b(?:struct|union)\s+(\w+)\s*\{")
_MEMBER_TYPE = re.compile(r"^(?:(?:const|volatile|unsigned|signed|static)\s+)*"
                          r"(?:(?:struct|union|enum)\s+)?(\w+)")


def struct_members(code: str) -> dict[str, list[Member]]:
    """The members, in order, of each structure CODE (from code_only)
    declares.  A nested struct or union counts as one member."""
    found = {}
    for match in _STRUCT_BODY.finditer(code):
        end = spans.closing(code, match.end() - 1)
        body = _flat(code[match.end():end])
        members = []
        for declaration in body.split(";"):
            declaration = " ".join(declaration.split())
            typed = _MEMBER_TYPE.match(declaration)
            if not typed:
                continue
            rest = declaration[typed.end():]
            for declarator in spans.split_top_level(rest):
                declarator = declarator[-200:]     # a name is at its end
                name = re.search(r"\(\s*\*\s*(\w+)\s*\)|(\w+)\s*(\[[^\]]*\])?\s*(?::\s*\d+)?\s*$",
                                 declarator)
                if name:
                    members.append(Member(name[1] or name[2],
                                          None if name[1] or "*" in declarator else typed[1],
                                          bool(name[3])))
                elif not declarator.strip():
                    members.append(Member("", typed[1], False))
        found.setdefault(match.group(1), members)
    return found


class StructMembers:
    """struct_members(CODE), read when a holder first needs it."""

    def __init__(self, code: str):
        self._code = code
        self._members: dict[str, list[Member]] | None = None

    def get(self, struct: str, default=None):
        if self._members is None:
            self._members = struct_members(self._code)
        return self._members.get(struct, default)


def _flat(body: str) -> str:
    """BODY with what its nested braces hold blanked."""
    out, depth = [], 0
    for char in body:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def holder(code: str, offset: int, members: StructMembers) -> Holder | None:
    """What the initializer around OFFSET of CODE (from code_only)
    initializes, or None when OFFSET is in no braces.  MEMBERS:
    struct_members(CODE)."""
    brace = spans.enclosing_brace(code, offset)
    return None if brace is None else _object(code, brace, members, 0)


def _object(code: str, brace: int, members: StructMembers, depth: int) -> Holder:
    """What the braces at BRACE initialize (DEPTH: how far out the walk is)."""
    before = code[max(0, brace - 300):brace]
    declared = _DECLARED.search(before)
    if declared:
        name = re.sub(r"\s+", "", declared[3])
        return Holder(declared[2], Shape.DECLARED, name, f"{declared[1]} {declared[2]}",
                      bool(declared[4]))
    typed = _TYPEDEF_DECLARED.search(before)
    if typed and (typed.start() or brace <= 300):    # not a declaration cut by the window
        return Holder(None, Shape.UNPLACED, typed[2], typed[1], bool(typed[3]), typed[1])
    outer_brace = spans.enclosing_brace(code, brace) if depth < 16 else None
    around = _object(code, outer_brace, members, depth + 1) if outer_brace is not None else None
    compound = _COMPOUND.search(before)
    if compound:
        return _compound(compound, before[:compound.start()], code, brace, outer_brace, around,
                         members)
    if around is None:
        return Holder(None, Shape.UNPLACED, "", None)
    shape = Shape.TABLE if _tabled(around) else Shape.EMBEDDED
    designated = _DESIGNATOR.search(before)
    if designated:
        member = designated[1] or designated[2]
        known = _member(members, around.type, member)
        return Holder(known.type if known else None, shape, f"{around.name}.{member}",
                      around.outer, bool(known and known.is_array))
    index = _INDEX.search(before)
    if not index and not re.search(r"[{,]\s*$", before):
        return Holder(None, Shape.UNPLACED, "", None)
    position = _position(code, outer_brace, brace)
    if around.is_array:
        # An element of an array: of file_operations, or a table's.  One of
        # a typedef'd array is read as any braces of an unknown structure
        # (EMBEDDED, type None: it may be a file_operations).
        return Holder(around.type, Shape.EMBEDDED if around.typedef else around.shape,
                      f"{around.name}[{index[1] if index else position}]", around.outer,
                      typedef=around.typedef)
    listed = members.get(around.type or "", [])
    if around.type is not None and position < len(listed):
        known = listed[position]
        return Holder(known.type, shape, f"{around.name}.{known.name}", around.outer,
                      known.is_array)
    return Holder(None, shape, f"{around.name}{{{position}}}", around.outer)


def _compound(cast: re.Match, prefix: str, code: str, brace: int, outer_brace: int | None,
              around: Holder | None, members: StructMembers) -> Holder:
    """A compound literal: named for the member or variable it is stored in."""
    name, shape = "a compound literal", Shape.COMPOUND
    if around is not None and around.shape is Shape.UNPLACED:
        around = None               # a function body, a macro: stored by a statement
    stored = re.search(r"(?:\.\s*(\w+)\s*=|(?<![\w.>?])(\w+)\s*:)\s*&?\s*$", prefix)
    target = _TARGET.search(prefix)
    if around is not None and stored:
        name = f"{around.name}.{stored[1] or stored[2]}"
    elif around is not None and re.search(r"[{,]\s*&?\s*$", prefix):
        position = _position(code, outer_brace, brace)
        listed = members.get(around.type or "", [])
        name = (f"{around.name}.{listed[position].name}" if position < len(listed)
                else f"{around.name}{{{position}}}")
    elif target:
        name = target[1]
    if around is not None and (stored or re.search(r"[{,]\s*&?\s*$", prefix)) and _tabled(around):
        shape = Shape.TABLE
    return Holder(cast[1], shape, name, around.outer if around else f"struct {cast[1]}",
                  bool(cast[2]))


def _tabled(around: Holder) -> bool:
    """Whether AROUND is (in) an element of an array of structures."""
    return around.shape is Shape.TABLE or "[" in around.name


def _member(members: StructMembers, struct: str | None, name: str) -> Member | None:
    return next((m for m in members.get(struct or "", []) if m.name == name), None)


def _position(code: str, outer: int, brace: int) -> int:
    """How many elements come before the one at BRACE in the braces at OUTER."""
    depth, count = 0, 0
    for char in code[outer + 1:brace]:
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        elif char == "," and depth == 0:
            count += 1
    return count

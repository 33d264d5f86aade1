"""Every `ioctl` member of compiled C code, by text, with what it is used for.

A token is `.ioctl` or `->ioctl` (a member access, or a C99 designator),
or a GNU `ioctl:` designator in an initializer.  Comments, literals and
branches never compiled (#if 0) hold none.  Each token says how it is
used (an initializer entry, a run-time assignment, a call, a read), the
structure type of its initializer, the #define it is written in, and what
the text says of the type of the object it is a member of; the caller
decides what that means for a conversion.
"""

import enum
import re
from dataclasses import dataclass

from ioctl_rework.ctext import spans

_MEMBER = re.compile(r"(\.|->)\s*ioctl\b")
_GNU = re.compile(r"(?<![\w.>])ioctl\s*:(?!:)")
_TYPEDEF = re.compile(r"\btypedef\s+(?:const\s+)?struct\s+file_operations\s+(\w+)\s*;")
# The object a member is taken of ends in a name: `fops`, `f->f_op`, `ops[i]`.
_BASE = re.compile(r"(\w+)\s*(?:\[[^\]]*\]\s*)?$")


class Use(enum.Enum):
    ENTRY = "entry"              # `.ioctl = h` / `ioctl: h` in an initializer
    ASSIGNMENT = "assignment"    # `fops.ioctl = h;` at run time
    CALL = "call"                # `f->f_op->ioctl(...)`, `(*ops->ioctl)(...)`
    READ = "read"                # any other use: a test, a copy, a comparison


@dataclass(frozen=True)
class Token:
    line: int                   # 1-based
    use: Use
    statement: str              # the code around it, one line, for messages
    base: str | None = None     # the name the member is taken of (`f_op`, `fops`)
    struct: str | None = None   # the struct type of its initializer, when written
    macro: str | None = None    # the #define it is written in
    value: str = ""             # what an entry or assignment stores


def file_operations_types(code: str) -> set[str]:
    """`file_operations` and the names CODE typedefs it to."""
    return {"file_operations", *_TYPEDEF.findall(code)}


def declared_types(code: str, name: str) -> set[str]:
    """The type names CODE declares NAME with (a variable, a parameter, a
    member): `struct file_operations *fops` gives {"file_operations"}."""
    found = set()
    pattern = rf"\b(?:struct\s+)?(\w+)\s*(?:\bconst\s*)?(?:\*\s*(?:const\s*)?)*\b{re.escape(name)}\s*[;,=)\[]"
    for match in re.finditer(pattern, code):
        if match.group(1) not in ("return", "sizeof", "case", "goto", "else", "do"):
            found.add(match.group(1))
    return found


def _macro_at(lines: list[str], index: int) -> str | None:
    """The name of the #define whose text holds line INDEX (0-based), if any."""
    start = index
    while start and lines[start - 1].rstrip().endswith("\\"):
        start -= 1
    match = re.match(r"\s*#\s*define\s+(\w+)", lines[start])
    if match and (start == index or lines[index - 1].rstrip().endswith("\\")):
        return match.group(1)
    return None


def enclosing_function(code: str, line: int) -> str | None:
    """The name of the function whose body holds LINE of CODE (from code_only)."""
    span = spans.toplevel_span(code, line)
    head = "\n".join(code.split("\n")[span.start - 1:line])
    match = re.search(r"(\w+)\s*\([^;{}]*\)\s*\{", head)
    return match.group(1) if match else None


def _value(code: str, end: int) -> str:
    """What an assignment or designator at END stores: up to `,`, `;` or `}`
    at its own depth."""
    depth, i = 0, end
    while i < len(code):
        char = code[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif char in ",;" and depth == 0:
            break
        i += 1
    return " ".join(code[end:i].replace("\\\n", " ").split())


def tokens(text: str) -> list[Token]:
    """The ioctl members of TEXT's compiled code, in order."""
    code = spans.code_only(text)
    lines = code.split("\n")
    found = []
    matches = [(m.start(), m.end(), m.group(1)) for m in _MEMBER.finditer(code)]
    matches += [(m.start(), m.end(), ":") for m in _GNU.finditer(code)]
    for start, end, operator in sorted(matches):
        line = code.count("\n", 0, start) + 1
        if spans.never_compiled(text, line):
            continue
        struct = spans.initializer_type(code, start)
        macro = _macro_at(lines, line - 1)
        before = code[:start].rstrip()
        after = code[end:].lstrip()
        if operator == ":":
            if struct is None and not before.endswith(("{", ",")):
                continue        # a label or a ?: of a variable named ioctl
            found.append(Token(line, Use.ENTRY, lines[line - 1].strip(), struct=struct,
                               macro=macro, value=_value(code, code.index(":", end - 1) + 1)))
            continue
        designator = operator == "." and (
            before.endswith(("{", ",")) or before == "" or
            macro is not None and (before.endswith("\\") or
                                   re.search(r"#\s*define\s+\w+$", before)))
        assigned = re.match(r"=(?!=)", after)
        if designator:
            found.append(Token(line, Use.ENTRY, lines[line - 1].strip(), struct=struct,
                               macro=macro, value=_value(code, end + after_offset(code, end) + 1)
                               if assigned else ""))
            continue
        base = _BASE.search(code[max(0, start - 200):start])
        name = base.group(1) if base else None
        if assigned:
            use, value = Use.ASSIGNMENT, _value(code, end + after_offset(code, end) + 1)
        elif after.startswith("(") or re.match(r"\)\s*\(", after):
            use, value = Use.CALL, ""
        else:
            use, value = Use.READ, ""
        found.append(Token(line, use, lines[line - 1].strip(), base=name, macro=macro,
                           value=value))
    return found


def after_offset(code: str, end: int) -> int:
    """The offset from END of the first non-space character after it."""
    return len(code[end:]) - len(code[end:].lstrip())


def member_of_file_operations(code: str, token: Token) -> bool | None:
    """Whether the object TOKEN is a member of is a file_operations: True,
    False (the text declares it otherwise), or None (the text does not say)."""
    if token.base is None:
        return None
    types = declared_types(code, token.base)
    if types:
        return bool(types & file_operations_types(code))
    # struct file's own member, declared in <linux/fs.h>
    return True if token.base == "f_op" else None

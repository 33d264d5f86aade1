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
import functools
import re
from dataclasses import dataclass

from ioctl_rework.ctext import fops_holders, spans

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
    # Where an entry is: a declared fops, one embedded in another
    # structure, a compound literal, a device table (fops_holders).
    holder: fops_holders.Holder | None = None
    alias: str | None = None    # the macro of the file it is spelled with
    last_line: int = 0          # the line its value ends on
    spliced: bool = False       # a line splice inside the member's name

    @property
    def lines(self) -> range:
        """The lines the member and what it stores are written on."""
        return range(self.line, max(self.line, self.last_line) + 1)

    @property
    def handler(self) -> str | None:
        """The function an entry or assignment stores, when VALUE names
        one: `h`, `&h`, `(h)`, `(&h)`, `(void *)h`; NULL and 0 are none."""
        value = self.value
        while True:
            stripped = re.sub(r"^&\s*", "", value.strip())
            stripped = re.sub(r"^\(\s*(?:const\s+)?\w+(?:\s+\w+)*\s*\*+\s*\)\s*", "",
                              stripped)
            inner = re.fullmatch(r"\((.*)\)", stripped)
            if inner and _balanced(inner[1]):
                stripped = inner[1]
            if stripped == value:
                break
            value = stripped
        return value if re.fullmatch(r"[A-Za-z_]\w*", value) and \
            value not in ("NULL", "0") else None


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return False
    return depth == 0


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
    return " ".join(code[end:_value_end(code, end)].split())


def _value_end(code: str, end: int) -> int:
    """Where the value that starts at END ends."""
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
    return i


def tokens(text: str, compiled_only: bool = True) -> list[Token]:
    """The ioctl members of TEXT's compiled code, in order, read as the
    compiler reads them: line splices joined (`.io\\` + newline + `ctl`),
    a member written through an object-like macro of the file
    (`#define OLD_OP ioctl`) included.  COMPILED_ONLY false: those in a
    branch never compiled (#if 0) too."""
    code = spans.code_only(text)
    lines = code.split("\n")
    joined = spans.join_splices(code)
    flat = joined.text
    members = fops_holders.StructMembers(flat)
    member, gnu = _patterns(tuple(aliases_of_ioctl(flat)))
    found = []
    matches = [(m.start(), m.end(), m.group(1), m.group(2)) for m in member.finditer(flat)]
    # GNU `ioctl:`, not `x.ioctl:`, `->ioctl`, or a longer word.
    matches += [(m.start(), m.end(), ":", m.group(1)) for m in gnu.finditer(flat)
                if not m.start() or not re.match(r"[\w.>]", flat[m.start() - 1])]
    for start, end, operator, name in sorted(matches):
        line = joined.line(start)
        if compiled_only and spans.never_compiled(text, line):
            continue
        alias = None if name == "ioctl" else name
        macro = _macro_at(lines, line - 1)
        before = _code_before(flat, start)
        after = flat[end:].lstrip()
        statement = lines[line - 1].strip()
        if operator == ":":
            where = fops_holders.holder(flat, start, members)
            if _type(where) is None and not before.endswith(("{", ",")):
                continue        # a label or a ?: of a variable named ioctl
            stored = flat.index(":", end - 1) + 1
            found.append(Token(line, Use.ENTRY, statement, struct=_type(where), macro=macro,
                               value=_value(flat, stored), holder=where, alias=alias,
                               last_line=joined.line(_value_end(flat, stored)),
                               spliced=joined.spliced(start, end)))
            continue
        designator = operator == "." and (
            before.endswith(("{", ",")) or before == "" or
            macro is not None and re.search(r"#\s*define\s+\w+$", before))
        assigned = re.match(r"=(?!=)", after)
        stored = end + after_offset(flat, end) + 1
        last = joined.line(_value_end(flat, stored)) if assigned else line
        if designator:
            where = fops_holders.holder(flat, start, members)
            found.append(Token(line, Use.ENTRY, statement, struct=_type(where), macro=macro,
                               value=_value(flat, stored) if assigned else "",
                               holder=where, alias=alias, last_line=last,
                               spliced=joined.spliced(start, end)))
            continue
        base = _BASE.search(flat[max(0, start - 200):start])
        base_name = base.group(1) if base else None
        if assigned:
            use, value = Use.ASSIGNMENT, _value(flat, stored)
        elif after.startswith("(") or re.match(r"\)\s*\(", after):
            use, value = Use.CALL, ""
        else:
            use, value = Use.READ, ""
        found.append(Token(line, use, statement, base=base_name, macro=macro, value=value,
                           alias=alias, last_line=last, spliced=joined.spliced(start, end)))
    return found


def _code_before(code: str, start: int) -> str:
    """CODE before START, without the preprocessor lines right above it
    (an entry right after `#else` follows the `,` before the #if).  A token
    with code before it on its own line (a #define's body) keeps that."""
    before = code[:start].rstrip()
    if code[code.rfind("\n", 0, start) + 1:start].strip():
        return before
    while True:
        cut = before.rfind("\n") + 1
        if not before[cut:].lstrip().startswith("#"):
            return before
        before = before[:cut].rstrip()


@functools.lru_cache(maxsize=16)
def _patterns(aliases: tuple[str, ...]) -> tuple[re.Pattern, re.Pattern]:
    """The member `.ioctl`/`->ioctl` and the GNU designator `ioctl:`, also
    spelled with ALIASES."""
    names = "|".join(("ioctl", *aliases))
    return (re.compile(r"(\.|->)\s*(" + names + r")\b"),
            re.compile(r"(" + names + r")\s*:(?!:)"))


def _type(where: fops_holders.Holder | None) -> str | None:
    return where.type if where is not None else None


_ALIAS = re.compile(r"#[ \t]*define[ \t]+(\w+)[ \t]+(\w+)[ \t]*$", re.M)


def word_aliases(code: str) -> dict[str, str]:
    """The object-like macros of CODE that stand for one word, resolved
    through one another: `#define OLD_OP ioctl` gives {"OLD_OP": "ioctl"}."""
    direct = {m[1]: m[2] for m in _ALIAS.finditer(code)}
    found = {}
    for name in direct:
        word, seen = name, set()
        while word in direct and word not in seen:
            seen.add(word)
            word = direct[word]
        found[name] = word
    return found


def aliases_of_ioctl(code: str) -> list[str]:
    """The macros of CODE that stand for the word ioctl."""
    return [name for name, word in word_aliases(code).items()
            if word == "ioctl" and name != "ioctl"]


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


def of_file_operations(code: str, token: Token) -> bool | None:
    """Whether TOKEN sets or uses the member of a file_operations: True,
    False (the text says another structure), or None (it does not say: an
    entry of a structure embedded in one the text does not declare)."""
    if token.use is not Use.ENTRY:
        return member_of_file_operations(code, token)
    if token.holder is None or token.holder.type is None:
        return None
    return token.holder.type in file_operations_types(code)


def legacy_entries(text: str) -> list[Token]:
    """Every legacy .ioctl entry TEXT's compiled code sets in a
    file_operations, in any spelling: declared, embedded in another
    structure, a compound literal, a device table, a parenthesised or
    cast handler, split tokens; and run-time assignments to the member of
    a file_operations.  An entry in a structure the text does not declare
    counts (it may be a file_operations: never dropped).  Left out: entries
    in a macro's body (the #define is not the use) and the legacy half of a
    multi-kernel driver, which the conversion keeps on purpose."""
    code = spans.code_only(text)
    found = []
    for token in tokens(text):
        if token.use not in (Use.ENTRY, Use.ASSIGNMENT) or token.macro is not None:
            continue
        if spans.legacy_half(text, token.line):
            continue
        fops = of_file_operations(code, token)
        unplaced = token.holder is None or token.holder.shape is fops_holders.Shape.UNPLACED
        if fops or fops is None and token.use is Use.ENTRY and not unplaced:
            found.append(token)
    return found


@dataclass(frozen=True)
class MacroUse:
    """A use, in compiled code, of a macro of the file whose body holds a
    legacy .ioctl entry: the entry is set where the macro is used."""

    line: int           # of the use
    macro: str          # the macro used there
    defined: int        # the line of the #define that holds the entry
    statement: str      # the code of the use's line, for messages
    defined_to: int = 0     # the last line of that #define

    @property
    def define_lines(self) -> range:
        return range(self.defined, max(self.defined, self.defined_to) + 1)


def macro_entries(text: str) -> list[MacroUse]:
    """Where TEXT's compiled code uses a macro of its own whose body holds
    a legacy .ioctl entry (`#define FOPS_ENTRY(p) .ioctl = p##_ioctl`,
    `#define DECLARE_FOPS(n) ... = { .ioctl = ... }`), directly or through
    another macro of the file: legacy_entries leaves the #define out (it
    is not the use), and the finder does not expand it, so these are
    entries no stage reads.  A use inside an initializer the text says is
    of another structure is left out, as legacy_entries leaves its entries."""
    code = spans.code_only(text)
    lines = code.split("\n")
    joined = spans.join_splices(code)
    flat = joined.text
    members = fops_holders.StructMembers(flat)
    fops_types = file_operations_types(flat)
    carriers: dict[str, int] = {}
    for token in tokens(text):
        if token.macro is not None and (token.use is Use.ENTRY or _designates(token)) \
                and not spans.legacy_half(text, token.line):
            carriers.setdefault(token.macro, _define_line(lines, token.line - 1))
    found: dict[tuple[int, str], MacroUse] = {}
    todo = list(carriers)
    while todo:
        name = todo.pop()
        for match in re.finditer(rf"(?<![\w.>]){re.escape(name)}\b", flat):
            line = joined.line(match.start())
            if lines[line - 1].lstrip().startswith("#") and _macro_at(lines, line - 1) is None:
                continue        # #ifdef, #undef
            host = _macro_at(lines, line - 1)
            if host == name:
                continue        # its own #define
            if host is not None:
                if host not in carriers:
                    carriers[host] = carriers[name]
                    todo.append(host)
                continue
            if spans.never_compiled(text, line):
                continue
            where = fops_holders.holder(flat, match.start(), members)
            if where is not None and where.type is not None and where.type not in fops_types:
                continue
            found.setdefault((line, name), MacroUse(
                line, name, carriers[name], lines[line - 1].strip(),
                _define_end(lines, carriers[name] - 1)))
    return [found[key] for key in sorted(found)]


def _designates(token: Token) -> bool:
    """Whether TOKEN, in a function-like macro, is a designator right after
    the macro's parameters (`#define E(p) .ioctl = p##_ioctl`), which the
    tokens take for an assignment."""
    member = token.alias or "ioctl"
    return re.match(rf"#\s*define\s+\w+\([^()]*\)\s*\.\s*{re.escape(member)}\b",
                    token.statement) is not None


def _define_end(lines: list[str], index: int) -> int:
    """The 1-based last line of the #define that starts at line INDEX (0-based)."""
    while index + 1 < len(lines) and lines[index].rstrip().endswith("\\"):
        index += 1
    return index + 1


def _define_line(lines: list[str], index: int) -> int:
    """The 1-based line of the #define that line INDEX (0-based) is part of."""
    while index and lines[index - 1].rstrip().endswith("\\"):
        index -= 1
    return index + 1


def _outer(holder: fops_holders.Holder) -> str:
    """The outermost object's type in words: its declaration, or what
    stands for it where the text does not say (a macro's braces)."""
    return holder.outer or "an object whose type the text does not say"


def spelling(token: Token) -> str:
    """How the legacy entry TOKEN is written, in words, for a reason: the
    shapes the conversion rule does not read are named."""
    holder = token.holder
    shape = holder.shape if holder is not None else None
    where = ""
    if holder is not None and holder.type is None and shape is not fops_holders.Shape.UNPLACED:
        where = (f"; {_outer(holder)} is not declared in the file, so the member is "
                 "taken for a file_operations")
    if holder is not None and not holder.name.startswith("a "):
        where = f" ({holder.name}{where})"
    elif where:
        where = f" ({where[2:]})"
    if shape is fops_holders.Shape.EMBEDDED:
        what = f"a file_operations embedded in {_outer(holder)}{where}"
    elif shape is fops_holders.Shape.TABLE:
        what = f"a file_operations in a device table of {_outer(holder)}{where}"
    elif shape is fops_holders.Shape.COMPOUND:
        what = f"a compound literal of struct file_operations{where}"
    elif token.spliced:
        what = "a member name split by a line splice (`\\` and a newline)"
    elif token.alias:
        what = f"the member spelled through the macro {token.alias}"
    elif re.match(r"\(", token.value.lstrip("&").strip()) and token.handler and \
            not re.match(r"\(\s*(?:const\s+)?\w+(?:\s+\w+)*\s*\*", token.value):
        what = f"a handler in parentheses (`{token.value}`)"
    else:
        what = "a spelling of the entry spatch did not match"
    return what

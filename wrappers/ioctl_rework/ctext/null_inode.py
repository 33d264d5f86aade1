"""Whether the inode a call passes is NULL through a local.

`struct inode *none = NULL; ... h(none, &self, CMD, 0);` passes NULL as
surely as `h(NULL, ...)`: the rule judges both alike (a handler that never
uses its inode converts and the call drops the argument, as upstream did).
Exact, default-deny: the name at the call must be one plain (not static)
`struct inode *` local whose block encloses the call, not a parameter, and
not declared a second time anywhere in the function (a shadow: which one
the call reads is not read here); every value it is given -- in its
initializer, a statement, a condition, a comma expression -- a null
constant, at least one given; its address never taken, never stepped or
compound assigned, never an argument of a macro (which may assign it), never
named by a macro the function uses, to any depth (macro_names), of the file
or of a header it includes (the headers the rule reads), nor hidden where
a header could not be read (macro_names.may_hide).  Anything else is not a NULL
inode, and the usual rules apply.

Imports nothing of the project but spans and macro_names (the rule imports
it too).
"""

import re
from typing import Callable

from ioctl_rework.ctext import macro_names
from ioctl_rework.ctext.spans import TAG_OR_MEMBER_BEFORE, code_only, enclosing_brackets

NULL_VALUE = re.compile(r"(?:\(\s*(?:struct\s+)?\w+\s*\**\s*\)\s*)?(?:NULL|0|\(\s*void\s*\*\s*\)\s*0)")
_MACRO_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def _enclosing_block(code: str, offset: int, outermost: bool) -> tuple[int, int] | None:
    """The outermost (or innermost) brace pair of CODE around OFFSET."""
    opened, found = [], None
    for i, char in enumerate(code):
        if char == "{":
            opened.append(i)
        elif char == "}" and opened:
            start = opened.pop()
            if start <= offset <= i and (outermost and not opened or not outermost and found is None):
                found = (start, i)
            if i > offset and not opened and found is not None:
                break
    return found


def _parameters(code: str, body_start: int) -> str:
    """The text of the parenthesised list just before the function body."""
    end = code.rfind(")", 0, body_start)
    depth = 0
    for i in range(end, -1, -1):
        depth += {")": 1, "(": -1}.get(code[i], 0)
        if depth == 0:
            return code[i:end + 1]
    return ""


def _value(code: str, start: int) -> str:
    """The expression from START to its end: `;`, or `,`/`)` at depth 0."""
    depth = 0
    for i in range(start, len(code)):
        char = code[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return code[start:i]
            depth -= 1
        elif char == ";" or char == "," and depth == 0:
            return code[start:i]
    return code[start:]


def _callee(code: str, offset: int) -> str | None:
    """The name of the call whose argument list holds OFFSET, if any: the
    innermost bracket open there is a call's parenthesis, not an index."""
    opened = enclosing_brackets(code, offset)
    if not opened or code[opened[0]] == "[":
        return None
    name = re.search(r"(\w+)\s*$", code[:opened[0]])
    return name.group(1) if name else None


def _declarations(text: str, name: str) -> list[int]:
    """Where NAME is declared a `struct inode *` in TEXT: each offset of the
    name in a declarator `*name` of a `struct inode` declaration."""
    found = []
    for statement in re.finditer(r"\bstruct\s+inode\b([^;{}]*);", text):
        depth, piece = 0, statement.start(1)
        for i in range(statement.start(1), statement.end(1) + 1):
            char = text[i] if i < statement.end(1) else ","
            depth += (char in "([") - (char in ")]")
            if char == "," and depth == 0:
                declarator = re.match(rf"\s*\*\s*(?:const\s+)?({re.escape(name)})\b",
                                      text[piece:i])
                if declarator:
                    found.append(piece + declarator.start(1))
                piece = i + 1
    return found


def _local_null(code: str, body: tuple[int, int], call: int, name: str,
                read_macros: Callable[[], macro_names.ReadMacros]) -> bool:
    start, end = body
    word = re.escape(name)
    if re.search(rf"\b{word}\b", _parameters(code, start)):
        return False                # a parameter: its caller sets it
    text = code[start:end + 1]
    declarations = _declarations(text, name)
    if len(declarations) != 1:
        return False                # a global, or shadowed: not read here
    declared = start + declarations[0]
    scope = _enclosing_block(code, declared, outermost=False)
    if scope is None or not scope[0] <= call <= scope[1]:
        return False                # the call is outside the local's block
    if re.search(rf"\bstatic\b[^;{{}}]*\b{word}\b", text):
        return False
    macros = read_macros()
    if macro_names.may_hide(text, macros):
        return False                # a macro of a header not read may set it
    if macro_names.uses_naming(macros.found, name, text):
        return False                # a macro read (to any depth) may assign it
    defined_macros = {d.name for d in macros.found if d.parameters}
    values = []
    for use in re.finditer(rf"\b{word}\b", code[start:end + 1]):
        at = start + use.start()
        before = code[start:at].rstrip()
        after = code[at + len(name):].lstrip()
        if at == declared:
            if after.startswith("=") and not after.startswith("=="):
                values.append(_value(code, code.index("=", at) + 1))
            continue
        if TAG_OR_MEMBER_BEFORE.search(before):
            continue                # a member or a tag of that name, not the local
        if re.search(r"(?:&|\+\+|--)$", before) and not before.endswith("&&"):
            return False
        if re.search(r"[\w*]$", before) and not re.search(r"\b(?:return|else|do|case|sizeof)$", before):
            return False            # another declaration, or read through
        if re.match(r"(?:\+\+|--|(?:[-+*/%&|^]|<<|>>)=)", after):
            return False
        if after.startswith("=") and not after.startswith("=="):
            values.append(_value(code, code.index("=", at) + 1))
            continue
        callee = _callee(code, at)
        if callee and (callee in defined_macros or _MACRO_NAME.fullmatch(callee)):
            return False            # a macro may assign its argument
    return bool(values) and all(NULL_VALUE.fullmatch(v.strip()) for v in values)


def null_local(text: str, line: int, name: str, path: str | None = None,
               root: str | None = None) -> bool:
    """Whether NAME, passed as the inode by a call at LINE (1-based) of
    TEXT, is a local of the calling function set only to NULL.  PATH
    (relative to ROOT, or as spatch names it) is TEXT's file, whose headers
    are read (convert's gate); without it TEXT is read alone, nothing
    counted unread (the rule's null_local_inode_call: it runs where the
    headers may not be, and must find NULL wherever the gate does, or a
    call the gate left to it would be judged by nobody)."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in ("NULL",):
        return False
    code = code_only(text)
    offset = sum(len(t) + 1 for t in code.split("\n")[:line - 1])
    call = re.compile(rf"\b{re.escape(name)}\b").search(code, offset)
    body = _enclosing_block(code, offset, outermost=True)
    return body is not None and call is not None and _local_null(
        code, body, call.start(), name,
        lambda: macro_names.read_macros(path, root) if path is not None
        else macro_names.text_macros(text))

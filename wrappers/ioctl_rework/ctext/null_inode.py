"""Whether the inode a call passes is NULL through a local.

`struct inode *none = NULL; ... h(none, &self, CMD, 0);` passes NULL as
surely as `h(NULL, ...)`: the rule judges both alike (a handler that never
uses its inode converts and the call drops the argument, as upstream did).
Default-deny: the local must be a plain (not static) local of the calling
function, every value it is given there a null constant, at least one
given, and its address never taken nor the local stepped or compound
assigned; anything else is not a NULL inode.

Imports nothing of the project but spans (the rule imports it too).
"""

import re

from ioctl_rework.ctext.spans import code_only

NULL_VALUE = re.compile(r"(?:\(\s*(?:struct\s+)?\w+\s*\**\s*\)\s*)?(?:NULL|0|\(\s*void\s*\*\s*\)\s*0)")


def _enclosing_body(code: str, offset: int) -> str | None:
    """The outermost brace pair of CODE around OFFSET (the function's body)."""
    opened, outer = [], None
    for i, char in enumerate(code):
        if char == "{":
            opened.append(i)
        elif char == "}" and opened:
            start = opened.pop()
            if start <= offset <= i and not opened:
                outer = (start, i)
            if i > offset and not opened and outer is not None:
                break
    return code[outer[0]:outer[1] + 1] if outer else None


def set_only_to_null(body: str, name: str) -> bool:
    """Whether NAME is, in the code BODY (comments and strings blanked), a
    local given only null constants."""
    word = re.escape(name)
    if not re.search(rf"\bstruct\s+inode\s*\*[^;{{}}]*\b{word}\s*[=;,]", body):
        return False                # a global or a parameter: set elsewhere too
    if re.search(rf"\bstatic\b[^;{{}}]*\b{word}\b", body):
        return False
    if re.search(rf"&\s*{word}\b|(?:\+\+|--)\s*{word}\b|\b{word}\s*(?:\+\+|--)|"
                 rf"\b{word}\s*(?:[-+*/%&|^]|<<|>>)=", body):
        return False
    values = re.findall(rf"(?<![\w.>])(?:struct\s+inode\s*\*\s*)?{word}\s*=(?!=)\s*([^;,)]*(?:\)[^;,)]*)?)[;,]",
                        body)
    return bool(values) and all(NULL_VALUE.fullmatch(v.strip()) for v in values)


def null_local(text: str, line: int, name: str) -> bool:
    """Whether NAME, passed as the inode by a call at LINE (1-based) of
    TEXT, is a local of the calling function set only to NULL."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name) or name in ("NULL",):
        return False
    code = code_only(text)
    offset = sum(len(t) + 1 for t in code.split("\n")[:line - 1])
    body = _enclosing_body(code, offset)
    return body is not None and set_only_to_null(body, name)

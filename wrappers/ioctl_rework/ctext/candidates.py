"""Which files may hold a legacy `.ioctl` entry, read as text: the one
prefilter that audit (and so check) and convert share, so that no stage
skips a spelling another one sees.  It may keep too much, never too
little: the conversion rule decides what each entry is.

The spellings: a `file_operations` initializer (C99 or GNU, an array of
them, through a typedef of the file) that sets `ioctl`, one written by
position (2.4 style), and a run-time `fops.ioctl = h;` or `ops->ioctl = h;`;
and every entry the shared finder (ioctl_tokens.legacy_entries) sees: a
fops embedded in another structure (in a file that may never name
file_operations), a compound literal, a device table, split tokens.
"""

import re

from ioctl_rework.ctext import ioctl_tokens
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext.spans import LEGACY_MEMBER

# The declarator may be a macro call: the 2.6 DRM templates' DRM(fops).
FOPS_INITIALIZER = re.compile(rb"(?<!\w)file_operations\b[^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*=\s*\{")
_TYPEDEF = re.compile(rb"\btypedef\s+(?:const\s+)?struct\s+file_operations\s+(\w+)\s*;")
_RUNTIME = re.compile(rb"(?:\.|->)\s*ioctl\s*=(?!=)[^;,{}]*;")
# struct dev { ...; struct file_operations fops; ... }: the fops is a member.
_HOLDER = re.compile(r"\bstruct\s+(\w+)\s*\{[^{}]*\bstruct\s+file_operations\s+\w+\s*;")
# Worth the finder's reading: an ioctl member, a macro standing for the
# word, the word split by line splices.
_SPLICE = re.compile(rb"\\\r?\n")
# A comment may stand between the member and its `=` (`.ioctl /* old */ =`):
# the compiler reads a space there, and so does the finder (code_only).
_MEMBER_SET = re.compile(rb"(?<!\w)ioctl(?:\s|\\\r?\n|/\*.*?\*/|//[^\n]*)*[=:]", re.S)
_ALIAS_DEFINED = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+\w+[ \t]+ioctl[ \t]*$", re.M)
# 2.4's file_operations had ioctl as its 7th member, 2.6.9's as its 9th.
_POSITIONAL_ELEMENTS = 7


def _initializer_patterns(data: bytes) -> list[re.Pattern]:
    return [FOPS_INITIALIZER] + [
        re.compile(rb"(?<![\w.>])" + re.escape(name) + rb"\b[^;{}()]*=\s*\{")
        for name in _TYPEDEF.findall(data)]


def fops_initializers(data: bytes) -> list[bytes]:
    """The text of each `file_operations ... = { ... }` initializer in DATA,
    also through a typedef of DATA.

    Braces are counted so that nested initializers stay inside; one that
    never closes runs to the end of the file, so a prefilter can only keep
    too much, never too little."""
    bodies = []
    for pattern in _initializer_patterns(data):
        for match in pattern.finditer(data):
            depth, end = 1, match.end()
            while depth and end < len(data):
                char = data[end]
                depth += (char == 0x7B) - (char == 0x7D)        # { and }
                end += 1
            bodies.append(data[match.end():end])
    return bodies


def positional(body: bytes) -> bool:
    """Whether an initializer BODY lists members by position, with enough
    of them to reach the ioctl member."""
    code = c_spans.code_only(body.decode("latin-1"))
    return "=" not in code and ":" not in code and code.count(",") >= _POSITIONAL_ELEMENTS - 1


def structs_holding_fops(code: str) -> set[str]:
    """The structures CODE (from code_only) declares with a member of type
    struct file_operations: an initializer of one may set a .ioctl."""
    return {m.group(1) for m in _HOLDER.finditer(code)}


def names_an_entry(data: bytes) -> bool:
    """Whether DATA may spell an ioctl entry at all (cheap, by bytes): the
    member set, a macro standing for the word, the word split by splices."""
    if b"ioctl" in data and (_MEMBER_SET.search(data) or _ALIAS_DEFINED.search(data)):
        return True
    if b"\\\n" not in data and b"\\\r\n" not in data:
        return False
    return _SPLICE.sub(b"", data).count(b"ioctl") > data.count(b"ioctl")


# A call or a test through a member named ioctl (lower->f_op->ioctl): what
# the forwarding rule reads, in convert and in audit.  An assignment
# (ops->ioctl = h;) is neither: the accounting lists it.
_MEMBER_USE = re.compile(rb"->\s*ioctl\b(?!\s*=(?!=))")


def uses_ioctl_member(data: bytes) -> bool:
    return _MEMBER_USE.search(data) is not None


def may_hold_legacy_entry(data: bytes) -> bool:
    if b"file_operations" in data and _rule_spelling(data):
        return True
    if not names_an_entry(data) or _only_other_structures(data):
        return False
    text = data.decode("latin-1")
    if ioctl_tokens.legacy_entries(text):
        return True
    # An entry in a macro of the file is set where the macro is used.
    return b"define" in data and bool(ioctl_tokens.macro_entries(text))


# `struct T name = {`, `struct T name[] = {`: a declared initializer.
_DECLARED_OPEN = re.compile(rb"\bstruct\s+(\w+)\s+[\w\s*]*?\w+\s*(?:\[[^\]]*\])?\s*=\s*$")


def _only_other_structures(data: bytes) -> bool:
    """Whether every ioctl entry of DATA sits right in a declared
    initializer of another structure (a tty_operations, a
    block_device_operations): then no finder is needed.  A comment or string with braces may mislead this; it then
    answers False and the finder reads the file."""
    if b"\\\n" in data or b"\\\r\n" in data:
        return False
    if _ALIAS_DEFINED.search(data):
        return False
    for match in _MEMBER_SET.finditer(data):
        brace = data.rfind(b"{", 0, match.start())
        if brace < 0 or data.rfind(b"}", brace, match.start()) >= 0 or \
                b"(" in data[brace:match.start()]:
            return False
        declared = _DECLARED_OPEN.search(data[max(0, brace - 300):brace])
        if not declared or declared[1] == b"file_operations":
            return False
    return True


def _rule_spelling(data: bytes) -> bool:
    if _RUNTIME.search(data):
        return True
    if LEGACY_MEMBER.search(data) and structs_holding_fops(data.decode("latin-1")):
        return True
    return any(LEGACY_MEMBER.search(body) or positional(body)
               for body in fops_initializers(data))

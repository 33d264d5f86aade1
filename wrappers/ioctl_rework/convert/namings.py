"""Every line of a file that names a handler, read from the text alone.

convert uses it twice, without trusting the rule that rewrites: before a
run, to find the uses no rewrite can carry over (the handler's address
stored in a table, a call that passes some other inode than its file's);
after it, to check that each file naming a converted handler now has only
new-style uses (definitions and prototypes `long h(struct file *, ...)`,
calls with three arguments, `.unlocked_ioctl` entries).  Lines inside
`#if 0` are never compiled and are not counted.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.ctext import null_inode
from ioctl_rework.ctext import spans as c_spans

DEFINITION, PROTOTYPE, CALL, ENTRY, COMPARE, EXPORT, OTHER = (
    "definition", "prototype", "call", "fops entry", "comparison with an f_op member",
    "export", "other use")

# Words after which NAME( is a call: the statements that take an expression.
_STATEMENT_WORDS = {"return", "else", "case", "do", "sizeof", "goto"}
_EXPORT = re.compile(r"\bEXPORT_SYMBOL(?:_GPL)?\s*\(\s*$")
# An entry: `.ioctl = h`, `ioctl: &h`, `.ioctl = (void *)h` (a cast the
# rule drops when it rewrites the entry).
_MEMBER = re.compile(r"(?:\.|->|\b)(\w+)\s*(?:=|:)\s*(?:\(\s*[\w\s]+\**\s*\)\s*)?&?\s*$")
_COMPARED = re.compile(r"->\s*(\w+)\s*[!=]=\s*$")
_COMPARED_AFTER = re.compile(r"\s*[!=]=\s*[\w.>()-]*->\s*(\w+)")
_NEW_MEMBERS = ("unlocked_ioctl", "compat_ioctl")
_TRAILING_ATTRIBUTES = re.compile(r"(?:\b__attribute__\s*\(\(.*?\)\)\s*)+$", re.DOTALL)
_INCLUDE_LINE = re.compile(r"\s*#\s*include\b")    # <linux/h_ioctl.h> names a file


@dataclass(frozen=True)
class Naming:
    """One place a file names the handler."""

    line: int
    kind: str                       # DEFINITION, PROTOTYPE, CALL, ENTRY, EXPORT, OTHER
    legacy: bool                    # still has the .ioctl signature or member
    text: str                       # the line, stripped, for reasons
    args: tuple[str, ...] = ()      # of a call, a definition or a prototype

    @property
    def follows(self) -> bool:
        """Whether this use is right for the converted handler."""
        return self.kind == EXPORT or self.kind != OTHER and not self.legacy


def split_arguments(inner: str) -> tuple[str, ...]:
    """The top-level comma-separated parts of INNER, stripped."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    last = inner[start:].strip()
    if last or parts:
        parts.append(last)
    return tuple(parts)


def _line_of(code: str, offset: int) -> int:
    return code.count("\n", 0, offset) + 1


def namings(text: str, name: str) -> list[Naming]:
    """Where TEXT names NAME as a word in code, one Naming each."""
    code = c_spans.code_only(text)
    lines = text.split("\n")
    found = []
    # A member of that name (dev->h_ioctl, ops.h_ioctl) is not the function.
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\b(?<!->{re.escape(name)})", code):
        line = _line_of(code, match.start())
        if c_spans.never_compiled(text, line) or _INCLUDE_LINE.match(lines[line - 1]):
            continue
        before = code[max(0, match.start() - 200):match.start()]
        after = code[match.end():]
        # A struct tag, or a function pointer (a member) of the same name.
        if re.search(r"\b(?:struct|union|enum)\s+$", before) or \
                re.search(r"\(\s*\*\s*$", before) and re.match(r"\s*\)", after):
            continue
        found.append(_classify(code, match.end(), before, after, line,
                               lines[line - 1].strip()))
    return found


def _classify(code: str, end: int, before: str, after: str, line: int,
              text: str) -> Naming:
    if _EXPORT.search(before):
        return Naming(line, EXPORT, False, text)
    opening = len(after) - len(after.lstrip())
    if after[opening:opening + 1] == "(":
        open_at = end + opening
        close = c_spans.closing(code, open_at, "()")
        args = split_arguments(code[open_at + 1:close])
        # "static int __attribute__((unused)) h(" is a definition too.
        head = _TRAILING_ATTRIBUTES.sub("", before)
        previous = re.search(r"(\w+|\S)\s*$", head)
        word = previous.group(1) if previous else ""
        if re.fullmatch(r"\w+", word) and word not in _STATEMENT_WORDS or word == "*":
            body = re.match(r"\s*(?:__\w+(?:\([^)]*\))?\s*)*\{", code[close + 1:])
            # The return type, past attributes such as __pmac or __init.
            types = [w for w in re.findall(r"\w+", head.rsplit(";", 1)[-1].rsplit("}", 1)[-1])
                     if not w.startswith("__")]
            legacy = types[-1:] != ["long"] or len(args) != 3 or "inode" in args[0]
            return Naming(line, DEFINITION if body else PROTOTYPE, legacy, text, args)
        return Naming(line, CALL, len(args) != 3, text, args)
    member = _MEMBER.search(before)
    if member and not re.search(r"[!=<>]=\s*&?\s*$", before):
        if member.group(1) == "ioctl":
            return Naming(line, ENTRY, True, text)
        if member.group(1) in _NEW_MEMBERS:
            return Naming(line, ENTRY, False, text)
    compared = _COMPARED.search(before) or _COMPARED_AFTER.match(after)
    if compared and compared.group(1) in ("ioctl",) + _NEW_MEMBERS:
        return Naming(line, COMPARE, compared.group(1) == "ioctl", text)
    return Naming(line, OTHER, True, text)


# How a file reaches its own inode, by kernel version; spaces removed.
def _file_inode_forms(filp: str) -> set[str]:
    f = re.sub(r"\s+", "", filp)
    bases = {f, f"({f})"}
    return ({f"{b}->f_dentry->d_inode" for b in bases} |
            {f"{b}->f_path.dentry->d_inode" for b in bases} | {f"file_inode({f})"})


def _bare(expression: str) -> str:
    text = re.sub(r"\s+", "", expression)
    while text.startswith("(") and c_spans.closing(text, 0, "()") == len(text) - 1:
        text = text[1:-1]
    return text


_NULL = re.compile(r"(?:\([\w\s]+\**\)\s*)?(?:NULL|0)")


def passes_null(call: Naming, text: str, path: str | None = None,
                root: Path | None = None) -> bool:
    """Whether the legacy CALL of TEXT passes NULL (or 0, cast or not) as
    the inode, itself or through a local set only to NULL
    (ctext/null_inode.py): the rule reads such a call of its own file, and
    converts the handler, dropping the argument, only when the body never
    uses its inode.  PATH under ROOT: TEXT's file, whose headers are read."""
    if call.kind != CALL or len(call.args) != 4:
        return False
    inode = re.sub(r"\s+", " ", call.args[0]).strip()
    return _NULL.fullmatch(inode) is not None or \
        null_inode.null_local(text, call.line, inode, path, root)


def foreign_inode(text: str, call: Naming, path: str | None = None,
                  root: Path | None = None) -> str | None:
    """Why the legacy CALL of TEXT passes an inode that is not the inode of
    the file it passes, or None when it is that inode: the file's own inode
    (file->f_dentry->d_inode, file_inode(file)), a local set only to that,
    or the inode parameter of an ioctl-shaped caller that passes its own
    file parameter on (the VFS gave it that pair).  PATH under ROOT: as
    passes_null()."""
    if call.kind != CALL or len(call.args) != 4:
        return None
    inode, filp = _bare(call.args[0]), _bare(call.args[1])
    if inode in _file_inode_forms(filp):
        return None
    described = f"{call.args[0]} as the inode of {call.args[1]}"
    if inode in ("NULL", "0"):
        return f"passes {described}"
    if not re.fullmatch(r"\w+", inode):
        return f"passes {described}"
    code = c_spans.code_only(text)
    span = c_spans.toplevel_span(code, call.line)
    function = "\n".join(code.split("\n")[span.start - 1:span.stop - 1])
    brace = function.find("{")
    head, body = (function[:brace], function[brace:]) if brace >= 0 else ("", function)
    params = re.search(r"\(([^()]*)\)\s*$", head)
    if params:
        own = split_arguments(params.group(1))
        if len(own) == 4 and re.fullmatch(rf"struct\s+inode\s*\*\s*{inode}", own[0]) \
                and re.fullmatch(rf"struct\s+file\s*\*\s*{re.escape(filp)}", own[1]):
            return None
    values = re.findall(rf"(?<![\w.>])(?:struct\s+inode\s*\*\s*)?{inode}\s*=(?!=)\s*([^;]*);",
                        body)
    if len(values) == 1 and _bare(values[0]) in _file_inode_forms(filp) and \
            not re.search(rf"&\s*{inode}\b|\b{inode}\s*(\+\+|--)", body):
        return None
    if null_inode.null_local(text, call.line, inode, path, root):
        return f"passes {call.args[0]} (set to NULL) as the inode of {call.args[1]}"
    return f"passes {described} ({inode} is not set only to the inode of {call.args[1]})"

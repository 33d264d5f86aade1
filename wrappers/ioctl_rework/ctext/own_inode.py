"""Whether a forwarding call's inode is the inode of the file it passes
because both are the calling handler's own.

A stacking driver may forward with its own parameters,
lower->f_op->ioctl(inode, file, cmd, arg).  The VFS called the handler
with the inode of its file, so the unlocked call, which passes no inode,
loses nothing, provided that (default-deny):
- the handler is static (no other file calls it) and writes neither
  parameter nor takes their addresses, itself or through a macro of the
  file, to any depth;
- every other mention of it in the file is a fops entry or a call that
  passes the inode of the file it passes (the VFS's, or the wrapper's);
or the handler was converted and its inode is a local initialized from its
file and never written.  Anything else is not proven: the call is refused.
"""

import re

from ioctl_rework.ctext import macro_names
from ioctl_rework.ctext.spans import closing, code_only, enclosing_brackets, split_top_level

_OWN = r"(?:(\w+)\s*->\s*f_dentry\s*->\s*d_inode|(\w+)\s*->\s*f_path\s*\.\s*dentry\s*->\s*d_inode" \
       r"|file_inode\s*\(\s*(\w+)\s*\))"
_WORD = r"\b%s\b"


def _own_inode_of(text: str) -> str | None:
    """The file whose inode TEXT (an argument) is, or None."""
    match = re.fullmatch(r"\s*" + _OWN + r"\s*", text)
    return next((g for g in match.groups() if g), None) if match else None


def _balanced(code: str, open_at: int, pair: str) -> int | None:
    """Where the PAIR opened at OPEN_AT closes (spans.closing), or None when
    it never does: unbalanced code proves nothing."""
    end = closing(code, open_at, pair)
    part = code[open_at:end + 1]
    return end if part.count(pair[0]) == part.count(pair[1]) else None


def _body(code: str, start: int) -> str | None:
    """The brace-balanced body that opens at or after START."""
    open_at = code.find("{", start)
    end = _balanced(code, open_at, "{}") if open_at >= 0 else None
    return code[open_at:end + 1] if end is not None else None


def _writes(body: str, name: str) -> bool:
    word = re.escape(name)
    return bool(re.search(r"(?<![=!<>])\b%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)|(?<!&)&\s*%s\b|"
                          r"(?:\+\+|--)\s*%s\b|\b%s\s*(?:\+\+|--)" % ((word,) * 4), body))


def _writes_or_macro_writes(code: str, body: str, name: str) -> bool:
    """_writes(), or a macro of the file that BODY uses writes NAME, to any
    depth (macro_names; a paste that may spell it counts), or NAME is in the
    arguments of a macro of the file that may write an argument."""
    if _writes(body, name) or macro_names.names_through_macro(
            code, name, body, lambda text: _writes(text, name)):
        return True
    writing = macro_names.writing_an_argument(macro_names.definitions(code), _writes_parameter)
    return any(_callers(body, match.start()) & writing
               for match in re.finditer(_WORD % re.escape(name), body))


def _writes_parameter(body: str, name: str) -> bool:
    """_writes() of a macro's parameter, which its body writes in
    parentheses as often as not: ((x) = (v))."""
    return _writes(re.sub(r"\(\s*(%s)\s*\)" % re.escape(name), r" \1 ", body), name)


def _callers(code: str, offset: int) -> set[str]:
    """The names of every call whose argument list holds OFFSET of CODE."""
    names = set()
    for open_at in enclosing_brackets(code, offset):
        name = re.search(r"(\w+)\s*$", code[:open_at]) if code[open_at] == "(" else None
        if name:
            names.add(name.group(1))
    return names


def _mentions_are_entries_or_own_calls(code: str, handler: str, definition: int) -> bool:
    for match in re.finditer(_WORD % re.escape(handler), code):
        if match.start() == definition:
            continue
        before = code[:match.start()].rstrip()
        after = code[match.end():].lstrip()
        if re.search(r"(?:\.\s*ioctl\s*=|\bioctl\s*:)\s*&?\s*$", before) and \
                re.match(r"[,}]", after):
            continue                    # a legacy fops entry: the VFS calls it
        if after.startswith("("):
            close = _balanced(after, 0, "()")
            if close is None:
                return False
            args = split_top_level(after[1:close])
            if len(args) == 4 and _own_inode_of(args[0]) == args[1].strip():
                continue                # the wrapper's call, or the VFS's shape
        return False
    return True


def is_own_inode(text: str, handler: str, inode_arg: str, file_arg: str) -> bool:
    """Whether, in the file TEXT, the call in HANDLER passing INODE_ARG and
    FILE_ARG passes the inode of that file for certain (module doc)."""
    code = code_only(text)
    inode_arg, file_arg = inode_arg.strip(), file_arg.strip()
    if not re.fullmatch(r"\w+", inode_arg) or not re.fullmatch(r"\w+", file_arg):
        return False
    name = re.escape(handler)
    legacy = re.search(r"\bstatic\s+(?:inline\s+)?int\s+(%s)\s*\(\s*struct\s+inode\s*\*\s*(\w+)\s*,"
                       r"\s*struct\s+file\s*\*\s*(\w+)\s*," % name, code)
    if legacy:
        body = _body(code, legacy.end())
        return body is not None and (inode_arg, file_arg) == legacy.group(2, 3) and \
            not _writes_or_macro_writes(code, body, inode_arg) and \
            not _writes_or_macro_writes(code, body, file_arg) and \
            _mentions_are_entries_or_own_calls(code, handler, legacy.start(1))
    converted = re.search(r"\b(?:long|int)\s+%s\s*\(\s*struct\s+file\s*\*\s*(\w+)\s*," % name, code)
    if not converted or converted.group(1) != file_arg:
        return False
    body = _body(code, converted.end())
    if body is None or _writes_or_macro_writes(code, body, file_arg):
        return False
    local = re.search(r"\bstruct\s+inode\s*\*\s*%s\s*=\s*([^;]+);" % re.escape(inode_arg), body)
    if not local or _own_inode_of(local.group(1)) != file_arg:
        return False
    rest = body[:local.start()] + body[local.end():]
    return not _writes_or_macro_writes(code, rest, inode_arg)

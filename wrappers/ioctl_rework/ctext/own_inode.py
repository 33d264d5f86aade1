"""Whether a forwarding call's inode is the inode of the file it passes
because both are the calling handler's own.

A stacking driver may forward with its own parameters,
lower->f_op->ioctl(inode, file, cmd, arg).  The VFS called the handler
with the inode of its file, so the unlocked call, which passes no inode,
loses nothing, provided that (default-deny):
- the handler is static (no other file calls it) and writes neither
  parameter nor takes their addresses, itself or through a macro of the
  file or of a header it includes, to any depth;
- every other mention of it in the file is a fops entry or a call that
  passes the inode of the file it passes (the VFS's, or the wrapper's),
  written out or through such a macro (INO(file), #define INO(f)
  ((f)->f_dentry->d_inode));
or the handler was converted and its inode is a local initialized from its
file and never written.  The macros are those of the headers the rule
reads (macro_names.read_macros).  Anything else is not proven: the call is
refused.  A header not read is not refused here: convert's forwarding
stage runs the rule on the file's text alone (convert/forwarding.py), so
every header is unread there and every stacking driver that calls one of
its functions would be refused.
"""

import re

from ioctl_rework.ctext import macro_names
from ioctl_rework.ctext.spans import closing, code_only, enclosing_brackets, split_top_level

_OWN = r"(?:(\w+)\s*->\s*f_dentry\s*->\s*d_inode|(\w+)\s*->\s*f_path\s*\.\s*dentry\s*->\s*d_inode" \
       r"|file_inode\s*\(\s*(\w+)\s*\))"
_WORD = r"\b%s\b"


def _own_inode_of(text: str, macros: macro_names.ReadMacros, depth: int = 0) -> str | None:
    """The file whose inode TEXT (an argument) is, or None: written out, or
    a call of a macro each of whose definitions expands to that, to a few
    levels (a macro #undef'd somewhere read is not known to be defined)."""
    text = re.sub(r"\(\s*(\w+)\s*\)(?=\s*->)", r"\1", text).strip()     # (f)->f_path
    while text.startswith("(") and closing(text, 0, "()") == len(text) - 1:
        text = text[1:-1].strip()
    match = re.fullmatch(_OWN, text)
    if match:
        return next(g for g in match.groups() if g)
    call = re.fullmatch(r"(\w+)\s*\(\s*(\w+)\s*\)", text)
    if call is None or depth > 8 or call.group(1) in macros.undefined:
        return None
    found = [d for d in macros.found if d.name == call.group(1)]
    files = {_own_inode_of(re.sub(r"\b%s\b" % re.escape(next(iter(d.parameters))),
                                  call.group(2), d.body), macros, depth + 1)
             if len(d.parameters) == 1 else None for d in found}
    return files.pop() if len(files) == 1 else None


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
    """Whether BODY writes the variable NAME: a member of that name (.file =
    in a designated initializer, p->file =) is not the variable."""
    if name not in body:        # most macro bodies of a kernel's headers
        return False
    word = re.escape(name)
    body = re.sub(r"(\.|->)\s+", r"\1", body)
    return bool(re.search(r"(?<![=!<>.])\b%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)|(?<!&)&\s*%s\b|"
                          r"(?:\+\+|--)\s*%s\b|\b%s\s*(?:\+\+|--)" % ((word,) * 4), body))


def _writes_or_macro_writes(macros: macro_names.ReadMacros, body: str, name: str) -> bool:
    """_writes(), or a macro of MACROS that BODY uses writes NAME, to any
    depth (macro_names; a paste that may spell it counts), or NAME is in the
    arguments of a macro of MACROS that may write an argument."""
    # A paste in the kernel's headers (__CONCAT(a, b), ___PASTE) spells what
    # its call site's arguments spell, which the body shows: only the
    # driver's own pastes may spell the name unseen (else every kernel
    # macro would reach one and name every word).
    if _writes(body, name) or macro_names.uses_naming(
            macros.found, name, body, lambda text: _writes(text, name), macros.own):
        return True
    writing = macro_names.writing_an_argument(macros.found, _writes_parameter)
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


def _mentions_are_entries_or_own_calls(code: str, handler: str, definition: int,
                                       macros: macro_names.ReadMacros) -> bool:
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
            if len(args) == 4 and _own_inode_of(args[0], macros) == args[1].strip():
                continue                # the wrapper's call, or the VFS's shape
        return False
    return True


def is_own_inode(text: str, handler: str, inode_arg: str, file_arg: str,
                 path: str | None = None, root: str | None = None) -> bool:
    """Whether, in the file TEXT, the call in HANDLER passing INODE_ARG and
    FILE_ARG passes the inode of that file for certain (module doc).  PATH
    (relative to ROOT, or as spatch names it) is TEXT's file, whose headers
    are read; without it TEXT is read alone."""
    code = code_only(text)
    inode_arg, file_arg = inode_arg.strip(), file_arg.strip()
    if not re.fullmatch(r"\w+", inode_arg) or not re.fullmatch(r"\w+", file_arg):
        return False
    name = re.escape(handler)
    legacy = re.search(r"\bstatic\s+(?:inline\s+)?int\s+(%s)\s*\(\s*struct\s+inode\s*\*\s*(\w+)\s*,"
                       r"\s*struct\s+file\s*\*\s*(\w+)\s*," % name, code)
    converted = None if legacy else \
        re.search(r"\b(?:long|int)\s+%s\s*\(\s*struct\s+file\s*\*\s*(\w+)\s*," % name, code)
    if not legacy and not converted:
        return False
    body = _body(code, (legacy or converted).end())
    if body is None:
        return False
    macros = macro_names.read_macros(path, root) if path is not None \
        else macro_names.text_macros(text)
    if legacy:
        return (inode_arg, file_arg) == legacy.group(2, 3) and \
            not _writes_or_macro_writes(macros, body, inode_arg) and \
            not _writes_or_macro_writes(macros, body, file_arg) and \
            _mentions_are_entries_or_own_calls(code, handler, legacy.start(1), macros)
    if converted.group(1) != file_arg or _writes_or_macro_writes(macros, body, file_arg):
        return False
    local = re.search(r"\bstruct\s+inode\s*\*\s*%s\s*=\s*([^;]+);" % re.escape(inode_arg), body)
    if not local or _own_inode_of(local.group(1), macros) != file_arg:
        return False
    rest = body[:local.start()] + body[local.end():]
    return not _writes_or_macro_writes(macros, rest, inode_arg)

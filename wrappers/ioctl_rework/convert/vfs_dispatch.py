"""The VFS's own ioctl dispatch in a tree the run converts: the functions
that implement the ioctl system calls (sys_ioctl, compat_sys_ioctl,
vfs_ioctl, do_vfs_ioctl, SYSCALL_DEFINE3(ioctl, ...)) in fs/, and the
static helpers of their file that only they call (2.6.9's file_ioctl).

Their calls and tests of f_op->ioctl are not a driver forwarding to the
file below it: they are the kernel's entry point, which the target
kernel has in its own form (the 2.6.11 patch that added .unlocked_ioctl
rewrote them to dispatch both members).  So they are listed, not
converted (rewritten to ->unlocked_ioctl alone they would stop calling
every legacy driver), and they deny nothing.  Decided by what the code
is, not by a list of paths: a function of a file directly in fs/ whose
name is the syscall's, or a static function of that file every use of
which is a call from one of them.
"""

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ioctl_rework.ctext import spans

ENTRY_POINTS = frozenset({"sys_ioctl", "compat_sys_ioctl", "vfs_ioctl", "do_vfs_ioctl"})
_SYSCALL_MACRO = re.compile(r"\b(?:COMPAT_)?SYSCALL_DEFINE3\s*\(\s*ioctl\b")
# A definition whose name starts a line's code or follows its type there.
_DEFINITION = re.compile(r"(?m)^(?P<head>[^\n;{}#()]*?)\b(?P<name>\w+)\s*\(")
REASON = "the VFS dispatch: the target's own ioctl entry point"


@dataclass(frozen=True)
class _Function:
    name: str
    static: bool
    start: int      # offset of its name
    body: range     # offsets of its body, braces included


def functions(rel: str, text: str) -> set[str]:
    """The names of REL's functions that are the VFS's ioctl dispatch
    (a macro-defined syscall is named by its macro, SYSCALL_DEFINE3)."""
    if PurePosixPath(rel).parent != PurePosixPath("fs"):
        return set()
    code = spans.code_only(text)
    defined = _definitions(code)
    dispatch = {f.name for f in defined.values() if f.name in ENTRY_POINTS or
                f.name.endswith("SYSCALL_DEFINE3") and _SYSCALL_MACRO.match(code, f.start)}
    while True:
        more = {f.name for f in defined.values() if f.name not in dispatch and f.static and
                _only_called_from(code, f, defined, dispatch)}
        if not more:
            return dispatch
        dispatch |= more


def _definitions(code: str) -> dict[str, _Function]:
    found = {}
    for match in _DEFINITION.finditer(code):
        name = match["name"]
        if name in ("if", "while", "for", "switch", "return", "sizeof"):
            continue
        close = spans.closing(code, match.end() - 1, "()")
        body = re.match(r"\s*(?:__\w+(?:\([^)]*\))?\s*)*\{", code[close + 1:])
        if not body:
            continue                # a prototype or a call
        opening = close + body.end() - 1
        head = match["head"] + code[code.rfind("\n", 0, max(0, match.start() - 1)) + 1:
                                    match.start()]
        found[name] = _Function(name, re.search(r"\bstatic\b", head) is not None,
                                match.start("name"),
                                range(opening, spans.closing(code, opening) + 1))
    return found


def _only_called_from(code: str, function: _Function, defined: dict[str, _Function],
                      dispatch: set[str]) -> bool:
    """Whether every use of FUNCTION in CODE, but its definition and
    prototypes, is a call from a function of DISPATCH."""
    uses = 0
    for match in re.finditer(rf"(?<![\w.>]){re.escape(function.name)}\b", code):
        if match.start() == function.start:
            continue
        caller = next((f for f in defined.values() if match.start() in f.body), None)
        if caller is None and re.match(r"\s*\([^;{}]*\)\s*;", code[match.end():]):
            continue                # a prototype
        if caller is None or caller.name not in dispatch or caller is function or \
                not re.match(r"\s*\(", code[match.end():]):
            return False
        uses += 1
    return uses > 0

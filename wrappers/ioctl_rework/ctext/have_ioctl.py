"""Resolve `#ifdef HAVE_UNLOCKED_IOCTL` / `HAVE_COMPAT_IOCTL` for a target
that has no legacy .ioctl (>= 2.6.36).

There the macros' true branch is the only one that can build: the #else
branch holds the `.ioctl` the kernel no longer has.  Since 5.9 the macros
are gone, so a conditional left in place would pick that dead branch.
SmPL cannot match preprocessor directives, so this is done on the text of
the converted file (convert_runner), and only for the plain forms:

    #ifdef M / #if defined(M) / #if defined M           true
    #ifndef M / #if !defined(M) / #if !defined M        false

Anything else naming a macro (an expression with && or ||, an #elif after
a false test) is left as it is and listed, never guessed at.
"""

import re
from dataclasses import dataclass

MACROS = ("HAVE_UNLOCKED_IOCTL", "HAVE_COMPAT_IOCTL")
_NAME = "(?:" + "|".join(MACROS) + ")"
_TRUE = re.compile(rf"^\s*#\s*(?:ifdef\s+{_NAME}|if\s+defined\s*(?:\(\s*{_NAME}\s*\)|\s{_NAME}))\s*"
                   r"(?:/\*.*\*/\s*|//.*)?$")
_FALSE = re.compile(rf"^\s*#\s*(?:ifndef\s+{_NAME}|if\s+!\s*defined\s*(?:\(\s*{_NAME}\s*\)|\s{_NAME}))"
                    r"\s*(?:/\*.*\*/\s*|//.*)?$")
_OPEN = re.compile(r"^\s*#\s*if(?:def|ndef)?\b")
_ELSE = re.compile(r"^\s*#\s*else\b")
_ELIF = re.compile(r"^\s*#\s*elif\b")
_END = re.compile(r"^\s*#\s*endif\b")
_MENTION = re.compile(rf"^\s*#\s*(?:if|elif).*\b{_NAME}\b")


@dataclass(frozen=True)
class Resolution:
    text: str
    resolved: tuple[int, ...]      # lines (1-based, in the input) of resolved #if's
    left: tuple[int, ...]          # lines of conditionals on the macros left as they are


def _branches(lines: list[str], start: int) -> tuple[list[tuple[str, int]], int] | None:
    """The directives of the conditional opened at START at its own depth
    (kind, line index), ending with its #endif; None when it never ends."""
    found, depth = [("if", start)], 0
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if _OPEN.match(line):
            depth += 1
        elif _END.match(line):
            if depth == 0:
                found.append(("endif", index))
                return found, index
            depth -= 1
        elif depth == 0 and _ELSE.match(line):
            found.append(("else", index))
        elif depth == 0 and _ELIF.match(line):
            found.append(("elif", index))
    return None


def resolve(text: str) -> Resolution:
    lines = text.split("\n")
    drop: set[int] = set()
    resolved, left = [], []
    for index, line in enumerate(lines):
        if index in drop:
            continue
        truth = True if _TRUE.match(line) else False if _FALSE.match(line) else None
        if truth is None:
            if _MENTION.match(line):
                left.append(index + 1)
            continue
        found = _branches(lines, index)
        if found is None:
            left.append(index + 1)
            continue
        directives, end = found
        kinds = [kind for kind, _ in directives]
        if not truth and "elif" in kinds:
            left.append(index + 1)      # the #elif would have to become an #if
            continue
        cut = directives[1][1]          # the first #else/#elif/#endif after the #if
        if truth:
            drop.update([index, *range(cut, end + 1)])
        else:
            drop.update(range(index, cut + 1) if kinds[1] == "else" else range(index, end + 1))
            drop.add(end)
        resolved.append(index + 1)
    kept = [line for index, line in enumerate(lines) if index not in drop]
    return Resolution("\n".join(kept), tuple(resolved), tuple(left))

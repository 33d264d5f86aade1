"""Kernel style for the lines spatch adds, where spatch cannot keep it.

spatch prints a new fops entry as `.unlocked_ioctl = h,` whatever the
alignment of the entries around it, prints a GNU `ioctl: h,` line that the
multi-kernel output keeps at column 0, continues a new function's
parameter list with two or four spaces, and puts a lock statement that goes
before a label at column 0.  Only lines the diff adds are touched, and the
parameter lines of a signature whose `int` became `long` (they stay lined
up with its parenthesis), so nothing else churns; `make cocci` users get
spatch's own spacing.
"""

import re

from ioctl_rework.patches.unified import Applied

_NEW_ENTRY = re.compile(rb"^(\s+)(\.(?:unlocked|compat)_ioctl) = (.*)$")
_ALIGNED_ENTRY = re.compile(rb"^(\s+)(\.\w+)([ \t]*\t[ \t]*)=")
_NEW_FUNCTION = re.compile(rb"^static long \w+\(")
_CONTINUATION = re.compile(rb"^ {2,4}(?! )(.*\)[;]?)$")
_LOCK_STATEMENT = re.compile(rb"^(?:lock_kernel|unlock_kernel|mutex_lock|mutex_unlock)\(.*\);$")
_LABEL = re.compile(rb"^\w+:(?!:)")
_RETYPED = re.compile(rb"^(.*\blong\s+\**\w+\()")
TAB = 8


def _width(text: bytes) -> int:
    return len(text.expandtabs(TAB))


def _aligned_column(lines: list[bytes], index: int, added: set[int]) -> int | None:
    """Where `=` sits in the tab-aligned entries next to lines[index]."""
    for step in (-1, 1):
        i = index + step
        while 0 <= i < len(lines) and abs(i - index) <= 8:
            if i + 1 not in added:
                match = _ALIGNED_ENTRY.match(lines[i])
                if match:
                    return _width(match.group(1) + match.group(2) + match.group(3))
                if lines[i].strip().startswith((b"}", b"{")) or lines[i].rstrip().endswith(b"{"):
                    break
            i += step
    return None


def _align_entry(line: bytes, column: int) -> bytes:
    match = _NEW_ENTRY.match(line)
    end = _width(match.group(1) + match.group(2))
    if column % TAB or end >= column:
        return line
    tabs = (column - end // TAB * TAB) // TAB
    return match.group(1) + match.group(2) + b"\t" * tabs + b"= " + match.group(3)


def _indent_to(column: int) -> bytes:
    return b"\t" * (column // TAB) + b" " * (column % TAB)


def _neighbour_indent(lines: list[bytes], index: int) -> bytes | None:
    """The indentation of the code next to lines[index], past labels and
    blank lines: the statement a label introduces, else the one before."""
    for step in (1, -1):
        i = index + step
        while 0 <= i < len(lines) and (not lines[i].strip() or _LABEL.match(lines[i])):
            i += step
        if 0 <= i < len(lines) and lines[i][:1] in (b"\t", b" "):
            return lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    return None


def _realign_parameters(lines: list[bytes], index: int, removed: list[bytes]) -> None:
    """After `int h(` became `long h(` at lines[index], move the parameter
    lines that were lined up with the old parenthesis to the new one."""
    match = _RETYPED.match(lines[index])
    if not match:
        return
    new_prefix = match.group(1)
    old_prefix = new_prefix[:new_prefix.rindex(b"long")] + b"int" + \
        new_prefix[new_prefix.rindex(b"long") + 4:]
    if not any(r.startswith(old_prefix) for r in removed):
        return
    old_column, new_column = _width(old_prefix), _width(new_prefix)
    i = index
    while not lines[i].rstrip(b"\r").rstrip().endswith((b")", b"{", b";")) and i + 1 < len(lines):
        i += 1
        body = lines[i].lstrip(b" \t")
        if _width(lines[i][:len(lines[i]) - len(body)]) == old_column:
            lines[i] = _indent_to(new_column) + body


def tidy(applied: Applied) -> bytes:
    """The new file of APPLIED (unified.apply_hunks) with its added lines in
    kernel style."""
    added = applied.added
    if not added:
        return applied.new
    lines = applied.new.split(b"\n")
    old_lines = {r.lstrip(): r for r in applied.removed}
    for number in sorted(added):
        i = number - 1
        if i >= len(lines):
            continue
        line = lines[i]
        # Removed lines come without their line ending; a CRLF file's CR stays.
        text = line.rstrip(b"\r")
        if _NEW_ENTRY.match(line):
            column = _aligned_column(lines, i, added)
            if column is not None:
                lines[i] = _align_entry(line, column)
        elif line[:1] not in (b"\t", b" ", b"#", b"") and text in old_lines \
                and old_lines[text][:1] in (b"\t", b" "):
            # A line spatch kept but printed again without its indentation.
            lines[i] = old_lines[text] + line[len(text):]
        elif i and i in added and _CONTINUATION.match(text) and _NEW_FUNCTION.match(lines[i - 1]):
            column = lines[i - 1].index(b"(") + 1
            lines[i] = _indent_to(column) + _CONTINUATION.match(text).group(1) + line[len(text):]
        elif _LOCK_STATEMENT.match(text):
            indent = _neighbour_indent(lines, i)
            if indent is not None:
                lines[i] = indent + line
        if _RETYPED.match(lines[i]):
            _realign_parameters(lines, i, applied.removed)
    return b"\n".join(lines)

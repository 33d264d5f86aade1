"""Kernel style for the lines spatch adds, where spatch cannot keep it.

spatch prints a new fops entry as `.unlocked_ioctl = h,` whatever the
alignment of the entries around it, prints a GNU `ioctl: h,` line that the
multi-kernel output keeps at column 0, and continues a new function's
parameter list with two or four spaces.  Only lines the diff adds are touched, so
nothing else churns; `make cocci` users get spatch's own spacing.
"""

import re

from ioctl_rework.unified import Applied

_NEW_ENTRY = re.compile(rb"^(\s+)(\.(?:unlocked|compat)_ioctl) = (.*)$")
_ALIGNED_ENTRY = re.compile(rb"^(\s+)(\.\w+)([ \t]*\t[ \t]*)=")
_NEW_FUNCTION = re.compile(rb"^static long \w+\(")
_CONTINUATION = re.compile(rb"^ {2,4}(?! )(.*\)[;]?)$")
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
        if _NEW_ENTRY.match(line):
            column = _aligned_column(lines, i, added)
            if column is not None:
                lines[i] = _align_entry(line, column)
        elif line[:1] not in (b"\t", b" ", b"#", b"") and line in old_lines \
                and old_lines[line][:1] in (b"\t", b" "):
            # A line spatch kept but printed again without its indentation.
            lines[i] = old_lines[line]
        elif i and i in added and _CONTINUATION.match(line) and _NEW_FUNCTION.match(lines[i - 1]):
            column = lines[i - 1].index(b"(") + 1
            lines[i] = b"\t" * (column // TAB) + b" " * (column % TAB) + \
                _CONTINUATION.match(line).group(1)
    return b"\n".join(lines)

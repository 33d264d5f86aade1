"""Kernel style for the lines spatch adds, where spatch cannot keep it.

spatch prints a new fops entry as `.unlocked_ioctl = h,` whatever the
alignment of the entries around it, prints a GNU `ioctl: h,` line that the
multi-kernel output keeps at column 0, continues a new function's
parameter list with one to four spaces (the wrapper's, the forward
helper's, on as many lines as it takes), and puts a lock statement that goes
before a label at column 0.  Only lines the diff adds are touched, and the
parameter lines of a signature whose `int` became `long` (they stay lined
up with its parenthesis), so nothing else churns; `make cocci` users get
spatch's own spacing.
"""

import re

from ioctl_rework.patches.unified import Applied

_NEW_ENTRY = re.compile(rb"^(\s+)(\.(?:unlocked|compat)_ioctl) = (.*)$")
_ALIGNED_ENTRY = re.compile(rb"^(\s+)(\.\w+)([ \t]*\t[ \t]*)=")
# A new function's signature (the wrapper, the forward helper; `static
# inline` in a header) whose parameter list goes on: spatch continues it
# with one to four spaces, on one line or more.
_NEW_FUNCTION = re.compile(rb"^static\s+(?:inline\s+)?(?:\w+\s+)+\**\s*\w+\(")
_CONTINUATION = re.compile(rb"^ {1,4}(?![ \t])(.*)$")
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


def _signature_column(lines: list[bytes], index: int, added: set[int]) -> int | None:
    """The column after the `(` of the new function signature whose
    parameter list lines[index] continues: the lines from the signature to
    it are all added and the list is still open; else None."""
    i, depth = index - 1, 0
    while i >= 0 and i + 1 in added and i >= index - 8:
        depth += lines[i].count(b"(") - lines[i].count(b")")
        if _NEW_FUNCTION.match(lines[i]):
            return _width(lines[i][:lines[i].index(b"(") + 1]) if depth > 0 else None
        if not _CONTINUATION.match(lines[i].rstrip(b"\r")) and not lines[i][:1] == b"\t":
            return None
        i -= 1
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
        elif _CONTINUATION.match(text) and (column := _signature_column(lines, i, added)):
            lines[i] = _indent_to(column) + _CONTINUATION.match(text).group(1) + line[len(text):]
        elif _LOCK_STATEMENT.match(text):
            indent = _neighbour_indent(lines, i)
            if indent is not None:
                lines[i] = indent + line
        if _RETYPED.match(lines[i]):
            _realign_parameters(lines, i, applied.removed)
    return b"\n".join(lines)


_IFDEF_UNLOCKED = re.compile(rb"^#\s*ifdef\s+HAVE_UNLOCKED_IOCTL\b")
_ELSE = re.compile(rb"^#\s*else\b")
_ENDIF = re.compile(rb"^#\s*endif\b")
_SPACE = re.compile(rb"\s+")


def legacy_halves(old: bytes, applied: Applied) -> Applied:
    """APPLIED with each #else half it added under an added #ifdef
    HAVE_UNLOCKED_IOCTL in the layout of OLD, where that half is a statement
    of OLD printed again (spatch reflows it), and without the blank line
    spatch adds beside such a block.  Token for token the text is unchanged."""
    lines = applied.new.split(b"\n")
    added = set(applied.added)
    old_lines = old.split(b"\n")
    drop: set[int] = set()
    i = 0
    while i < len(lines):
        block = _added_block(lines, added, i) if _IFDEF_UNLOCKED.match(lines[i]) else None
        if block is not None:
            start, end = block
            # A half of lines spatch kept as they were has their layout already.
            printed = all(k + 1 in added for k in range(start + 1, end))
            found = _same_tokens(old_lines, lines[start + 1:end]) if printed else None
            if found is not None:
                lines[start + 1:end] = found
                grown = len(found) - (end - start - 1)
                added = ({n for n in added if n <= start + 1}
                         | set(range(start + 2, start + 2 + len(found)))
                         | {n + grown for n in added if n > end})
                end += grown
            for k in (i - 1, start - 1, end + 1):
                if 0 <= k < len(lines) and k + 1 in added and not lines[k].strip():
                    drop.add(k)
            i = end
        i += 1
    for k in sorted(drop, reverse=True):
        del lines[k]
        added = {n if n < k + 1 else n - 1 for n in added if n != k + 1}
    return Applied(b"\n".join(lines), added, applied.removed)


def _same_tokens(old_lines: list[bytes], half: list[bytes]) -> list[bytes] | None:
    """The lines of OLD whose text, spaces aside, is that of HALF."""
    want = _SPACE.sub(b"", b"".join(half))
    if not want:
        return None
    for start in range(len(old_lines)):
        if not old_lines[start].strip():
            continue
        have = b""
        for stop in range(start, len(old_lines)):
            have += _SPACE.sub(b"", old_lines[stop])
            if not want.startswith(have):
                break
            if have == want:
                return old_lines[start:stop + 1]
    return None


def _added_block(lines: list[bytes], added: set[int], at: int) -> tuple[int, int] | None:
    """The 0-based lines of the #else and #endif of the #ifdef at AT, when
    the three are added."""
    if at + 1 not in added:
        return None
    start = next((k for k in range(at + 1, len(lines)) if _ELSE.match(lines[k])), None)
    end = None if start is None else \
        next((k for k in range(start + 1, len(lines)) if _ENDIF.match(lines[k])), None)
    if end is None or start + 1 not in added or end + 1 not in added:
        return None
    return start, end

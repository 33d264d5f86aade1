"""Unified diffs as bytes: applying spatch's, writing git's.

spatch prints a diff per file; we apply it to the exact bytes we read
(never re-reading the file, which may have changed) and write our own
git-style diff from old and new bytes, so names are a/ and b/ relative to
the tree and git am takes the result.  Lines are split on "\\n" only: a
form feed or a lone "\\r" in a source file is part of its line.  In a file
with CRLF line endings, spatch's lines are matched without the "\\r" and
every line it adds gets one, so the rewrite keeps the file's endings.
spatch keeps the "\\r" of a line it extends (an `if (x)` that gains a
brace prints as `if (x)\\r{`): in an added line of such a file that "\\r"
is a space, never a lone carriage return in the middle of a line.
"""

import difflib
import re
from dataclasses import dataclass, field

import unidiff

from ioctl_rework import names

_NO_NEWLINE = "\\ No newline at end of file"
_KEPT_CR = re.compile(rb"[ \t]*\r[ \t]*")


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _bare(line: bytes) -> bytes:
    return line.rstrip(b"\n").rstrip(b"\r")


@dataclass
class Applied:
    """A diff applied: the new bytes, and which lines it added and removed."""

    new: bytes
    added: set[int] = field(default_factory=set)      # 1-based lines of NEW
    removed: list[bytes] = field(default_factory=list)  # without their line ending


def apply_hunks(old: bytes, diff: str) -> Applied:
    """OLD with the hunks of DIFF (one file's unified diff) applied, and
    where the added lines went and what was removed.

    Raises ValueError when a hunk does not match OLD.  The diff is read by
    Debian's python3-unidiff: spatch prints a plain unified diff with LF line
    ends, which it reads well (patch_parser says what it cannot read of the
    patches check is given).
    """
    source = _lines(old)
    crlf = sum(1 for line in source if line.endswith(b"\r\n")) > len(source) // 2
    try:
        patch = unidiff.PatchSet(diff)
    except unidiff.UnidiffParseError as err:
        raise ValueError(f"spatch's diff cannot be read: {err}") from err
    out: list[bytes] = []
    added: set[int] = set()
    removed: list[bytes] = []
    pos = 0  # next line of SOURCE not yet copied
    for hunk in (hunk for patched in patch for hunk in patched):
        start = hunk.source_start
        begin = start - 1 if hunk.source_length else start
        if begin < pos:
            raise ValueError(f"hunks overlap at line {start}")
        out += source[pos:begin]
        pos = begin
        kind = ""
        for line in hunk:
            if line.line_type == "\\":
                # "\ No newline at end of file": the line before it has none.
                if kind == "+":
                    out[-1] = out[-1].rstrip(b"\n").rstrip(b"\r")
                continue
            kind = line.line_type or " "
            text = line.value.encode("utf-8", "surrogateescape").rstrip(b"\n").rstrip(b"\r")
            if kind == "+":
                if crlf:
                    text = _KEPT_CR.sub(b" ", text)
                out.append(text + (b"\r\n" if crlf else b"\n"))
                added.add(len(out))
                continue
            if pos >= len(source) or _bare(source[pos]) != text:
                raise ValueError(f"line {pos + 1} does not match the hunk at line {start}")
            if kind == " ":
                out.append(source[pos])
            else:
                removed.append(_bare(source[pos]))
            pos += 1
    out += source[pos:]
    return Applied(b"".join(out), added, removed)


def quote_path(path: str) -> str:
    """A path as git writes it in a diff header: C-quoted when it must be."""
    return names.quoted(path, keep_utf8=False)


def git_diff(relpath: str, old: bytes, new: bytes, context: int = 3) -> str:
    """`git diff`-style text for one modified file ("" when OLD == NEW)."""
    if old == new:
        return ""
    a = [line.decode("utf-8", "surrogateescape") for line in _lines(old)]
    b = [line.decode("utf-8", "surrogateescape") for line in _lines(new)]
    name_a = quote_path("a/" + relpath)
    name_b = quote_path("b/" + relpath)
    out = [f"diff --git {name_a} {name_b}\n"]
    for line in difflib.unified_diff(a, b, name_a, name_b, n=context):
        if line.startswith(("--- ", "+++ ")):
            line = line.rstrip("\n") + "\n"
        if not line.endswith("\n"):
            line += "\n" + _NO_NEWLINE + "\n"
        out.append(line)
    return "".join(out)

"""Unified diffs as bytes: applying spatch's, writing git's.

spatch prints a diff per file; we apply it to the exact bytes we read
(never re-reading the file, which may have changed) and write our own
git-style diff from old and new bytes, so names are a/ and b/ relative to
the tree and git am takes the result.  Lines are split on "\\n" only: a
form feed or a lone "\\r" in a source file is part of its line.  In a file
with CRLF line endings, spatch's lines are matched without the "\\r" and
every line it adds gets one, so the rewrite keeps the file's endings.
"""

import difflib
import re
from dataclasses import dataclass, field

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"


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

    Raises ValueError when a hunk does not match OLD.
    """
    source = _lines(old)
    crlf = sum(1 for line in source if line.endswith(b"\r\n")) > len(source) // 2
    patch = diff.encode("utf-8", "surrogateescape").split(b"\n")
    out: list[bytes] = []
    added: set[int] = set()
    removed: list[bytes] = []
    pos = 0  # next line of SOURCE not yet copied
    i = 0
    while i < len(patch):
        match = _HUNK.match(patch[i].decode("latin-1"))
        i += 1
        if not match:
            continue
        start = int(match.group(1))
        old_count = int(match.group(2)) if match.group(2) is not None else 1
        new_count = int(match.group(4)) if match.group(4) is not None else 1
        begin = start - 1 if old_count else start
        if begin < pos:
            raise ValueError(f"hunks overlap at line {start}")
        out += source[pos:begin]
        pos = begin
        kind = b""
        while old_count or new_count or (i < len(patch) and patch[i].startswith(b"\\")):
            if i >= len(patch):
                raise ValueError(f"hunk at line {start} is cut short")
            line = patch[i]
            i += 1
            if line.startswith(b"\\"):
                # "\ No newline at end of file": the line before it has none.
                if kind == b"+":
                    out[-1] = out[-1].rstrip(b"\n").rstrip(b"\r")
                continue
            kind, text = (line[:1], line[1:]) if line else (b" ", b"")
            if kind in (b" ", b"-"):
                if pos >= len(source) or _bare(source[pos]) != text.rstrip(b"\r"):
                    raise ValueError(f"line {pos + 1} does not match the hunk at line {start}")
                if kind == b" ":
                    out.append(source[pos])
                    new_count -= 1
                else:
                    removed.append(_bare(source[pos]))
                pos += 1
                old_count -= 1
            elif kind == b"+":
                out.append(text.rstrip(b"\r") + (b"\r\n" if crlf else b"\n"))
                added.add(len(out))
                new_count -= 1
            else:
                raise ValueError(f"unexpected line in the hunk at line {start}: {line[:40]!r}")
    out += source[pos:]
    return Applied(b"".join(out), added, removed)


def quote_path(path: str) -> str:
    """A path as git writes it in a diff header: C-quoted when it must be."""
    raw = path.encode("utf-8", "surrogateescape")
    if not re.search(rb'[\x00-\x1f"\\\x7f-\xff]', raw):
        return path
    escapes = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
               34: '\\"', 92: "\\\\"}
    return '"' + "".join(escapes.get(b, chr(b) if 32 <= b < 127 else f"\\{b:03o}")
                         for b in raw) + '"'


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

"""Reading unified diffs: what a patch adds, renames, deletes, and where.

Accepts what `git diff`, `git format-patch` (one mail or a series in an
mbox) and `diff -u` produce.  A patch is read strictly: a hunk whose line
counts do not add up, or text where a hunk line must be, raises
MalformedPatch with the line of the patch where reading stopped, because a
gate that guesses at a broken patch can wave anything through.

Why not Debian's python3-unidiff, which reads spatch's diffs for us
(unified.apply_hunks)?  Tried on the patches check is given, unidiff 0.7.3
cannot read: a patch a mailer turned to CRLF (the "\r" ends up in the
file names and `new file mode` is missed); git's C-quoted names (kept
with their quotes and escapes: a `..` hidden in "\057" would pass the
name check); names with a space in `diff --git` (split at the last space,
which adds a file that is not in the patch); `GIT binary patch` data, and
the blank line format-patch puts after it (UnidiffParseError on our
recorded mixed.patch); copies; hunks out of order.  And its errors do not
say at which line of the patch reading stopped.  Those are most of what
this module does; its hunk reader is the rest.
"""

import re

from ioctl_rework.patches.patch_set import (SOURCE_SUFFIXES, SYMLINK_MODE, FilePatch, FinalFile, Hunk,
                                    Line, PatchSet, Status)

# What other modules use of the patch model, through the reader's name.
__all__ = ["SOURCE_SUFFIXES", "SYMLINK_MODE", "FilePatch", "FinalFile", "Hunk", "Line",
           "MalformedPatch", "PatchSet", "Status", "parse", "without_mail_crlf"]


class MalformedPatch(ValueError):
    """The input is not a diff we can read; says where and why."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


_DIFF_GIT = re.compile(r"^diff --git (.+)$")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$")
_GIT_HEADERS = ("old mode ", "new mode ", "deleted file mode ", "new file mode ",
                "similarity index ", "dissimilarity index ", "rename from ", "rename to ",
                "copy from ", "copy to ", "index ")
_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f",
            "r": "\r", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    """Undo git's C-style quoting of unusual path names."""
    if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        return text
    raw = bytearray()
    body = text[1:-1]
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in "01234567":
                digits = body[i + 1:i + 4]
                if not re.fullmatch(r"[0-3][0-7]{2}", digits):
                    raise MalformedPatch(0, f"bad octal escape \\{digits} in the quoted name "
                                            f"{text}: git writes three octal digits, 000 to 377")
                raw.append(int(digits, 8))
                i += 4
                continue
            raw += _ESCAPES.get(nxt, nxt).encode()
            i += 2
            continue
        raw += ch.encode()
        i += 1
    return raw.decode(errors="surrogateescape")


def _strip_prefix(path: str, git: bool) -> str | None:
    """A header path without its a/ or b/ (or, for `diff -u`, first) component."""
    if path == "/dev/null":
        return None
    if git:
        return path[2:] if path[:2] in ("a/", "b/") else path
    return path.split("/", 1)[1] if "/" in path else path


def _header_path(rest: str, git: bool) -> str | None:
    rest = rest.rstrip("\n")
    if rest.startswith('"'):
        end = rest.find('"', 1)
        while end > 0 and rest[end - 1] == "\\":
            end = rest.find('"', end + 1)
        rest = _unquote(rest[:end + 1] if end > 0 else rest)
    else:
        # diff -u appends a timestamp, git a tab after names with spaces.
        rest = rest.split("\t", 1)[0]
        if not git:
            rest = rest.rstrip()
    return _strip_prefix(rest, git)


def _diff_git_paths(rest: str) -> tuple[str | None, str | None]:
    """The two paths of `diff --git a/X b/Y`; X == Y unless renamed."""
    if rest.startswith('"') or rest.endswith('"'):
        parts = re.findall(r'"(?:[^"\\]|\\.)*"|\S+', rest)
        if len(parts) == 2:
            return _strip_prefix(_unquote(parts[0]), True), _strip_prefix(_unquote(parts[1]), True)
        return None, None
    # Unquoted names may hold spaces; the two halves are equal unless renamed,
    # and then the rename headers give the names anyway.
    half = len(rest) // 2
    if len(rest) % 2 == 1 and rest[half] == " " and rest[:half][2:] == rest[half + 1:][2:]:
        return _strip_prefix(rest[:half], True), _strip_prefix(rest[half + 1:], True)
    match = re.match(r"(a/\S+) (b/\S+)$", rest)
    if match:
        return _strip_prefix(match[1], True), _strip_prefix(match[2], True)
    return None, None


_STRUCTURE = re.compile(r"^(?:diff --git |--- |\+\+\+ |@@ )")


def without_mail_crlf(text: str) -> str:
    """TEXT with "\r\n" line ends made "\n" when the patch's own headers
    end in "\r": a mailer or an editor turned the whole patch to CRLF.  A
    patch of a CRLF file, whose headers end in "\n", is left alone."""
    for line in text.split("\n"):
        if _STRUCTURE.match(line):
            return text.replace("\r\n", "\n") if line.endswith("\r") else text
    return text


class _Reader:
    def __init__(self, text: str):
        # Only "\n" ends a line: old sources hold form feeds, which
        # str.splitlines() would take for line ends.
        self.lines = text.split("\n")
        if self.lines[-1] == "":
            self.lines.pop()
        self.i = 0

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return self.lines[j] if j < len(self.lines) else None

    @property
    def number(self) -> int:
        return self.i + 1


def parse(text: str) -> PatchSet:
    """Read every file diff in TEXT.  Text around the diffs (mail headers,
    commit messages, diffstats) is skipped, as `git apply` skips it.
    Empty input is an empty set; non-empty input without a diff is malformed.
    """
    reader = _Reader(without_mail_crlf(text))
    try:
        files = _read_files(reader)
    except MalformedPatch as err:
        if err.line:
            raise
        # A name's quoting is judged where the name is read: say where that was.
        raise MalformedPatch(reader.number, str(err)) from None
    if not files and text.strip():
        raise MalformedPatch(0, "no diff found (expected `diff --git` or `---`/`+++` headers)")
    return PatchSet(tuple(files), len(reader.lines))


def _read_files(reader: _Reader) -> list[FilePatch]:
    files: list[FilePatch] = []
    while reader.peek() is not None:
        line = reader.peek()
        if _DIFF_GIT.match(line):
            files.append(_read_git_file(reader))
        elif line.startswith("--- ") and (reader.peek(1) or "").startswith("+++ "):
            files.append(_read_plain_file(reader))
        elif line.startswith("@@ ") and _HUNK.match(line):
            raise MalformedPatch(reader.number, "hunk without a file header (--- / +++)")
        else:
            reader.i += 1
    return files


def _read_git_file(reader: _Reader) -> FilePatch:
    start = reader.number
    old, new = _diff_git_paths(_DIFF_GIT.match(reader.peek())[1])
    reader.i += 1
    status = Status.MODIFIED
    binary = False
    mode = None
    hunks: tuple[Hunk, ...] = ()
    while (line := reader.peek()) is not None:
        if line.startswith(("new file mode ", "new mode ")):
            mode = line.rsplit(" ", 1)[1]
        elif line.startswith("index ") and line.count(" ") == 2:
            mode = line.rsplit(" ", 1)[1]
        if line.startswith("new file mode "):
            status = Status.ADDED
        elif line.startswith("deleted file mode "):
            status = Status.DELETED
        elif line.startswith("rename from "):
            status, old = Status.RENAMED, _unquote(line[len("rename from "):])
        elif line.startswith("rename to "):
            new = _unquote(line[len("rename to "):])
        elif line.startswith("copy from "):
            status, old = Status.COPIED, _unquote(line[len("copy from "):])
        elif line.startswith("copy to "):
            new = _unquote(line[len("copy to "):])
        elif line.startswith("Binary files ") and line.endswith(" differ"):
            binary = True
        elif line == "GIT binary patch":
            binary = True
            reader.i += 1
            _skip_binary(reader)
            continue
        elif line.startswith("--- "):
            if not (reader.peek(1) or "").startswith("+++ "):
                raise MalformedPatch(reader.number + 1, "`---` header not followed by `+++`")
            # These name the file even when `diff --git` was ambiguous.
            old = _header_path(line[4:], True)
            new = _header_path(reader.peek(1)[4:], True)
            reader.i += 2
            hunks = _read_hunks(reader)
            break
        elif not line.startswith(_GIT_HEADERS):
            break
        reader.i += 1
    if status is Status.ADDED:
        old = None
    elif status is Status.DELETED:
        new = None
    if old is None and new is None:
        raise MalformedPatch(start, "cannot tell the file name from the `diff --git` line")
    if status is Status.MODIFIED and old is None:
        status = Status.ADDED
    elif status is Status.MODIFIED and new is None:
        status = Status.DELETED
    return FilePatch(old, new, status, binary, hunks, start, mode)


def _skip_binary(reader: _Reader) -> None:
    """A `GIT binary patch`: one or two base85 blocks, each ending in a blank line."""
    for _ in range(2):
        line = reader.peek()
        if line is None or not re.match(r"^(literal|delta) \d+$", line):
            return
        reader.i += 1
        while (line := reader.peek()) is not None and line != "":
            if not re.match(r"^[A-Za-z][0-9A-Za-z!#$%&()*+;<=>?@^_`{|}~-]*$", line):
                raise MalformedPatch(reader.number, "broken `GIT binary patch` data")
            reader.i += 1
        reader.i += 1


def _read_plain_file(reader: _Reader) -> FilePatch:
    start = reader.number
    old = _header_path(reader.peek()[4:], False)
    new = _header_path(reader.peek(1)[4:], False)
    reader.i += 2
    hunks = _read_hunks(reader)
    if old is None and new is None:
        raise MalformedPatch(start, "both file names are /dev/null")
    if old is None:
        status = Status.ADDED
    elif new is None:
        status = Status.DELETED
    else:
        status = Status.MODIFIED if old == new else Status.RENAMED
    return FilePatch(old, new, status, False, hunks, start)


def _read_hunks(reader: _Reader) -> tuple[Hunk, ...]:
    hunks = []
    while (line := reader.peek()) is not None and line.startswith("@@"):
        match = _HUNK.match(line)
        if not match:
            raise MalformedPatch(reader.number, f"bad hunk header: {line!r}")
        hunks.append(_read_hunk(reader, match))
    if not hunks:
        raise MalformedPatch(reader.number, "file header without any hunk")
    for before, after in zip(hunks, hunks[1:]):
        if after.old_start < before.old_start + before.old_count:
            raise MalformedPatch(after.patch_line, "hunks overlap or are out of order")
    return tuple(hunks)


def _read_hunk(reader: _Reader, match: re.Match) -> Hunk:
    start = reader.number
    old_start, new_start = int(match[1]), int(match[3])
    old_count = 1 if match[2] is None else int(match[2])
    new_count = 1 if match[4] is None else int(match[4])
    reader.i += 1
    old_left, new_left = old_count, new_count
    # An empty hunk side starts "after line N"; the first real line is N+1.
    old_no = old_start if old_count else old_start + 1
    new_no = new_start if new_count else new_start + 1
    lines = []
    while old_left or new_left:
        text = reader.peek()
        if text is None:
            raise MalformedPatch(reader.number, f"hunk at line {start} ends early: "
                                 f"{old_left} old and {new_left} new lines missing")
        kind = text[:1] or " "      # mailers strip the space of blank context lines
        if text.startswith("\\"):
            reader.i += 1
            continue
        if kind == " " and old_left and new_left:
            lines.append(Line(" ", text[1:], old_no, new_no, reader.number))
            old_no, new_no, old_left, new_left = old_no + 1, new_no + 1, old_left - 1, new_left - 1
        elif kind == "-" and old_left:
            lines.append(Line("-", text[1:], old_no, None, reader.number))
            old_no, old_left = old_no + 1, old_left - 1
        elif kind == "+" and new_left:
            lines.append(Line("+", text[1:], None, new_no, reader.number))
            new_no, new_left = new_no + 1, new_left - 1
        else:
            raise MalformedPatch(reader.number, f"hunk at line {start} does not match its "
                                 f"header (@@ -{old_start},{old_count} +{new_start},{new_count} @@): "
                                 f"unexpected {text[:40]!r}")
        reader.i += 1
    while (reader.peek() or "").startswith("\\"):   # "\ No newline at end of file"
        reader.i += 1
    return Hunk(old_start, old_count, new_start, new_count, match[5], tuple(lines), start)


# Diff parts `git apply` does not read but GNU patch applies: a context
# diff (diff -c), a normal diff (diff without -u), a unified diff indented
# (patch strips a consistent indentation; a quoted `> ` too).
_CONTEXT_START = re.compile(r"^\*\*\* \S")
_CONTEXT_HUNK = re.compile(r"^\*{15}")
_NORMAL_COMMAND = re.compile(r"^\d+(?:,\d+)?[acd]\d+(?:,\d+)?$")
_INDENTED = re.compile(r"^([ \t>]+)(---|\+\+\+|@@) ")


def foreign_part(text: str, patch_set: PatchSet) -> tuple[int, str] | None:
    """(line, what) of the first diff part of TEXT, outside the hunks of
    PATCH_SET (its reading), that git does not apply but `patch` does, or
    None.  A gate must not pass a patch whose effect depends on which
    program applies it."""
    lines = without_mail_crlf(text).split("\n")
    read = {ln.patch_line for fp in patch_set.files for h in fp.hunks
            for ln in (h, *h.lines)}
    for i, line in enumerate(lines):
        if i + 1 in read:
            continue
        after = lines[i + 1:i + 4]
        if _CONTEXT_START.match(line) and after and after[0].startswith("--- ") \
                and any(_CONTEXT_HUNK.match(a) for a in after[1:]):
            return i + 1, "a context diff (`diff -c`)"
        if _CONTEXT_HUNK.match(line) and after and after[0].startswith("*** ") \
                and re.match(r"^\*\*\* \d+(?:,\d+)? \*\*\*\*", after[0]):
            return i + 1, "a context diff hunk (`diff -c`)"
        if _NORMAL_COMMAND.match(line) and after and re.match(r"^[<>] ", after[0]):
            return i + 1, "a normal diff (`diff` without -u)"
        indented = _INDENTED.match(line)
        if indented and indented[2] == "---" and len(after) >= 2:
            prefix = indented[1]
            if after[0].startswith(prefix + "+++ ") and after[1].startswith(prefix + "@@ -"):
                return i + 1, "an indented unified diff"
    return None

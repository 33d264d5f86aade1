"""Where things are in C source, by text: definitions, initializers, ioctl code.

check uses these to decide whether a patch changed a structure or handler
that a finding names, and which files are worth a spatch run.  They
over-approximate (a name in a macro still counts) but never miss a
definition written the kernel way; comments and literals are blanked first.

The conversion rule (semantic-patches/ioctl_rule/) uses this module's
code_only, NOT_CODE, dead_branches and legacy_half too: one copy of each,
so the rule and the wrappers read C text alike.  It stays pure: it imports
nothing of the project.
"""

import bisect
import functools
import itertools
import re
from dataclasses import dataclass, replace

# Comments, strings and character constants, whose braces do not count.
NOT_CODE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# What the text before a word ends with where the word is a member's name
# (`p->name`, `s.name`) or a tag's (`struct name`): it only shares the name
# of a variable, a parameter or a macro.
TAG_OR_MEMBER_BEFORE = re.compile(r"(?:\.|->|\b(?:struct|union|enum))\s*\Z")


@functools.lru_cache(maxsize=8)
def code_only(text: str) -> str:
    """TEXT with comments, strings and character constants blanked, lines kept."""
    return NOT_CODE.sub(_blank, text)


def _blank(match: re.Match) -> str:
    """The text of MATCH as spaces, its newlines kept."""
    return "\n".join(" " * len(part) for part in match.group().split("\n"))


def without_comments(text: str) -> str:
    """TEXT with comments blanked (literals kept), newlines kept."""
    return NOT_CODE.sub(lambda m: m.group() if m.group()[0] in "\"'"
                      else re.sub(r"[^\n]", " ", m.group()), text)


_TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|\w+|\S')


def code_tokens(text: str) -> list[str]:
    """The tokens of TEXT (from without_comments): two texts with the same
    tokens differ only in comments and whitespace."""
    return _TOKEN.findall(text)


def opening(code: str, close: int, floor: int = 0) -> int | None:
    """Where the bracket that the ) or ] at CLOSE of CODE closes opens (not
    before FLOOR), or None."""
    pair = {")": "(", "]": "["}[code[close]]
    depth = 0
    for i in range(close, floor - 1, -1):
        if code[i] == code[close]:
            depth += 1
        elif code[i] == pair:
            depth -= 1
            if depth == 0:
                return i
    return None


def closing(code: str, open_at: int, pair: str = "{}") -> int:
    """The offset of the bracket closing the one at OPEN_AT; the last offset
    when it is never closed (the text ends inside it)."""
    close = closing_or_none(code, open_at, pair)
    return len(code) - 1 if close is None else close


def closing_or_none(code: str, open_at: int, pair: str = "{}") -> int | None:
    """The offset of the bracket closing the one at OPEN_AT, or None when it
    is never closed (a caller that must not read to the end)."""
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == pair[0]:
            depth += 1
        elif code[i] == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    return None


def _start_line(lines: list[str], line: int) -> int:
    """The first line of the declaration whose name is on LINE (1-based)."""
    while line > 1:
        above = lines[line - 2].strip()
        if not above or above.endswith((";", "}", "{", "\\")) or above.startswith("#"):
            break
        line -= 1
    return line


def _line_of(code: str, offset: int) -> int:
    return code.count("\n", 0, offset) + 1


def _definitions(code: str, lines: list[str], name: str) -> list[range]:
    spans = []
    for match in re.finditer(rf"\b{re.escape(name)}\b(\s*\[[^\]]*\])?\s*(=\s*\{{|\()", code):
        if match.group(2) == "(":
            close = closing(code, match.end() - 1, "()")
            body = re.match(r"\s*(?:__\w+(?:\([^)]*\))?\s*)*\{", code[close + 1:])
            if not body:
                continue                # a call or a prototype
            end = closing(code, close + body.end())
        else:
            end = closing(code, match.end() - 1)
        spans.append(range(_start_line(lines, _line_of(code, match.start())),
                           _line_of(code, end) + 1))
    return spans


def definition_spans(text: str, name: str) -> list[range]:
    """Line ranges of NAME's initializer (`NAME = {...}`) and function definition."""
    if not name:
        return []
    code = code_only(text)
    return _definitions(code, code.split("\n"), name)


def is_static(text: str, name: str) -> bool:
    """Whether TEXT declares or defines NAME as a static function."""
    return re.search(rf"\bstatic\b[^;{{}}()]*\b{re.escape(name)}\s*\(", code_only(text)) is not None


# "struct T name =", "struct T name[] =", and the DRM templates' "struct T DRM(fops) =".
_DECLARED_STRUCT = re.compile(
    r"\bstruct\s+(\w+)\s+[\w\s*]*?(?:\w+\s*\(\s*\w+\s*\)|\w+)\s*(?:\[[^\]]*\])?\s*=\s*$")


def enclosing_brace(code: str, offset: int) -> int | None:
    """Where the "{" that holds OFFSET opens, or None at file scope."""
    depth = 0
    for i in range(offset - 1, -1, -1):
        if code[i] == "}":
            depth += 1
        elif code[i] == "{":
            if depth == 0:
                return i
            depth -= 1
    return None


def enclosing_brackets(code: str, offset: int) -> list[int]:
    """Where each ( and [ of CODE left open at OFFSET opens, innermost
    first, within OFFSET's statement: the scan back ends at a ; { or }
    outside every bracket (a call's arguments hold no statement, but a
    statement expression inside one does)."""
    found, depth = [], 0
    for i in range(offset - 1, -1, -1):
        char = code[i]
        if char in ")]":
            depth += 1
        elif char in "([":
            if depth:
                depth -= 1
            else:
                found.append(i)
        elif char in ";{}" and depth == 0:
            break
    return found


def split_top_level(text: str) -> list[str]:
    """TEXT split at the commas outside parentheses, brackets and braces:
    the arguments of a call, the declarators of a declaration."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def initializer_type(code: str, offset: int) -> str | None:
    """The struct type of the initializer around OFFSET of CODE (from
    code_only), through array elements: `struct tty_operations x = {`
    gives "tty_operations".  None when it is not written that way (a
    macro, a compound literal, an assignment)."""
    brace = enclosing_brace(code, offset)
    while brace is not None:
        before = code[max(0, brace - 300):brace]
        match = _DECLARED_STRUCT.search(before)
        if match:
            return match.group(1)
        if not re.search(r"[{,]\s*$", before):
            return None
        brace = enclosing_brace(code, brace)   # an element of an array
    return None


def toplevel_span(code: str, line: int) -> range:
    """The lines of the top-level definition or declaration around LINE
    (1-based) of CODE (from code_only), or of the macro on it: where
    spatch cannot parse a line, what it skips."""
    lines, depths = _brace_depths(code)
    i = min(max(line, 1), len(lines)) - 1
    if lines[i].lstrip().startswith("#") or i and lines[i - 1].rstrip().endswith("\\"):
        start = i
        while start and lines[start - 1].rstrip().endswith("\\"):
            start -= 1
        end = i
        while end < len(lines) - 1 and lines[end].rstrip().endswith("\\"):
            end += 1
        return range(start + 1, end + 2)
    start = i
    while start and depths[start] > 0:
        start -= 1
    start = _start_line(lines, start + 1) - 1
    end = i
    while end < len(lines) - 1 and not (depths[end + 1] <= 0 and
                                         lines[end].rstrip().endswith((";", "}"))):
        end += 1
    return range(start + 1, end + 2)


@functools.lru_cache(maxsize=8)
def _brace_depths(code: str) -> tuple[list[str], list[int]]:
    """CODE's lines, and the brace depth at the start of each (and at its
    end): read once for every line of one text asked about."""
    lines = code.split("\n")
    depths, depth = [], 0
    for text in lines:
        depths.append(depth)
        if not text.lstrip().startswith("#"):
            depth += text.count("{") - text.count("}")
    depths.append(depth)
    return lines, depths


_TOP_LEVEL_START = re.compile(r"^[A-Za-z_]")
LABEL = re.compile(r"^\w+:\s*(?:$|/[/*])")     # a goto label at column 0


def unparsed_region(text: str, line: int) -> range:
    """The lines spatch skips after a parse error at LINE (1-based) of TEXT:
    up to the next line that starts a top-level declaration (in kernel
    style the only other lines at column 0 inside a body are labels)."""
    lines = text.split("\n")
    end = line
    while end < len(lines) and not (_TOP_LEVEL_START.match(lines[end])
                                    and not LABEL.match(lines[end])):
        end += 1
    return range(line, end + 1)


_CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")


_IF_KIND = re.compile(r"\s*#\s*(if|ifdef|ifndef|endif)\b")
_IF_CONSTANT = re.compile(r"[ \t]*#[ \t]*if[ \t]+([01])\b")
_ELSE = re.compile(r"[ \t]*#[ \t]*(else|elif)\b")


def dead_branches(lines: list[str]) -> list[tuple[int | None, str | None]]:
    """For each of LINES, a pair: the line of the #if whose branch that is
    never compiled holds it (or None), and "if" for a known #if or "endif"
    for an #endif that closes an #if (else None).  Known are "#if 0" and
    "#if 1".  A version test is not: convert runs the rule on each of its
    branches (convert/branches.py), so a driver that still builds for 2.4
    gets both entries converted alike.  After an #elif nothing is taken
    for dead.  The #if 0 line and the #else of an #if 1 count as dead."""
    out, stack = [], []   # per open #if: (known, dead, its line)
    for number, text in enumerate(lines, 1):
        match = _IF_KIND.match(text)
        kind = match.group(1) if match else None
        constant = _IF_CONSTANT.match(text)
        other = _ELSE.match(text)
        if constant:
            stack.append((True, constant.group(1) == "0", number))
            kind = "if"
        elif kind in ("if", "ifdef", "ifndef"):
            stack.append((False, False, number))
            kind = None
        elif other and stack and stack[-1][0]:
            _, dead, line = stack[-1]
            stack[-1] = (True, not dead, line) if other.group(1) == "else" \
                else (False, False, line)
        elif kind == "endif" and stack:
            stack.pop()
        else:
            kind = None
        dead = [line for _, is_dead, line in stack if is_dead]
        out.append((dead[0] if dead else None, kind))
    return out


# A line that opens a known branch (dead_branches): with none, none is dead.
_ANY_IF_CONSTANT = re.compile(r"^[ \t]*#[ \t]*if[ \t]+[01]\b", re.M)


@functools.lru_cache(maxsize=8)
def _dead_lines(text: str) -> tuple[int | None, ...]:
    code = code_only(text)
    if not _ANY_IF_CONSTANT.search(code):
        return (None,) * (code.count("\n") + 1)
    return tuple(dead for dead, _ in dead_branches(code.split("\n")))


@dataclass(frozen=True)
class OpenBranch:
    """One #if around a line, and which of its branches holds the line."""

    line: int               # of the #if
    kind: str               # "if", "ifdef" or "ifndef"
    condition: str          # the rest of the #if line
    in_else: bool           # the line is in its #else
    after_elif: bool        # an #elif came first: which branch runs is not known


def open_branches(text: str, line: int) -> list[OpenBranch]:
    """The #if blocks of TEXT open at LINE (1-based), outermost first."""
    stack: list[OpenBranch] = []
    for number, current in enumerate(text.split("\n")[:line - 1], 1):
        match = _CONDITIONAL.match(c_comment_free(current))
        if not match:
            continue
        kind, rest = match.groups()
        if kind.startswith("if"):
            stack.append(OpenBranch(number, kind, rest.strip(), False, False))
        elif kind == "else" and stack:
            stack[-1] = replace(stack[-1], in_else=True)
        elif kind == "elif" and stack:
            stack[-1] = replace(stack[-1], after_elif=True)
        elif kind == "endif" and stack:
            stack.pop()
    return stack


def never_compiled(text: str, line: int) -> int | None:
    """The line of the #if whose branch holding LINE (1-based) of TEXT is
    never compiled with the converted file (#if 0, the #else of #if 1), or
    None: what the conversion rule takes for dead (dead_branches)."""
    return _dead_lines(text)[line - 1]


def legacy_half(text: str, line: int) -> bool:
    """Whether LINE of TEXT is compiled only without HAVE_UNLOCKED_IOCTL: the
    .ioctl a driver that is already multi-kernel keeps for old kernels."""
    if "HAVE_UNLOCKED_IOCTL" not in text:
        return False            # no #if names it: not every #if before LINE read again
    return any(b.kind in ("ifdef", "ifndef") and b.condition == "HAVE_UNLOCKED_IOCTL"
               and not b.after_elif and (b.kind == "ifndef") != b.in_else
               for b in open_branches(text, line))


def unlocked_half(text: str, line: int) -> bool:
    """Whether LINE of TEXT is compiled only with HAVE_UNLOCKED_IOCTL."""
    return any(b.kind in ("ifdef", "ifndef") and b.condition == "HAVE_UNLOCKED_IOCTL"
               and not b.after_elif and (b.kind == "ifdef") != b.in_else
               for b in open_branches(text, line))


def c_comment_free(line: str) -> str:
    """LINE without a trailing comment on one line (/* ... */ or //)."""
    return re.sub(r"/\*.*?\*/|//.*$", " ", line)


def named_in(code: str, span: range, names) -> list[str]:
    """Which of NAMES appear as words in the lines of SPAN of CODE."""
    text = "\n".join(code.split("\n")[span.start - 1:span.stop - 1])
    return sorted(n for n in set(names) if re.search(rf"\b{re.escape(n)}\b", text))


def named_around(data: bytes, lines: tuple[int, ...], names) -> str | None:
    """The first of NAMES used in the code of DATA (a file's bytes) around
    one of LINES (the top-level declaration holding it: lines spatch could
    not parse, say), or None."""
    if not lines or not names:
        return None
    code = code_only(data.decode("utf-8", "surrogateescape"))
    for line in lines:
        found = named_in(code, toplevel_span(code, line), names)
        if found:
            return found[0]
    return None


_IOCTL_MEMBER = re.compile(r"(?<!\w)(?:unlocked_|compat_)?ioctl\s*[=:]\s*[(&\s]*(\w+)")
_IOCTL_WORDS = re.compile(r"ioctl|lock_kernel|ENOIOCTLCMD")
LEGACY_MEMBER = re.compile(rb"(?<!\w)ioctl\s*[=:]")
ANY_IOCTL_MEMBER = re.compile(rb"ioctl\s*[=:]")


def ioctl_lines(text: str, added: dict) -> list[int]:
    """The added lines that can be part of a finding: they name an ioctl,
    the BKL or -ENOIOCTLCMD, or lie in an initializer that sets an ioctl
    member or in a function such a member names.  Every finding is anchored
    at one of these, so a file where none is added needs no spatch.
    """
    code = code_only(text)
    lines = code.split("\n")
    # Words in code, not in comments: a comment names no finding.
    found = {n for n in added if n <= len(lines) and _IOCTL_WORDS.search(lines[n - 1])}
    spans = []
    for member in _IOCTL_MEMBER.finditer(code):
        brace = enclosing_brace(code, member.start())
        if brace is not None:
            spans.append(range(_start_line(lines, _line_of(code, brace)),
                               _line_of(code, closing(code, brace)) + 1))
        spans += _definitions(code, lines, member.group(1))
    found |= {n for span in spans for n in added if n in span}
    return sorted(found)


_SPLICE = re.compile(r"\\\r?\n")


@dataclass(frozen=True)
class Joined:
    """A text with its backslash-newline line splices removed, as the
    compiler reads it, and the way back to the lines of the original."""

    text: str
    _cuts: tuple[int, ...]          # offsets of TEXT where a splice was removed
    _removed: tuple[int, ...]       # characters removed up to and at each cut
    _original: str                  # the text the splices were removed from

    @functools.cached_property
    def _line_starts(self) -> tuple[int, ...]:
        """Offsets of the original's lines."""
        return tuple(itertools.accumulate(
            (len(line) + 1 for line in self._original.split("\n")[:-1]), initial=0))

    def original(self, offset: int) -> int:
        """The offset in the original text of OFFSET of TEXT."""
        at = bisect.bisect_right(self._cuts, offset)
        return offset + (self._removed[at - 1] if at else 0)

    def spliced(self, start: int, end: int) -> bool:
        """Whether a splice was removed inside START..END of TEXT."""
        at = bisect.bisect_right(self._cuts, start)
        return at < len(self._cuts) and self._cuts[at] < end

    def line(self, offset: int) -> int:
        """The original line (1-based) of OFFSET of TEXT."""
        return bisect.bisect_right(self._line_starts, self.original(offset))


def join_splices(text: str) -> Joined:
    """TEXT with its line splices removed (`.io\\` + newline + `ctl` is
    `.ioctl`), keeping where each character came from."""
    if "\\" not in text:
        return Joined(text, (), (), text)
    parts, cuts, removed, last, total = [], [], [], 0, 0
    for match in _SPLICE.finditer(text):
        parts.append(text[last:match.start()])
        total += match.end() - match.start()
        cuts.append(match.start() - (total - (match.end() - match.start())))
        removed.append(total)
        last = match.end()
    parts.append(text[last:])
    return Joined("".join(parts), tuple(cuts), tuple(removed), text)

"""C tokens with the line they come from, and preprocessor directives.

The prover reads C the way the preprocessor does before it expands
anything: CRLF line ends become LF, backslash-newline splices lines,
comments become a space.  A directive (a line whose first token is `#`)
is one token holding its whole logical line, so that a conditional or a
definition is never mistaken for code.
"""

import bisect
import re
from dataclasses import dataclass, field


class LexError(ValueError):
    """Text the tokenizer cannot read (an unterminated comment)."""


@dataclass(frozen=True)
class Token:
    kind: str               # ident, number, string, char, punct, directive
    text: str
    line: int               # physical line of the file it is read from
    # Macros this token came out of, outermost first (for messages).
    macros: tuple[str, ...] = ()
    # Names that may not expand again in it (the preprocessor's hide set).
    hide: frozenset = field(default=frozenset(), compare=False)

    def is_(self, text: str) -> bool:
        return self.text == text and self.kind != "string"


_PUNCT = sorted("""... <<= >>= -> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ##
                   { } [ ] ( ) ; : , . ? ! ~ + - * / % & | ^ = < > #""".split(),
                key=len, reverse=True)
_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\v\r]+)
  | (?P<nl>\n)
  | (?P<comment>/\*.*?(?:\*/|\Z)|//[^\n]*)
  | (?P<ident>[A-Za-z_$][\w$]*)
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<string>L?"(?:\\.|[^"\\\n])*"?)
  | (?P<char>L?'(?:\\.|[^'\\\n])*'?)
  | (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCT) + r""")
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)


def _splice(text: str) -> tuple[str, list[int]]:
    """TEXT without CRs before LF and without backslash-newlines, and the
    offsets of the result where a newline was spliced away."""
    pieces = text.replace("\r\n", "\n").split("\\\n")
    splices, at = [], 0
    for piece in pieces[:-1]:
        at += len(piece)
        splices.append(at)
    return "".join(pieces), splices


def tokenize(text: str, first_line: int = 1) -> list[Token]:
    """The tokens of TEXT; a directive is one token (kind "directive")."""
    code, splices = _splice(text)
    tokens: list[Token] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", code)]

    def line_at(offset: int) -> int:
        newlines = bisect.bisect_right(line_starts, offset) - 1
        return first_line + newlines + bisect.bisect_right(splices, offset)

    at, at_line_start = 0, True
    while at < len(code):
        if at_line_start:
            directive = re.match(r"[ \t\f\v\r]*#", code[at:at + 200])
            if directive:
                end = _directive_end(code, at)
                body = _TOKEN_COMMENTS.sub(" ", code[at:end]).strip()
                tokens.append(Token("directive", body, line_at(at)))
                at = end
                continue
        match = _TOKEN.match(code, at)
        kind = match.lastgroup
        if kind == "nl":
            at_line_start = True
        elif kind == "comment":
            if match.group().startswith("/*") and \
                    (len(match.group()) < 4 or not match.group().endswith("*/")):
                raise LexError(f"line {line_at(at)}: unterminated comment")
        elif kind != "ws":
            at_line_start = False
            tokens.append(Token("punct" if kind == "other" else kind, match.group(),
                                line_at(at)))
        at = match.end()
    return tokens


_TOKEN_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def _directive_end(code: str, at: int) -> int:
    """Where the directive starting at AT ends: its newline, ignoring the
    ones inside comments (a comment may continue a directive)."""
    i = at
    while i < len(code):
        c = code[i]
        if c == "\n":
            return i
        if code.startswith("/*", i):
            close = code.find("*/", i + 2)
            if close < 0:
                raise LexError("unterminated comment in a directive")
            i = close + 2
            continue
        if code.startswith("//", i):
            newline = code.find("\n", i)
            return len(code) if newline < 0 else newline
        if c in "\"'":
            match = re.compile(r"%s(?:\\.|[^%s\\\n])*%s?" % (c, c, c)).match(code, i)
            i = match.end()
            continue
        i += 1
    return len(code)


def tokens_of(text: str, line: int, macros: tuple[str, ...] = ()) -> list[Token]:
    """Tokens of one line of text (a directive's body), all on LINE."""
    found = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("ws", "nl", "comment"):
            continue
        found.append(Token("punct" if kind == "other" else kind, match.group(), line, macros))
    return found


def directive(token: Token) -> tuple[str, str]:
    """(keyword, rest) of a directive token: ("define", "X 1")."""
    match = re.match(r"#\s*(\w*)\s*(.*)", token.text, re.DOTALL)
    return (match.group(1), match.group(2).strip()) if match else ("", "")

"""C tokens with the line they come from, and preprocessor directives.

The prover reads C the way the preprocessor does before it expands
anything: CRLF line ends become LF, backslash-newline splices lines,
comments become a space.  A directive (a line whose first token is `#`)
is one token holding its whole logical line, so that a conditional or a
definition is never mistaken for code.
"""

import re
from typing import NamedTuple


class LexError(ValueError):
    """Text the tokenizer cannot read (an unterminated comment)."""


class Token(NamedTuple):
    kind: str               # ident, number, string, char, punct, directive
    text: str
    line: int               # physical line of the file it is read from
    # Macros this token came out of, outermost first (for messages).
    macros: tuple[str, ...] = ()
    # Names that may not expand again in it (the preprocessor's hide set).
    hide: frozenset = frozenset()

    def is_(self, text: str) -> bool:
        return self.text == text and self.kind != "string"


_PUNCT = sorted("""... <<= >>= -> ++ -- << >> <= >= == != && || *= /= %= += -= &= ^= |= ##
                   { } [ ] ( ) ; : , . ? ! ~ + - * / % & | ^ = < > #""".split(),
                key=len, reverse=True)
_TOKENS = r"""
    (?P<comment>/\*.*?(?:\*/|\Z)|//[^\n]*)
  | (?P<ident>[A-Za-z_$][\w$]*)
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<string>L?"(?:\\.|[^"\\\n])*"?)
  | (?P<char>L?'(?:\\.|[^'\\\n])*'?)
  | (?P<punct>""" + "|".join(re.escape(p) for p in _PUNCT) + ")"
# A directive's body, token by token.
_TOKEN = re.compile(r"(?P<ws>[ \t\f\v\r]+) | (?P<nl>\n) |" + _TOKENS + r"| (?P<other>.)",
                    re.VERBOSE | re.DOTALL)


def _splice(text: str) -> tuple[str, list[int]]:
    """TEXT without CRs before LF and without backslash-newlines, and the
    offsets of the result where a newline was spliced away."""
    pieces = text.replace("\r\n", "\n").split("\\\n")
    splices, at = [], 0
    for piece in pieces[:-1]:
        at += len(piece)
        splices.append(at)
    return "".join(pieces), splices


# What tokenize() looks for: a directive where a line starts with `#`,
# and every token; whitespace is skipped by the search itself.
_SCAN = re.compile(r"(?P<directive>^[ \t\f\v\r]*\#) |" + _TOKENS + r"| (?P<other>\S)",
                   re.VERBOSE | re.DOTALL | re.MULTILINE)


def tokenize(text: str, first_line: int = 1) -> list[Token]:
    """The tokens of TEXT; a directive is one token (kind "directive")."""
    code, splices = _splice(text)
    tokens: list[Token] = []
    append = tokens.append
    # The line is counted as the scan goes: newlines it passes, and the
    # spliced ones.
    line, last, spliced, pos = first_line, 0, 0, 0
    while pos < len(code):
        for match in _SCAN.finditer(code, pos):
            start = match.start()
            line += code.count("\n", last, start)
            last = start
            while spliced < len(splices) and splices[spliced] <= start:
                line += 1
                spliced += 1
            kind = match.lastgroup
            if kind == "directive":
                pos = _directive_end(code, start)
                append(Token("directive", _TOKEN_COMMENTS.sub(" ", code[start:pos]).strip(),
                             line))
                break
            if kind == "comment":
                text = match.group()
                if text.startswith("/*") and (len(text) < 4 or not text.endswith("*/")):
                    raise LexError(f"line {line}: unterminated comment")
                continue
            append(_new(Token, ("punct" if kind == "other" else kind, match.group(), line,
                                (), _NO_HIDE)))
        else:
            break
    return tokens


# Token(...) through tuple.__new__: NamedTuple's own __new__ is Python code,
# and a file has tens of thousands of tokens.
_new = tuple.__new__
_NO_HIDE: frozenset = frozenset()


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

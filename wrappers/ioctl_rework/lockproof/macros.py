"""#define, and macro expansion as the preprocessor does it.

Object-like and function-like macros, `#` and `##`, `__VA_ARGS__` and
GNU named variadic parameters (`args...`, `, ## args`), nested and
recursive uses (a macro does not expand inside its own expansion: the
hide sets of Prosser's algorithm, as in C99 6.10.3.4).  Every token a
macro body produces carries the line of the macro's use and the names
of the macros it came from, so that a message can say "return at line
40 (in macro CHECK_CARD)".
"""

import re
from collections.abc import Callable
from dataclasses import dataclass

from ioctl_rework.lockproof.lexer import Token, tokens_of

# Far beyond any real expansion: a runaway means a table we built wrong.
MAX_TOKENS = 200_000


class MacroError(ValueError):
    """A definition that cannot be read, or a use that cannot be expanded."""


class ArityError(MacroError):
    """A use with the wrong number of arguments: code that does not compile
    with this definition (so not in this configuration)."""


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None     # None: object-like
    variadic: str | None               # the name the variadic arguments go by
    body: tuple[Token, ...]
    line: int                          # of the #define, in its own file
    file: str = ""                     # "" for the file itself, else a header

    @property
    def text(self) -> str:
        return " ".join(t.text for t in self.body)


_DEFINE = re.compile(r"([A-Za-z_]\w*)(\(([^)]*)\))?(.*)", re.DOTALL)


def parse_define(rest: str, line: int, file: str = "") -> Macro:
    """The macro of `#define REST` on LINE."""
    match = _DEFINE.fullmatch(rest)
    if not match:
        raise MacroError(f"line {line}: cannot read #define {rest[:40]}")
    name, has_params, params_text, body_text = match.groups()
    params, variadic = None, None
    if has_params is not None:
        names = [p.strip() for p in params_text.split(",")] if params_text.strip() else []
        plain = []
        for i, p in enumerate(names):
            if p == "...":
                variadic = "__VA_ARGS__"
            elif p.endswith("..."):
                variadic = p[:-3].strip()
                plain.append(variadic)
            elif re.fullmatch(r"[A-Za-z_]\w*", p):
                plain.append(p)
            else:
                raise MacroError(f"line {line}: cannot read the parameters of macro {name}")
            if p.endswith("...") and i != len(names) - 1:
                raise MacroError(f"line {line}: macro {name}: '...' is not last")
        params = tuple(plain)
    body = tuple(tokens_of(body_text, line))
    return Macro(name, params, variadic, body, line, file)


Lookup = Callable[[str, Token], Macro | None]


def expand(tokens: list[Token], lookup: Lookup) -> list[Token]:
    """TOKENS with every macro LOOKUP knows expanded, rescanned to the end."""
    pending = list(reversed(tokens))
    out: list[Token] = []
    produced = 0
    while pending:
        token = pending.pop()
        macro = lookup(token.text, token) if token.kind == "ident" \
            and token.text not in token.hide else None
        if macro is None:
            out.append(token)
            continue
        if macro.params is None:
            body = _substitute(macro, None, token, token.hide | {macro.name}, lookup)
        else:
            if not pending or not pending[-1].is_("("):
                out.append(token)      # a function-like name not called
                continue
            args, close = _arguments(pending, macro, token)
            body = _substitute(macro, args, token,
                               (token.hide & close.hide) | {macro.name}, lookup)
        produced += len(body)
        if produced > MAX_TOKENS:
            raise MacroError(f"line {token.line}: the expansion of {macro.name} does not end")
        pending.extend(reversed(body))
    return out


def _arguments(pending: list[Token], macro: Macro, use: Token) -> tuple[list[list[Token]], Token]:
    """Pop `( a, b )` off PENDING: the arguments and the closing paren."""
    pending.pop()                      # (
    args: list[list[Token]] = [[]]
    depth = 0
    while pending:
        token = pending.pop()
        if token.is_("(") or token.is_("[") or token.is_("{"):
            depth += 1
        elif token.is_(")") and depth == 0:
            break
        elif token.is_(")") or token.is_("]") or token.is_("}"):
            depth -= 1
        if token.is_(",") and depth == 0:
            args.append([])
        else:
            args[-1].append(token)
    else:
        raise MacroError(f"line {use.line}: the arguments of macro {macro.name} do not end")
    if args == [[]] and not macro.params:
        args = []
    fixed = len(macro.params) - (1 if macro.variadic and macro.variadic != "__VA_ARGS__" else 0)
    if macro.variadic:
        if len(args) < fixed:
            raise ArityError(f"line {use.line}: macro {macro.name} takes at least {fixed} "
                             f"arguments, given {len(args)}")
        rest = args[fixed:]
        joined: list[Token] = []
        for i, arg in enumerate(rest):
            if i:
                joined.append(Token("punct", ",", use.line, use.macros))
            joined += arg
        args = args[:fixed] + [joined]
    elif len(args) != len(macro.params):
        raise ArityError(f"line {use.line}: macro {macro.name} takes {len(macro.params)} "
                         f"arguments, given {len(args)}")
    return args, token


def _names(macro: Macro) -> list[str]:
    names = list(macro.params or ())
    if macro.variadic == "__VA_ARGS__":
        names.append("__VA_ARGS__")
    return names


def _substitute(macro: Macro, args: list[list[Token]] | None, use: Token,
                hide: frozenset, lookup: Lookup) -> list[Token]:
    """The body of MACRO used at USE, with its arguments put in."""
    by_name = dict(zip(_names(macro), args or []))
    body = macro.body
    result: list[Token] = []
    expanded: dict[str, list[Token]] = {}
    macros = use.macros + (macro.name,)
    i = 0
    while i < len(body):
        token = body[i]
        before_paste = i + 1 < len(body) and body[i + 1].is_("##")
        if token.is_("#") and args is not None and i + 1 < len(body) \
                and body[i + 1].text in by_name:
            text = " ".join(t.text for t in by_name[body[i + 1].text])
            result.append(Token("string", '"' + text.replace("\\", "\\\\").replace('"', '\\"')
                                + '"', use.line, macros))
            i += 2
            continue
        if token.is_("##") and result and i + 1 < len(body):
            right = body[i + 1]
            right_tokens = list(by_name[right.text]) if right.text in by_name \
                else [_moved(right, use, macros)]
            left = result.pop()
            if left.is_(",") and macro.variadic and right.text == macro.variadic:
                # GNU: `, ## args` drops the comma when there are none.
                if right_tokens:
                    result.append(left)
                result += right_tokens
            elif not right_tokens:
                result.append(left)
            else:
                pasted = tokens_of(left.text + right_tokens[0].text, use.line, macros)
                result += pasted if len(pasted) == 1 else [left, right_tokens[0]]
                result += right_tokens[1:]
            i += 2
            continue
        if token.kind == "ident" and token.text in by_name:
            if before_paste:
                result += by_name[token.text]
            else:
                if token.text not in expanded:
                    expanded[token.text] = expand(list(by_name[token.text]), lookup)
                result += expanded[token.text]
            i += 1
            continue
        result.append(_moved(token, use, macros))
        i += 1
    return [Token(t.kind, t.text, t.line, t.macros, t.hide | hide) for t in result]


def _moved(token: Token, use: Token, macros: tuple[str, ...]) -> Token:
    """A body token, placed where the macro is used."""
    return Token(token.kind, token.text, use.line, macros, token.hide)

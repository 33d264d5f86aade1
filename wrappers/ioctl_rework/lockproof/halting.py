"""Functions that never return although nothing declares them noreturn:
every definition read ends, on every path, in a call that does not return.

A driver writes `static inline void die(const char *m) { printk(m); BUG(); }`
in a header, without `__attribute__((noreturn))`.  Read default-deny: a
body halts only when one of its own statements, not inside any `if`,
loop, `switch` or label, is a halting call (or a halting macro, or a
`do { ... } while (0)` or block that halts), and nothing in it can leave
the function another way: no `return`, `goto` or `longjmp`, no macro whose
text holds one.  The statements before that one then all lead to it (a
loop that never ends is no way out either).  A body that only MAY halt
(`if (x) BUG();`) does not.  A function also declared non-static without
a body (defined elsewhere, perhaps in another configuration) or defined
once without halting is not trusted.
"""

from typing import NamedTuple

from ioctl_rework.lockproof.lexer import LexError, Token, tokenize

_ESCAPES = frozenset({"return", "goto", "longjmp", "siglongjmp", "_longjmp",
                      "__builtin_longjmp"})
_LOOP_EXITS = frozenset({"break", "continue"})


class Body(NamedTuple):
    """A function's body as read: its tokens inside the braces, and the
    names they use (most bodies name nothing that halts: skipped unread)."""

    tokens: tuple
    names: frozenset

    @classmethod
    def of(cls, tokens: list[Token]) -> "Body":
        return cls(tuple(tokens), frozenset(t.text for t in tokens if t.kind == "ident"))


def halting_names(declared, macros: dict[str, list[str]], words: dict[str, set[str]],
                  known: frozenset) -> frozenset:
    """Names of DECLARED ((name, words around it, its Body or None), as
    noreturn.Declarations reads them) that halt in every body, and of
    MACROS (name -> each #define body after the name; WORDS: name -> the
    names its bodies use) that halt as a statement, given KNOWN halting
    names.  A macro counts where it is left unexpanded (one of the tree's
    headers that cannot leave the function stays a call)."""
    bodies: dict[str, list[Body]] = {}
    untrusted = set(known)             # known already, or declared extern somewhere
    for name, around, body in declared:
        if body is not None:
            bodies.setdefault(name, []).append(body)
        elif "static" not in around:
            untrusted.add(name)
    reader = _Reader(macros, set(known))
    found: set[str] = set()
    grown = True
    while grown:                       # a halting function may call another, or a macro
        grown = False
        for name, defined in bodies.items():
            # A body halts only through a name known to halt (a function or
            # a macro found so far): read only those.
            if name not in found and name not in untrusted and \
                    not any(b.names.isdisjoint(reader.halting) for b in defined) and \
                    all(reader.halts(list(b.tokens)) for b in defined):
                found.add(name)
                reader.learn(name)
                grown = True
        for name, used in words.items():
            if name not in found and name not in known and \
                    not used.isdisjoint(reader.halting) and reader.macro_halts(name):
                found.add(name)
                reader.learn(name)
                grown = True
    return frozenset(found)


class _Reader:
    def __init__(self, macros: dict[str, list[str]], halting: set[str]):
        self.macros = macros
        self.halting = halting
        self._macro_tokens: dict[str, list[list[Token]] | None] = {}
        self._halting_macros: dict[str, bool] = {}

    def learn(self, name: str) -> None:
        """NAME halts: a macro that calls it may halt now too."""
        self.halting.add(name)
        self._halting_macros.clear()

    def _bodies(self, name: str) -> list[list[Token]] | None:
        """The tokens of each definition of macro NAME (parameters left
        out), or None when one cannot be read."""
        if name not in self._macro_tokens:
            bodies = []
            for text in self.macros.get(name, ()):
                if text.startswith("("):               # function-like: skip its parameters
                    close = text.find(")")
                    text = text[close + 1:] if close >= 0 else ""
                try:
                    bodies.append(tokenize(text))
                except LexError:
                    bodies = None
                    break
            self._macro_tokens[name] = bodies
        return self._macro_tokens[name]

    def _escapes(self, tokens: list[Token], seen: frozenset = frozenset()) -> bool:
        """Whether TOKENS, or a macro they use, can leave the function
        another way than by falling off its end."""
        for token in tokens:
            if token.kind != "ident":
                continue
            if token.text in _ESCAPES:
                return True
            if token.text in self.macros and token.text not in seen:
                bodies = self._bodies(token.text)
                if bodies is None or any(self._escapes(b, seen | {token.text})
                                         for b in bodies):
                    return True
        return False

    def halts(self, tokens: list[Token]) -> bool:
        """Whether the statements TOKENS (a function's body inside its
        braces) always end in a call that does not return."""
        return self._sequence_halts(tokens, frozenset()) and not self._escapes(tokens)

    def macro_halts(self, name: str, seen: frozenset = frozenset()) -> bool:
        """Whether every body of macro NAME, used as a statement, halts."""
        if name in seen:
            return False
        if name not in self._halting_macros:
            bodies = self._bodies(name)
            self._halting_macros[name] = bool(bodies) and all(
                self._sequence_halts(b + [Token("punct", ";", 0)], seen | {name})
                for b in bodies)
        return self._halting_macros[name]

    def _sequence_halts(self, tokens: list[Token], seen: frozenset) -> bool:
        """Whether one statement of TOKENS, at their own level, halts."""
        match = _brackets(tokens)
        if match is None:
            return False
        i, start = 0, True
        while i < len(tokens):
            token = tokens[i]
            if start and self._statement_halts(tokens, i, match, seen):
                return True
            if token.kind == "punct" and token.text in "([{":
                # After a block (`if (x) { ... }`) a new statement starts.
                start = token.is_("{")
                i = match[i] + 1
                continue
            start = token.is_(";")
            i += 1
        return False

    def _statement_halts(self, tokens: list[Token], i: int, match: dict, seen) -> bool:
        token = tokens[i]
        n = len(tokens)
        if token.is_("{"):
            return _block_statement(tokens, i) and \
                self._sequence_halts(tokens[i + 1:match[i]], seen)
        if token.is_("(") and _block_statement(tokens, i) and match[i] + 1 < n and \
                tokens[match[i] + 1].is_(";"):
            # `(panic("x"));`: the expression in parentheses is the statement.
            return self._sequence_halts(tokens[i + 1:match[i]] + [tokens[match[i] + 1]], seen)
        if token.kind != "ident":
            return False
        if token.text == "do" and i + 1 < n and tokens[i + 1].is_("{"):
            close = match[i + 1]
            tail = [t.text for t in tokens[close + 1:close + 6]]
            inner = tokens[i + 2:close]
            return tail[:4] == ["while", "(", "0", ")"] and \
                not any(t.kind == "ident" and t.text in _LOOP_EXITS for t in inner) and \
                self._sequence_halts(inner, seen)
        if i + 1 < n and tokens[i + 1].is_("("):
            close = match[i + 1]
            if close + 1 >= n or not tokens[close + 1].is_(";"):
                return False               # part of an expression, not a statement
            if token.text in self.halting:
                return True
        elif i + 1 >= n or not tokens[i + 1].is_(";"):
            return False
        return token.text in self.macros and self.macro_halts(token.text, seen)


def _block_statement(tokens: list[Token], i: int) -> bool:
    """Whether the `{` at I opens a block that is a statement of its own
    (not the body of an if, loop, switch or else, nor an initializer)."""
    return i == 0 or tokens[i - 1].text in (";", "}", "{") and tokens[i - 1].kind == "punct"


def _brackets(tokens: list[Token]) -> dict[int, int] | None:
    """Opening bracket position -> its closing one, or None if unbalanced."""
    match, stack = {}, []
    for i, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in "([{":
            stack.append(i)
        elif token.text in ")]}":
            if not stack:
                return None
            match[stack.pop()] = i
    return match if not stack else None

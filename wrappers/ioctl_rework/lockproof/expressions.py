"""Expressions, read as far as the lock cares (see syntax.py).

Control flow and the lock may hide inside an expression: a statement
expression `({ ... })`, a call of the lock's acquire or release function,
and around those the comma, `?:`, `&&` and `||` operators decide whether
and in which order they run.  Two lock operations or exits whose order C
leaves unspecified (two arguments of one call) are refused, not guessed.
"""

import bisect

from ioctl_rework.lockproof import noreturn
from ioctl_rework.lockproof.constants import fold
from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.syntax import (Choice, Halt, Leaf, LockOp, LockSpelling, ParseError,
                                           Seq, Short, StmtExpr, has_effect)

ASSIGN = frozenset("= += -= *= /= %= &= |= ^= <<= >>=".split())
_EXIT_WORDS = frozenset({"return", "goto", "break", "continue"})


class ExpressionParser:
    """The expression half of the parser.  Its subclass (statements.Parser)
    provides block(), which a statement expression needs."""

    def __init__(self, tokens: list[Token], lock: LockSpelling,
                 halting: noreturn.Halting = noreturn.Halting()):
        self.tokens = tokens
        self.lock = lock
        self.at = 0
        self.match = brackets(tokens)
        # Functions declared noreturn in what was read, and the kernel's own.
        self.halting = noreturn.ALWAYS | halting.calls
        self.halting_words = halting.words
        lock_names = set(lock.acquire) | set(lock.release)
        self._marks = [i for i, t in enumerate(tokens)
                       if (t.kind == "ident" and t.text in lock_names) or
                       (t.is_("(") and i + 1 < len(tokens) and tokens[i + 1].is_("{")) or
                       self._halts(i)]
        # Exits outside statement expressions (whose blocks are parsed as such).
        inner = [range(i, self.match[i]) for i in range(len(tokens) - 1)
                 if tokens[i].is_("(") and tokens[i + 1].is_("{")]
        self._exits = [i for i, t in enumerate(tokens)
                       if t.kind == "ident" and t.text in _EXIT_WORDS and
                       not any(i in r for r in inner)]

    def _halts(self, i: int) -> bool:
        """Whether token I calls a function that does not return (a halting
        name, or BUG_ON of a true constant), or is a halting word (`DIE;`)."""
        token = self.tokens[i]
        if token.kind != "ident":
            return False
        if i + 1 >= len(self.tokens) or not self.tokens[i + 1].is_("("):
            return self._halting_word(i)
        if token.text in self.halting:
            return True
        if token.text in noreturn.ASSERTS:
            value = fold(self.tokens[i + 2:self.match[i + 1]])
            return value is not None and value != 0
        return False

    def _halting_word(self, i: int) -> bool:
        """Whether token I is a halting word standing as an operand: not a
        member name (`dev->DIE`), a declared name or a label."""
        before = self.tokens[i - 1].text if i else ""
        return self.tokens[i].text in self.halting_words and \
            before not in ("->", ".", "goto", "struct", "union", "enum")

    def _error(self, message: str, at: int | None = None) -> ParseError:
        token = self.tokens[min(self.at if at is None else at, len(self.tokens) - 1)]
        return ParseError(f"line {token.line}: {message}")

    def _top(self, start: int, j: int) -> bool:
        """Whether J is at the bracket level of START (not inside a pair)."""
        i = start
        while i < j:
            if self.tokens[i].text in "([{" and self.tokens[i].kind == "punct":
                i = self.match[i] + 1
            else:
                i += 1
        return i == j

    # -- expressions -----------------------------------------------------

    def _marked(self, span: range) -> bool:
        k = bisect.bisect_left(self._marks, span.start)
        return k < len(self._marks) and self._marks[k] < span.stop

    def no_exit(self, span: range) -> None:
        """Refuse an exit inside an expression: the arguments of a macro this
        reading does not expand (`snd_assert(p, return -EINVAL);`)."""
        k = bisect.bisect_left(self._exits, span.start)
        if k < len(self._exits) and self._exits[k] < span.stop:
            at = self._exits[k]
            raise self._error(f"'{self.tokens[at].text}' inside an expression (in the "
                              "arguments of a macro whose definition was not read?)", at)

    def expr(self, span: range, kind: str):
        """The expression of tokens SPAN."""
        if not span:
            return Leaf((), kind)
        self.no_exit(span)
        if not self._marked(span):
            return Leaf(tuple(span), kind)
        tokens = self.tokens
        top = self._top_level(span)
        commas = [i for i in top if tokens[i].is_(",")]
        if commas:
            bounds = [span.start] + [c + 1 for c in commas]
            ends = commas + [span.stop]
            return Seq([self.expr(range(b, e), kind) for b, e in zip(bounds, ends)])
        assign = next((i for i in top if tokens[i].text in ASSIGN and tokens[i].kind == "punct"),
                      None)
        question = next((i for i in top if tokens[i].is_("?")), None)
        if assign is not None and (question is None or assign < question):
            target = range(span.start, assign + 1)
            if self._marked(target):
                raise self._error("the lock or an exit on the left of an assignment", assign)
            # The value is computed, then stored.
            return Seq([self.expr(range(assign + 1, span.stop), kind), Leaf(tuple(target), kind)])
        if question is not None:
            colon = self._colon(top, question)
            then = self.expr(range(question + 1, colon), kind) if colon > question + 1 else None
            return Choice(self.expr(range(span.start, question), "condition"), then,
                          self.expr(range(colon + 1, span.stop), kind))
        for op in ("||", "&&"):
            at = [i for i in top if tokens[i].is_(op)]
            if at:
                last = at[-1]
                return Short(self.expr(range(span.start, last), "condition"),
                             self.expr(range(last + 1, span.stop), "condition"), op)
        return self._strict(span, kind)

    def _top_level(self, span: range) -> list[int]:
        found, i = [], span.start
        while i < span.stop:
            token = self.tokens[i]
            found.append(i)
            if token.kind == "punct" and token.text in "([{":
                i = self.match[i] + 1
            else:
                i += 1
        return found

    def _colon(self, top: list[int], question: int) -> int:
        pending = 0
        for i in top:
            if i <= question:
                continue
            if self.tokens[i].is_("?"):
                pending += 1
            elif self.tokens[i].is_(":"):
                if not pending:
                    return i
                pending -= 1
        raise self._error("a '?' without ':'", question)

    def _strict(self, span: range, kind: str):
        """An expression whose marked parts all run, in an order C does not
        fix: they become parts of a sequence before the rest of it."""
        tokens = self.tokens
        parts, taken = [], set()
        halt = None
        i = span.start
        while i < span.stop:
            token = tokens[i]
            if halt is None and self._halting_word(i) and \
                    (i + 1 >= span.stop or not tokens[i + 1].is_("(")):
                halt = Halt(i)                 # `DIE`: nothing runs after it
                i += 1
                continue
            if halt is None and self._halts(i) and i + 1 < span.stop and \
                    not self._marked(range(i + 1, self.match[i + 1])):
                # The call runs (its tokens stay in the leaf), then nothing does.
                halt = Halt(i)
                i = self.match[i + 1] + 1
                continue
            if token.kind == "ident" and (token.text in self.lock.acquire or
                                          token.text in self.lock.release):
                op, end = self._lock_op(i, span)
                parts.append(op)
                taken.update(range(i, end))
                i = end
                continue
            if token.is_("(") and i + 1 < span.stop and tokens[i + 1].is_("{"):
                close = self.match[i]
                if self.match[i + 1] != close - 1:
                    raise self._error("a statement expression that does not end in '})'", i)
                saved = self.at
                self.at = i + 1
                body = self.block()
                if self.at != close:
                    raise self._error("a statement expression that does not end in '})'", i)
                self.at = saved
                parts.append(StmtExpr(body))
                taken.update(range(i, close + 1))
                i = close + 1
                continue
            if token.kind == "punct" and token.text in "([" and \
                    self._marked(range(i, self.match[i])):
                close = self.match[i]
                inner = range(i + 1, close)
                call = i > span.start and (tokens[i - 1].kind == "ident" or
                                           tokens[i - 1].text in (")", "]"))
                if call and token.is_("("):
                    b = inner.start
                    for j in self._top_level(inner) + [close]:
                        if j == close or tokens[j].is_(","):
                            if self._marked(range(b, j)):
                                parts.append(self.expr(range(b, j), "expression"))
                                taken.update(range(b, j))
                            b = j + 1
                else:
                    parts.append(self.expr(inner, kind))
                    taken.update(inner)
                i = close + 1
                continue
            i += 1
        effects = [p for p in parts if has_effect(p)] + ([halt] if halt else [])
        if len(effects) > 1:
            raise self._error("two lock operations or exits in one expression whose "
                              "order of evaluation C leaves open", span.start)
        rest = tuple(j for j in span if j not in taken)
        return Seq(parts + [Leaf(rest, kind)] + ([halt] if halt else []))

    def _lock_op(self, i: int, span: range) -> tuple[object, int]:
        """The lock call at I: (LockOp, index after it), or an error when the
        name is used any other way."""
        tokens = self.tokens
        name = tokens[i].text
        if i + 1 >= span.stop or not tokens[i + 1].is_("("):
            raise self._error(f"{name} is used other than called; cannot follow it", i)
        close = self.match[i + 1]
        argument = tuple(t.text for t in tokens[i + 2:close] if not t.is_("(") and not t.is_(")"))
        wanted = self.lock.argument
        if argument[:len(wanted)] != wanted or (len(argument) > len(wanted) and
                                                argument[len(wanted)] != ","):
            return Leaf(tuple(range(i, close + 1))), close + 1   # another lock
        return LockOp(name in self.lock.acquire, i), close + 1



def brackets(tokens: list[Token]) -> dict[int, int]:
    """Index of each opening bracket -> its closing one."""
    pairs, stack = {}, []
    closing = {")": "(", "]": "[", "}": "{"}
    for i, token in enumerate(tokens):
        if token.kind != "punct":
            continue
        if token.text in "([{":
            stack.append(i)
        elif token.text in closing:
            if not stack or tokens[stack[-1]].text != closing[token.text]:
                raise ParseError(f"line {token.line}: unbalanced '{token.text}'")
            pairs[stack.pop()] = i
    if stack:
        raise ParseError(f"line {tokens[stack[-1]].line}: '{tokens[stack[-1]].text}' is never closed")
    return pairs

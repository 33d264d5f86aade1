"""A function body as statements, and its expressions as far as the lock
cares.

Statements are parsed fully (blocks, if/else, switch with case labels at
any depth, the three loops, goto and labels, return, break, continue).
Expressions are kept as token runs ("leaves") except where control flow
or the lock hides inside them: a statement expression `({ ... })`, a call
of the lock's acquire or release function, and around those the comma,
`?:`, `&&` and `||` operators, which decide whether (and in which order)
they run.  Two lock operations or exits whose order C leaves unspecified
(two arguments of one call) are refused, not guessed.
"""

import bisect
import itertools
from dataclasses import dataclass, field

from ioctl_rework.lockproof.lexer import Token


class ParseError(ValueError):
    """A body the parser cannot follow; the message says where."""


@dataclass(frozen=True)
class LockSpelling:
    """How the lock's calls are written: names and the argument they take."""

    acquire: tuple[str, ...]
    release: tuple[str, ...]
    argument: tuple[str, ...]          # tokens of the argument, () for none


# -- expressions -------------------------------------------------------------

@dataclass(eq=False)
class Leaf:
    """Tokens evaluated together, with no lock operation or exit inside."""

    positions: tuple[int, ...]
    kind: str = "expression"           # expression, declaration, condition, return
    ident: int = field(default_factory=itertools.count().__next__)


@dataclass(eq=False)
class LockOp:
    acquire: bool
    position: int
    ident: int = field(default_factory=itertools.count().__next__)


@dataclass(eq=False)
class Seq:
    parts: list


@dataclass(eq=False)
class Choice:
    test: object
    then: object | None                # None: GNU `a ?: b`
    other: object


@dataclass(eq=False)
class Short:
    left: object
    right: object
    op: str = "&&"


@dataclass(eq=False)
class StmtExpr:
    body: "Block"


# -- statements --------------------------------------------------------------

@dataclass(eq=False)
class Block:
    items: list
    line: int
    end_line: int = 0


@dataclass(eq=False)
class ExprStmt:
    expr: object | None


@dataclass(eq=False)
class Decl:
    expr: object
    names: tuple[str, ...]
    static: bool
    arrays: tuple[str, ...] = ()
    stable: tuple[str, ...] = ()       # declared as struct file * or struct inode *


@dataclass(eq=False)
class If:
    cond: object
    then: object
    other: object | None


@dataclass(eq=False)
class Switch:
    cond: object
    body: object


@dataclass(eq=False)
class While:
    cond: object
    body: object


@dataclass(eq=False)
class DoWhile:
    body: object
    cond: object


@dataclass(eq=False)
class For:
    init: object | None
    cond: object | None
    step: object | None
    body: object


@dataclass(eq=False)
class Labeled:
    kind: str                          # case, default, label
    name: str
    stmt: object
    line: int


@dataclass(eq=False)
class Jump:
    kind: str                          # goto, break, continue
    label: str
    line: int


@dataclass(eq=False)
class Return:
    expr: object | None
    line: int
    macros: tuple[str, ...] = ()


TYPE_WORDS = frozenset("""
    int char short long unsigned signed float double void _Bool struct union enum
    const volatile static register extern auto typedef typeof __typeof__ __typeof
    inline __inline__ __inline __const __const__ __volatile __restrict restrict
    __signed__ __attribute__ __extension__ u8 u16 u32 u64 s8 s16 s32 s64
    __u8 __u16 __u32 __u64 __s8 __s16 __s32 __s64 size_t ssize_t loff_t
    """.split())
_DECLARER_PREFIXES = ("DECLARE_", "DEFINE_")
_DECLARERS = frozenset({"LIST_HEAD", "LLIST_HEAD", "HLIST_HEAD"})
_ASM = frozenset({"asm", "__asm__", "__asm"})
_ASSIGN = frozenset("= += -= *= /= %= &= |= ^= <<= >>=".split())


class Parser:
    """Parses TOKENS (a body from `{` to `}`) into a Block."""

    def __init__(self, tokens: list[Token], lock: LockSpelling):
        self.tokens = tokens
        self.lock = lock
        self.at = 0
        self.match = _brackets(tokens)
        lock_names = set(lock.acquire) | set(lock.release)
        self._marks = [i for i, t in enumerate(tokens)
                       if (t.kind == "ident" and t.text in lock_names) or
                       (t.is_("(") and i + 1 < len(tokens) and tokens[i + 1].is_("{"))]

    # -- helpers ---------------------------------------------------------

    def _error(self, message: str, at: int | None = None) -> ParseError:
        token = self.tokens[min(self.at if at is None else at, len(self.tokens) - 1)]
        return ParseError(f"line {token.line}: {message}")

    def _peek(self, offset: int = 0) -> Token | None:
        i = self.at + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def _expect(self, text: str) -> int:
        token = self._peek()
        if token is None or not token.is_(text):
            raise self._error(f"expected '{text}'" +
                              (f", found '{token.text}'" if token else " at the end"))
        self.at += 1
        return self.at - 1

    def _until(self, stop: str) -> int:
        """Index of the next STOP at this bracket level."""
        i = self.at
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.is_(stop):
                return i
            if token.text in "([{" and token.kind == "punct":
                i = self.match[i] + 1
                continue
            if token.text in ")]}" and token.kind == "punct":
                break
            i += 1
        raise self._error(f"no '{stop}' ends the statement")

    # -- statements ------------------------------------------------------

    def block(self) -> Block:
        start = self._expect("{")
        items = []
        while self._peek() is not None and not self._peek().is_("}"):
            items.append(self.statement())
        end = self._expect("}")
        return Block(items, self.tokens[start].line, self.tokens[end].line)

    def statement(self):
        token = self._peek()
        if token is None:
            raise self._error("the body ends inside a statement")
        text = token.text if token.kind == "ident" or token.kind == "punct" else ""
        nxt = self._peek(1)
        if text == "{":
            return self.block()
        if text == ";":
            self.at += 1
            return ExprStmt(None)
        if text == "if":
            self.at += 1
            cond = self._paren_expr("condition")
            then = self.statement()
            other = None
            if self._peek() is not None and self._peek().is_("else"):
                self.at += 1
                other = self.statement()
            return If(cond, then, other)
        if text == "switch":
            self.at += 1
            cond = self._paren_expr("condition")
            return Switch(cond, self.statement())
        if text == "while":
            self.at += 1
            cond = self._paren_expr("condition")
            return While(cond, self.statement())
        if text == "do":
            self.at += 1
            body = self.statement()
            self._expect("while")
            cond = self._paren_expr("condition")
            self._expect(";")
            return DoWhile(body, cond)
        if text == "for":
            return self._for()
        if text == "return":
            self.at += 1
            end = self._until(";")
            expr = self.expr(range(self.at, end), "return") if end > self.at else None
            self.at = end + 1
            return Return(expr, token.line, token.macros)
        if text in ("break", "continue"):
            self.at += 1
            self._expect(";")
            return Jump(text, "", token.line)
        if text == "goto":
            self.at += 1
            target = self._peek()
            if target is None or target.kind != "ident":
                raise self._error("a computed goto (goto *p) cannot be followed")
            self.at += 1
            self._expect(";")
            return Jump("goto", target.text, token.line)
        if text == "case":
            self.at += 1
            colon = self._case_colon()
            self.at = colon + 1
            return Labeled("case", "", self._labeled_statement(), token.line)
        if text == "default" and nxt is not None and nxt.is_(":"):
            self.at += 2
            return Labeled("default", "", self._labeled_statement(), token.line)
        if token.kind == "ident" and nxt is not None and nxt.is_(":") and \
                text not in TYPE_WORDS:
            self.at += 2
            return Labeled("label", text, self._labeled_statement(), token.line)
        if text == "__label__":
            self.at = self._until(";") + 1
            return ExprStmt(None)
        if text in _ASM:
            end = self._until(";")
            leaf = Leaf(tuple(range(self.at, end)))
            self.at = end + 1
            return ExprStmt(leaf)
        if self._is_declaration():
            return self._declaration()
        if token.kind == "ident" and nxt is not None and nxt.is_("(") and \
                self._loop_macro():
            # list_for_each(pos, head) { ... }: a loop macro of a header
            # this reading does not expand; its body runs any number of times.
            close = self.match[self.at + 1]
            cond = Leaf(tuple(range(self.at, close + 1)), "condition")
            self.at = close + 1
            return While(cond, self.statement())
        end = self._until(";")
        expr = self.expr(range(self.at, end), "expression")
        self.at = end + 1
        return ExprStmt(expr)

    def _loop_macro(self) -> bool:
        after = self.match[self.at + 1] + 1
        if after >= len(self.tokens):
            return False
        token = self.tokens[after]
        return token.is_("{") or (token.kind == "ident" and token.text not in _ASSIGN)

    def _labeled_statement(self):
        token = self._peek()
        if token is not None and token.is_("}"):
            return ExprStmt(None)          # a label at the end of a block
        return self.statement()

    def _case_colon(self) -> int:
        i, pending = self.at, 0
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.text in "([{" and token.kind == "punct":
                i = self.match[i] + 1
                continue
            if token.is_("?"):
                pending += 1
            elif token.is_(":"):
                if not pending:
                    return i
                pending -= 1
            elif token.is_(";") or token.is_("}"):
                break
            i += 1
        raise self._error("a case label without ':'")

    def _paren_expr(self, kind: str):
        start = self._expect("(")
        end = self.match[start]
        self.at = end + 1
        return self.expr(range(start + 1, end), kind)

    def _for(self):
        self.at += 1
        start = self._expect("(")
        end = self.match[start]
        parts, i = [], start + 1
        for j in range(start + 1, end + 1):
            if j == end or (self.tokens[j].is_(";") and self._level(start, j)):
                parts.append(range(i, j))
                i = j + 1
        if len(parts) != 3:
            raise self._error("a for statement without two ';'", start)
        init_range, cond_range, step_range = parts
        init = None
        if init_range:
            saved = self.at
            self.at = init_range.start
            if self._is_declaration():
                init = self._declaration(init_range.stop)
            else:
                init = ExprStmt(self.expr(init_range, "expression"))
            self.at = saved
        cond = self.expr(cond_range, "condition") if cond_range else None
        step = self.expr(step_range, "expression") if step_range else None
        self.at = end + 1
        return For(init, cond, step, self.statement())

    def _level(self, open_at: int, j: int) -> bool:
        """Whether J is directly inside the bracket at OPEN_AT."""
        i = open_at + 1
        while i < j:
            if self.tokens[i].text in "([{" and self.tokens[i].kind == "punct":
                i = self.match[i] + 1
            else:
                i += 1
        return i == j

    # -- declarations ----------------------------------------------------

    def _is_declaration(self) -> bool:
        first, second = self._peek(), self._peek(1)
        if first is None or first.kind != "ident":
            return False
        if first.text in TYPE_WORDS:
            return True
        if second is None:
            return False
        if (first.text.startswith(_DECLARER_PREFIXES) or first.text in _DECLARERS) \
                and second.is_("("):
            return True
        if second.kind == "ident":
            return True
        if second.is_("*"):
            # `T *x;`, `T **x = ...`: a product as a statement would be useless.
            i = self.at + 1
            while i < len(self.tokens) and self.tokens[i].is_("*"):
                i += 1
            after = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
            return self.tokens[i].kind == "ident" and after is not None and \
                after.text in ("=", ";", ",", "[", ")")
        return False

    def _declaration(self, stop: int | None = None) -> Decl:
        start = self.at
        end = self._until(";") if stop is None else stop
        names, arrays, stable, inits = [], [], [], []
        static = any(self.tokens[i].is_("static") for i in range(start, end))
        declarer = self.tokens[start].text.startswith(_DECLARER_PREFIXES) or \
            self.tokens[start].text in _DECLARERS
        if declarer:
            close = self.match.get(start + 1)
            if close is not None and close > start + 2 and self.tokens[start + 2].kind == "ident":
                names.append(self.tokens[start + 2].text)
        else:
            pieces, i = [], start
            for j in range(start, end + 1):
                if j == end or (self.tokens[j].is_(",") and self._top(start, j)):
                    pieces.append(range(i, j))
                    i = j + 1
            file_or_inode = _stable_type(self.tokens[start:end])
            for piece in pieces:
                eq = next((j for j in piece if self.tokens[j].is_("=") and self._top(start, j)),
                          None)
                head = range(piece.start, eq) if eq is not None else piece
                name = _declared_name(self.tokens, head)
                if name:
                    names.append(name)
                    if any(self.tokens[j].is_("[") for j in head):
                        arrays.append(name)
                    if file_or_inode and any(self.tokens[j].is_("*") for j in head):
                        stable.append(name)
                if eq is not None and eq + 1 < piece.stop:
                    inits.append(range(eq + 1, piece.stop))
        # The whole declaration is one leaf unless an initializer hides
        # control flow or the lock.
        structured = [r for r in inits if self._marked(r)]
        if structured:
            rest = tuple(j for j in range(start, end)
                         if not any(j in r for r in structured))
            expr = Seq([self.expr(r, "expression") for r in structured] +
                       [Leaf(rest, "declaration")])
        else:
            expr = Leaf(tuple(range(start, end)), "declaration")
        self.at = end + 1 if stop is None else stop
        return Decl(expr, tuple(names), static, tuple(arrays), tuple(stable))

    def _top(self, start: int, j: int) -> bool:
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

    def expr(self, span: range, kind: str):
        """The expression of tokens SPAN."""
        if not span:
            return Leaf((), kind)
        if not self._marked(span):
            return Leaf(tuple(span), kind)
        tokens = self.tokens
        top = self._top_level(span)
        commas = [i for i in top if tokens[i].is_(",")]
        if commas:
            bounds = [span.start] + [c + 1 for c in commas]
            ends = commas + [span.stop]
            return Seq([self.expr(range(b, e), kind) for b, e in zip(bounds, ends)])
        assign = next((i for i in top if tokens[i].text in _ASSIGN and tokens[i].kind == "punct"),
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
        i = span.start
        while i < span.stop:
            token = tokens[i]
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
        effects = [p for p in parts if _has_effect(p)]
        if len(effects) > 1:
            raise self._error("two lock operations or exits in one expression whose "
                              "order of evaluation C leaves open", span.start)
        rest = tuple(j for j in span if j not in taken)
        return Seq(parts + [Leaf(rest, kind)])

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


def _has_effect(node) -> bool:
    """Whether NODE takes or releases the lock or leaves its expression
    other than by its value (return, goto, break, continue)."""
    if node is None or isinstance(node, Leaf):
        return False
    if isinstance(node, (LockOp, Return, Jump)):
        return True
    if isinstance(node, Labeled):
        return _has_effect(node.stmt)
    children = [getattr(node, name) for name in node.__dataclass_fields__
                if name not in ("line", "end_line", "ident", "kind", "name")]
    for child in children:
        if isinstance(child, list):
            if any(_has_effect(c) for c in child):
                return True
        elif not isinstance(child, (str, int, bool, tuple)) and _has_effect(child):
            return True
    return False


def _declared_name(tokens: list[Token], head: range) -> str | None:
    """The name a declarator declares: the identifier followed by what may
    follow a name (`int (*fp)(int)`, `char buf[8]`, `struct inode *inode`)."""
    for j in head:
        token = tokens[j]
        if token.kind != "ident" or token.text in TYPE_WORDS:
            continue
        after = tokens[j + 1] if j + 1 < head.stop else None
        if after is None or after.text in (")", "[", ":"):
            before = tokens[j - 1] if j > head.start else None
            if before is not None and before.text in ("struct", "union", "enum"):
                continue
            return token.text
    return None


def _stable_type(tokens: list[Token]) -> bool:
    texts = [t.text for t in tokens]
    return any(texts[i] == "struct" and texts[i + 1] in ("file", "inode")
               for i in range(len(texts) - 1))


def _brackets(tokens: list[Token]) -> dict[int, int]:
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


def parse_body(tokens: list[Token], lock: LockSpelling) -> Block:
    parser = Parser(tokens, lock)
    body = parser.block()
    if parser.at != len(tokens):
        raise parser._error("tokens after the end of the body")
    return body

"""A function body as statements (the shapes are in syntax.py).

Statements are parsed fully: blocks, if/else, switch with case labels at
any depth, the three loops, goto and labels, return, break, continue,
declarations (C99 ones after statements too), loop macros of headers this
reading does not expand (`list_for_each(p, head) { ... }`).
"""

from ioctl_rework.lockproof.expressions import ASSIGN, ExpressionParser
from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.noreturn import Halting
from ioctl_rework.lockproof.syntax import (ANY_LABEL, Block, Decl, DoWhile, ExprStmt, For, If, Jump,
                                           Labeled, Leaf, LockSpelling, Return,
                                           Seq, Switch, While)

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


class Parser(ExpressionParser):
    """Parses TOKENS (a body from `{` to `}`) into a Block."""

    # -- helpers ---------------------------------------------------------

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
            if target is not None and target.is_("*"):
                # GCC's computed goto: it may reach any label of the function
                # (the walk joins it to each; ANY_LABEL)
                self.at = self._until(";") + 1
                return Jump("goto", ANY_LABEL, token.line)
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
            self.no_exit(range(self.at, close + 1))
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
        return token.is_("{") or (token.kind == "ident" and token.text not in ASSIGN)

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
            if j == end or (self.tokens[j].is_(";") and self._top(start + 1, j)):
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
        self.no_exit(range(start, end))
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


def parse_body(tokens: list[Token], lock: LockSpelling,
               halting: Halting = Halting()) -> Block:
    """TOKENS as a Block; HALTING: what read halts (noreturn.Halting)."""
    parser = Parser(tokens, lock, halting)
    body = parser.block()
    if parser.at != len(tokens):
        raise parser._error("tokens after the end of the body")
    return body

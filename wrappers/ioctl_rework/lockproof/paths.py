"""Every path through a function body, as lock states.

A state is (depth, taken, calls): how many times the lock is held, whether
a path has taken it yet (to tell "before lock" from "after unlock" in a
message), and how many times the path called the function a wrapper must
call once.  The walk is a data-flow fixpoint over the statements: a loop
is walked until the states at its head stop growing, a label until the
states of the gotos to it stop growing, and every case label of a switch
receives the state after its condition.  Conditions that fold to a
constant (`do { } while (0)`, `for (;;)`, `if ((0) && x)`) go one way;
every other branch may go either way.  Calls are assumed to return, but
for those noreturn.py knows never to.
"""

from dataclasses import dataclass, field

from ioctl_rework.lockproof import syntax as st
from ioctl_rework.lockproof.constants import fold
from ioctl_rework.lockproof.lexer import Token

# A path that holds the lock more often than this is taking it in a loop.
MAX_DEPTH = 8


class WalkError(ValueError):
    """Control flow the walk cannot follow (a goto to nowhere, a break
    outside a loop, a lock taken without bound)."""


State = tuple[int, bool, int]


@dataclass
class _Switch:
    head: frozenset
    has_default: bool = False


@dataclass
class _Context:
    breaks: set | None = None
    continues: set | None = None
    switch: _Switch | None = None


@dataclass
class Walk:
    """What a walk found: the states in which each leaf, lock operation
    and return runs, and the states that fall off the end."""

    leaves: dict[int, frozenset] = field(default_factory=dict)
    ops: dict[int, frozenset] = field(default_factory=dict)
    returns: dict[int, frozenset] = field(default_factory=dict)
    halts: dict[int, frozenset] = field(default_factory=dict)   # Halt position -> states
    end: frozenset = frozenset()


class Walker:
    def __init__(self, tokens: list[Token], entry_depth: int, call_target: str | None = None):
        self.tokens = tokens
        self.entry = frozenset({(entry_depth, False, 0)})
        self.call_target = call_target
        self.result = Walk()
        self.labels_in: dict[str, frozenset] = {}
        self.gotos: dict[str, frozenset] = {}
        self.defined: set[str] = set()

    def run(self, body: st.Block) -> Walk:
        while True:
            self.gotos = {}
            end = self.stmt(body, self.entry, _Context())
            anywhere = self.gotos.pop(st.ANY_LABEL, None)
            if anywhere is not None:
                if not self.defined:
                    raise WalkError("a computed goto (goto *p) in a function without labels")
                for label in self.defined:
                    self.gotos[label] = self.gotos.get(label, frozenset()) | anywhere
            grown = False
            for label, states in self.gotos.items():
                merged = self.labels_in.get(label, frozenset()) | states
                if merged != self.labels_in.get(label, frozenset()):
                    self.labels_in[label] = merged
                    grown = True
            missing = set(self.gotos) - self.defined
            if missing:
                raise WalkError(f"goto {sorted(missing)[0]}: no such label")
            if not grown:
                break
        self.result.end = end
        return self.result

    # -- statements ------------------------------------------------------

    def stmt(self, node, states: frozenset, ctx: _Context) -> frozenset:
        kind = type(node)
        if kind is st.Block:
            for item in node.items:
                states = self.stmt(item, states, ctx)
            return states
        if kind is st.ExprStmt:
            return self.eval(node.expr, states, ctx)
        if kind is st.Decl:
            return self.eval(node.expr, states, ctx)
        if kind is st.If:
            true, false = self.branch(node.cond, states, ctx)
            then = self.stmt(node.then, true, ctx)
            other = self.stmt(node.other, false, ctx) if node.other is not None else false
            return then | other
        if kind is st.Switch:
            head = self.eval(node.cond, states, ctx)
            switch = _Switch(head)
            breaks: set = set()
            out = self.stmt(node.body, frozenset(),
                            _Context(breaks, ctx.continues, switch))
            return out | frozenset(breaks) | (frozenset() if switch.has_default else head)
        if kind is st.While:
            return self._loop(node.cond, node.body, None, states, ctx, test_first=True)
        if kind is st.DoWhile:
            return self._loop(node.cond, node.body, None, states, ctx, test_first=False)
        if kind is st.For:
            if node.init is not None:
                states = self.stmt(node.init, states, ctx)
            return self._loop(node.cond, node.body, node.step, states, ctx, test_first=True)
        if kind is st.Labeled:
            if node.kind == "label":
                self.defined.add(node.name)
                states = states | self.labels_in.get(node.name, frozenset())
            else:
                if ctx.switch is None:
                    raise WalkError(f"line {node.line}: {node.kind} outside a switch")
                states = states | ctx.switch.head
                if node.kind == "default":
                    ctx.switch.has_default = True
            return self.stmt(node.stmt, states, ctx)
        if kind is st.Jump:
            if node.kind == "goto":
                self.gotos[node.label] = self.gotos.get(node.label, frozenset()) | states
            else:
                target = ctx.breaks if node.kind == "break" else ctx.continues
                if target is None:
                    raise WalkError(f"line {node.line}: {node.kind} outside a loop")
                target.update(states)
            return frozenset()
        if kind is st.Return:
            states = self.eval(node.expr, states, ctx)
            self._record(self.result.returns, id(node), states)
            return frozenset()
        raise WalkError(f"cannot walk a {kind.__name__}")

    def _loop(self, cond, body, step, states, ctx, test_first) -> frozenset:
        head = states
        while True:
            breaks: set = set()
            continues: set = set()
            inner = _Context(breaks, continues, ctx.switch)
            if test_first:
                true, false = self.branch(cond, head, ctx)
                body_out = self.stmt(body, true, inner)
                back = body_out | frozenset(continues)
                if step is not None:
                    back = self.eval(step, back, ctx)
                grown = states | back
            else:
                body_out = self.stmt(body, head, inner)
                true, false = self.branch(cond, body_out | frozenset(continues), ctx)
                grown = states | true
            if grown == head:
                break
            head = grown
        return false | frozenset(breaks)

    def branch(self, cond, states: frozenset, ctx: _Context) -> tuple[frozenset, frozenset]:
        """The states in which COND is true and in which it is false.  A
        condition that folds to a constant (or is absent: `for (;;)`) goes one
        way; `a && b` and `a || b` keep apart the paths that evaluated b."""
        if cond is None:
            return states, frozenset()
        value = self.constant(cond)
        if type(cond) is st.Short and cond.op in ("&&", "||"):
            left_true, left_false = self.branch(cond.left, states, ctx)
            if cond.op == "&&":
                right_true, right_false = self.branch(cond.right, left_true, ctx)
                return right_true, left_false | right_false
            right_true, right_false = self.branch(cond.right, left_false, ctx)
            return left_true | right_true, right_false
        after = self.eval(cond, states, ctx)
        return (after if value is not False else frozenset(),
                after if value is not True else frozenset())

    # -- expressions -----------------------------------------------------

    def eval(self, expr, states: frozenset, ctx: _Context) -> frozenset:
        if expr is None:
            return states
        kind = type(expr)
        if kind is st.Leaf:
            self._record(self.result.leaves, expr.ident, states)
            if self.call_target and self._calls_target(expr):
                states = frozenset((d, t, min(c + 1, 2)) for d, t, c in states)
            return states
        if kind is st.LockOp:
            self._record(self.result.ops, expr.ident, states)
            # A release of a free lock is a finding of its own (judge.py); the
            # count stops at -1 so that a loop of them still ends.
            moved = frozenset((d + 1 if expr.acquire else max(d - 1, -1), t or expr.acquire, c)
                              for d, t, c in states)
            if any(d > MAX_DEPTH for d, _, _ in moved):
                raise WalkError(f"line {self.tokens[expr.position].line}: the lock count "
                                "grows without bound (taken or released in a loop)")
            return moved
        if kind is st.Seq:
            for part in expr.parts:
                states = self.eval(part, states, ctx)
            return states
        if kind is st.Choice:
            tested = self.eval(expr.test, states, ctx)
            then = self.eval(expr.then, tested, ctx) if expr.then is not None else tested
            return then | self.eval(expr.other, tested, ctx)
        if kind is st.Short:
            left = self.eval(expr.left, states, ctx)
            return left | self.eval(expr.right, left, ctx)
        if kind is st.StmtExpr:
            return self.stmt(expr.body, states, ctx)
        if kind is st.Halt:
            # BUG(), panic(): no path goes on, but a mutex held here stays held.
            self._record(self.result.halts, expr.position, states)
            return frozenset()
        raise WalkError(f"cannot evaluate a {kind.__name__}")

    def constant(self, expr) -> bool | None:
        """The truth of a condition that is a literal number, else None: also
        the last operand of a comma and the value of `({ ...; 1; })`."""
        if type(expr) is st.Seq and expr.parts:
            last = expr.parts[-1]
            if type(last) is st.Leaf and not last.positions and len(expr.parts) > 1:
                last = expr.parts[-2]      # the empty rest of a strict expression
            return self.constant(last)
        if type(expr) is st.StmtExpr:
            items = expr.body.items
            last = items[-1] if items else None
            return self.constant(last.expr) if type(last) is st.ExprStmt else None
        if type(expr) is not st.Leaf or not expr.positions:
            return None
        value = fold([self.tokens[i] for i in expr.positions])
        return None if value is None else value != 0

    def _calls_target(self, leaf: st.Leaf) -> bool:
        positions = leaf.positions
        for k, i in enumerate(positions[:-1]):
            if self.tokens[i].text == self.call_target and self.tokens[positions[k + 1]].is_("("):
                return True
        return False

    @staticmethod
    def _record(table: dict, key, states: frozenset) -> None:
        table[key] = table.get(key, frozenset()) | states


def walk(tokens: list[Token], body: st.Block, entry_depth: int,
         call_target: str | None = None) -> Walk:
    return Walker(tokens, entry_depth, call_target).run(body)

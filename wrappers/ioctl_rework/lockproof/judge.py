"""The verdict: does the converted function hold the lock where the legacy
handler ran under it, and release it on every way out?

The legacy handler is walked with the lock held once at entry (the VFS
took it), the converted function with the depth its caller gives it (0
for the new entry point, 1 for a body a wrapper calls).  Tokens of the
two are aligned (a diff of the token texts); every leaf of the converted
function that must run under the lock (purity.py) must run at exactly the
depths its legacy tokens ran at.  Returns must leave the depth the caller
expects, a release must never find the lock free, and a mutex must never
be taken while held.
"""

import bisect
import collections
import difflib
from dataclasses import dataclass

from ioctl_rework.lockproof import early_reads, noreturn, syntax as st
from ioctl_rework.lockproof.constants import fold
from ioctl_rework.lockproof.analysis import Function
from ioctl_rework.lockproof.model import LockCalls
from ioctl_rework.lockproof.statements import TYPE_WORDS


@dataclass(frozen=True)
class Finding:
    line: int
    message: str
    function: str | None = None        # None: the handler or wrapper the line is in


_WHAT = {"declaration": "declaration", "condition": "condition",
         "return": "return value", "expression": "statement"}


def align(old: Function, new: Function) -> dict[int, int]:
    """New token position -> old token position, where the texts are kept."""
    return patience([t.text for t in old.tokens], [t.text for t in new.tokens])


def patience(a: list[str], b: list[str]) -> dict[int, int]:
    """A patience alignment of B to A: tokens that occur once in both parts
    anchor it, so that `return E;` -> `ret = E; unlock(); return ret;`
    keeps E with E rather than `return` with `return` (a plain longest
    match picks the latter)."""
    mapping: dict[int, int] = {}
    todo = [(0, len(a), 0, len(b))]
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            mapping[blo] = alo
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            mapping[bhi - 1] = ahi - 1
            ahi, bhi = ahi - 1, bhi - 1
        if alo == ahi or blo == bhi:
            continue
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if not anchors:
            matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            for block in matcher.get_matching_blocks():
                for k in range(block.size):
                    mapping[blo + block.b + k] = alo + block.a + k
            continue
        previous = (alo - 1, blo - 1)
        for i, j in anchors + [(ahi, bhi)]:
            if i - previous[0] > 1 or j - previous[1] > 1:
                todo.append((previous[0] + 1, i, previous[1] + 1, j))
            if i < ahi:
                mapping[j] = i
            previous = (i, j)
    return mapping


# A pushdown moves `return` past its value (`return E;` -> `ret = E; unlock();
# return ret;`): anchored, the one `return` of a range pulls E's tokens away
# from E (a case block's `return f(x); break;` read as missing).
_NOT_ANCHORS = frozenset({"return"})


def _unique_anchors(a, b, alo, ahi, blo, bhi) -> list[tuple[int, int]]:
    """Tokens once in each range, in an order both keep (longest increasing)."""
    count_a = collections.Counter(a[alo:ahi])
    count_b = collections.Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi)
             if count_a[a[i]] == 1 and a[i] in where_b and a[i] not in _NOT_ANCHORS]
    # Longest increasing subsequence of the b positions (patience sorting).
    tails: list[int] = []              # smallest b position ending a run of each length
    tail_at: list[int] = []            # ... and the pair it belongs to
    back: list[int | None] = []
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        back.append(tail_at[pos - 1] if pos else None)
        if pos == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[pos] = j
            tail_at[pos] = k
    chain, k = [], tail_at[-1] if tail_at else None
    while k is not None:
        chain.append(pairs[k])
        k = back[k]
    return chain[::-1]


def in_macros(macros: tuple[str, ...]) -> str:
    """" (in macro A)", " (in macro A, from B)" for a token out of expansions."""
    if not macros:
        return ""
    return f" (in macro {macros[0]}" + "".join(f", from {m}" for m in macros[1:]) + ")"


def _where(new: Function, position: int) -> tuple[int, str]:
    token = new.tokens[position]
    return token.line, in_macros(token.macros)


def _times(depths) -> str:
    """How often a lock is held, in words: "once", "once or twice"."""
    words = {0: "not at all", 1: "once", 2: "twice"}
    return " or ".join(words.get(d, f"{d} times") for d in sorted(depths))


class Judge:
    def __init__(self, new: Function, lock: LockCalls, return_depth: int, reads: bool = False):
        self.new = new
        self.lock = lock
        self.return_depth = return_depth
        self.reads = reads          # reads of shared memory need the lock too
        self.findings: list[Finding] = []

    def say(self, position: int, message: str) -> None:
        line, suffix = _where(self.new, position)
        self.findings.append(Finding(line, message.format(line=f"line {line}{suffix}")))

    # -- what every converted function must do ---------------------------

    def exits(self, caller: str | None = None) -> None:
        new, lock = self.new, self.lock
        want = self.return_depth
        for node in new.returns:
            depths = new.depths(new.walk.returns, id(node))
            self._exit(depths, want, node.line, node.macros, "return at line %d" % node.line,
                       caller)
        end = {d for d, _, _ in new.walk.end}
        if end:
            last = new.tokens[-1].line
            self._exit(end, want, last, (), f"falling off the end of {new.name} at line {last}",
                       caller)
        for op in new.ops:
            states = new.walk.ops.get(op.ident, frozenset())
            if not op.acquire and any(d <= 0 for d, _, _ in states):
                self.say(op.position, f"{lock.release_call} at {{line}} releases {lock.name} "
                         "when it is not held" + self._some(states, lambda d: d <= 0))
            if op.acquire and not lock.is_bkl and any(d >= 1 for d, _, _ in states):
                self.say(op.position, f"{lock.acquire_call} at {{line}} is reached with "
                         f"{lock.name} already held: it deadlocks" +
                         self._some(states, lambda d: d >= 1))

    def halts_held(self) -> None:
        """Under a mutex, no path may end the task with the mutex held: the
        BKL was released when its holder exited (or BUG() killed it), a
        mutex is not, and every later call would wait for it for ever."""
        new, lock = self.new, self.lock
        if lock.is_bkl:
            return
        held = (f"with {lock.name} held: unlike the BKL, a mutex is not released when its "
                "holder exits, so every later call would wait for it for ever")
        for position, states in sorted(new.walk.halts.items()):
            if any(d >= 1 for d, _, _ in states):
                self.say(position, f"{new.tokens[position].text}() at {{line}} ends the "
                         f"task {held}" + self._some(states, lambda d: d >= 1))
        for leaf in new.leaves:
            states = new.walk.leaves.get(leaf.ident, frozenset())
            if not any(d >= 1 for d, _, _ in states):
                continue
            for position in leaf.positions:
                why = self._may_halt(position)
                if why:
                    self.say(position, f"{new.tokens[position].text}() at {{line}} {why} "
                             f"{held}" + self._some(states, lambda d: d >= 1))

    def _may_halt(self, position: int) -> str | None:
        """Why the call at POSITION may end the task, or None: an assertion
        whose condition is not a known constant (BUG_ON(0) never fires, a
        true constant is a Halt), or a function read that may halt."""
        tokens = self.new.tokens
        token = tokens[position]
        if token.kind != "ident" or position + 1 >= len(tokens) or \
                not tokens[position + 1].is_("("):
            return None
        if token.text in noreturn.ASSERTS:
            depth, close = 0, len(tokens)
            for k in range(position + 1, len(tokens)):
                depth += tokens[k].is_("(") - tokens[k].is_(")")
                if depth == 0:
                    close = k
                    break
            if fold(tokens[position + 2:close]) is None:
                return "ends the task when its condition holds"
        elif token.text in self.new.may_halt:
            return "may end the task (what it calls can halt)"
        return None

    def _exit(self, depths, want, line, macros, what, caller) -> None:
        suffix = in_macros(macros)
        some = " on some paths" if want in depths else ""
        if any(d > want for d in depths):
            self.findings.append(Finding(line, f"{what}{suffix} leaves {self.lock.name} "
                                               f"held{some}"))
        if any(d < want for d in depths):
            if caller:
                message = (f"{what}{suffix} releases {self.lock.name}, which {caller} "
                           f"releases again{some}")
            else:
                message = f"{what}{suffix} releases {self.lock.name} twice{some}"
            self.findings.append(Finding(line, message))

    @staticmethod
    def _some(states, bad) -> str:
        return " on some paths" if any(not bad(d) for d, _, _ in states) else ""

    def dropped_parameters(self, old: Function) -> None:
        """A parameter of the legacy handler that the converted one no
        longer has (the inode) may be named only where the converted one
        declares it again: a use left without a declaration would not
        build (a K&R neighbour in the file once kept the rule from adding
        the derived local)."""
        new = self.new
        declared = set(new.params) | new.locals.names | new.locals.statics
        tokens = new.tokens
        for i in range(2, len(tokens) - 1):
            # `struct inode *inode __attribute__((unused)) = ...`, which the
            # statement parser does not take for a declaration of inode
            if tokens[i].kind == "ident" and tokens[i - 1].text == "*" and \
                    tokens[i - 2].kind == "ident" and \
                    tokens[i + 1].text in ("=", ";", ",", "__attribute__"):
                declared.add(tokens[i].text)
        for name in old.params:
            if name in declared:
                continue
            for i, token in enumerate(new.tokens):
                # a member (`->inode`) or a tag (`sizeof(struct inode)`) is not it
                if token.kind == "ident" and token.text == name and \
                        not (i > 0 and new.tokens[i - 1].text in
                             (".", "->", "struct", "union", "enum")):
                    self.say(i, f"{name} at {{line}} names a parameter of the legacy handler "
                             "that the converted one neither has nor declares: it would not "
                             "build")
                    break

    def strict_ops(self) -> None:
        """With no lock operation of its own in the legacy code, every one
        is the conversion's: taken once (at depth 0) and released once."""
        new, lock = self.new, self.lock
        base = self.return_depth
        for op in new.ops:
            depths = new.depths(new.walk.ops, op.ident)
            if op.acquire and lock.is_bkl and any(d > base for d in depths):
                self.say(op.position, f"{lock.acquire_call} at {{line}} takes {lock.name} "
                         "a second time")

    # -- where the legacy code runs ---------------------------------------

    def compare(self, old: Function) -> None:
        """Each leaf that needs the lock runs at the depths its legacy tokens did."""
        new = self.new
        mapping = align(old, new)
        old_leaf = old.leaf_at()
        covered: set[int] = set()
        written = early_reads.written_members(old.tokens) | early_reads.written_members(new.tokens)
        for leaf in new.leaves:
            sources = {old_leaf[mapping[p]] for p in leaf.positions
                       if p in mapping and mapping[p] in old_leaf}
            covered.update(s.ident for s in sources)
            if not leaf.positions:
                continue
            if new.impurity(leaf, self.reads) is None:
                self._early_read(leaf, old, sources, written)
                continue
            now = new.walk.leaves.get(leaf.ident, frozenset())
            if not sources:
                self._runs_at(leaf, now, {1}, "is not in the legacy handler and")
                continue
            before = set()
            for source in sources:
                before |= old.depths(old.walk.leaves, source.ident)
            if not now and before:
                self.say(leaf.positions[0], f"{_WHAT[leaf.kind]} at {{line}} ran in the "
                         "legacy handler and can no longer be reached")
                continue
            self._runs_at(leaf, now, before, "")
        for leaf in old.leaves:
            if leaf.ident in covered or not leaf.positions or old.impurity(leaf, self.reads) is None:
                continue
            token = old.tokens[leaf.positions[0]]
            self.findings.append(Finding(
                _nearest_line(new, token.line),
                f"{_WHAT[leaf.kind]} at line {token.line} of the legacy handler is missing "
                "from the conversion"))

    def _early_read(self, leaf: st.Leaf, old: Function, sources: set, written) -> None:
        """Pure code that ran under the lock and now runs without it may
        still not read what only the lock kept consistent (early_reads.py);
        nor may code the conversion added there."""
        now = self.new.walk.leaves.get(leaf.ident, frozenset())
        outside = {taken for d, taken, _ in now if d == 0}
        if not outside:
            return
        before = set()
        for source in sources:
            before |= old.depths(old.walk.leaves, source.ident)
        if sources and (not before or min(before) < 1):
            return                     # it ran without the lock before too
        why = self.new.early_read(leaf, written)
        if why is None:
            return
        lock = self.lock
        where = {frozenset({False}): f"before {lock.acquire_call}",
                 frozenset({True}): f"after {lock.release_call}"}.get(
            frozenset(outside), f"outside {lock.acquire_call} and {lock.release_call}")
        code = spelled([self.new.tokens[i] for i in leaf.positions], leaf.kind == "declaration")
        held = f"ran under {lock.name} before" if sources else "is not in the legacy handler"
        self.say(leaf.positions[0], f"{_WHAT[leaf.kind]} `{code}` at {{line}} {held} and "
                 f"now runs {where} (it {why}, which another call may change in between: "
                 f"{lock.name} made that read and the handler's writes one step)")

    def _runs_at(self, leaf: st.Leaf, now: frozenset, before: set, new_code: str) -> None:
        depths = {d for d, _, _ in now}
        if not now or depths == before:
            return
        lock = self.lock
        what = f"{_WHAT[leaf.kind]} at {{line}}"
        if new_code:
            held = f"without {lock.name}" if depths == {0} else \
                f"with {lock.name} held {_times(depths)}"
            self.say(leaf.positions[0], f"{what} {new_code} runs {held}")
            return
        outside = {(d, t) for d, t, _ in now if d < min(before)}
        if outside and min(before) >= 1 and any(d == 0 for d, _ in outside):
            taken = {t for d, t in outside if d == 0}
            if taken == {False}:
                where = f"before {lock.acquire_call}"
            elif taken == {True}:
                where = f"after {lock.release_call}"
            else:
                where = f"outside {lock.acquire_call} and {lock.release_call}"
            some = " on some paths" if depths & before else ""
            why = self.new.impurity(leaf, self.reads)
            self.say(leaf.positions[0], f"{what} ran under {lock.name} before and now runs "
                     f"{where}{some} (it {why})")
            return
        self.say(leaf.positions[0], f"{what} runs with {lock.name} held {_times(depths)}; "
                 f"the legacy handler held it {_times(before)} there")

    # -- a wrapper ----------------------------------------------------------

    def wrapper_calls(self, body: str) -> None:
        """A wrapper calls the body exactly once on every path, under the lock."""
        new = self.new
        counts = {c for node in new.returns
                  for _, _, c in new.walk.returns.get(id(node), ())}
        counts |= {c for _, _, c in new.walk.end}
        line = new.tokens[0].line
        if 0 in counts:
            self.findings.append(Finding(line, f"{new.name} does not call {body} on every path"))
        if any(c > 1 for c in counts):
            self.findings.append(Finding(line, f"{new.name} calls {body} more than once"))
        for leaf in new.leaves:
            now = new.walk.leaves.get(leaf.ident, frozenset())
            if new.impurity(leaf, self.reads) is not None:
                self._runs_at(leaf, now, {1}, "is not in the legacy handler and")


_TIGHT_BEFORE = frozenset({")", "]", "->", ".", ",", ";"})


def spelled(tokens, declaration: bool = False) -> str:
    """TOKENS as C text, spaced as people write it: `int users = *(int *)p + dev->users`;
    in a DECLARATION, a `*` before the `=` is the declarator's: `struct dev *d`."""
    out, unary, opened = "", False, []
    declarator = declaration
    for k, token in enumerate(tokens):
        declarator = declarator and not token.is_("=")
        before = tokens[k - 1] if k else None
        tight = before is None or unary or before.text in ("(", "[", "->", ".") or \
            token.text in _TIGHT_BEFORE or \
            (token.text in ("(", "[", "++", "--") and
             (before.kind == "ident" or before.text in (")", "]")))
        out += ("" if tight else " ") + token.text
        # -x, *p, &v, !f, (int *)p: an operator where an operand starts binds to it.
        unary = token.text in ("-", "*", "&", "!", "~") and token.kind == "punct" and \
            (before is None or (declarator and token.is_("*")) or
             (before.kind == "punct" and before.text not in (")", "]")) or
             before.text in ("return", "sizeof"))
        if token.is_("("):
            opened.append(k)
        elif token.is_(")") and opened:
            inner = tokens[opened.pop() + 1:k]
            unary = bool(inner) and all(t.kind == "ident" or t.is_("*") for t in inner) and \
                any(t.is_("*") or t.text in TYPE_WORDS for t in inner)
    return out


def _nearest_line(new: Function, line: int) -> int:
    lines = [t.line for t in new.tokens]
    return min(lines, key=lambda n: abs(n - line)) if lines else line

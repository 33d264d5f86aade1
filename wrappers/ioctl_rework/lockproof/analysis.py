"""One function, parsed and walked: the facts the judge compares."""

from dataclasses import dataclass

from ioctl_rework.lockproof import constant_names, early_reads, paths, syntax as st
from ioctl_rework.lockproof.statements import TYPE_WORDS, parse_body
from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.noreturn import Halting
from ioctl_rework.lockproof.purity import Locals, impurity, stable_initialized


@dataclass
class Function:
    name: str
    tokens: list[Token]           # the body, `{` to `}`, expanded
    params: tuple[str, ...]
    body: st.Block
    walk: paths.Walk
    locals: Locals
    leaves: list[st.Leaf]
    ops: list[st.LockOp]
    returns: list[st.Return]
    entry_depth: int
    constants: "constant_names.Names | frozenset" = constant_names.KERNEL   # read as constants
    may_halt: frozenset = frozenset()  # called names that may end the task (noreturn.Halting)

    def leaf_at(self) -> dict[int, st.Leaf]:
        """Token position -> the leaf it belongs to."""
        found = {}
        for leaf in self.leaves:
            for position in leaf.positions:
                found[position] = leaf
        return found

    def impurity(self, leaf: st.Leaf, reads: bool = False) -> str | None:
        return impurity([self.tokens[i] for i in leaf.positions], leaf.kind, self.locals, reads)

    def early_read(self, leaf: st.Leaf, written: frozenset) -> str | None:
        """What LEAF reads that only the lock kept consistent (early_reads.py)."""
        return early_reads.early_read([self.tokens[i] for i in leaf.positions], leaf.kind,
                                      self.locals, written, self.constants)

    def depths(self, table: dict, key) -> set[int]:
        return {d for d, _, _ in table.get(key, ())}


def analyse(name: str, param_tokens: list[Token], body_tokens: list[Token],
            spelling: st.LockSpelling, entry_depth: int,
            call_target: str | None = None, halting: Halting = Halting(),
            constants=constant_names.KERNEL) -> Function:
    body = parse_body(body_tokens, spelling, halting)
    walk = paths.walk(body_tokens, body, entry_depth, call_target)
    leaves, ops, returns, decls = [], [], [], []
    _collect(body, leaves, ops, returns, decls)
    params, stable = _parameters(param_tokens)
    names = set(params)
    arrays, statics = set(), set()
    for decl in decls:
        if decl.static:
            statics.update(decl.names)
        else:
            names.update(decl.names)
            arrays.update(decl.arrays)
        stable.update(decl.stable)
        leaf = decl.expr if isinstance(decl.expr, st.Leaf) else None
        if leaf is not None and not decl.static:
            stable.update(stable_initialized([body_tokens[i] for i in leaf.positions]))
    local = Locals(frozenset(names - statics), frozenset(arrays), frozenset(stable - statics),
                   frozenset(statics))
    return Function(name, body_tokens, tuple(params), body, walk, local, leaves, ops,
                    returns, entry_depth, constants, halting.may)


def _collect(node, leaves, ops, returns, decls) -> None:
    if node is None or isinstance(node, (str, int, bool, tuple)):
        return
    if isinstance(node, list):
        for item in node:
            _collect(item, leaves, ops, returns, decls)
        return
    if isinstance(node, st.Leaf):
        leaves.append(node)
        return
    if isinstance(node, st.LockOp):
        ops.append(node)
        return
    if isinstance(node, st.Return):
        returns.append(node)
    if isinstance(node, st.Decl):
        decls.append(node)
    for field_name in node.__dataclass_fields__:
        if field_name not in ("line", "end_line", "ident", "kind", "name", "macros",
                              "names", "arrays", "stable", "static", "label"):
            _collect(getattr(node, field_name), leaves, ops, returns, decls)


def _parameters(tokens: list[Token]) -> tuple[list[str], set[str]]:
    """Names of the parameters between `(` and `)`, and which of them are a
    struct file * or struct inode *."""
    names, stable = [], set()
    pieces, current, depth = [], [], 0
    for token in tokens[1:-1]:
        if token.kind == "punct" and token.text in "([{":
            depth += 1
        elif token.kind == "punct" and token.text in ")]}":
            depth -= 1
        if depth == 0 and token.is_(","):
            pieces.append(current)
            current = []
        else:
            current.append(token)
    pieces.append(current)
    for piece in pieces:
        idents = [t for t in piece if t.kind == "ident" and t.text not in TYPE_WORDS]
        if not idents:
            continue
        name = idents[-1].text
        names.append(name)
        texts = [t.text for t in piece]
        if "*" in texts and any(texts[i] == "struct" and texts[i + 1] in ("file", "inode")
                                for i in range(len(texts) - 1)):
            stable.add(name)
    return names, stable

"""The shapes the prover reads a function body into.

Statements are kept whole; expressions only as far as the lock cares:
runs of tokens evaluated together (Leaf, by their positions in the body's
token list), the lock's own calls (LockOp), and around those the
operators that decide whether and in which order they run.
"""

import itertools
from dataclasses import dataclass, field


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
class Halt:
    """A call that does not return (BUG(), panic(), a function declared
    noreturn): no path goes on after it."""

    position: int                      # of the called name


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


_FIELDS_NOT_CHILDREN = frozenset({"line", "end_line", "ident", "kind", "name", "op",
                                  "position"})


def has_effect(node) -> bool:
    """Whether NODE takes or releases the lock or leaves its expression
    other than by its value (return, goto, break, continue)."""
    if node is None or isinstance(node, Leaf):
        return False
    if isinstance(node, (LockOp, Return, Jump, Halt)):
        return True
    for name in node.__dataclass_fields__:
        if name in _FIELDS_NOT_CHILDREN:
            continue
        child = getattr(node, name)
        if isinstance(child, list):
            if any(has_effect(c) for c in child):
                return True
        elif not isinstance(child, (str, int, bool, tuple)) and has_effect(child):
            return True
    return False


# The label of a computed goto (`goto *p;`): any label of the function.
ANY_LABEL = "*"

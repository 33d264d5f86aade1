"""Calls that do not return: a path ends there, it does not fall through.

BUG(), panic(), do_exit() and their kin always; BUG_ON(c) when C folds to
a nonzero constant; and every function the text read (the file and its
headers) declares `__attribute__((noreturn))`, through any macro that
spells it (2.6's NORET_TYPE ... ATTRIB_NORET, NORET_AND).  A name also
declared or defined without it somewhere read is not trusted: a stub in
an #else branch returns.  Assuming a call returns is the safe side (an
extra path can only add problems), so only these end a path.

A function without the attribute ends a path too when every definition of
it that was read halts (halting.py): a driver's `static inline void
die(void) { printk(...); BUG(); }`; so does a macro whose every definition
halts, where it is left unexpanded (a macro of the tree's headers that
cannot leave the function stays a call; others expand to their halting
calls).  Left unexpanded, an object-like one stands alone (`DIE;`): it is
a halting word (Halting.words), which ends a path where it stands.
"""

import re
from typing import NamedTuple

from ioctl_rework.lockproof import halting
from ioctl_rework.lockproof.lexer import Token
from ioctl_rework.lockproof.variables import declared_variables

# The kernel's own: noreturn in every configuration of every 2.6 tree.
ALWAYS = frozenset({"BUG", "panic", "do_exit", "complete_and_exit",
                    "__builtin_unreachable", "__builtin_trap"})
# BUG_ON(1): an assertion whose condition is a true constant.
ASSERTS = frozenset({"BUG_ON"})
_MARKERS = frozenset({"noreturn", "__noreturn__", "__noreturn", "_Noreturn"})
_NOT_NAMES = frozenset({"__attribute__", "__attribute", "__declspec", "typeof", "__typeof__",
                        "__typeof", "asm", "__asm__", "__asm", "sizeof"})
_TYPES = frozenset({"void", "int", "char", "short", "long", "unsigned", "signed", "const",
                    "volatile"})
_WORD = re.compile(r"[A-Za-z_]\w*")


class Halting(NamedTuple):
    """What ends a path: CALLS, names that halt when called (`BUG()`,
    `rt_die("x")`), and WORDS, object-like macros that halt where they
    stand (`#define DIE BUG()` of a tree header, left unexpanded: `DIE;`).
    A word is never also a function: a function's bare name does not run it."""

    calls: frozenset = frozenset()
    words: frozenset = frozenset()
    # Functions of the text and macros read that MAY halt: a body or a
    # definition that names a halting call or an assertion (`if (x) BUG();`,
    # `BUG_ON(x)`), or one of these.  A call to one may end the task there.
    may: frozenset = frozenset()


class Declarations:
    """Reads the top-level declarations of a text, token by token, for
    functions declared noreturn."""

    def __init__(self):
        self._spellings: dict[str, set[str]] = {}     # macro -> the names its body uses
        self._macros: dict[str, list[str]] = {}       # macro -> each body defined for it
        # Function, the names around it, its body (None: a prototype).
        self._declared: list[tuple[str, frozenset, halting.Body | None]] = []
        self._variables: set[str] = set()
        self._own: set[str] = set()                   # functions this reading defines
        self._pending: list[Token] = []
        self._defining: tuple[str, frozenset] | None = None   # a definition's head
        self._body: list[Token] = []
        self._names: frozenset | None = None          # names, until something is read
        self._halting: Halting | None = None

    def define(self, name: str, body: str, words: frozenset | None = None) -> None:
        """`#define NAME BODY`: NAME spells noreturn when BODY does (WORDS:
        defined_words(BODY), where a header's Summary has them already)."""
        self._spellings.setdefault(name, set()).update(
            defined_words(body) if words is None else words)
        self._macros.setdefault(name, []).append(body)
        self._names = self._halting = None

    def token(self, token: Token, depth: int) -> None:
        """TOKEN of the text, at brace DEPTH before it."""
        if depth:
            if self._defining is not None:
                if depth == 1 and token.is_("}"):
                    name, words = self._defining
                    self._declared.append((name, words, halting.Body.of(self._body)))
                    self._own.add(name)
                    self._defining, self._body = None, []
                    self._names = self._halting = None
                else:
                    self._body.append(token)
            return
        if token.kind == "punct" and token.text in (";", "{", "}"):
            name = _declared_function(self._pending)
            if name is not None:
                words = frozenset(t.text for t in self._pending if t.kind == "ident")
                if token.is_("{"):
                    self._defining = (name, words)      # recorded with its body, at its "}"
                else:
                    self._declared.append((name, words, None))
                    self._names = self._halting = None
            elif token.is_(";") or token.is_("{") and any(t.is_("=") for t in self._pending):
                self._variables.update(declared_variables(self._pending))
            self._pending = []
        else:
            self._pending.append(token)

    @property
    def declared(self) -> tuple:
        """The functions read so far and the names around each."""
        return tuple(self._declared)

    @property
    def variables(self) -> frozenset:
        """The variables declared at top level so far (variables.py)."""
        return frozenset(self._variables)

    def add(self, declared: tuple, variables: frozenset = frozenset()) -> None:
        """Functions and variables another reading found (a header's Summary)."""
        self._declared += declared
        self._variables |= variables
        self._names = self._halting = None

    @property
    def names(self) -> frozenset:
        """Functions that never return: declared so, or halting in every body."""
        if self._names is None:
            marked = self._marked()
            self._names = marked | halting.halting_names(self._declared, self._macros,
                                                         self._spellings, ALWAYS | marked)
        return self._names

    @property
    def halting(self) -> Halting:
        """NAMES as calls, and the object-like macros among them as words:
        every definition of the name read is object-like (its body does not
        open with a parameter list) and no function of that name is declared."""
        if self._halting is None:
            names = self.names
            functions = {name for name, _, _ in self._declared}
            words = {name for name in names if name in self._macros and name not in functions
                     and not any(body.startswith("(") for body in self._macros[name])}
            self._halting = Halting(names, frozenset(words), self._may_halt(names))
        return self._halting

    def _may_halt(self, names: frozenset) -> frozenset:
        # The functions of the text itself, not a header's: a tree's inline
        # helpers assert (dma_map_single's BUG_ON) and are not the driver's.
        uses = [(name, body.names) for name, _, body in self._declared
                if body is not None and name in self._own]
        uses += [(name, frozenset(words)) for name, words in self._spellings.items()]
        halts = ALWAYS | ASSERTS | names
        may: set[str] = set()
        grown = True
        while grown:                   # a helper that calls a helper that may halt
            grown = False
            for name, used in uses:
                if name not in may and name not in halts and not used.isdisjoint(halts | may):
                    may.add(name)
                    grown = True
        return frozenset(may)

    def _marked(self) -> frozenset:
        markers = set(_MARKERS)
        grown = True
        while grown:                   # ATTRIB_NORET -> __attribute__((noreturn))
            grown = False
            for macro, words in self._spellings.items():
                if macro not in markers and words & markers:
                    markers.add(macro)
                    grown = True
        marked = {name for name, words, _ in self._declared if words & markers}
        plain = {name for name, words, _ in self._declared if not words & markers}
        return frozenset(marked - plain)


def defined_words(body: str) -> list[str]:
    """The names a #define's BODY uses."""
    return _WORD.findall(body)


def _declared_function(tokens: list[Token]) -> str | None:
    """The name a function declaration declares: the first name followed by
    `(` that is not an attribute (None for a typedef, a variable, a type)."""
    i = 0
    while i < len(tokens) - 1:
        token = tokens[i]
        if token.text in ("typedef", "=") and token.kind != "string":
            return None
        if token.kind == "ident" and tokens[i + 1].is_("("):
            if token.text in _TYPES:
                return None            # void (*fp)(void): a pointer, not a function
            if token.text not in _NOT_NAMES:
                return token.text
            depth = 0
            for j in range(i + 1, len(tokens)):
                depth += tokens[j].is_("(") - tokens[j].is_(")")
                if depth == 0:
                    i = j
                    break
        i += 1
    return None

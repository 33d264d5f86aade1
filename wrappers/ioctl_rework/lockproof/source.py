"""A C file as the prover sees it: functions, #if branches and macros.

A Unit holds the code tokens of one file, the #if stack of each, and
every #define and #undef (of the file and of the headers it includes
with `#include "x.h"`, found next to the including file, recursively),
to be expanded where a function uses them.  A function whose body holds
#if branches is seen once per configuration of their conditions
(conditionals.py), and so is a macro defined differently in different
branches.  expanders.py chooses how a file is read: this way, or from
the preprocessor's output.
"""

import itertools
import re
from dataclasses import dataclass

from ioctl_rework.lockproof.conditionals import Group, condition, include_guard, live
from ioctl_rework.lockproof.headers import HeaderReader
from ioctl_rework.lockproof.lexer import LexError, Token, directive, tokenize
from ioctl_rework.lockproof.macros import ArityError, Macro, MacroError, expand, parse_define

# Beyond this many conditions in one function, the configurations are too
# many to walk (2**N); the function is refused rather than half-proved.
MAX_CONDITIONS = 6
_MAX_INCLUDE_DEPTH = 8


class SourceError(ValueError):
    """Source the prover cannot read: the reason says where and why."""


class MacroEvent:
    """A #define or #undef (no text) of a name, and where; the definition is
    read when a use needs it (most macros of a file are never used in its
    handlers)."""

    __slots__ = ("position", "stack", "_text", "_line", "_file", "_macro")

    def __init__(self, position: int, stack: tuple, text: str | None = None, line: int = 0,
                 file: str = ""):
        self.position = position   # index of the first code token after it
        self.stack = stack
        self._text, self._line, self._file = text, line, file
        self._macro = None

    @property
    def macro(self) -> Macro | None:
        if self._text is None:
            return None
        if self._macro is None:
            try:
                self._macro = parse_define(self._text, self._line, self._file)
            except MacroError as err:
                raise SourceError(f"{self._file or 'the file'}: {err}") from err
        return self._macro


_DEFINED_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Definition:
    """A function definition: token indexes of its name, `{` and `}`."""

    name: str
    at: int
    params: tuple[int, int]       # ( and )
    open: int
    close: int
    static: bool = False


class ImpossibleConfiguration(Exception):
    """A configuration in which the function does not compile."""


class NeedConditions(Exception):
    """A macro whose definition depends on conditions not yet chosen."""

    def __init__(self, atoms: set[str]):
        super().__init__(sorted(atoms))
        self.atoms = atoms


class Unit:
    """The code tokens of one file with their #if stacks and macros."""

    def __init__(self, rel: str, text: str, headers: "HeaderReader | None" = None):
        self.rel = rel
        try:
            raw = tokenize(text)
        except LexError as err:
            raise SourceError(f"{rel}: {err}") from err
        self.tokens: list[Token] = []
        self.stacks: list[tuple] = []
        self.groups: dict[tuple, Group] = {}
        self.events: dict[str, list[MacroEvent]] = {}
        self.depths: list[int] = []    # brace depth before each token
        self._read(raw, headers, rel, ())

    # -- reading ---------------------------------------------------------

    def _read(self, raw: list[Token], headers, file: str, include_stack: tuple) -> None:
        stack: list[tuple] = []        # (group key, branch)
        saved: list[list] = []         # per open group: [depth at #if, depth after first branch]
        depth = 0
        guard = include_guard(raw) if file != self.rel else None
        counter = itertools.count()
        main = file == self.rel
        tokens, stacks, depths = self.tokens, self.stacks, self.depths
        here: tuple = ()               # tuple(stack), rebuilt only at directives
        for token in raw:
            kind = token.kind
            if kind != "directive":
                if main:
                    tokens.append(token)
                    stacks.append(here)
                    depths.append(depth)
                    if kind == "punct":
                        text = token.text
                        if text == "{":
                            depth += 1
                        elif text == "}":
                            depth -= 1
                continue
            keyword, rest = directive(token)
            if keyword in ("if", "ifdef", "ifndef"):
                key = (file, next(counter))
                group = Group([condition(keyword, rest)])
                group.always_first = guard is not None and token is guard
                self.groups[key] = group
                stack.append((key, 0))
                saved.append([depth, None])
            elif keyword in ("elif", "else") and stack:
                key, branch = stack[-1]
                group = self.groups[key]
                if saved[-1][1] is None and live(group, branch):
                    saved[-1][1] = depth
                depth = saved[-1][0]
                group.conditions.append(condition("if", rest) if keyword == "elif" else None)
                stack[-1] = (key, branch + 1)
            elif keyword == "endif" and stack:
                key, branch = stack.pop()
                at_if, first_end = saved.pop()
                if first_end is not None:
                    depth = first_end
                elif not live(self.groups[key], branch):
                    depth = at_if          # only dead branches: as if empty
            elif keyword == "define":
                name = _DEFINED_NAME.match(rest)
                if name is None:
                    raise SourceError(f"{file}:{token.line}: cannot read #define {rest[:40]}")
                self._event(name.group(), MacroEvent(len(self.tokens), tuple(stack), rest,
                                                     token.line, "" if main else file))
            elif keyword == "undef" and rest:
                self._event(rest.split()[0], MacroEvent(len(self.tokens), tuple(stack)))
            elif keyword == "include" and headers is not None:
                quoted = re.match(r'"([^"]+)"', rest)
                if quoted and len(include_stack) < _MAX_INCLUDE_DEPTH:
                    found = headers.read(file, quoted.group(1), include_stack)
                    if found is not None:
                        path, header_raw = found
                        self._read_header(header_raw, headers, path,
                                          include_stack + (path,), tuple(stack))
            here = tuple(stack)

    def _read_header(self, raw, headers, path, include_stack, outer) -> None:
        position = len(self.tokens)
        sub = Unit.__new__(Unit)
        sub.rel, sub.tokens, sub.stacks, sub.groups, sub.events, sub.depths = \
            "", [], [], self.groups, {}, []
        sub._read(raw, headers, path, include_stack)
        for name, events in sub.events.items():
            for event in events:
                moved = MacroEvent(position, outer + event.stack, event._text, event._line,
                                   event._file)
                self._event(name, moved)

    def _event(self, name: str, event: MacroEvent) -> None:
        self.events.setdefault(name, []).append(event)

    # -- functions -------------------------------------------------------

    def unbalanced(self) -> int | None:
        """The first line where more braces close than opened, if any."""
        for i, depth in enumerate(self.depths):
            if depth < 0:
                return self.tokens[i].line
        return None

    def definitions(self, name: str) -> list[Definition]:
        found = []
        tokens, depths = self.tokens, self.depths
        for i, token in enumerate(tokens):
            if token.text != name or token.kind != "ident" or depths[i] != 0:
                continue
            if i + 1 >= len(tokens) or not tokens[i + 1].is_("("):
                continue
            if i and (tokens[i - 1].is_(".") or tokens[i - 1].is_("->")):
                continue
            if self._dead(self.stacks[i]):
                continue
            close = _matching(tokens, i + 1)
            if close is None:
                continue
            k = close + 1
            # Attributes after the parameters, and K&R parameter declarations.
            while k < len(tokens) and not tokens[k].is_("{") and not tokens[k].is_(";") \
                    and not tokens[k].is_("=") and not tokens[k].is_(",") \
                    and depths[k] == 0:
                k += 1
            if k >= len(tokens) or not tokens[k].is_("{"):
                continue
            end = next((j for j in range(k + 1, len(tokens))
                        if tokens[j].is_("}") and depths[j] == 1), None)
            if end is None:
                raise SourceError(f"{self.rel}:{token.line}: the body of {name} does not end")
            found.append(Definition(name, i, (i + 1, close), k, end, self._static(i)))
        return found

    def enclosing(self, index: int) -> Definition | None:
        """The function definition whose body holds token INDEX."""
        j = index
        while j >= 0 and not (self.depths[j] == 0 and self.tokens[j].is_("{")):
            j -= 1
        k = j - 1
        while k >= 0 and not self.tokens[k].is_(")") and self.depths[k] == 0 and \
                self.tokens[k].kind == "ident":
            k -= 1                     # attributes after the parameters
        if j < 0 or k < 1 or not self.tokens[k].is_(")"):
            return None
        depth, m = 0, k
        while m >= 0:
            depth += self.tokens[m].is_(")") - self.tokens[m].is_("(")
            if depth == 0:
                break
            m -= 1
        if m < 1 or self.tokens[m - 1].kind != "ident":
            return None
        found = [d for d in self.definitions(self.tokens[m - 1].text) if d.open == j]
        return found[0] if found and found[0].close >= index else None

    def _static(self, at: int) -> bool:
        """Whether the declaration specifiers before token AT say static."""
        j = at - 1
        while j >= 0 and self.depths[j] == 0 and not (self.tokens[j].text in (";", "}", "{")
                                                      and self.tokens[j].kind == "punct"):
            if self.tokens[j].text == "static":
                return True
            j -= 1
        return False

    def _dead(self, stack) -> bool:
        """Whether a stack is in a branch no configuration compiles (#if 0)."""
        for key, branch in stack:
            taken = self.groups[key].taken({})
            if taken is not None and taken != branch:
                return True
        return False

    def span_groups(self, definition: Definition) -> tuple[dict, set]:
        """(groups fixed by where DEFINITION is: key -> branch, groups inside it)."""
        fixed = dict(self.stacks[definition.at])
        inner = set()
        for i in range(definition.at, definition.close + 1):
            for key, _branch in self.stacks[i]:
                if key not in fixed:
                    inner.add(key)
        return fixed, inner

    def facts(self, fixed: dict) -> dict[str, bool]:
        """Atom values implied by the branches the definition is in."""
        facts: dict[str, bool] = {}
        for key, branch in fixed.items():
            group = self.groups[key]
            if group.always_first:
                continue
            for index, cond in enumerate(group.conditions[:branch + 1]):
                if cond is None or cond.atom is None:
                    continue
                facts.setdefault(cond.atom, cond.polarity if index == branch
                                 else not cond.polarity)
        return facts

    def atoms(self, definition: Definition) -> set[str]:
        fixed, inner = self.span_groups(definition)
        found = set()
        for key in inner:
            found |= self.groups[key].atoms()
        return found - set(self.facts(fixed))

    def view(self, definition: Definition, config: dict[str, bool],
             part: tuple[int, int]) -> list[Token]:
        """Tokens PART (first, last index) of DEFINITION under CONFIG, expanded."""
        fixed, inner = self.span_groups(definition)
        config = {**self.facts(fixed), **config}
        kept = []
        for i in range(part[0], part[1] + 1):
            if all(self._keeps(key, branch, fixed, inner, config)
                   for key, branch in self.stacks[i]):
                kept.append((i, self.tokens[i]))
        if not self.events:
            return [t for _, t in kept]
        position = {id(t): i for i, t in kept}

        def lookup(name: str, token: Token) -> Macro | None:
            events = self.events.get(name)
            if not events:
                return None
            # A token out of an expansion is looked up where the outermost use was.
            at = position.get(id(token), definition.at)
            return self._resolve(name, events, at, fixed, config)

        try:
            return expand([t for _, t in kept], lookup)
        except ArityError as err:
            raise ImpossibleConfiguration(str(err)) from err
        except MacroError as err:
            raise SourceError(f"{self.rel}: {err}") from err

    def _keeps(self, key, branch, fixed, inner, config) -> bool:
        if key in fixed:
            # The definition is in that branch; the others are another one.
            return fixed[key] == branch
        if key in inner:
            taken = self.groups[key].taken(config)
            if taken is None:
                raise NeedConditions(self.groups[key].atoms() - set(config))
            return taken == branch
        return True

    def _resolve(self, name, events, at, fixed, config) -> Macro | None:
        possible: list[MacroEvent] = []
        final: MacroEvent | None = None
        unknown: set[str] = set()
        for event in reversed(events):
            if event.position > at:
                continue
            state = self._active(event.stack, fixed, config)
            if state is False:
                continue
            if state is True:
                final = event
                break
            possible.append(event)
            unknown |= state
        candidates = possible + ([final] if final else [])
        bodies = {(e.macro.params, e.macro.variadic, e.macro.text) if e.macro else None
                  for e in candidates}
        if final is None:
            bodies.discard(None)   # a macro the code uses is defined where it compiles
            defined = [e for e in candidates if e.macro]
        else:
            defined = candidates
        if len(bodies) > 1:
            raise NeedConditions(unknown)
        if not defined:
            return None
        return defined[-1].macro if final is None else final.macro

    def _active(self, stack, fixed, config):
        """True, False, or the set of atoms that would decide."""
        unknown: set[str] = set()
        for key, branch in stack:
            if key in fixed:
                if fixed[key] != branch:
                    return False
                continue
            taken = self.groups[key].taken(config)
            if taken is None:
                unknown |= self.groups[key].atoms() - set(config)
            elif taken != branch:
                return False
        return unknown or True


def _matching(tokens: list[Token], open_at: int) -> int | None:
    depth = 0
    for j in range(open_at, len(tokens)):
        if tokens[j].is_("("):
            depth += 1
        elif tokens[j].is_(")"):
            depth -= 1
            if depth == 0:
                return j
    return None

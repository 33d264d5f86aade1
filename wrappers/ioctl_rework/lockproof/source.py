"""A C file as the prover sees it: functions, #if branches and macros.

A Unit holds the code tokens of one file, the #if stack of each, and
every #define and #undef (of the file and of the headers it includes,
found as headers.py finds them, recursively), to be expanded where a
function uses them; a macro of the tree's own headers only where it may
leave the function (a return inside), the others stay calls.  A header
included inside a function body is code of that function.  A function whose body holds
#if branches is seen once per configuration of their conditions
(conditionals.py), and so is a macro defined differently in different
branches.  expanders.py chooses how a file is read: this way, or from
the preprocessor's output.
"""

import itertools
import re
from dataclasses import dataclass

from ioctl_rework.lockproof import constant_names
from ioctl_rework.lockproof.conditionals import Group, condition, include_guard, live
from ioctl_rework.lockproof.headers import MAX_HEADERS, HeaderReader
from ioctl_rework.lockproof.lexer import LexError, Token, directive, tokenize
from ioctl_rework.lockproof.macros import ArityError, Macro, MacroError, expand, parse_define
from ioctl_rework.lockproof.noreturn import Declarations, Halting

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

    __slots__ = ("position", "stack", "_text", "_line", "_file", "_macro", "system")

    def __init__(self, position: int, stack: tuple, text: str | None = None, line: int = 0,
                 file: str = "", system: bool = False):
        self.position = position   # index of the first code token after it
        self.stack = stack
        self._text, self._line, self._file = text, line, file
        self.system = system       # of the tree's include directories
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
        self._declarations = Declarations()
        self._search = headers.search(rel) if headers is not None else None
        self._system_read: set[str] = set()   # the tree's headers, read once each
        self._exits: dict[str, bool] = {}
        self._constants: constant_names.Names | None = None
        self._functions: frozenset | None = None
        self._read(raw, headers, rel, ())

    @property
    def constants(self) -> constant_names.Names:
        """Names the file and the headers it read define as constants
        (constant_names.py): what code outside the lock may read."""
        if self._constants is None:
            self._constants = constant_names.Names(self._macros_of, self.tokens)
        return self._constants

    def _macros_of(self, name: str) -> list | None:
        """Each definition read of NAME (None for an #undef or one that
        cannot be read), or None when it is never defined."""
        events = self.events.get(name)
        if not events:
            return None
        try:
            return [e.macro for e in events]
        except SourceError:
            return [None]

    def reads(self, name: str) -> bool:
        """Whether NAME is a macro, a function declared or defined, or a
        variable declared at top level, in the file or the headers it read."""
        if self._functions is None:
            self._functions = frozenset(n for n, _, _ in self._declarations.declared) | \
                self._declarations.variables
        return name in self.events or name in self._functions

    @property
    def noreturn(self) -> Halting:
        """What halts, as declared or defined in the file and the headers it read."""
        return self._declarations.halting

    # -- reading ---------------------------------------------------------

    def _read(self, raw: list[Token], headers, file: str, include_stack: tuple,
              prefix: tuple = (), depth: int = 0, code_line: int | None = None) -> int:
        """Read RAW, the tokens of FILE; the code tokens are kept for the file
        itself and for a header included inside a function (CODE_LINE: the
        line of its #include, where its code is placed).  Returns the depth."""
        stack: list[tuple] = list(prefix)   # (group key, branch)
        saved: list[list] = []         # per open group: [depth at #if, depth after first branch]
        guard = include_guard(raw) if file != self.rel else None
        counter = itertools.count()
        main = file == self.rel
        code = main or code_line is not None
        tokens, stacks, depths = self.tokens, self.stacks, self.depths
        here: tuple = tuple(stack)     # rebuilt only at directives
        declarations = self._declarations
        for token in raw:
            kind = token.kind
            if kind != "directive":
                if code:
                    tokens.append(token if code_line is None else
                                  Token(kind, token.text, code_line))
                    stacks.append(here)
                    depths.append(depth)
                declarations.token(token, depth)
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
            elif keyword in ("elif", "else") and saved:
                key, branch = stack[-1]
                group = self.groups[key]
                if saved[-1][1] is None and live(group, branch):
                    saved[-1][1] = depth
                depth = saved[-1][0]
                group.conditions.append(condition("if", rest) if keyword == "elif" else None)
                stack[-1] = (key, branch + 1)
            elif keyword == "endif" and saved:
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
                                                     token.line, "" if main else file,
                                                     self._is_system(file)))
                declarations.define(name.group(), rest[name.end():])
            elif keyword == "undef" and rest:
                self._event(rest.split()[0], MacroEvent(len(self.tokens), tuple(stack),
                                                        system=self._is_system(file)))
            elif keyword == "include" and headers is not None and \
                    len(include_stack) < _MAX_INCLUDE_DEPTH:
                depth = self._include(rest, headers, file, include_stack, tuple(stack), depth,
                                      token.line if main else code_line)
            here = tuple(stack)
        return depth

    def _include(self, rest: str, headers, file: str, include_stack: tuple, stack: tuple,
                 depth: int, line: int | None) -> int:
        """`#include REST` in FILE: its macros are read; inside a function of
        the file (DEPTH > 0) its code is the function's too."""
        spelled = re.match(r'"([^"]+)"|<([^>]+)>', rest)
        if spelled is None:
            return depth
        angle = spelled.group(2) is not None
        found = headers.read(file, spelled.group(1) or spelled.group(2), include_stack,
                             self._search, angle)
        if found is None:
            return depth
        path, header_raw = found
        if line is not None and depth > 0:
            return self._read(header_raw, headers, path, include_stack + (path,), stack,
                              depth, line)
        if self._is_system(path):
            # The tree's headers are guarded: read once, and only so many.
            if path in self._system_read or len(self._system_read) >= MAX_HEADERS:
                return depth
            self._system_read.add(path)
        self._read_header(headers.summary(path, header_raw), headers, path,
                          include_stack + (path,), stack)
        return depth

    def _is_system(self, path: str) -> bool:
        return self._search is not None and self._search.is_system(path)

    def _read_header(self, summary, headers, path: str, include_stack: tuple,
                     outer: tuple) -> None:
        """A header included outside a function: only its directives matter
        (its macros, conditions and includes) and the functions it declares."""
        self._declarations.add(summary.declared, summary.variables)
        stack = list(outer)
        opened = 0
        counter = itertools.count()
        position = len(self.tokens)
        system = self._is_system(path)
        for keyword, rest, line, is_guard, cond, name, body, words in summary.directives:
            if keyword in ("if", "ifdef", "ifndef"):
                key = (path, next(counter))
                group = Group([cond])
                group.always_first = is_guard
                self.groups[key] = group
                stack.append((key, 0))
                opened += 1
            elif keyword in ("elif", "else") and opened:
                key, branch = stack[-1]
                self.groups[key].conditions.append(cond)
                stack[-1] = (key, branch + 1)
            elif keyword == "endif" and opened:
                stack.pop()
                opened -= 1
            elif keyword == "define":
                if name is None:
                    raise SourceError(f"{path}:{line}: cannot read #define {rest[:40]}")
                self._event(name, MacroEvent(position, tuple(stack), rest, line, path,
                                             system))
                self._declarations.define(name, body, words)
            elif keyword == "undef" and rest:
                self._event(rest.split()[0], MacroEvent(position, tuple(stack), system=system))
            elif keyword == "include" and len(include_stack) < _MAX_INCLUDE_DEPTH:
                self._include(rest, headers, path, include_stack, tuple(stack), 0, None)

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
            if events[0].system and all(e.system for e in events) and \
                    not self._hides_exit(name) and \
                    not self._exit_in_arguments(position.get(id(token))):
                # A macro of the tree's headers that cannot leave the function
                # stays a call: expanding every one would make the reading
                # depend on the whole configuration of the tree.
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

    def _hides_exit(self, name: str) -> bool:
        """Whether a definition of macro NAME, or of a macro it uses, may
        leave the function that uses it (return, goto, or a break or
        continue outside a loop or switch of its own)."""
        if name not in self._exits:
            self._exits[name] = False         # a recursive use adds nothing
            bodies = [e.macro.body for e in self.events.get(name, ()) if e.macro]
            self._exits[name] = any(
                _leaves(body) or any(t.kind == "ident" and t.text != name and
                                     t.text in self.events and self._hides_exit(t.text)
                                     for t in body)
                for body in bodies)
        return self._exits[name]

    def _exit_in_arguments(self, index: int | None) -> bool:
        """Whether the arguments of the macro used at token INDEX of the file
        hold an exit (`snd_assert(p, return -EINVAL)`)."""
        if index is None or index + 1 >= len(self.tokens) or \
                not self.tokens[index + 1].is_("("):
            return False
        close = _matching(self.tokens, index + 1)
        return any(t.kind == "ident" and t.text in _EXITS
                   for t in self.tokens[index + 2:close if close is not None else None])

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


_EXITS = frozenset({"return", "goto", "break", "continue"})
_LOOPS = frozenset({"for", "while", "do", "switch"})


def _leaves(body: tuple[Token, ...]) -> bool:
    """Whether a macro body may leave the function it is used in: a return
    or goto anywhere, a break or continue not inside a loop or switch of
    the body (`do { ... break; } while (0)` stays inside)."""
    depth, loops = 0, []              # brace depth at each loop or switch keyword
    for token in body:
        if token.kind == "ident":
            if token.text in ("return", "goto"):
                return True
            if token.text in _LOOPS:
                loops.append(depth)
            elif token.text in ("break", "continue") and not any(d < depth for d in loops):
                return True
        elif token.is_("{"):
            depth += 1
        elif token.is_("}"):
            depth -= 1
            loops = [d for d in loops if d < depth]
    return False


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

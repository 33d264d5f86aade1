"""Whether a use of a macro may form, by token pasting (##), a name that
calls through ->ioctl: the token ioctl itself, or the name of a macro that
may spell it (the pasted result is rescanned for macros).

Read as the preprocessor reads it: `a ## b` joins the spellings of its
operands, never expanded first; an argument used elsewhere in a body is
expanded before it is substituted, so `__PASTE(a, b) ___PASTE(a, b)` pastes
what its arguments expand to (the kernel's __UNIQUE_ID and ___ADDRESSABLE
chain).  A spelling is a regular expression: a fixed piece is itself,
what no reading fixes (a parameter of the macro asked about, an argument
of several tokens, an expansion not followed) is `\\w*`.  A paste is
harmless only where its spelling cannot be "ioctl" and can be the name of
no macro that may spell ioctl among the macros read; where the headers
were not all read, no name can be excluded (default-deny)."""

import bisect
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from ioctl_rework.ctext import spans
from ioctl_rework.ctext.macro_forwarding import DEFINE

ANY = r"\w*"
NOTHING = r"(?!)"
DIGITS = r"\d+"
_CHAIN = re.compile(r"\w*(?:\s*##\s*\w*)+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# What the preprocessor replaces by a number of its own.
_COUNTERS = {"__COUNTER__", "__LINE__"}
# Expansion deeper than this is not followed: unprovable.
_DEPTH = 64


@dataclass(frozen=True)
class Macro:
    params: tuple[str, ...] | None     # None: an object-like macro
    body: str                          # code only, continuations joined
    variadic: bool = False             # its last parameter takes the rest


@dataclass(frozen=True)
class Argument:
    raw: str        # the spelling pasted where the macro pastes it
    expanded: str   # the spelling of its expansion, where it is substituted
    # The name its expansion may end with, rescanned with what follows it
    # where substituted (`p(f, 1, 0)` given STACK_PASS calls it).
    tail: str = ANY
    # Of several tokens: the first and the last, the only ones a ## joins
    # (`E1000_##R` given `RA + 4` pastes E1000_RA); None: one token, RAW.
    first: str | None = None
    last: str | None = None
    # The same once expanded: what a macro it is handed to pastes.
    expanded_first: str | None = None
    expanded_last: str | None = None


UNKNOWN = Argument(ANY, ANY)
# `M()` or `M("GPL")` (literals are blanked): one argument, no name.
EMPTY = Argument("", "", NOTHING)


def macros_of(code: str) -> dict[str, list[Macro]]:
    """Name -> every #define of it in CODE (comments and literals blanked)."""
    found: dict[str, list[Macro]] = {}
    code, _ = _translated(code)
    for match in DEFINE.finditer(code):
        params, listed = None, []
        if match.group(2) is not None:
            listed = [p.strip() for p in match.group(3).split(",") if p.strip()]
            params = tuple(_parameter_name(p) for p in listed)
        found.setdefault(match.group(1), []).append(
            Macro(params, match.group(4).strip(),
                  bool(listed) and listed[-1].endswith("...")))
    return found


def pastes_of(texts: dict[str, str], complete: bool,
              table: "MacroTable | None" = None) -> "Pastes":
    """The Pastes of the macros of TEXTS (path -> text: a file and every
    header it reaches).  TABLE keeps each text's macros, and who names whom
    among them, for the next call: a header many files reach is read once."""
    table = MacroTable() if table is None else table
    versions = [table.add(path, text) for path, text in texts.items()]
    return Pastes(_Definitions(table, versions), complete, *table.closures(versions))


class MacroTable:
    """The macros of every text added, each read once: name -> where it is
    defined, and which macros paste or may spell ioctl, through any depth
    of one naming another (Pastes.pasting and .reaching).  A file's
    closures are walked over the texts it reaches alone: a macro of a
    header another file reaches is never one of its."""

    def __init__(self):
        self._versions: dict[tuple[str, str], int] = {}    # (path, text) -> its number
        self.definitions: dict[str, list[tuple[int, list[Macro]]]] = {}
        self._macros: list[dict[str, list[Macro]]] = []    # number -> name -> definitions
        self._seeds: list[tuple[set[str], set[str]]] = []  # number -> (pastes, may spell ioctl)
        # word -> (number, macro naming it), only where both may be in a
        # closure: built when first asked, again after a text is added.
        self._users: dict[str, list[tuple[int, str]]] | None = None

    def add(self, path: str, text: str) -> int:
        """The number of PATH's TEXT, its macros read the first time."""
        key = (path, text)
        if key not in self._versions:
            number = self._versions[key] = len(self._macros)
            macros = macros_of(_code_of(text))
            self._macros.append(macros)
            self._seeds.append(tuple({name for name, defs in macros.items()
                                      if any(seed(m) for m in defs)}
                                     for seed in (_pastes, _may_spell_ioctl)))
            for name, defs in macros.items():
                self.definitions.setdefault(name, []).append((number, defs))
            self._users = None
        return self._versions[key]

    def closures(self, versions: list[int]) -> tuple[set[str], set[str]]:
        """The macros of VERSIONS that paste, and those that may spell
        ioctl, or name one that does, through any depth."""
        users = self._closure_users()
        present = set(versions)
        found = []
        for kind in (0, 1):
            todo = [name for number in versions for name in self._seeds[number][kind]]
            closure = set(todo)
            while todo:
                for number, user in users.get(todo.pop(), ()):
                    if number in present and user not in closure:
                        closure.add(user)
                        todo.append(user)
            found.append(closure)
        return found[0], found[1]

    def _closure_users(self) -> dict[str, list[tuple[int, str]]]:
        """Who names whom, among the macros that are in a closure of every
        text added (a file's closure is within it: it reads fewer)."""
        if self._users is not None:
            return self._users
        naming: dict[str, set[str]] = {}
        for macros in self._macros:
            for name, defs in macros.items():
                for macro in defs:
                    for word in _words(macro):
                        naming.setdefault(word, set()).add(name)
        widest: set[str] = set()
        for kind in (0, 1):
            todo = [name for seeds in self._seeds for name in seeds[kind]]
            closure = set(todo)
            while todo:
                for user in naming.get(todo.pop(), ()):
                    if user not in closure:
                        closure.add(user)
                        todo.append(user)
            widest |= closure
        self._users = {}
        for number, macros in enumerate(self._macros):
            for name in widest.intersection(macros):
                for word in {w for macro in macros[name] for w in _words(macro)} & widest:
                    self._users.setdefault(word, []).append((number, name))
        return self._users


class _Definitions(Mapping):
    """Name -> its definitions in the texts VERSIONS of TABLE, in their
    order: a file's macros, looked up when asked."""

    def __init__(self, table: MacroTable, versions: list[int]):
        self._table = table
        self._rank = {number: rank for rank, number in enumerate(versions)}
        self._found: dict[str, list[Macro]] = {}

    def __getitem__(self, name: str) -> list[Macro]:
        if name not in self._found:
            held = sorted((self._rank[number], defs)
                          for number, defs in self._table.definitions.get(name, ())
                          if number in self._rank)
            self._found[name] = [macro for _, defs in held for macro in defs]
        if not self._found[name]:
            raise KeyError(name)
        return self._found[name]

    def __iter__(self):
        return (name for name in self._table.definitions if name in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _code_of(text: str) -> str:
    """TEXT's code as the preprocessor reads its directives: splices
    removed first, then each comment one space (a comment over several
    lines does not end a #define), literals blanked."""
    text = spans.NOT_CODE.sub(lambda m: " " if m.group()[0] == "/" else m.group(),
                              text.replace("\\\n", ""))
    return spans.code_only(text)


def _parameter_name(param: str) -> str:
    if param == "...":
        return "__VA_ARGS__"
    return param[:-3].strip() if param.endswith("...") else param


class Pastes:
    """The pastes of MACROS (name -> its definitions: every header a file
    reaches and the file itself).  COMPLETE: false where a header was left
    unread, so a pasted name may be a macro no reading saw.  PASTING and
    REACHING: MacroTable.closures of those texts."""

    def __init__(self, macros: Mapping[str, list[Macro]], complete: bool,
                 pasting: set[str], reaching: set[str]):
        self.macros = macros
        self.complete = complete
        self.pasting = pasting
        # A pasted name is harmless unless it names one of these.
        self.reaching = reaching
        self._reaching_sorted = sorted(self.reaching)
        self._dangers: dict = {}
        self._values: dict = {}
        self._fits: dict = {}
        self._spelled: dict = {}
        self._open: dict = {}       # key being answered -> the cuts before it
        self._cut: set = set()      # keys being answered read inside

    def sites(self, code: str) -> list[tuple[int, str, str]]:
        """(offset, macro, why) of each use in CODE of a macro that pastes
        a name that may call through ->ioctl, with its arguments there."""
        found = []
        code, splices = _translated(code)
        # A #define's own text expands nothing: its uses are the sites.
        directives = [(d.start(), d.end()) for d in DEFINE.finditer(code)]
        starts = [start for start, _ in directives]
        for use in re.finditer(r"\b[A-Za-z_]\w*\b", code):
            if use.group() not in self.pasting:
                continue
            before = bisect.bisect_right(starts, use.start()) - 1
            if before >= 0 and use.start() < directives[before][1]:
                continue
            why = self._use(code, use.start(), use.end(), {}, 0)
            if why:
                # Where it was written: two characters for each splice before.
                at = use.start() + 2 * bisect.bisect_right(splices, use.start())
                found.append((at, use.group(), why))
        return found

    def _use(self, text: str, start: int, end: int, env: dict, depth: int) -> str:
        """Why the use of a macro at START..END of TEXT (a body whose
        parameters ENV binds) may paste what calls through ->ioctl, or ""."""
        name = text[start:end]
        args = self._arguments(text, end, env, depth)
        if args is None and depth > 0 and _followed_by_a_parameter(text, end, env):
            args = [UNKNOWN] * 64      # what follows the use, or an argument, may call it
        return next((why for macro in self.macros.get(name, ())
                     for why in [self.danger(name, macro, args, depth)] if why), "")

    def _arguments(self, text: str, end: int, env: dict,
                   depth: int) -> list[Argument] | None:
        """The arguments of a call whose name ends at END of TEXT, or None:
        no parenthesis follows."""
        opened = re.match(r"\s*\(", text[end:])
        if not opened:
            return None
        at = end + opened.end() - 1
        close = spans.closing_or_none(text, at, "()")
        if close is None:
            return [UNKNOWN] * 64      # unbalanced here: nothing is fixed
        listed = text[at + 1:close]
        return [self.argument(a, env, depth) for a in spans.split_top_level(listed)] \
            if listed.strip() else []

    def argument(self, text: str, env: dict, depth: int = 0) -> Argument:
        """TEXT as an argument of a call in a body whose parameters ENV
        binds: a parameter there was expanded already (it is beside no ##)."""
        text = text.strip()
        if text in env:
            given = env[text]
            return Argument(given.expanded, given.expanded, given.tail,
                            given.expanded_first, given.expanded_last)
        tail = self._tail(text, env, depth)
        if re.fullmatch(r"\w+", text):
            return Argument(re.escape(text), self._expanded_name(text, depth), tail)
        if _CHAIN.fullmatch(text):
            spelled = self._chain(text, env)
            return Argument(ANY, spelled if not self._names(spelled) else ANY, tail)
        tokens = re.findall(r"\w+|\S", text)
        edges = (_edge(tokens[0], env), _edge(tokens[-1], env),
                 self._expanded_edge(tokens[0], env, depth),
                 self._expanded_edge(tokens[-1], env, depth)) if tokens else ()
        call = re.fullmatch(r"([A-Za-z_]\w*)\s*\((.*)\)", text, re.S)
        if call and spans.closing_or_none(text, call.start(2) - 1, "()") == len(text) - 1:
            value = self._value(call.group(1), self._arguments(
                text, call.end(1), env, depth + 1), depth + 1)
            # Expanded, it is one name where VALUE fixes one: both its edges.
            return Argument(ANY, value, tail, *edges[:2], value, value)
        return Argument(ANY, ANY, tail, *edges)

    def _expanded_edge(self, token: str, env: dict, depth: int) -> str:
        """The spelling TOKEN, the first or last of an argument, has once
        the argument is expanded (a macro: what it expands to, if a name)."""
        if token in env:
            return env[token].expanded
        return self._expanded_name(token, depth) if re.fullmatch(r"\w+", token) else ANY

    def _tail(self, text: str, env: dict, depth: int) -> str:
        """The name TEXT (in a body whose parameters ENV binds) may end with
        once expanded, rescanned with what follows it: a name, a paste, or
        what a macro call there ends with; NOTHING where it ends otherwise
        (a literal, a bracket, a function's call)."""
        text = text.strip()
        if depth > _DEPTH:
            return ANY
        if text in env:
            return env[text].tail
        pasted = re.search(r"(?:\w+\s*##\s*)+\w+$", text)
        if pasted:
            return self._chain(pasted.group(), env)
        word = re.search(r"\w+$", text)
        if word:
            before = text[:word.start()].rstrip()
            if before.endswith("#") and not before.endswith("##"):
                return NOTHING                  # stringized
            return env[word.group()].tail if word.group() in env else self._tail_name(word.group())
        if not text.endswith(")"):
            return NOTHING
        opened = spans.opening(text, len(text) - 1)
        called = re.search(r"([A-Za-z_]\w*)\s*$", text[:opened]) if opened is not None else None
        if opened is None or called and called.group(1) in env:
            return ANY
        if not called or called.group(1) not in self.macros:
            return NOTHING if self.complete or not called else ANY
        args = self._arguments(text, called.end(1), env, depth + 1)
        tails = set()
        for macro in self.macros[called.group(1)]:
            inner = _bind(macro, args)
            tails.add(ANY if inner is None or macro.params is None
                      else self._tail(macro.body, inner, depth + 1))
        return tails.pop() if len(tails) == 1 else ANY

    def _tail_name(self, name: str) -> str:
        """What NAME may end with once expanded: itself where it may be a
        macro (one that may call through ->ioctl is a candidate of it)."""
        if name in _COUNTERS or name[0].isdigit():
            return NOTHING
        return re.escape(name) if self.complete or name in self.macros else ANY

    def _expanded_name(self, name: str, depth: int) -> str:
        if name in _COUNTERS:
            return DIGITS
        if name not in self.macros:
            return re.escape(name) if self.complete or name[0].isdigit() else ANY
        return self._value(name, None, depth)

    def _value(self, name: str, args: list[Argument] | None, depth: int) -> str:
        """The spelling NAME(ARGS) expands to where it is one name (ANY
        where it may be anything else)."""
        if depth > _DEPTH:
            return ANY
        key = (name, tuple(args) if args is not None else None)
        if key not in self._values:
            self._values[key] = ANY            # a macro is not expanded inside itself
            spellings = set()
            for macro in self.macros.get(name, ()):
                env = _bind(macro, args)
                if env is None:
                    spellings.add(ANY)
                    continue
                body = macro.body
                if body in env:
                    spellings.add(env[body].expanded)
                elif _CHAIN.fullmatch(body):
                    spelled = self._chain(body, env)
                    spellings.add(spelled if not self._names(spelled) else ANY)
                else:
                    spellings.add(self.argument(body, env, depth + 1).expanded
                                  if body and body not in env else ANY)
            self._values[key] = spellings.pop() if len(spellings) == 1 else ANY
        return self._values[key]

    def danger(self, name: str, macro: Macro, args: list[Argument] | None,
               depth: int = 0) -> str:
        """Why MACRO (a definition of NAME) used with ARGS (None: no
        parenthesis followed) may paste what calls through ->ioctl, or ""."""
        if macro.params is not None and args is None:
            return ""                   # a function-like macro's name alone
        if depth > _DEPTH:
            return f"expands {name} deeper than {_DEPTH} macros"
        env = _bind(macro, args)
        if env is None:
            env = {p: UNKNOWN for p in macro.params or ()}
        key = (name, macro, tuple(sorted(env.items())))
        recalled = self._recall(self._dangers, key, "")
        if recalled is not None:
            return recalled
        why = self._pasted(name, macro, env, depth) or \
            self._called_parameter(name, macro, env, depth)
        if not why:
            for use in re.finditer(r"\b[A-Za-z_]\w*\b", macro.body):
                inner = use.group()
                if inner in self.pasting and inner not in env and inner != name and \
                        not _pasted_at(macro.body, use.start(), use.end()):
                    why = self._use(macro.body, use.start(), use.end(), env, depth + 1)
                    if why:
                        break
        return self._keep(self._dangers, key, why)

    def _chain(self, chain: str, env: dict) -> str:
        """The spelling of the paste CHAIN in a body whose parameters ENV binds."""
        pieces = re.split(r"\s*##\s*", chain.strip())
        return "".join(_pasted_spelling(env[p], i, len(pieces)) if p in env
                       else re.escape(p) if p else ANY for i, p in enumerate(pieces))

    def _pasted(self, name: str, macro: Macro, env: dict, depth: int) -> str:
        """Why a paste in the body of MACRO (a definition of NAME, its
        parameters bound by ENV) may form what calls through ->ioctl, or ""."""
        for chain in _CHAIN.finditer(macro.body):
            runs = _joined(chain.group())
            for index, pasted in enumerate(runs):
                # The pasted name is rescanned with what follows it: the
                # arguments written after the chain (after the last run only;
                # none written: the text after the use may give any).
                args = self._arguments(macro.body, chain.end(), env, depth + 1) \
                    if index == len(runs) - 1 else None
                why = self._named(self._chain(pasted, env), pasted, name, args, depth)
                ending = re.split(r"\s*##\s*", pasted.strip())[-1]
                if not why and index == len(runs) - 1 and ending in env and \
                        env[ending].first is not None:
                    # Its other tokens follow the pasted one, the last rescanned
                    # with those arguments (`E1000_##R (f, 1, 0)`, R `RA + FWD`).
                    named = self._spelling_macro(env[ending].tail, args, depth)
                    why = named and (f"pastes {pasted.strip()} in {name}, whose argument may "
                                     f"end with {named}, a macro that may spell ioctl")
                if why:
                    return why
        return ""

    def _named(self, spelled: str, chain: str, name: str,
               args: list[Argument] | None, depth: int) -> str:
        """Why a paste spelled SPELLED (CHAIN in NAME), called with ARGS,
        may call through ->ioctl, or ""."""
        if re.fullmatch(spelled, "ioctl"):
            return f"pastes {chain.strip()} in {name}, which may spell ioctl"
        # A macro that may spell ioctl in general is judged by what it is
        # given here (param_check_ ## type: param_check_int(name, p)).
        named = self._spelling_macro(spelled, args, depth)
        return named and (f"pastes {chain.strip()} in {name}, which may name {named}, "
                          "a macro that may spell ioctl")

    def _spelling_macro(self, spelled: str, args: list[Argument] | None, depth: int) -> str:
        """The first macro whose name SPELLED may be that, called with ARGS,
        may call through ->ioctl (one of a header not read may), or ""."""
        return next((named for named in self._candidates(spelled)
                     if named not in self.macros or self._spells(named, args, depth + 1)), "")

    def _spells(self, name: str, args: list[Argument] | None, depth: int) -> bool:
        """Whether NAME used with ARGS (None: none written, so any) may
        expand to a call through ->ioctl: its body names ioctl, takes a
        member named by an argument that may be ioctl, pastes such a name,
        or uses a macro that may."""
        if depth > _DEPTH:
            return True
        key = (name, tuple(args) if args is not None else None)
        recalled = self._recall(self._spelled, key, False)
        if recalled is not None:
            return recalled
        found = False
        for macro in self.macros.get(name, ()):
            env = _bind(macro, args)
            if env is None:
                env = {p: UNKNOWN for p in macro.params or ()}
            found = _names_ioctl(macro.body) or any(
                p in macro.body and re.search(r"(?:->|\.)\s*%s\b" % re.escape(p), macro.body)
                and any(re.fullmatch(s, "ioctl") for s in _member_spellings(env[p]))
                for p in env) or bool(self._pasted(name, macro, env, depth))
            found = found or bool(self._called_parameter(name, macro, env, depth))
            if not found:
                for use in _IDENTIFIER.finditer(macro.body):
                    inner = use.group()
                    if inner in self.reaching and inner not in env and inner != name and \
                            not _pasted_at(macro.body, use.start(), use.end()) and \
                            self._spells(inner, self._arguments(macro.body, use.end(), env,
                                                                depth + 1), depth + 1):
                        found = True
                        break
            if found:
                break
        return self._keep(self._spelled, key, found)

    def _recall(self, cache: dict, key, inside):
        """CACHE's answer for KEY; INSIDE where KEY is being answered (a
        macro is not expanded inside itself); None where it is to be
        answered now."""
        if key in cache:
            return cache[key]
        if (id(cache), key) in self._open:
            self._cut.add((id(cache), key))
            return inside
        self._open[(id(cache), key)] = self._cut
        self._cut = set()
        return None

    def _keep(self, cache: dict, key, answer):
        """ANSWER for KEY, kept in CACHE unless it read INSIDE for a key
        still being answered: that key, asked first, expands what it cut."""
        cut = self._cut - {(id(cache), key)}
        self._cut = self._open.pop((id(cache), key)) | cut
        if not cut:
            cache[key] = answer
        return answer

    def _called_parameter(self, name: str, macro: Macro, env: dict, depth: int) -> str:
        """Why a parameter of MACRO (a definition of NAME, its parameters
        bound by ENV) rescanned with the parentheses after it (in the body,
        or after the use where it ends the body) may name a macro that may
        call through ->ioctl there, or ""."""
        for use in _IDENTIFIER.finditer(macro.body):
            param = use.group()
            if param not in env or _pasted_at(macro.body, use.start(), use.end()) or \
                    env[param].tail == NOTHING:
                continue
            if _VOID_LIST.match(macro.body, use.end()):
                continue                # `name(void)`: a declarator, never a call
            args = self._arguments(macro.body, use.end(), env, depth + 1)
            if args is None and not _followed_by_a_parameter(macro.body, use.end(), env):
                continue                # followed by no parenthesis: not called
            named = self._spelling_macro(env[param].tail, args, depth)
            if named:
                return (f"calls its parameter {param} in {name}, which may be "
                        f"{named}, a macro that may spell ioctl")
        return ""

    def _names(self, spelled: str) -> str:
        """The first macro that may spell ioctl whose name SPELLED may be
        ("a macro of a header not read" where one was not), or ""."""
        return next(iter(self._candidates(spelled)), "")

    def _candidates(self, spelled: str) -> tuple[str, ...]:
        """Every macro that may spell ioctl whose name SPELLED may be, or
        ("a macro of a header not read",) where a header was not read."""
        if spelled not in self._fits:
            fits = re.compile(spelled).fullmatch
            if not self.complete:
                self._fits[spelled] = ("a macro of a header not read",)
            else:
                fixed = spelled.split("\\")[0]      # the name's start, as written
                self._fits[spelled] = tuple(n for n in self._reaching_sorted
                                            if n.startswith(fixed) and fits(n))
        return self._fits[spelled]


@functools.lru_cache(maxsize=None)
def _words(macro: Macro) -> frozenset[str]:
    return frozenset(_IDENTIFIER.findall(macro.body))


@functools.lru_cache(maxsize=None)
def _pastes(macro: Macro) -> bool:
    return "##" in macro.body


@functools.lru_cache(maxsize=None)
def _may_spell_ioctl(macro: Macro) -> bool:
    """Whether MACRO's body names ioctl, pastes, takes a member by a
    parameter's name (`(l)->f_op->op(...)`: the use may pass ioctl), or
    calls a parameter (`p(f, 1, 0)`: the use may pass a forwarding macro)."""
    if "##" in macro.body or re.search(r"\bioctl\b", macro.body):
        return True
    return any(re.search(r"(?:->|\.)\s*%s\b" % re.escape(p), macro.body) or
               re.search(r"\b%s\s*(?:\(|$)" % re.escape(p), macro.body)
               for p in macro.params or ())


def _member_spellings(argument: Argument) -> tuple[str, ...]:
    """What ARGUMENT, substituted after -> or ., may name as the member: the
    argument's first token, as written and expanded (`COPY(masks[i])` of
    2.6.9's sound/core/ioctl32, `dst->x` given `masks[i]`, names masks);
    all of it where it is one token."""
    if argument.first is None:
        return argument.raw, argument.expanded
    # Handed on from an enclosing macro, FIRST is expanded already.
    return argument.first, argument.first if argument.expanded_first is None \
        else argument.expanded_first


def _translated(code: str) -> tuple[str, list[int]]:
    """CODE as the preprocessor tokenizes it: line splices removed (a
    name or a ## may be split by one) and the digraphs %:%: and %: spelled
    ## and #, with where each splice was in the result."""
    splices = [m.start() - 2 * n for n, m in enumerate(re.finditer(r"\\\n", code))]
    code = code.replace("\\\n", "").replace("%:%:", "  ##").replace("%:", " #")
    return code, splices


# `(void)` is a parameter list only: C has no call whose argument is `void`
# (6.1's __define_initcall_stub declares and defines `int __init __stub(void)`).
_VOID_LIST = re.compile(r"\s*\(\s*void\s*\)")


def _followed_by_a_parameter(body: str, end: int, env: dict) -> bool:
    """Whether what follows END of BODY may still open a call's
    parentheses: the text after the use (BODY ends there) or a parameter
    whose argument may begin with one."""
    rest = body[end:].lstrip()
    word = _IDENTIFIER.match(rest)
    return not rest or bool(word and word.group() in env)


def _edge(token: str, env: dict) -> str:
    """The spelling TOKEN, the first or last of an argument, gives a paste
    (a parameter there was expanded already; a punctuator: unknown)."""
    if not re.fullmatch(r"\w+", token):
        return ANY
    return env[token].expanded if token in env else re.escape(token)


def _pasted_spelling(argument: Argument, index: int, pieces: int) -> str:
    """What ARGUMENT, the piece at INDEX of a paste of PIECES pieces, gives
    the pasted name: its last token where it begins the paste, its first
    where it ends it, all of it in the middle."""
    if index == 0 and argument.last is not None:
        return argument.last
    if index == pieces - 1 and argument.first is not None:
        return argument.first
    return argument.raw


def _joined(chain: str) -> list[str]:
    """The pastes of CHAIN that may form a name: a piece that is no word
    (`, ## __VA_ARGS__`, GNU's comma before no arguments; a bracket) forms
    none with its neighbours, as pasting a punctuator to a word is no token."""
    found, run = [], []
    for piece in re.split(r"\s*##\s*", chain.strip()) + [""]:
        if piece:
            run.append(piece)
            continue
        if len(run) > 1:
            found.append(" ## ".join(run))
        run = []
    return found


def _names_ioctl(body: str) -> bool:
    """Whether BODY names ioctl other than as an operand of ## (a paste is
    read as such)."""
    return any(not _pasted_at(body, m.start(), m.end())
               for m in re.finditer(r"\bioctl\b", body))


def _pasted_at(body: str, start: int, end: int) -> bool:
    """Whether the word at START..END of BODY is an operand of ## (its
    spelling pasted, never expanded: the chain is read as such)."""
    return bool(re.search(r"##\s*$", body[:start]) or re.match(r"\s*##", body[end:]))


def _bind(macro: Macro, args: list[Argument] | None) -> dict | None:
    """Parameter -> Argument of MACRO called with ARGS, or None where they
    do not match its parameters (a variadic call: nothing is fixed)."""
    if macro.params is None:
        return {}
    params = macro.params
    if args == [] and len(params) == 1:
        args = [EMPTY]
    if args is not None and macro.variadic and len(params) - 1 <= len(args) != len(params):
        # What the variadic parameter holds is not followed.
        return dict(zip(params[:-1], args)) | {params[-1]: UNKNOWN}
    if args is None or len(args) != len(params):
        return None
    return dict(zip(params, args))

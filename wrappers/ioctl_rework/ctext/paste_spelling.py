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
from dataclasses import dataclass

from ioctl_rework.ctext import spans
from ioctl_rework.ctext.macro_forwarding import DEFINE

ANY = r"\w*"
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


UNKNOWN = Argument(ANY, ANY)


def macros_of(code: str) -> dict[str, list[Macro]]:
    """Name -> every #define of it in CODE (comments and literals blanked)."""
    found: dict[str, list[Macro]] = {}
    for match in DEFINE.finditer(code):
        params, listed = None, []
        if match.group(2) is not None:
            listed = [p.strip() for p in match.group(3).split(",") if p.strip()]
            params = tuple(_parameter_name(p) for p in listed)
        found.setdefault(match.group(1), []).append(
            Macro(params, match.group(4).replace("\\\n", " ").strip(),
                  bool(listed) and listed[-1].endswith("...")))
    return found


def pastes_of(texts: dict[str, str], complete: bool, read: dict | None = None) -> "Pastes":
    """The Pastes of the macros of TEXTS (path -> text: a file and every
    header it reaches).  READ (path -> its macros) keeps each file's
    macros for the next call with the same texts."""
    read = {} if read is None else read
    macros: dict[str, list[Macro]] = {}
    for path, text in texts.items():
        if path not in read or read[path][0] != text:
            read[path] = (text, macros_of(spans.code_only(text)))
        for name, defs in read[path][1].items():
            macros.setdefault(name, []).extend(defs)
    return Pastes(macros, complete)


def _parameter_name(param: str) -> str:
    if param == "...":
        return "__VA_ARGS__"
    return param[:-3].strip() if param.endswith("...") else param


class Pastes:
    """The pastes of MACROS (name -> its definitions: every header a file
    reaches and the file itself).  COMPLETE: false where a header was left
    unread, so a pasted name may be a macro no reading saw."""

    def __init__(self, macros: dict[str, list[Macro]], complete: bool):
        self.macros = macros
        self.complete = complete
        self._users: dict[str, set[str]] = {}     # name -> the macros naming it
        for name, defs in macros.items():
            for macro in defs:
                for word in _words(macro):
                    self._users.setdefault(word, set()).add(name)
        self.pasting = self._closure(_pastes)
        # A pasted name is harmless unless it names one of these.
        self.reaching = self._closure(_may_spell_ioctl)
        self._reaching_sorted = sorted(self.reaching)
        self._dangers: dict = {}
        self._values: dict = {}
        self._fits: dict = {}
        self._spelled: dict = {}

    def _closure(self, seed) -> set[str]:
        """The macros a definition of which SEED holds, or whose body names
        one of them, through any depth."""
        todo = [name for name, defs in self.macros.items() if any(seed(m) for m in defs)]
        found = set(todo)
        while todo:
            for user in self._users.get(todo.pop(), ()):
                if user not in found:
                    found.add(user)
                    todo.append(user)
        return found

    def sites(self, code: str) -> list[tuple[int, str, str]]:
        """(offset, macro, why) of each use in CODE of a macro that pastes
        a name that may call through ->ioctl, with its arguments there."""
        found = []
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
                found.append((use.start(), use.group(), why))
        return found

    def _use(self, text: str, start: int, end: int, env: dict, depth: int) -> str:
        """Why the use of a macro at START..END of TEXT (a body whose
        parameters ENV binds) may paste what calls through ->ioctl, or ""."""
        name = text[start:end]
        args = self._arguments(text, end, env, depth)
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
            return Argument(env[text].expanded, env[text].expanded)
        if re.fullmatch(r"\w+", text):
            return Argument(re.escape(text), self._expanded_name(text, depth))
        if _CHAIN.fullmatch(text):
            spelled = self._chain(text, env)
            return Argument(ANY, spelled if not self._names(spelled) else ANY)
        call = re.fullmatch(r"([A-Za-z_]\w*)\s*\((.*)\)", text, re.S)
        if call and spans.closing_or_none(text, call.start(2) - 1, "()") == len(text) - 1:
            return Argument(ANY, self._value(call.group(1), self._arguments(
                text, call.end(1), env, depth + 1), depth + 1))
        return UNKNOWN

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
        if key in self._dangers:
            return self._dangers[key]
        self._dangers[key] = ""         # a macro is not expanded inside itself
        why = self._pasted(name, macro, env, depth)
        if not why:
            for use in re.finditer(r"\b[A-Za-z_]\w*\b", macro.body):
                inner = use.group()
                if inner in self.pasting and inner not in env and inner != name and \
                        not _pasted_at(macro.body, use.start(), use.end()):
                    why = self._use(macro.body, use.start(), use.end(), env, depth + 1)
                    if why:
                        break
        self._dangers[key] = why
        return why

    def _chain(self, chain: str, env: dict) -> str:
        """The spelling of the paste CHAIN in a body whose parameters ENV binds."""
        pieces = re.split(r"\s*##\s*", chain.strip())
        return "".join(env[p].raw if p in env else re.escape(p) if p else ANY
                       for p in pieces)

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
                if why:
                    return why
        return ""

    def _named(self, spelled: str, chain: str, name: str,
               args: list[Argument] | None, depth: int) -> str:
        """Why a paste spelled SPELLED (CHAIN in NAME), called with ARGS,
        may call through ->ioctl, or ""."""
        if re.fullmatch(spelled, "ioctl"):
            return f"pastes {chain.strip()} in {name}, which may spell ioctl"
        for named in self._candidates(spelled):
            # A macro that may spell ioctl in general is judged by what it
            # is given here (param_check_ ## type: param_check_int(name, p)).
            if named not in self.macros or self._spells(named, args, depth + 1):
                return (f"pastes {chain.strip()} in {name}, which may name {named}, "
                        "a macro that may spell ioctl")
        return ""

    def _spells(self, name: str, args: list[Argument] | None, depth: int) -> bool:
        """Whether NAME used with ARGS (None: none written, so any) may
        expand to a call through ->ioctl: its body names ioctl, takes a
        member named by an argument that may be ioctl, pastes such a name,
        or uses a macro that may."""
        if depth > _DEPTH:
            return True
        key = (name, tuple(args) if args is not None else None)
        if key in self._spelled:
            return self._spelled[key]
        self._spelled[key] = False      # a macro is not expanded inside itself
        found = False
        for macro in self.macros.get(name, ()):
            env = _bind(macro, args)
            if env is None:
                env = {p: UNKNOWN for p in macro.params or ()}
            found = _names_ioctl(macro.body) or any(
                re.search(r"(?:->|\.)\s*%s\b" % re.escape(p), macro.body)
                and (re.fullmatch(env[p].expanded, "ioctl") or re.fullmatch(env[p].raw, "ioctl"))
                for p in env) or bool(self._pasted(name, macro, env, depth))
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
        self._spelled[key] = found
        return found

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
    """Whether MACRO's body names ioctl, pastes, or takes a member by a
    parameter's name (`(l)->f_op->op(...)`: the use may pass ioctl)."""
    if "##" in macro.body or re.search(r"\bioctl\b", macro.body):
        return True
    return any(re.search(r"(?:->|\.)\s*%s\b" % re.escape(p), macro.body)
               for p in macro.params or ())


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
    if args is not None and macro.variadic and len(params) - 1 <= len(args) != len(params):
        # What the variadic parameter holds is not followed.
        return dict(zip(params[:-1], args)) | {params[-1]: UNKNOWN}
    if args is None or len(args) != len(params):
        return None
    return dict(zip(params, args))

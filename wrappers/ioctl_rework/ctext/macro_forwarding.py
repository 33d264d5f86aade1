"""Calls through a member named ioctl that only a macro spells.

A header's macro (`#define LOWER_IOCTL(f, c, a) (f)->f_op->ioctl(...)`), or a
macro anywhere that takes the member's name as an argument
(`LOWER_OP(lower, ioctl, cmd, arg)` with `(l)->f_op->op(...)` in its body):
the forwarding rule reads each file alone and rewrites no macro body.  A
header of the run has its macros rewritten by convert/macro_bodies.py; any
other site is refused by convert, naming the macro, rather than leave the
call on a NULL .ioctl in silence, unless not_a_forward() (its arguments) or
other_structures_expanded() (its structure) proves the call is no
file_operations' ioctl.
"""

import functools
import re
from dataclasses import dataclass

from ioctl_rework.ctext import member_types, spans

# A #define with its continuation lines; group 3 the parameters, 4 the body.
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?((?:\\\n|[^\n])*)", re.M)
# A use of the member other than an assignment: a call, or a test beside one.
_MEMBER_USE = r"(?:->|\.)\s*%s\b(?!\s*=(?!=))"


@dataclass(frozen=True)
class ForwardingMacro:
    name: str
    file: str               # where it is defined, relative to the tree
    line: int
    parameter: int | None   # the argument that names the member, or None: ioctl itself
    parameters: tuple[str, ...] = ()    # its parameter names
    body: str = ""                      # its body (code only, continuations joined)
    # Why no use of it can be proven (the token ioctl not as a member, a
    # paste that may form it, a macro of that kind in its body), or "".
    unprovable: str = ""
    # Parameters pasted to each other (`a##b`): a use is unprovable when
    # an argument there may be part of ioctl.
    pasted: tuple[int, ...] = ()
    # It passes ioctl to a macro naming the member by that argument, whose
    # call there is proven no file_operations' (not_a_forward) while none of
    # these names is #defined where it is used (`SOCKOPS_WRAP` passing ioctl
    # to `SOCKCALL_WRAP`, a proto_ops call of three arguments).
    guarded: tuple[str, ...] = ()

    @property
    def in_body(self) -> bool:
        """Whether its own body spells the member (or may: unprovable), for
        a header's rewrite to rewrite or refuse; not one naming it by an
        argument, nor one that only pastes its parameters."""
        return self.parameter is None and not self.guarded and \
            (bool(self.unprovable) or not self.pasted)


@dataclass(frozen=True)
class MacroSite:
    file: str
    line: int
    macro: ForwardingMacro

    @property
    def reason(self) -> str:
        if self.macro.guarded:
            return (f"macro {self.macro.name} ({self.macro.file}:{self.macro.line}) passes "
                    "ioctl to a macro whose call is proven no file_operations' only while "
                    f"none of {', '.join(self.macro.guarded)} is a macro, and here one is: "
                    "the forwarding rule cannot rewrite it (it reads no macro body): "
                    "convert it by hand")
        if self.macro.unprovable or self.macro.pasted:
            why = self.macro.unprovable or "pastes arguments here that may spell ioctl"
            return (f"macro {self.macro.name} ({self.macro.file}:{self.macro.line}) "
                    f"{why}: which member it calls cannot be proven, and "
                    "the forwarding rule cannot rewrite it (it reads no macro body): "
                    "convert it by hand")
        how = ("calls or tests ->ioctl" if self.macro.parameter is None else
               "calls or tests the member its argument names, here ioctl")
        where = "" if self.macro.parameter is not None else \
            (", in a header the run does not write (only one of the run, or one its "
             "files reach by a quoted #include in the tree, is)")
        return (f"macro {self.macro.name} ({self.macro.file}:{self.macro.line}) {how}, "
                f"which the forwarding rule cannot rewrite (it reads no macro body){where}: "
                "convert it by hand")


_PARTS = {"ioctl"[:n] for n in range(1, 6)} | {"ioctl"[n:] for n in range(5)}
_PASTE = re.compile(r"\w*(?:\s*##\s*\w*)+")


def _unprovable(body: str, params: tuple[str, ...], unprovable_names: set[str],
                pasting: dict | None = None, members: dict | None = None,
                guards: set | None = None):
    """(why no use of a macro with BODY and PARAMS can be proven, the
    parameters pasted to each other): the token ioctl in it other than as
    a member (`CALL_MEMBER((f)->f_op, ioctl, ...)`), a paste beside a part
    of ioctl (`x##ioctl`, `io##ctl`), a use of a macro of UNPROVABLE_NAMES,
    or a use of one of PASTING (name -> its pasted parameters) whose
    argument there may be part of ioctl.  A parameter of this one passed
    there is judged at each use, with what the use passes and every macro
    the file reaches (paste_spelling.py): `__PASTE(__UNIQUE_ID_, prefix)`
    spells no ioctl whatever prefix is.
    A bare ioctl passed to one of MEMBERS (name -> the ForwardingMacro
    naming the member by that argument) is no obstacle where that call is
    proven (_proven_nested): the names it relies on go into GUARDS."""
    for name, indices in (pasting or {}).items():
        if name not in body:
            continue                # the pattern below needs the name
        for use in re.finditer(r"\b%s\s*\(" % re.escape(name), body):
            close = spans.closing(body, use.end() - 1, "()")
            args = spans.split_top_level(body[use.end():close]) if close is not None else []
            if close is None or any(i >= len(args) or _may_paste_ioctl(args[i])
                                    for i in indices):
                return f"pastes through {name} what may spell ioctl", ()
    pasted = set()
    for chain in _PASTE.finditer(body) if "##" in body else ():
        # An empty piece is a punctuator (`hostdata->##symbol`, 2.6.9's
        # 53c7xx.h): it forms no name with its neighbour.
        pieces = [piece for piece in re.split(r"\s*##\s*", chain.group()) if piece]
        if not pieces:
            continue
        spelled = "".join(r"\w*" if piece in params else re.escape(piece) for piece in pieces)
        if not re.fullmatch(spelled, "ioctl"):
            continue                # `drv_##x##_ioctl`: never the member ioctl
        if any(piece not in params for piece in pieces):
            return f"pastes {chain.group()}, which may spell ioctl", ()
        pasted |= {params.index(piece) for piece in pieces}
    for token in re.finditer(r"\bioctl\b", body) if "ioctl" in body else ():
        if not re.search(r"(?:->|\.)\s*$", body[:token.start()]) and \
                not re.search(r"##\s*$", body[:token.start()]):
            before = body[:token.start()].rstrip()
            if before and not before.endswith(("(", ",", "#")):
                # After an operator or a word (`res = ioctl(dev, arg, cmd)`,
                # 2.6.9 bonding.h: a local function pointer): no member
                # operator can come before it, inside the body or at a use,
                # and no macro takes it as an argument's first token.
                continue
            relied = _proven_nested(body, token.start(), params, members or {})
            if relied is None:
                return "holds the token ioctl other than as a member", ()
            if guards is not None:
                guards |= relied
    used = sorted(_words(body) & unprovable_names) if unprovable_names else []
    if used:
        return f"expands {used[0]}, whose member cannot be proven", ()
    return "", tuple(sorted(pasted))


def _open_parenthesis(code: str, at: int) -> int | None:
    """Where the `(` that holds offset AT of CODE opens (brackets between,
    any depth, skipped), or None: none, or AT is inside a `[`."""
    i = at - 1
    while i >= 0:
        if code[i] in ")]":
            i = spans.opening(code, i)
            if i is None:
                return None
        elif code[i] == "(":
            return i
        elif code[i] == "[":
            return None
        i -= 1
    return None


def _proven_nested(body: str, at: int, params: tuple[str, ...],
                   members: dict) -> set[str] | None:
    """Where the ioctl at AT of BODY (a macro with PARAMS) is a whole argument
    of a call of a macro of MEMBERS at the argument that names its member,
    and that call is proven no file_operations' (not_a_forward, no name of
    it #defined in what this reads): the names it relies on not being
    macros where the outer macro is used.  Else None (unprovable).  A
    parameter of the outer macro may stand only for an argument the inner
    one pastes (`__lock_##name##_...`), never inside what it calls with."""
    opened = _open_parenthesis(body, at)
    call = re.search(r"\b(\w+)\s*$", body[:opened]) if opened is not None else None
    if not call or call.group(1) not in members:
        return None
    inner = members[call.group(1)]
    close = spans.closing(body, opened, "()")
    if close is None:
        return None
    args = spans.split_top_level(body[opened + 1:close])
    before = spans.split_top_level(body[opened + 1:at] + "x")
    index = len(before) - 1
    if index != inner.parameter or index >= len(args) or args[index].strip() != "ioctl":
        return None
    for position, argument in enumerate(args):
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", argument))
        if words & set(params) and not (argument.strip() in params and
                                        _only_pasted(inner.body, inner.parameters[position])):
            return None
    defined = code_defines(body)
    if not not_a_forward(inner, args, lambda name: name in defined):
        return None
    relied = set()
    for position, argument in enumerate(args):
        if position != index and argument.strip() not in params:
            relied |= set(re.findall(r"\b[A-Za-z_]\w*\b", argument))
    return relied


def _only_pasted(body: str, param: str) -> bool:
    """Whether every use of PARAM in BODY is pasted (beside ##): its
    argument names, it never expands into code."""
    uses = list(re.finditer(r"\b%s\b" % re.escape(param), body))
    return all(re.search(r"##\s*$", body[:u.start()]) or re.match(r"\s*##", body[u.end():])
               for u in uses)


@functools.lru_cache(maxsize=1 << 16)
def _words(body: str) -> frozenset[str]:
    """The words of a macro's BODY: _unprovable asks for each #define
    again on every round of forwarding_macros' fixed point."""
    return frozenset(re.findall(r"\b\w+\b", body))


def forwarding_macros(text: str, rel: str, headers_only_literal: bool = False,
                      unprovable_names: set[str] = frozenset(), pasting: dict | None = None):
    """The macros of TEXT (the file REL) that call through a member named
    ioctl, or through a member their argument names, or whose member no
    reading proves (_unprovable: in any file, whatever the flag below;
    UNPROVABLE_NAMES are such macros of other files, PASTING those that
    paste their parameters).  HEADERS_ONLY_LITERAL
    false: every kind; true is for a .c file, whose literal `->ioctl(` the
    forwarding stage already reads as a site of its own."""
    code = spans.code_only(text)
    names = set(unprovable_names)
    pasting = dict(pasting or {})
    defines = list(DEFINE.finditer(code))
    members = {}
    for match in defines:
        params = tuple(p.strip() for p in (match.group(3) or "").split(","))
        body = match.group(4).replace("\\\n", " ")
        for index, param in enumerate(params):
            if param in body and re.fullmatch(r"[A-Za-z_]\w*", param) and \
                    re.search(_MEMBER_USE % re.escape(param), body):
                members[match.group(1)] = ForwardingMacro(match.group(1), rel, 0, index,
                                                          params, body)
                break
    for _ in range(len(defines) + 1):     # a macro using one found unprovable is one too
        before = len(names), len(pasting)
        for match in defines:
            params = tuple(p.strip() for p in (match.group(3) or "").split(","))
            if match.group(1) in names:
                continue
            why, pasted = _unprovable(match.group(4).replace("\\\n", " "), params,
                                      names - {match.group(1)},
                                      {k: v for k, v in pasting.items() if k != match.group(1)},
                                      members)
            if why:
                names.add(match.group(1))
            elif pasted:
                pasting[match.group(1)] = pasted
        if (len(names), len(pasting)) == before:
            break
    line, counted = 1, 0
    for match in defines:
        body = match.group(4).replace("\\\n", " ")
        # Counted on from the last one: from the top each time, a header of
        # 12,000 #defines took 7 s (2.6.9's ia64 shub_mmr.h).
        line += code.count("\n", counted, match.start())
        counted = match.start()
        params = tuple(p.strip() for p in (match.group(3) or "").split(","))
        guards = set()
        why, pasted = _unprovable(body, params, names - {match.group(1)},
                                  {k: v for k, v in pasting.items() if k != match.group(1)},
                                  members, guards)
        if why or pasted:
            yield ForwardingMacro(match.group(1), rel, line, None, params, body, why, pasted)
            continue
        if guards:
            yield ForwardingMacro(match.group(1), rel, line, None, params, body,
                                  guarded=tuple(sorted(guards)))
            continue
        if not headers_only_literal and "ioctl" in body and \
                re.search(_MEMBER_USE % "ioctl", body):
            yield ForwardingMacro(match.group(1), rel, line, None, params, body)
            continue
        for index, param in enumerate(params):
            if param in body and re.fullmatch(r"[A-Za-z_]\w*", param) and \
                    re.search(_MEMBER_USE % re.escape(param), body):
                yield ForwardingMacro(match.group(1), rel, line, index, params, body)
                break


def header_macros(data: bytes, rel: str) -> list[ForwardingMacro]:
    """The forwarding macros of a header's bytes DATA (the file REL)."""
    # Not "ioctl" too: a macro naming the member by an argument
    # (`LOWER_OP(l, op, ...)`) need not spell it; its use does.
    if b"define" not in data:
        return []
    return list(forwarding_macros(data.decode("latin-1"), rel))


def _may_paste_ioctl(argument: str) -> bool:
    """Whether ARGUMENT, pasted (##: not expanded first), may be part of ioctl."""
    return argument.strip() in _PARTS | {""}


def sites(text: str, rel: str, macros: list[ForwardingMacro],
          defined=lambda name: True, root=None) -> list[MacroSite]:
    """Where TEXT (the file REL) uses one of MACROS (its own included) so
    that it calls through ->ioctl.  DEFINED(name): whether a #define of
    NAME is in the file or a header read (by default, always: unproven).
    ROOT: the tree whose headers declare the structures a use goes
    through (member_types.py); None, no such proof."""
    unprovable = {m.name for m in macros if m.unprovable}
    pasting = {m.name: m.pasted for m in macros if m.pasted and not m.unprovable}
    macros = macros + list(forwarding_macros(text, rel, headers_only_literal=True,
                                             unprovable_names=unprovable, pasting=pasting))
    code = spans.code_only(text)
    found = []
    for macro in macros:
        if macro.name not in code:
            continue
        pattern = r"\b%s\b" if macro.unprovable and not macro.parameters[0] and \
            len(macro.parameters) == 1 else r"\b%s\s*\("
        for use in re.finditer(pattern % re.escape(macro.name), code):
            line = code.count("\n", 0, use.start()) + 1
            if macro.file == rel and line == macro.line:
                continue        # its own #define
            if macro.guarded:
                if not any(name in code_defines(code) or defined(name)
                           for name in macro.guarded):
                    continue    # the call it passes ioctl to stays proven here
            elif macro.pasted and not macro.unprovable:
                close = spans.closing(code, use.end() - 1, "()")
                args = spans.split_top_level(code[use.end():close]) if close is not None else []
                if close is not None and len(args) == len(macro.parameters) and not any(
                        _may_paste_ioctl(args[i]) for i in macro.pasted):
                    continue    # what it pastes cannot spell ioctl
            elif macro.parameter is not None:
                close = spans.closing(code, use.end() - 1, "()")
                if close is None:
                    continue
                args = [a.replace("\\\n", " ")
                        for a in spans.split_top_level(code[use.end():close])]
                if len(args) <= macro.parameter or args[macro.parameter].strip() != "ioctl":
                    continue
                if not_a_forward(macro, args, lambda name: name in code_defines(code) or
                                 defined(name)):
                    continue
                if root is not None and other_structures_expanded(root, rel, text, use.start(),
                                                                  close, macro, args):
                    continue
            found.append(MacroSite(rel, line, macro))
        if macro.parameters and macro.parameter is None:
            # One naming the member by an argument forwards only given ioctl
            # there; a mention of its name alone (a tag, a member, a local of
            # that name: list_entry, rb_entry) is no call through ->ioctl.
            found += _named_uncalled(code, rel, macro)
    return found


# A line where a macro's name is tested or undefined, never expanded into a call.
_TESTED = re.compile(r"^[ \t]*#[ \t]*(?:ifn?def|undef|if|elif)\b.*$", re.M)


def _named_uncalled(code: str, rel: str, macro: ForwardingMacro) -> list[MacroSite]:
    """The sites where CODE names the function-like MACRO without calling it:
    an argument of another macro (`APPLY(STACK_PASS)`, whose body writes
    `p(lf, cmd, arg)`) or a body (`#define FWD STACK_PASS`) may call it once
    substituted, and which call that is no reading of the use proves."""
    tested = [(m.start(), m.end()) for m in _TESTED.finditer(code)]
    found = []
    for use in re.finditer(r"\b%s\b(?!\s*\()" % re.escape(macro.name), code):
        # A tag (`struct rb_entry *rp`: 2.6.9's via-pmu.c beside the rb_entry()
        # of <linux/rbtree.h>) or a member (`p->rb_entry`) only shares the name.
        if spans.TAG_OR_MEMBER_BEFORE.search(code, max(0, use.start() - 80), use.start()):
            continue
        line = code.count("\n", 0, use.start()) + 1
        if (macro.file == rel and line == macro.line) or \
                any(start <= use.start() < end for start, end in tested):
            continue
        found.append(MacroSite(rel, line, macro))
    return found


def code_defines(code: str) -> set[str]:
    """The names CODE #defines."""
    return set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", code, re.M))


def not_a_forward(macro: ForwardingMacro, args: list[str], defined) -> bool:
    """Whether MACRO expanded with ARGS (which name the member ioctl) is
    proven to call no file_operations' ioctl: its body defines a function,
    and every use of the member is a call whose arguments are other than
    four, each a plain identifier that is a parameter of that function and
    that no #define renames (DEFINED(name)), so none can expand to commas.
    A file_operations' ioctl takes four; anything unproven is False."""
    if len(args) != len(macro.parameters):
        return False
    bound = {p: a.strip() for p, a in zip(macro.parameters, args)}
    body = macro.body
    function = _defined_function_parameters(body, bound)
    if function is None:
        return False
    member = macro.parameters[macro.parameter]
    uses = list(re.finditer(r"(?:->|\.)\s*%s\b" % re.escape(member), body))
    if not uses:
        return False
    for use in uses:
        listed = _argument_list(body, use.end(), bound)
        if listed is None:
            return False
        called = [a.strip() for a in spans.split_top_level(listed)]
        if len(called) == 4 or not all(re.fullmatch(r"[A-Za-z_]\w*", a) and a in function
                                       and not defined(a) for a in called):
            return False
    return True


def _defined_function_parameters(body: str, bound: dict[str, str]) -> set[str] | None:
    """The parameter names of the function BODY defines first (its list
    written there, or a macro parameter bound to it), or None."""
    brace = body.find("{")
    if brace < 0:
        return None
    declarator = body[:brace].rstrip()
    if declarator.endswith(")"):
        opening_at = spans.opening(declarator, len(declarator) - 1)
        if opening_at is None:
            return None
        listed = declarator[opening_at + 1:-1]
    else:
        name = re.search(r"(\w+)$", declarator)
        value = bound.get(name.group(1)) if name else None
        if value is None or not _parenthesized(value):
            return None
        listed = value[1:-1]
    names = set()
    for declaration in spans.split_top_level(listed):
        found = re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", declaration.strip())
        if not found:
            return None
        names.add(found.group(1))
    return names


def _argument_list(body: str, at: int, bound: dict[str, str]) -> str | None:
    """The argument list of the call at AT of BODY (after the member): a
    parenthesized list written there, or a macro parameter bound to one."""
    rest = body[at:]
    opened = re.match(r"\s*\(", rest)
    if opened:
        close = spans.closing(rest, opened.end() - 1, "()")
        listed = rest[opened.end():close]
        # A macro parameter inside the list stands for its argument.
        return re.sub(r"\b\w+\b", lambda m: bound.get(m.group(), m.group()), listed)
    name = re.match(r"\s*(\w+)", rest)
    value = bound.get(name.group(1)) if name else None
    if value is not None and _parenthesized(value):
        return value[1:-1]
    return None


def _parenthesized(text: str) -> bool:
    return text.startswith("(") and spans.closing(text, 0, "()") == len(text) - 1


def expansion(macro: ForwardingMacro, args: list[str]) -> str | None:
    """MACRO's body with ARGS for its parameters, as the preprocessor
    expands it, or None where pasting or stringizing (#) would be needed.
    A parameter in parentheses before -> or . loses them when its argument
    is a plain name (`(sk)->prot` is `sk->prot`), so that member_types
    reads the chain."""
    if "#" in macro.body or len(args) != len(macro.parameters):
        return None
    bound = {p: a.strip() for p, a in zip(macro.parameters, args)}
    text = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: bound.get(m.group(), m.group()), macro.body)
    return re.sub(r"(?<![\w)\]])\(\s*([A-Za-z_]\w*)\s*\)(?=\s*(?:->|\.(?!\.)|\[))", r"\1",
                  text)


def other_structures_expanded(root, rel: str, text: str, start: int, close: int,
                              macro: ForwardingMacro, args: list[str]) -> bool:
    """Whether the use of MACRO at START..CLOSE of TEXT (the file REL),
    expanded with ARGS, takes every member named ioctl from a structure
    member_types proves is not a file_operations (read through ROOT's
    headers as the compiler finds them)."""
    expanded = expansion(macro, args)
    if expanded is None:
        return False
    written = text[:start] + "(" + expanded + ")" + text[close + 1:]
    corpus = member_types.corpus(root, rel, written)
    region = corpus.code[start:start + len(expanded) + 2]
    uses = list(re.finditer(r"(?:\.|->)\s*ioctl\b", region))
    return bool(uses) and all(member_types.structure_of(corpus, start + use.start())
                              for use in uses)

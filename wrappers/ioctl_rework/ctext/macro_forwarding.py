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


@dataclass(frozen=True)
class MacroSite:
    file: str
    line: int
    macro: ForwardingMacro

    @property
    def reason(self) -> str:
        how = ("calls or tests ->ioctl" if self.macro.parameter is None else
               "calls or tests the member its argument names, here ioctl")
        return (f"macro {self.macro.name} ({self.macro.file}:{self.macro.line}) {how}, "
                "which the forwarding rule cannot rewrite (it reads no macro body): "
                "convert it by hand")


def forwarding_macros(text: str, rel: str, headers_only_literal: bool = False):
    """The macros of TEXT (the file REL) that call through a member named
    ioctl, or through a member their argument names.  HEADERS_ONLY_LITERAL
    false: both kinds; true is for a .c file, whose literal `->ioctl(` the
    forwarding stage already reads as a site of its own."""
    code = spans.code_only(text)
    for match in DEFINE.finditer(code):
        body = match.group(4).replace("\\\n", " ")
        line = code.count("\n", 0, match.start()) + 1
        params = tuple(p.strip() for p in (match.group(3) or "").split(","))
        if not headers_only_literal and re.search(_MEMBER_USE % "ioctl", body):
            yield ForwardingMacro(match.group(1), rel, line, None, params, body)
            continue
        for index, param in enumerate(params):
            if re.fullmatch(r"[A-Za-z_]\w*", param) and re.search(_MEMBER_USE % re.escape(param),
                                                                  body):
                yield ForwardingMacro(match.group(1), rel, line, index, params, body)
                break


def header_macros(data: bytes, rel: str) -> list[ForwardingMacro]:
    """The forwarding macros of a header's bytes DATA (the file REL)."""
    # Not "ioctl" too: a macro naming the member by an argument
    # (`LOWER_OP(l, op, ...)`) need not spell it; its use does.
    if b"define" not in data:
        return []
    return list(forwarding_macros(data.decode("latin-1"), rel))


def sites(text: str, rel: str, macros: list[ForwardingMacro],
          defined=lambda name: True, root=None) -> list[MacroSite]:
    """Where TEXT (the file REL) uses one of MACROS (its own included) so
    that it calls through ->ioctl.  DEFINED(name): whether a #define of
    NAME is in the file or a header read (by default, always: unproven).
    ROOT: the tree whose headers declare the structures a use goes
    through (member_types.py); None, no such proof."""
    macros = macros + list(forwarding_macros(text, rel, headers_only_literal=True))
    code = spans.code_only(text)
    found = []
    for macro in macros:
        if macro.name not in code:
            continue
        for use in re.finditer(r"\b%s\s*\(" % re.escape(macro.name), code):
            line = code.count("\n", 0, use.start()) + 1
            if macro.file == rel and line == macro.line:
                continue        # its own #define
            if macro.parameter is not None:
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
        opening_at = opening(declarator, len(declarator) - 1)
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


def opening(code: str, close: int, floor: int = 0) -> int | None:
    """Where the bracket that the ) or ] at CLOSE of CODE closes opens (not
    before FLOOR), or None."""
    pair = {")": "(", "]": "["}[code[close]]
    depth = 0
    for i in range(close, floor - 1, -1):
        if code[i] == code[close]:
            depth += 1
        elif code[i] == pair:
            depth -= 1
            if depth == 0:
                return i
    return None


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

"""Calls through a member named ioctl that only a macro spells.

A header's macro (`#define LOWER_IOCTL(f, c, a) (f)->f_op->ioctl(...)`), or a
macro anywhere that takes the member's name as an argument
(`LOWER_OP(lower, ioctl, cmd, arg)` with `(l)->f_op->op(...)` in its body):
the forwarding rule reads each file alone and rewrites no macro body, so
such a call cannot follow the conversion.  convert refuses it, naming the
macro, rather than leave the call on a NULL .ioctl in silence.
"""

import re
from dataclasses import dataclass

from ioctl_rework.ctext import spans

# A #define with its continuation lines; group 3 the parameters, 4 the body.
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?((?:\\\n|[^\n])*)", re.M)
# A use of the member other than an assignment: a call, or a test beside one.
_MEMBER_USE = r"(?:->|\.)\s*%s\b(?!\s*=(?!=))"


@dataclass(frozen=True)
class ForwardingMacro:
    name: str
    file: str               # where it is defined, relative to the tree
    line: int
    parameter: int | None   # the argument that names the member, or None: ioctl itself


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
    for match in _DEFINE.finditer(code):
        body = match.group(4).replace("\\\n", " ")
        line = code.count("\n", 0, match.start()) + 1
        if not headers_only_literal and re.search(_MEMBER_USE % "ioctl", body):
            yield ForwardingMacro(match.group(1), rel, line, None)
            continue
        params = [p.strip() for p in (match.group(3) or "").split(",")]
        for index, param in enumerate(params):
            if re.fullmatch(r"[A-Za-z_]\w*", param) and re.search(_MEMBER_USE % re.escape(param),
                                                                  body):
                yield ForwardingMacro(match.group(1), rel, line, index)
                break


def header_macros(data: bytes, rel: str) -> list[ForwardingMacro]:
    """The forwarding macros of a header's bytes DATA (the file REL)."""
    # Not "ioctl" too: a macro naming the member by an argument
    # (`LOWER_OP(l, op, ...)`) need not spell it; its use does.
    if b"define" not in data:
        return []
    return list(forwarding_macros(data.decode("latin-1"), rel))


def sites(text: str, rel: str, macros: list[ForwardingMacro]) -> list[MacroSite]:
    """Where TEXT (the file REL) uses one of MACROS (its own included) so
    that it calls through ->ioctl."""
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
                args = spans.split_top_level(code[use.end():close])
                if len(args) <= macro.parameter or args[macro.parameter].strip() != "ioctl":
                    continue
            found.append(MacroSite(rel, line, macro))
    return found

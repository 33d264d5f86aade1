"""Handlers that hand their commands to another function of the file:
`return foo_do_ioctl(file, cmd, arg);`.  The facts rule is run again with
those functions listed, and the handler is judged on its own facts and
the callee's together, one level deep.

Followed only where it is certain what the callee gets: the call passes
the handler's cmd and arg, unchanged, as its last two arguments, and the
callee takes arg as an integer (a callee taking a pointer would need the
rule to follow a pointer parameter, which it does not).
"""

import re
from dataclasses import replace

from ioctl_rework.compat.classify import UACCESS
from ioctl_rework.compat.facts import HandlerFacts


def _passes_cmd_and_arg(facts: HandlerFacts, position: tuple[int, int], lines: list[str]) -> bool:
    """Whether the call whose arg is at POSITION ends with `cmd, arg)`."""
    line, column = position
    if not 0 < line <= len(lines):
        return False
    text = lines[line - 1]
    before, after = text[:column], text[column + len(facts.arg or ""):]
    return (text[column:column + len(facts.arg or "")] == facts.arg
            and re.search(rf"\b{re.escape(facts.cmd or '')}\s*,\s*$", before) is not None
            and re.match(r"\s*\)", after) is not None)


def wanted(facts: HandlerFacts, lines: list[str]) -> dict[str, tuple[int, int]]:
    """Function -> the position of arg in the call, for every call that
    passes cmd and arg on as its last two arguments."""
    found = {}
    for position, function in facts.arg_calls.items():
        if (function in facts.cmd_calls and function not in UACCESS
                and not function.startswith("_IOC") and _passes_cmd_and_arg(facts, position, lines)):
            found[function] = position
    return found


def merge(facts: HandlerFacts, every: dict[str, HandlerFacts],
          lines: list[str]) -> HandlerFacts:
    """FACTS with the facts of each callee it passes cmd and arg to joined
    in, when the rule found that callee's definition with an integer arg."""
    merged = facts
    for function, position in wanted(facts, lines).items():
        callee = every.get(function)
        if callee is None or not callee.line or "*" in (callee.arg_type or "*"):
            continue
        merged = replace(
            merged,
            commands={**merged.commands, **callee.commands},
            casts={**merged.casts, **callee.casts},
            aliases={**merged.aliases, **callee.aliases},
            alias_defined=merged.alias_defined | callee.alias_defined,
            alias_uses=merged.alias_uses | callee.alias_uses,
            alias_sources=merged.alias_sources | callee.alias_sources,
            type_uses=merged.type_uses | callee.type_uses,
            type_guards=merged.type_guards | callee.type_guards,
            alias_calls={**merged.alias_calls, **callee.alias_calls},
            cast_calls={**merged.cast_calls, **callee.cast_calls},
            copies={**merged.copies, **callee.copies},
            arg_calls={**{p: f for p, f in merged.arg_calls.items() if p != position},
                       **callee.arg_calls},
            cmd_calls={**{f: at for f, at in merged.cmd_calls.items() if f != function},
                       **callee.cmd_calls},
            arg_uses=(merged.arg_uses - {position}) | callee.arg_uses,
            arg_names=merged.arg_names | {callee.arg} | callee.arg_names)
    return merged

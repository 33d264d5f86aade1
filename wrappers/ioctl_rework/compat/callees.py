"""Functions of the file a handler hands its argument to, one level deep.

Two kinds of call are followed, when it is certain what the callee gets:
- a dispatch: `return foo_do_ioctl(file, cmd, arg);`, cmd and arg
  unchanged as the last two arguments, to a callee that takes arg as an
  integer; its commands and uses count as the handler's;
- a pointer helper: `foo_get_info(dev, argp)`, arg, `(T __user *)arg` or
  a pointer alias of it as the last argument, cmd not passed; the callee's
  last parameter is then arg (or an alias of it, when it is a pointer), and
  its uses of that parameter count as the handler's.  Its other facts
  (the rule takes the parameter before it for cmd) are dropped: it is not
  given cmd.
The facts rule is run again with those functions listed (-D callees), on
the files where a definition of one can be (worth_running).  A callee
whose definition the rule did not find leaves the call unfollowed, and
the handler unknown.
"""

import re
from dataclasses import dataclass, replace

from ioctl_rework.compat import rule_input
from ioctl_rework.compat.classify import LOGGING, UACCESS
from ioctl_rework.compat.facts import HandlerFacts, Position


@dataclass(frozen=True)
class Call:
    position: Position      # of the argument passed on
    dispatch: bool          # cmd and arg (True), or the pointer alone


def _text_at(lines: list[str], position: Position) -> tuple[str, str] | None:
    line, column = position
    if not 0 < line <= len(lines):
        return None
    return lines[line - 1][:column], lines[line - 1][column:]


def _is_last_argument(lines: list[str], position: Position, name: str) -> bool:
    """Whether NAME at POSITION is the last argument of its call."""
    text = _text_at(lines, position)
    return (text is not None and text[1].startswith(name)
            and re.match(r"\s*\)", text[1][len(name):]) is not None)


def _follows_cmd(facts: HandlerFacts, lines: list[str], position: Position) -> bool:
    text = _text_at(lines, position)
    return text is not None and re.search(rf"\b{re.escape(facts.cmd or '')}\s*,\s*$",
                                          text[0]) is not None


def _followable(function: str) -> bool:
    return function not in UACCESS and function not in LOGGING and not function.startswith("_IOC")


def wanted(facts: HandlerFacts, lines: list[str]) -> dict[str, Call]:
    """Function -> the call to follow, for every call of one of the two kinds."""
    found = {}
    arg = facts.arg or ""
    for position, function in facts.arg_calls.items():
        if not _followable(function) or not _is_last_argument(lines, position, arg):
            continue
        if function in facts.cmd_calls:
            if _follows_cmd(facts, lines, position):
                found[function] = Call(position, True)
        else:
            found[function] = Call(position, False)
    pointer_calls = [(p, f, arg) for p, f in facts.cast_calls.items()]
    for position, function in facts.alias_calls.items():
        text = _text_at(lines, position)
        name = re.match(r"\w+", text[1]) if text else None
        if name and name.group(0) in facts.aliases:
            pointer_calls.append((position, function, name.group(0)))
    for position, function, name in pointer_calls:
        if (_followable(function) and function not in facts.cmd_calls
                and _is_last_argument(lines, position, name)):
            found.setdefault(function, Call(position, False))
    return found


def worth_running(wanted: dict, texts: dict) -> dict:
    """WANTED (file -> the callees it hands cmd or arg to) without the files
    none of whose callees is defined in any of them: the rule would find
    no definition there (the callee is another file's, or a macro of a
    header), and the calls stay unfollowed as after a run.  A callee named
    where any file of the run may define it keeps its file: the listed
    names are one list for the whole run.  TEXTS: file -> its text."""
    words = {file: rule_input.words_outside_bodies(texts[file]) for file in wanted}

    def definable(name: str) -> bool:
        return any(found is None or name in found for found in words.values())
    return {file: names for file, names in wanted.items() if any(map(definable, names))}


def _is_pointer(type_text: str | None) -> bool:
    return "*" in (type_text or "")


def _pointer_parameter(callee: HandlerFacts) -> HandlerFacts:
    """CALLEE's facts about its last parameter, a pointer, as the facts of
    an alias of arg: its uses are the alias's uses."""
    name = callee.arg or ""
    return replace(
        callee,
        aliases={**callee.aliases, name: callee.arg_type},
        alias_uses=callee.alias_uses | callee.arg_uses,
        alias_calls={**callee.alias_calls, **callee.arg_calls},
        arg_uses=set(), arg_calls={})


def _joinable(facts: HandlerFacts, call: Call, callee: HandlerFacts) -> HandlerFacts | None:
    """CALLEE's facts as they count for the handler, or None when what it
    takes does not match what it is given: arg itself must go to an
    integer parameter, a pointer made from arg to a pointer parameter."""
    passes_pointer = call.position in facts.casts or call.position in facts.alias_calls
    if call.dispatch or not passes_pointer:
        if _is_pointer(callee.arg_type):
            return None
        if call.dispatch:
            return callee
    elif not _is_pointer(callee.arg_type):
        return None
    callee = replace(callee, commands={}, cmd_calls={}, type_uses=set(), type_guards=set(),
                     nr_uses=set(), nr_switches=set())
    return _pointer_parameter(callee) if passes_pointer else callee


def merge(facts: HandlerFacts, every: dict[str, HandlerFacts],
          lines: list[str]) -> HandlerFacts:
    """FACTS with the facts of each callee it hands its argument to joined
    in, when the rule found that callee's definition."""
    merged = facts
    for function, call in wanted(facts, lines).items():
        callee = every.get(function)
        callee = _joinable(facts, call, callee) if callee is not None and callee.line else None
        if callee is None:
            continue
        # A cast passed on stays a pointer use of arg; arg itself is the callee's now.
        handed_over = set() if call.position in facts.casts else {call.position}
        merged = replace(
            merged,
            commands={**merged.commands, **callee.commands},
            casts={**merged.casts, **callee.casts},
            aliases={**merged.aliases, **callee.aliases},
            alias_defined=merged.alias_defined | callee.alias_defined,
            alias_uses=merged.alias_uses | callee.alias_uses,
            alias_sources=merged.alias_sources | callee.alias_sources | {call.position},
            alias_calls={**{p: f for p, f in merged.alias_calls.items() if p != call.position},
                         **callee.alias_calls},
            cast_calls={**{p: f for p, f in merged.cast_calls.items() if p != call.position},
                        **callee.cast_calls},
            copies={**merged.copies, **callee.copies},
            arg_calls={**{p: f for p, f in merged.arg_calls.items() if p != call.position},
                       **callee.arg_calls},
            cmd_calls={**{f: at for f, at in merged.cmd_calls.items() if f != function},
                       **callee.cmd_calls},
            type_uses=merged.type_uses | callee.type_uses,
            type_guards=merged.type_guards | callee.type_guards,
            nr_uses=merged.nr_uses | callee.nr_uses,
            nr_switches=merged.nr_switches | callee.nr_switches,
            arg_uses=(merged.arg_uses - handed_over) | callee.arg_uses,
            arg_names=merged.arg_names | {callee.arg} | callee.arg_names)
    return merged

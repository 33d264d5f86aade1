"""What semantic-patches/ioctl_compat_facts.cocci says about each handler,
read back into one typed record per handler.  The rule finds; this module
only groups its lines."""

import re
from dataclasses import dataclass, field

from ioctl_rework import paths

FACTS_RULE = paths.rules_dir() / "ioctl_compat_facts.cocci"

_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<handler>\w+): compat-fact: "
                   r"(?P<kind>[a-z-]+) ?(?P<rest>.*)$")
_AT = re.compile(r"^(?P<line>\d+):(?P<column>\d+)(?: (?P<rest>.*))?$")

Position = tuple[int, int]


@dataclass
class HandlerFacts:
    file: str
    handler: str
    line: int = 0                       # of the definition; 0: not defined in the file
    cmd: str | None = None
    arg: str | None = None
    arg_type: str | None = None
    commands: dict = field(default_factory=dict)        # expression -> first line
    casts: dict = field(default_factory=dict)           # Position -> type text
    aliases: dict = field(default_factory=dict)         # name -> type text
    alias_defined: set = field(default_factory=set)     # Position of each alias set
    alias_uses: set = field(default_factory=set)        # Position of each alias named
    alias_sources: set = field(default_factory=set)     # Position of p in `T *q = p;`
    alias_calls: dict = field(default_factory=dict)     # Position -> function
    cast_calls: dict = field(default_factory=dict)      # Position of (T)arg -> function
    copies: dict = field(default_factory=dict)          # Position -> (type or None, source text)
    arg_calls: dict = field(default_factory=dict)       # Position -> function
    cmd_calls: dict = field(default_factory=dict)       # function -> first line
    arg_uses: set = field(default_factory=set)          # Position
    type_uses: set = field(default_factory=set)         # Position of each _IOC_TYPE(cmd)
    type_guards: set = field(default_factory=set)       # ... of those that only reject
    nr_uses: set = field(default_factory=set)           # Position of each _IOC_NR(cmd)
    nr_switches: set = field(default_factory=set)       # ... of those a switch is on
    # The names arg has in the callees joined in (compat.callees).
    arg_names: set = field(default_factory=set)


def fact_handler(line: str) -> str | None:
    """The function a report line is a fact of; None for another line."""
    match = _LINE.match(line.rstrip("\n"))
    return match["handler"] if match else None


def parse(stdout: str) -> dict[tuple[str, str], HandlerFacts]:
    """(file, handler) -> its facts, for every handler whose definition the
    rule found (facts of other functions only share a parameter name)."""
    found: dict[tuple[str, str], HandlerFacts] = {}
    for text in stdout.splitlines():
        match = _LINE.match(text)
        if not match:
            continue
        key = (match["file"], match["handler"])
        facts = found.setdefault(key, HandlerFacts(*key))
        _add(facts, match["kind"], match["rest"], int(match["line"]))
    return {key: facts for key, facts in found.items() if facts.line}


# Facts that only say where something is: kind -> the set of positions.
_PLACES = {"alias-use": "alias_uses", "alias-from": "alias_sources", "arg-use": "arg_uses",
           "type-use": "type_uses", "type-guard": "type_guards",
           "nr-use": "nr_uses", "nr-switch": "nr_switches"}
# Facts that name what is at a position: kind -> position -> text.
_NAMED = {"cast": "casts", "alias-call": "alias_calls", "cast-call": "cast_calls",
          "arg-call": "arg_calls"}


def _add(facts: HandlerFacts, kind: str, rest: str, line: int) -> None:
    if kind == "params":
        facts.cmd, facts.arg, facts.arg_type = rest.split(" ", 2)
        facts.line = line
    elif kind in ("case", "compare", "nr-case"):
        facts.commands.setdefault(rest.strip(), line)
    elif kind == "cmd-call":
        facts.cmd_calls.setdefault(rest.strip(), line)
    else:
        at = _AT.match(rest)
        position = (int(at["line"]), int(at["column"]))
        value = at["rest"]
        if kind in _PLACES:
            getattr(facts, _PLACES[kind]).add(position)
        elif kind in _NAMED:
            getattr(facts, _NAMED[kind])[position] = value
        elif kind == "alias":
            name, type_text = value.split(" ", 1)
            facts.aliases[name] = type_text
            facts.alias_defined.add(position)
        elif kind == "copy":
            type_text, source = value.split(" <- ", 1)
            known = None if type_text.startswith("? ") else type_text
            if known or position not in facts.copies:
                facts.copies[position] = (known, source.strip())

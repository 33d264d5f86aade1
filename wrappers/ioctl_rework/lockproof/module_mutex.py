"""One mutex for the files of a kbuild module: each handler is proven with
the module's mutex as its lock (so a file that locks any other mutex fails
its proof), and here the files are checked together: every file that takes
the mutex declares or defines it, exactly one defines it, not static, and
no file defines a private mutex beside it."""

import re

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.lockproof.model import LockProblem

_DEFINITION = re.compile(r"^[ \t]*(static\s+)?DEFINE_MUTEX\s*\(\s*(\w+)\s*\)", re.MULTILINE)
_EXTERN = re.compile(r"\bextern\s+struct\s+mutex\s+(\w+)\s*;")
_LOCKED = re.compile(r"\bmutex_(?:lock|unlock|trylock)\w*\s*\(\s*&\s*(\w+)\s*[,)]")


def _added(pattern: re.Pattern, old: str, new: str) -> list[re.Match]:
    """The matches of PATTERN in the code of NEW beyond those of OLD."""
    before = [m.group(0) for m in pattern.finditer(c_spans.code_only(old))]
    found = []
    for match in pattern.finditer(c_spans.code_only(new)):
        if match.group(0) in before:
            before.remove(match.group(0))
        else:
            found.append(match)
    return found


def _line(text: str, match: re.Match) -> int:
    return text.count("\n", 0, match.start()) + 1


def module_problems(name: str, texts: dict[str, tuple[str, str]]) -> list[LockProblem]:
    """What is wrong with the mutex NAME of one module across TEXTS, the
    module's files the conversion rewrote (rel -> legacy text, new text)."""
    problems = []
    homes = []
    takers = []
    for rel, (old, new) in sorted(texts.items()):
        defined = _added(_DEFINITION, old, new)
        declared = [m for m in _added(_EXTERN, old, new) if m.group(1) == name]
        locked = _added(_LOCKED, old, new)
        for match in locked:
            if match.group(1) != name:
                problems.append(LockProblem(rel, _line(new, match), name, (
                    f"the conversion takes {match.group(1)}, not its module's {name}")))
        for match in defined:
            if match.group(2) != name:
                problems.append(LockProblem(rel, _line(new, match), name, (
                    f"defines a mutex of its own, {match.group(2)}, beside its module's "
                    f"{name}: its handlers would not exclude the module's others")))
            elif match.group(1):
                problems.append(LockProblem(rel, _line(new, match), name, (
                    f"defines the module's mutex {name} static: the module's other files "
                    "cannot take it")))
            else:
                homes.append((rel, _line(new, match)))
        if locked and not declared and not any(m.group(2) == name for m in defined):
            problems.append(LockProblem(rel, _line(new, locked[0]), name, (
                f"takes a mutex but neither declares nor defines its module's {name}")))
        if locked or declared:
            takers.append(rel)
    if takers and not homes:
        problems.append(LockProblem(takers[0], 1, name, (
            f"no file of the module defines its mutex {name} ({', '.join(takers)} take it)")))
    for rel, line in homes[1:]:
        problems.append(LockProblem(rel, line, name, (
            f"defines the module's mutex {name} again (also defined in {homes[0][0]} at "
            f"line {homes[0][1]})")))
    return problems

"""#if, #ifdef, #elif, #else: the conditions a configuration chooses.

A condition is an atom (the text of its expression, or the name of
#ifdef/#ifndef X and of defined(X)) that is true or false, or a constant
(#if 0, #if 1).  The same atom is the same variable everywhere, so that
two #ifdef CONFIG_X groups agree in every configuration.
"""

import re
from dataclasses import dataclass, field

from ioctl_rework.lockproof.lexer import Token, directive


@dataclass(frozen=True)
class Condition:
    """One #if/#elif condition: an atom that is true or false, or a constant."""

    atom: str | None              # None: a constant
    polarity: bool = True         # #ifndef X is ("X", False)
    constant: bool | None = None


@dataclass
class Group:
    """One #if ... #endif: its branches' conditions (None: #else)."""

    conditions: list[Condition | None] = field(default_factory=list)
    always_first: bool = False    # a header's include guard

    def taken(self, config: dict[str, bool]) -> int | None:
        """The branch CONFIG selects (len(conditions): none), None if unknown."""
        if self.always_first:
            return 0
        for index, cond in enumerate(self.conditions):
            if cond is None:
                return index
            if cond.atom is None:
                value = cond.constant
            elif cond.atom in config:
                value = config[cond.atom] == cond.polarity
            else:
                return None
            if value:
                return index
        return len(self.conditions)

    def atoms(self) -> set[str]:
        return {c.atom for c in self.conditions if c is not None and c.atom is not None}


_SIMPLE_IF = re.compile(r"(!?)\s*defined\s*\(?\s*(\w+)\s*\)?")


def condition(keyword: str, rest: str) -> Condition:
    rest = re.sub(r"\s+", " ", rest).strip()
    if keyword == "ifdef":
        return Condition(rest.split(" ")[0])
    if keyword == "ifndef":
        return Condition(rest.split(" ")[0], False)
    stripped = rest
    while stripped.startswith("(") and stripped.endswith(")") and \
            _balanced(stripped[1:-1]):
        stripped = stripped[1:-1].strip()
    if re.fullmatch(r"0+[uUlL]*", stripped):
        return Condition(None, constant=False)
    if re.fullmatch(r"[1-9]\d*[uUlL]*", stripped):
        return Condition(None, constant=True)
    simple = _SIMPLE_IF.fullmatch(stripped)
    if simple:
        return Condition(simple.group(2), not simple.group(1))
    return Condition(stripped)


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += c == "("
        depth -= c == ")"
        if depth < 0:
            return False
    return depth == 0


def live(group: Group, branch: int) -> bool:
    cond = group.conditions[branch]
    return not (cond is not None and cond.atom is None and cond.constant is False)


def include_guard(raw: list[Token]) -> Token | None:
    """The `#ifndef X` of a header's `#ifndef X / #define X ... #endif`."""
    directives = [t for t in raw if t.kind == "directive"]
    if len(directives) < 3:
        return None
    first, second = directive(directives[0]), directive(directives[1])
    if first[0] == "ifndef" and second[0] == "define" and \
            second[1].split()[:1] == first[1].split()[:1] and \
            directive(directives[-1])[0] == "endif":
        return directives[0]
    return None

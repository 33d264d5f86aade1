"""Which macros name a word when they expand, through other macros.

A handler's code names a local or a parameter unseen when it calls a
macro whose body names it: `#define UNIT() iminor(inode)`.  It does so
too through a macro that names such a macro, to any depth (`#define A()
B()`, `#define B() UNIT()`), and through a paste that may spell the word
(`#define NODE(p) p ## node`, NODE(i)).  The closure is a fixed point over
the definitions read, so a cycle (A names B, B names A) ends it; a paste
whose pieces may spell the word counts as naming it (default-deny: the
pasted word is not read).  A parameter of the word's name is not the word.

Imports nothing of the project but spans (the rule imports it too).
"""

import re
from typing import Callable, Iterable, NamedTuple

from ioctl_rework.ctext.spans import code_only

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?(.*)$", re.MULTILINE)
_SPLICE = re.compile(r"\\[ \t]*\r?\n")
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")
# The operands of a paste: a word on each side of ##.  `, ## args` (GNU's
# variadic comma) has no word on its left and pastes no name.
_PASTE = re.compile(r"(\w+)\s*##\s*(?=(\w+))")


class Definition(NamedTuple):
    name: str
    parameters: frozenset   # the names of its parameter list, none if object-like
    body: str


def parameter_names(params: str | None) -> frozenset:
    """The names of a macro's parameter list "(a, b, args...)", or none."""
    return frozenset(p.strip().rstrip(".").strip() or "__VA_ARGS__"
                     for p in (params or "()")[1:-1].split(",") if p.strip())


def definition(name: str, text: str) -> Definition:
    """The definition of NAME whose text after the name is TEXT ("(a) a+1")."""
    params, body = re.match(r"(\([^)]*\))?(.*)", text, re.DOTALL).groups()
    return Definition(name, parameter_names(params), body)


def definitions(text: str) -> list[Definition]:
    """Each #define of the C text TEXT, comments and literals aside."""
    code = _SPLICE.sub(" ", code_only(text))
    return [Definition(name, parameter_names(params), body)
            for name, params, body in _DEFINE.findall(code)]


def _may_paste(found: Definition, word: str) -> bool:
    """Whether a paste of FOUND may spell WORD: each operand a parameter
    (any word) or a piece of WORD."""
    return any(all(piece in found.parameters or piece in word for piece in match.groups())
               for match in _PASTE.finditer(found.body))


def naming(found: Iterable[Definition], word: str,
           how: Callable[[str], bool] | None = None) -> set[str]:
    """The names of the macros of FOUND whose expansion names WORD (HOW,
    given the body, says whether it names it in the way asked: writes it)."""
    found = list(found)
    pattern = re.compile(r"\b%s\b" % re.escape(word))
    names = {d.name for d in found if word not in d.parameters and (
        (how(d.body) if how else pattern.search(d.body)) or _may_paste(d, word))}
    return _closure(names, [(d.name, set(_WORD.findall(d.body)) - d.parameters)
                            for d in found])


def _closure(names: set[str], words: list[tuple[str, set[str]]]) -> set[str]:
    """NAMES with every macro of WORDS ((name, words its body names)) that
    names one of them, to any depth: a fixed point, so a cycle ends it."""
    grew = True
    while grew:
        grew = False
        for name, named in words:
            if name not in names and named & names:
                names.add(name)
                grew = True
    return names


def writing_an_argument(found: Iterable[Definition],
                        writes: Callable[[str, str], bool]) -> set[str]:
    """The names of the function-like macros of FOUND that may write an
    argument: the body writes a parameter (WRITES(body, name)), pastes, or
    names a macro that may, to any depth."""
    found = list(found)
    names = {d.name for d in found if d.parameters and (
        "##" in d.body or any(writes(d.body, p) for p in d.parameters))}
    return _closure(names, [(d.name, set(_WORD.findall(d.body))) for d in found if d.parameters])


def names_through_macro(text: str, word: str, code: str,
                        how: Callable[[str], bool] | None = None) -> bool:
    """Whether CODE (a function's text, comments blanked) calls or names a
    macro of the C text TEXT whose expansion names WORD (as naming())."""
    names = naming(definitions(text), word, how)
    lines = [line for line in code.split("\n") if not re.match(r"\s*#\s*define\b", line)]
    return bool(names) and re.search(r"\b(?:%s)\b" % "|".join(map(re.escape, sorted(names))),
                                     "\n".join(lines)) is not None

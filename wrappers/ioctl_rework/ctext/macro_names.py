"""Which macros name a word when they expand, through other macros.

A handler's code names a local or a parameter unseen when it calls a
macro whose body names it: `#define UNIT() iminor(inode)`.  It does so
too through a macro that names such a macro, to any depth (`#define A()
B()`, `#define B() UNIT()`), and through a paste that may spell the word
(`#define NODE(p) p ## node`, NODE(i)).  The closure is a fixed point over
the definitions read, so a cycle (A names B, B names A) ends it; a paste
whose pieces may spell the word counts as naming it (default-deny: the
pasted word is not read).  A parameter of the word's name is not the word.

Imports nothing of the project but spans, include_search and header_cache
(the rule imports them too).
"""

import os
import re
from typing import Callable, Iterable, NamedTuple

from ioctl_rework.ctext import header_cache, include_search
from ioctl_rework.ctext.spans import TAG_OR_MEMBER_BEFORE, closing, code_only, split_top_level

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
    ordered: tuple = ()     # the same, in order


def parameter_names(params: str | None) -> frozenset:
    """The names of a macro's parameter list "(a, b, args...)", or none."""
    return frozenset(ordered_parameters(params))


def ordered_parameters(params: str | None) -> tuple:
    """parameter_names(), in the order of the list."""
    return tuple(p.strip().rstrip(".").strip() or "__VA_ARGS__"
                 for p in (params or "()")[1:-1].split(",") if p.strip())


def definition(name: str, text: str) -> Definition:
    """The definition of NAME whose text after the name is TEXT ("(a) a+1")."""
    params, body = re.match(r"(\([^)]*\))?(.*)", text, re.DOTALL).groups()
    return Definition(name, parameter_names(params), body, ordered_parameters(params))


def definitions(text: str) -> list[Definition]:
    """Each #define of the C text TEXT, comments and literals aside."""
    return list(_text_facts(text)[0])


# A function declared or defined at column 0, after its type: `static int
# name(`, `extern long name(`.  A call is indented, and a macro called at
# file scope (`EXPORT_SYMBOL(name);`) has no type before it.
_DECLARED = re.compile(r"^[A-Za-z_][^;{}()#=\n]*[\s*]([A-Za-z_]\w*)\s*\(", re.MULTILINE)
_UNDEF = re.compile(r"^[ \t]*#[ \t]*undef[ \t]+(\w+)", re.MULTILINE)


@header_cache.by_content     # the same headers come with every file of a run
def _text_facts(text: str) -> tuple:
    """(definitions, names #undef'd, functions declared) of the C text TEXT."""
    code = _SPLICE.sub(" ", code_only(text))
    return (tuple(Definition(name, parameter_names(params), body, ordered_parameters(params))
                  for name, params, body in _DEFINE.findall(code)),
            frozenset(_UNDEF.findall(code)), frozenset(_DECLARED.findall(code)))


class ReadMacros(NamedTuple):
    """The macros a file's code may expand: its own and those of every
    header it includes, found as the compiler finds them (include_search,
    the closure the rule reads), and what could not be read."""
    found: tuple            # each Definition read, the file's first
    undefined: frozenset    # names a text read #undefs
    declared: frozenset     # functions a text read declares or defines
    # The driver's headers not read: "..." ones not found, -I flags not
    # expanded, the read limit.  Their macros may name any word of its code.
    unread: tuple
    # The Definitions of FOUND read from the file and the driver's own
    # headers, not from the kernel's include directories.
    own: tuple = ()


def read_macros(path: str, root: str | None = None) -> ReadMacros:
    """The ReadMacros of the file PATH, relative to ROOT; without ROOT, as
    spatch names it: relative to the directory it runs in, or absolute."""
    if root is None:
        root, path = ("/", path.lstrip("/")) if os.path.isabs(path) else (os.getcwd(), path)
    headers = include_search.read_headers(root, os.path.normpath(path))
    kernel = tuple(os.path.normpath(d) + "/" for d in (
        *headers.search.system, *([headers.search.asm] if headers.search.asm else []),
        *(d for d, _ in headers.search.generic)))
    found, own, undefined, declared = [], [], set(), set()
    for where, text in headers.texts.items():
        defined, undone, named = _text_facts(text)
        found += defined
        if not os.path.normpath(where).startswith(kernel):
            own += defined
        undefined |= undone
        declared |= named
    unread = tuple(headers.missing + list(headers.search.unexpanded)) + \
        (("the headers past the first %d read" % include_search.LIMIT,) if headers.cut else ())
    if not headers.texts:
        unread = (path,) + unread
    return ReadMacros(tuple(found), frozenset(undefined), frozenset(declared), unread,
                      tuple(own))


def text_macros(text: str) -> ReadMacros:
    """The ReadMacros of the C text TEXT alone, nothing counted unread: the
    reading of a caller that has only the text, which must prove no less
    than one that reads the headers (null_inode)."""
    facts = _text_facts(text)
    return ReadMacros(*facts, (), facts[0])


_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_STATED = re.compile(r"(?:[;{}:)]|\belse\b|\bdo\b)\s*([A-Za-z_]\w*)\s*;")
_NOT_MACROS = frozenset("""if while for switch return sizeof typeof __typeof__ __typeof
__alignof__ _Alignof do else case default goto break continue asm __asm__ __asm volatile
__volatile__ __attribute__ __attribute defined NULL""".split())


def unaccounted(code: str, read: ReadMacros) -> list[str]:
    """The names CODE calls or states alone (members aside) that no text
    READ defines or declares: where a header was not read, each may be a
    macro of it, and what it expands to is not known (default-deny)."""
    known = {d.name for d in read.found} | read.declared | _NOT_MACROS
    found = []
    for pattern in (_CALLED, _STATED):
        for match in pattern.finditer(code):
            name = match.group(1)
            if name not in known and name not in found and not name.startswith("__builtin_") \
                    and not TAG_OR_MEMBER_BEFORE.search(code[max(0, match.start(1) - 80):
                                                             match.start(1)]):
                found.append(name)
    return found


def may_hide(code: str, read: ReadMacros) -> bool:
    """Whether a header of the driver READ could not read may hide a macro
    that names or writes a word of CODE: CODE uses a name nothing read
    accounts for (unaccounted(), default-deny).  A <...> header not found
    is the kernel's: a run outside a tree without a kernel is refused, or
    warned of with --no-kernel-headers, before any work; in a tree, those
    are the headers a build generates (autoconf.h, asm-offsets.h)."""
    return bool(read.unread) and bool(unaccounted(code, read))


def _may_paste(found: Definition, word: str) -> bool:
    """Whether a paste of FOUND may spell WORD: each operand a parameter
    (any word) or a piece of WORD."""
    return any(all(piece in found.parameters or piece in word for piece in match.groups())
               for match in _PASTE.finditer(found.body))


def naming(found: Iterable[Definition], word: str,
           how: Callable[[str], bool] | None = None,
           pasting: Iterable[Definition] | None = None, code: str = "") -> set[str]:
    """The names of the macros of FOUND whose expansion names WORD (HOW,
    given the body, says whether it names it in the way asked: writes it).
    PASTING: the definitions whose pastes may spell it whatever their
    arguments (all when None); the pastes of the others count where the
    text shows the pieces (spelled_in_text: in a body of FOUND or CODE)."""
    found = list(found)
    pasting = None if pasting is None else set(pasting)
    shown = set() if pasting is None else spelled_in_text(found, word, code)
    pattern = re.compile(r"\b%s\b" % re.escape(word))
    names = {d.name for d in found if word not in d.parameters and (
        (how(d.body) if how else pattern.search(d.body))
        or d.name in shown or ((pasting is None or d in pasting) and _may_paste(d, word)))}
    return _closure(names, [(d.name, set(_WORD.findall(d.body)) - d.parameters)
                            for d in found])


_CHAIN = re.compile(r"\w+(?:\s*##\s*\w+)+")


def spelled_in_text(found: list[Definition], word: str, code: str = "") -> set[str]:
    """The names of the macros of FOUND (a header of the tree's include
    path too) whose paste spells WORD from pieces a text read shows: a paste
    of fixed pieces only (`ino ## de`), or one of parameters, fixed pieces
    aside, that a body of FOUND or CODE calls with arguments that complete
    the token (NODE(i) of `p ## node`, CAT(ino, de) of `a ## b`), or with
    parameters of a macro so called, to any depth.  A paste forms one
    token: what it spells must be WORD whole, not a piece of it."""
    shown, templates = set(), {}
    for d in found:
        for chain in _CHAIN.finditer(d.body):
            operands = [o.strip() for o in chain.group().split("##")]
            if not any(o in d.parameters for o in operands):
                if "".join(operands) == word:
                    shown.add(d.name)
            elif re.fullmatch(_spelling(operands, d.parameters), word):
                templates.setdefault(d.name, []).append(operands)
    if not templates:
        return shown
    by_name = {d.name: d for d in found}
    sites = [(d.name, d.parameters, d.body) for d in found] + [(None, frozenset(), code)]
    grew = True
    while grew:
        grew = False
        calls = re.compile(r"\b(%s)\s*\(" % "|".join(map(re.escape, sorted(templates))))
        for caller, parameters, body in sites:
            for call in calls.finditer(body):
                callee = by_name.get(call.group(1))
                if callee is None:
                    continue
                end = closing(body, call.end() - 1, "()")
                arguments = [a.strip() for a in split_top_level(body[call.end():end])]
                given = dict(zip(callee.ordered, arguments))
                for operands in list(templates[call.group(1)]):
                    # Each operand as the caller passes it: a fixed word, a
                    # parameter of the caller (passed on), or any word.
                    passed = [given.get(o, o) if o in callee.parameters else o
                              for o in operands]
                    passed = [p if re.fullmatch(r"\w+", p) else "__VA_ARGS__"
                              for p in passed]
                    if not re.fullmatch(_spelling(passed, parameters | {"__VA_ARGS__"}),
                                        word):
                        continue
                    if caller is None or not set(passed) & parameters:
                        shown.add(caller or call.group(1))
                    elif passed not in templates.setdefault(caller, []):
                        templates[caller].append(passed)
                        grew = True
    return shown


def _spelling(operands: list[str], parameters) -> str:
    """The pattern of the token OPERANDS paste: a parameter is any word."""
    return "".join(r"\w*" if o in parameters else re.escape(o) for o in operands)


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
    return uses_naming(definitions(text), word, code, how)


def uses_naming(found: Iterable[Definition], word: str, code: str,
                how: Callable[[str], bool] | None = None,
                pasting: Iterable[Definition] | None = None) -> bool:
    """Whether CODE (a function's text, comments blanked) calls or names a
    macro of FOUND whose expansion names WORD (as naming())."""
    names = naming(found, word, how, pasting, code)
    lines = [line for line in code.split("\n") if not re.match(r"\s*#\s*define\b", line)]
    return bool(names) and re.search(r"\b(?:%s)\b" % "|".join(map(re.escape, sorted(names))),
                                     "\n".join(lines)) is not None

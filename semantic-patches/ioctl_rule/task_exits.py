"""Calls that end the task (do_exit(), BUG(), panic(), a function of the file
declared noreturn): under -D mutex a handler that may reach one is refused.

The BKL was released when its holder exited (or BUG() killed it); a mutex
is not, so every later ioctl of the device would wait for ever.  Read
default-deny: BUG_ON() counts unless its condition is a literal 0 (its
taken path ends the task), so does a macro of the file or of the headers
read that names one of these, and every function of the file the handler
calls is read the same way (locking.reachable)."""

import re

from .ctext import closing_or_none
from .locking import function_text, reachable
from .macros import DIRECTIVE_LINE, file_scope, macros_of
from .source import code_text
from .state import per_file

# The kernel's own: they never return, in every 2.6 tree.
ALWAYS = frozenset({"BUG", "panic", "do_exit", "complete_and_exit",
                    "__builtin_trap", "__builtin_unreachable"})
# An assertion: it ends the task when its condition holds.
ASSERTS = frozenset({"BUG_ON"})
# The spellings of the attribute, 2.6's own macros for it included.
MARKERS = frozenset({"noreturn", "__noreturn__", "__noreturn", "_Noreturn",
                     "ATTRIB_NORET", "NORET_TYPE", "NORET_AND"})
ATTRIBUTE = re.compile(r"\b__attribute(?:__)?\s*\(")
NAME_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
USED = re.compile(r"\b([A-Za-z_]\w*)(\s*\()?")        # a call, or an object-like macro
WORD = re.compile(r"[A-Za-z_]\w*")

_halting = per_file({})


def halting_names(file):
    """Names whose call may end the task in FILE: the kernel's own, the
    functions the file declares noreturn, and the macros read whose body
    names one of these."""
    if file not in _halting:
        table = macros_of(file)
        markers = set(MARKERS)
        names = set(ALWAYS | ASSERTS) | declared_noreturn(file, markers, table)
        grown = True
        while grown:                   # a macro that names a macro that halts
            grown = False
            for name, bodies in table.bodies.items():
                if name not in names and any(names.intersection(b) for b in bodies):
                    names.add(name)
                    grown = True
        _halting[file] = frozenset(names)
    return _halting[file]


def declared_noreturn(file, markers, table):
    """The functions FILE declares or defines with a noreturn marker
    (MARKERS, grown by the macros that spell one)."""
    grown = True
    while grown:                       # #define ATTRIB_NORET __attribute__((noreturn))
        grown = False
        for name, bodies in table.bodies.items():
            if name not in markers and any(markers.intersection(b) for b in bodies):
                markers.add(name)
                grown = True
    scope = file_scope(DIRECTIVE_LINE.sub("", code_text(file)))
    found = set()
    for chunk in re.split(r"[;}]", scope):
        if markers.isdisjoint(WORD.findall(chunk)):
            continue
        for match in NAME_CALLED.finditer(_without_attributes(chunk)):
            if match.group(1) not in markers:
                found.add(match.group(1))
                break
    return found


def _without_attributes(text):
    """TEXT without its __attribute__((...)) groups."""
    while True:
        match = ATTRIBUTE.search(text)
        if match is None:
            return text
        close = closing_or_none(text, match.end() - 1, "()")
        text = text[:match.start()] + " " + (text[close + 1:] if close is not None else "")


def ends_task(file, h):
    """Where h, or a function of its file that it calls, may end the task:
    "do_exit() at line N[ in fn()]", or None."""
    names = halting_names(file)
    object_like = set(macros_of(file).bodies) - macros_of(file).function_like
    code = code_text(file)
    for fn in reachable(file, h):
        text = function_text(file, fn)
        start = code.find(text)
        for match in USED.finditer(text):
            name = match.group(1)
            if name not in names or not match.group(2) and name not in object_like or \
                    name in ASSERTS and _never_fires(text, match):
                continue
            line = code.count("\n", 0, start + match.start()) + 1
            return "%s%s at line %d%s" % (name, "()" if match.group(2) else "", line,
                                          "" if fn == h else " in %s()" % fn)
    return None


def _never_fires(text, match):
    """Whether the assertion MATCH calls has a literal 0 for condition."""
    close = closing_or_none(text, match.end() - 1, "()")
    return close is not None and re.fullmatch(r"[\s()]*0[\s()]*", text[match.end():close])

"""Names the kbuild flags of a file's Makefile define, which the rule does
not read.

`ccflags-y += '-DFL_ENTER(f)=...'`, `EXTRA_CFLAGS += -DFL_LEVEL=2`,
`CFLAGS_fl.o += -UFL_TRACE`: the compiler sees FL_ENTER as the flag spells
it, not as the file's default (`#ifndef FL_ENTER` / `#define FL_ENTER(f)
do { } while (0)`) that the macro table reads, and the rule reads no
flag's value.  Such a name, or a macro whose body names one, may hide a
return (pushdown would leave the lock held) or name the inode (a new
signature would leave it undeclared).  A header a flag forces in
(-include, -imacros) or a flag not expanded may define any name.
Default-deny: a handler whose code names one (directives and #if 0 code
aside), or any handler of a file with such a header or flag, takes the
wrapper that keeps its signature, or is refused (decide()).  The flags
are those ioctl_rework.ctext.include_search.kbuild_flags() reads, as the
member-type proof reads them."""

import re

from ioctl_rework.ctext import include_search

from .state import per_file
from .ctext import IDENTIFIER
from .source import directive_free_code, offset_of, source_lines
from .conditionals import never_compiled
from .macros import macros_of, root_and_path

_flags = per_file({})      # file -> include_search.KbuildFlags
_tainted = per_file({})    # file -> names the flags define, and macros that name one
_found = per_file({})      # (file, handler) -> why its code is not what the rule reads


def flags_of(file):
    if file not in _flags:
        _flags[file] = include_search.kbuild_flags(*root_and_path(file))
    return _flags[file]


def tainted(file):
    """The names the file's flags (re)define, and every macro read whose
    body names one of them, however deep."""
    if file not in _tainted:
        names = set(flags_of(file).named)
        bodies = macros_of(file).bodies if names else {}
        grew = True
        while grew:
            grew = False
            for name, identifiers in bodies.items():
                if name not in names and any(body & names for body in identifiers):
                    names.add(name)
                    grew = True
        _tainted[file] = names
    return _tainted[file]


def record(file, h, first, last):
    """Note why h (lines FIRST to LAST) is not what the rule reads, if its
    file's flags make it so."""
    flags = flags_of(file)
    unread = flags.forced + flags.unexpanded
    if unread:
        _found[(file, h)] = "a kbuild flag of its Makefile brings in what the rule does " \
            "not read (%s)" % ", ".join(unread[:2])
        return
    names = tainted(file)
    if not names:
        return
    code = directive_free_code(file)
    start = offset_of(file, first, 0)
    end = offset_of(file, last + 1, 0) if last < len(source_lines(file)) else len(code)
    for match in IDENTIFIER.finditer(code, start, end):
        line = code.count("\n", 0, match.start()) + 1
        if match.group() in names and never_compiled(file, line) is None:
            direct = match.group() in flags_of(file).named
            _found[(file, h)] = "%s at line %d is %s a kbuild flag of its Makefile defines, " \
                "whose value the rule does not read" % (
                    match.group(), line, "a name" if direct else "a macro naming what")
            return


def hidden_by_flags(file, h):
    """Why h's code may not be what the rule reads because of its file's
    kbuild flags, or None."""
    return _found.get((file, h))

"""The file spatch is converting, read as spatch counts its lines: its code
with comments and strings blanked, its brace pairs, and offsets.  Cached
per file (state.per_file)."""

import re

from .state import per_file
from .ctext import DIRECTIVE, NOT_CODE, code_only


def block_depth(file, first, line, column):
    lines = source_lines(file)[first - 1:line]
    lines[-1] = lines[-1][:column]
    code = NOT_CODE.sub("", "\n".join(lines))
    return code.count("{") - code.count("}")


def text_at(p):
    """The source text at a one-line position."""
    line = source_lines(p[0].file)[int(p[0].line) - 1]
    return line[int(p[0].column):int(p[0].column_end)]

_words = per_file({})


def words_of(file):
    """Every identifier-like word of the file, comments and strings aside."""
    if file not in _words:
        _words[file] = set(re.findall(r"\w+", NOT_CODE.sub(" ", "\n".join(source_lines(file)))))
    return _words[file]

_sources = per_file({})


def source_lines(file):
    if file not in _sources:
        with open(file, errors="replace", newline="") as f:
            _sources.clear()
            _sources[file] = f.read().split("\n")  # as spatch counts lines, not splitlines()
    return _sources[file]

# Initializers are read from the text of the file a position is in, which
# after a rewrite is spatch's temporary copy of the changed declaration:
# what an entry is (its structure, whether that sets .unlocked_ioctl) is
# then read the same way as before the rewrite.
_braces = per_file({})
_code = per_file({})


def code_text(file):
    if file not in _code:
        _code[file] = code_only("\n".join(source_lines(file)))
    return _code[file]
_directive_free = per_file({})


def directive_free_code(file):
    """code_text() with every directive blanked: the declaration before an
    initializer starts after a #define, whatever its body ends with."""
    if file not in _directive_free:
        _directive_free[file] = DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()),
                                              code_text(file))
    return _directive_free[file]


def brace_pairs(file):
    """{open: close} offsets of every brace pair of the file's code."""
    if file not in _braces:
        pairs, opened = {}, []
        for offset, char in enumerate(code_text(file)):
            if char == "{":
                opened.append(offset)
            elif char == "}" and opened:
                pairs[opened.pop()] = offset
        _braces[file] = pairs
    return _braces[file]


def offset_of(file, line, column):
    return sum(len(text) + 1 for text in source_lines(file)[:line - 1]) + column

"""The macros of a file and of the headers it includes with quotes, and the
exits they hide: SmPL has no pattern for a statement expression, a
computed goto or the body of a macro, so exits hidden there are found in
the handler's text."""

import os
import re

from .state import (fact, facts, functions, inode_param, per_file, seen_returns,
                    written_returns)
from .ctext import IDENTIFIER, code_only
from .source import source_lines
from .conditionals import without_dead_code


# SmPL has no pattern for a statement expression, a computed goto or the
# body of a macro, so exits hidden there are found in the handler's text.
# A macro's body is read from the file and from every header it includes
# with quotes, found next to the including file as the preprocessor finds
# it first; a macro returns when its body says return or names a macro
# that returns.
_macros = per_file({})         # file -> MacroTable
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(?)(.*)$", re.MULTILINE)
QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
CONTINUATION = re.compile(r"\\[ \t]*\r?\n")
MAX_HEADERS = 64


class MacroTable:
    def __init__(self):
        self.bodies = {}       # name -> [identifiers of each definition's body]
        self.texts = {}        # name -> [the body of each definition]
        self.function_like = set()
        self.returning = set()
        self.missing = []      # quoted headers that could not be read


def read_macros(file):
    table = MacroTable()
    seen, todo = {os.path.normpath(file)}, [file]
    while todo:
        path = todo.pop(0)
        try:
            with open(path, errors="replace", newline="") as f:
                raw = f.read()
        except OSError:
            table.missing.append(path)
            continue
        for name, paren, body in DEFINE.findall(CONTINUATION.sub(" ", code_only(raw))):
            if paren:
                table.function_like.add(name)
            table.bodies.setdefault(name, []).append(set(IDENTIFIER.findall(body)))
            table.texts.setdefault(name, []).append(paren + body)
        for name in QUOTED_INCLUDE.findall(raw):
            header = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if header not in seen and len(seen) < MAX_HEADERS:
                seen.add(header)
                todo.append(header)
    grew = True
    while grew:
        grew = False
        for name, bodies in table.bodies.items():
            if name not in table.returning and \
                    any("return" in b or b & table.returning for b in bodies):
                table.returning.add(name)
                grew = True
    return table


def macros_of(file):
    if file not in _macros:
        _macros[file] = read_macros(file)
    return _macros[file]

# A statement that may be a macro of a header we could not read.
STATEMENT_MACRO = re.compile(r"(?:[;{})]|\belse\b|\bdo\b)\s*([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)\s*[;(]")


def hidden_exits(file, h, first, last):
    table = macros_of(file)
    lines = without_dead_code(code_only("\n".join(source_lines(file)[first - 1:last])).split("\n"))
    body = "\n".join(lines)

    def found(name, offset, detail=None):
        line = first + body.count("\n", 0, offset)
        fact(file, h, name, line)
        if detail is not None:
            facts[(file, h)].setdefault(name + "_name", detail)

    match = re.search(r"\(\s*\{", body)
    if match:
        found("stmt_expr", match.start())
    match = re.search(r"\bgoto\s*\*", body)
    if match:
        found("computed_goto", match.start())
    for match in IDENTIFIER.finditer(body):
        name = match.group(0)
        if name in table.returning and (name not in table.function_like or
                                        re.match(r"\s*\(", body[match.end():])):
            found("return_macro", match.start(), name)
            break
    if table.missing:
        known = set(table.bodies) | functions.get(file, set())
        for match in STATEMENT_MACRO.finditer(body):
            if match.group(1) not in known:
                found("unknown_macro", match.start(1), match.group(1))
                break
    # Each return spatch matched is counted per line (seen_return); one
    # it did not match is in a macro argument or in code it skipped.
    written = written_returns.setdefault((file, h), {})
    for match in re.finditer(r"\breturn\b", body):
        line = first + body.count("\n", 0, match.start())
        in_parentheses = body.count("(", 0, match.start()) > body.count(")", 0, match.start())
        count, inside = written.get(line, (0, False))
        written[line] = (count + 1, inside or in_parentheses)


def unseen_return(file, h):
    """(line, inside parentheses) of the first return spatch did not see, or None."""
    seen = seen_returns.get((file, h), {})
    for number, (count, inside) in sorted(written_returns.get((file, h), {}).items()):
        if len(seen.get(number, ())) < count:
            return number, inside
    return None

# A macro whose body names the inode parameter uses it where the handler
# expands it; SmPL sees only the macro call.  The derived local keeps it.
_inode_macros = per_file({})


def macros_naming(file, ino):
    """Names of the macros of the file whose body names ino."""
    if (file, ino) not in _inode_macros:
        text = re.sub(r"\\\r?\n", " ", "\n".join(source_lines(file)))
        word = re.compile(r"\b%s\b" % re.escape(ino))
        found = set()
        for name, params, body in re.findall(r"^\s*#\s*define\s+(\w+)(\([^)]*\))?(.*)$",
                                             text, re.MULTILINE):
            # A parameter of that name is not the inode of the handler.
            if word.search(body) and not word.search(params):
                found.add(name)
        _inode_macros[(file, ino)] = found
    return _inode_macros[(file, ino)]


def unmatched_definition(file, h):
    """The line of a definition of h that the text of the file has but no
    rule matched (spatch drops a function whose control flow it cannot
    build), or None."""
    code = code_only("\n".join(source_lines(file)))
    found = re.search(r"^[^;{}#]*\b(%s)\s*\([^;{}]*\)\s*\{" % re.escape(h), code, re.MULTILINE)
    return code.count("\n", 0, found.start(1)) + 1 if found else None


def named_by_used_macro(file, name):
    """Whether a macro of the file that names NAME is used in its code: a
    local of that name is then used, though no line of code names it."""
    macros = macros_naming(file, name)
    if not macros:
        return False
    uses = re.compile(r"\b(%s)\b" % "|".join(sorted(macros)))
    return any(uses.search(text) for text in code_only("\n".join(source_lines(file))).split("\n")
               if not re.match(r"\s*#\s*define\b", text))


def inode_in_macros(file, h, first, last):
    macros = macros_naming(file, inode_param[(file, h)])
    if not macros:
        return
    uses = re.compile(r"\b(%s)\b" % "|".join(sorted(macros)))
    for number, text in enumerate(source_lines(file)[first - 1:last], first):
        if uses.search(re.sub(r"/\*.*?\*/|//.*$|\"(?:\\.|[^\"\\])*\"", "", text)):
            fact(file, h, "inode_in_macro", number)

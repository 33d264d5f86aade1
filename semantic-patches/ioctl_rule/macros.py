"""The macros and declarations of a file and of the headers it includes,
the names a handler uses, and the exits they hide: SmPL has no pattern for a statement expression, a
computed goto or the body of a macro, so exits hidden there are found in
the handler's text."""

import functools
import os
import re
from typing import NamedTuple

from .state import (fact, facts, functions, inode_param, per_file, seen_returns,
                    written_returns)
from .ctext import IDENTIFIER, code_only
from .source import code_text, offset_of, source_lines
from .conditionals import conditionals_at, outside_ifs, without_dead_code
from .kernel_interfaces import CALLS as KERNEL_CALLS

from ioctl_rework.ctext import include_search, macro_names


# SmPL has no pattern for a statement expression, a computed goto or the
# body of a macro, so exits hidden there are found in the handler's text.
# A macro's body is read from the file and from every header it includes,
# found as the compiler finds it (ioctl_rework.ctext.include_search: next
# to the including file, the directory's kbuild -I, a tree's include/ and
# arch/*/include/); a macro returns when its body says return or names a
# macro that returns.  The names those files define or declare are what
# a handler may use without the wrapper (unread_name()).
_macros = per_file({})         # file -> MacroTable
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(?)(.*)$", re.MULTILINE)
CONTINUATION = re.compile(r"\\[ \t]*\r?\n")
DIRECTIVE_LINE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)
# A function declared or defined at file scope: a type word or a star, then
# the name and its parameter list.  The quantifiers are possessive: no
# backtracking could find another match, and file_scope() leaves runs of
# thousands of blanks (a struct's body) that a backtracking \s+ followed
# by \s* scans quadratically (2.9 s a file of 2.6.9's drivers/char).
DECLARED = re.compile(r"(?:\w|\*)\s++\**+\s*+(\w++)\s*+\(")
# An object declared at file scope (a global, an extern, an array): its
# name then "=", ";", "," or "[".  A macro that returns could not be
# declared as one and still compile.
DECLARED_OBJECT = re.compile(r"(?:\w|\*)\s++\**+\s*+(\w++)\s*+(?=[=;,\[])")
# What stands for the headers a cut closure left unread, among the missing
# ones: a name defined there is unread, and the reason says why.
CUT = "the headers past the first %d of the include closure (its read limit)"


class MacroTable:
    def __init__(self):
        self.bodies = {}       # name -> [identifiers of each definition's body]
        self.texts = {}        # name -> [the body of each definition]
        self.function_like = set()
        self.returning = set()
        self.declared = set()  # functions and objects declared or defined in what was read
        self.enumerators = set()  # constants of the enums of what was read
        self.missing = []      # quoted headers that could not be found
        self.unread = []       # angle-bracket headers that could not be found
        self.search = None     # the include_search.SearchPath of the file
        self.words = set()     # every identifier of the headers read: names a new one avoids


BRACE = re.compile(r"[{}]")
NOT_NEWLINE = re.compile(r"[^\n]")


def file_scope(code):
    """CODE with everything inside braces blanked (lines kept), the braces
    too but a closing one back at file scope.  Stretch by stretch between
    braces: char by char it cost 0.3 s a file of 2.6.9 over its headers."""
    out, depth, start = [], 0, 0
    for brace in BRACE.finditer(code):
        stretch = code[start:brace.start()]
        out.append(stretch if depth == 0 else NOT_NEWLINE.sub(" ", stretch))
        depth = depth + 1 if brace.group() == "{" else max(depth - 1, 0)
        out.append(brace.group() if depth == 0 else " ")
        start = brace.end()
    stretch = code[start:]
    out.append(stretch if depth == 0 else NOT_NEWLINE.sub(" ", stretch))
    return "".join(out)


def root_and_path(file):
    """(root, path relative to it) for a file spatch names: relative to the
    directory spatch runs in (convert runs it at the tree's top), or absolute."""
    if os.path.isabs(file):
        return "/", file.lstrip("/")
    return os.getcwd(), os.path.normpath(file)


def read_text(root, path):
    try:
        with open(os.path.join(root, path), errors="replace", newline="") as f:
            return f.read()
    except OSError:
        return None


ENUM_BODY = re.compile(r"\benum\b[^{;()]*\{([^{}]*)\}")
ENUMERATOR = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)")


class TextFacts(NamedTuple):
    """What one file's text adds to a MacroTable."""
    words: frozenset         # its identifiers
    defines: tuple           # (name, function-like, identifiers of the body, body) in order
    declared: frozenset      # functions and objects declared at its file scope
    enumerators: frozenset


@functools.lru_cache(maxsize=1024)
def text_facts(raw):
    """The facts of a file's text RAW.  They depend on the text alone, and
    the files of one spatch process (--file-groups) include the same
    headers: kept by text, each is read once a process, not once a file."""
    code = CONTINUATION.sub(" ", code_only(raw))
    defines = tuple((name, bool(paren), frozenset(IDENTIFIER.findall(body)), paren + body)
                    for name, paren, body in DEFINE.findall(code))
    without_directives = DIRECTIVE_LINE.sub("", code)
    scope = file_scope(without_directives)
    enumerators = frozenset(name for body in ENUM_BODY.findall(without_directives)
                            for name in ENUMERATOR.findall(body))
    return TextFacts(frozenset(IDENTIFIER.findall(code)), defines,
                     frozenset(DECLARED.findall(scope) + DECLARED_OBJECT.findall(scope)),
                     enumerators)


def read_macros(file):
    table = MacroTable()
    root, rel = root_and_path(file)
    # The closure convert and its proof read, with the same limit.
    headers = include_search.read_headers(root, rel)
    table.search, table.missing, table.unread = headers.search, headers.missing, headers.unread
    if headers.cut:
        table.missing = [CUT % include_search.LIMIT] + table.missing
    for path, raw in headers.texts.items():
        found = text_facts(raw)
        if path != rel:
            table.words.update(found.words)
        for name, function_like, identifiers, text in found.defines:
            if function_like:
                table.function_like.add(name)
            table.bodies.setdefault(name, []).append(identifiers)
            table.texts.setdefault(name, []).append(text)
        table.declared.update(found.declared)
        table.enumerators.update(found.enumerators)
    table.declared |= table.enumerators
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
    used = used_names.setdefault((file, h), [])
    for name, offset in names_used(body):
        if name not in NOT_NAMES:
            used.append((name, first + body.count("\n", 0, offset)))
    # Strings are blanked in BODY: the include's name is read from the source.
    included_in_body(file, h, first, "\n".join(source_lines(file)[first - 1:last]), table)
    # Each return spatch matched is counted per line (seen_return); one
    # it did not match is in a macro argument or in code it skipped.
    written = written_returns.setdefault((file, h), {})
    for match in re.finditer(r"\breturn\b", body):
        line = first + body.count("\n", 0, match.start())
        in_parentheses = body.count("(", 0, match.start()) > body.count(")", 0, match.start())
        count, inside = written.get(line, (0, False))
        written[line] = (count + 1, inside or in_parentheses)


# A name a handler uses that may hide an exit: one called (not a member of
# a structure), or one standing alone as a statement (a lower-case statement
# macro hides a return as well as an upper-case one).
CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
STATEMENT_NAME = re.compile(r"(?:[;{}:)]|\belse\b|\bdo\b)\s*([A-Za-z_]\w*)\s*;")


def names_used(code):
    """(name, offset) of each name CODE calls or states alone, members aside."""
    for match in CALLED.finditer(code):
        before = code[:match.start()].rstrip()
        if not before.endswith(".") and not before.endswith("->"):
            yield match.group(1), match.start()
    for match in STATEMENT_NAME.finditer(code):
        yield match.group(1), match.start(1)


C_WORDS = set("""if else while for do switch case default return break continue goto sizeof
typeof __typeof__ __typeof __alignof__ _Alignof offsetof asm __asm__ __asm volatile
__volatile__ defined int long short char unsigned signed void float double const struct
union enum static register auto extern inline __inline__ __inline __attribute__
__builtin_expect __builtin_constant_p __builtin_offsetof""".split())
NOT_NAMES = C_WORDS
used_names = per_file({})      # (file, handler) -> [(name, line)] that need a definition
body_includes = per_file({})   # (file, handler) -> [(line, header, found path or None)]


def included_in_body(file, h, first, body, table):
    """A file #included inside the handler's body (a list of cases) is part
    of it: its names need definitions and a return in it is one spatch
    never sees."""
    root, rel = root_and_path(file)
    for match in include_search.INCLUDE.finditer(body):
        name = match.group(1) or match.group(2)
        line = first + body.count("\n", 0, match.start())
        path = include_search.find_header(root, table.search, rel, name, bool(match.group(2)))
        body_includes.setdefault((file, h), []).append((line, name, path))
        text = read_text(root, path) if path else None
        if text is None:
            continue
        code = code_only(text)
        for used, _ in names_used(code):
            if used not in NOT_NAMES:
                used_names.setdefault((file, h), []).append((used, line))


def body_include_exit(file, h):
    """(line, why) for a file included in h's body that may hold an exit, or None."""
    root, _ = root_and_path(file)
    for line, name, path in body_includes.get((file, h), ()):
        if path is None:
            return line, "includes %s in its body, which was not found" % name
        text = read_text(root, path) or ""
        if re.search(r"\breturn\b|\bgoto\b", code_only(text)):
            return line, "includes %s in its body, which returns or jumps where " \
                "spatch does not see it" % name
    return None


def unread_name(file, h, known_locals):
    """(name, line) of the first name h uses whose definition was not read:
    not a macro, function or declaration of the file or of a header found,
    not a local or parameter (a pointer to a function), and not a kernel
    interface known not to leave its caller; or None.  Default-deny, in a
    tree or not: a name called for its value may be a GNU statement
    expression of a header not read, ({ if (...) return ...; v; }), as a
    statement one may be a do { return ...; } while (0).  A prototype the
    run read proves a function: the macro would not let it compile."""
    table = macros_of(file)
    known = set(table.bodies) | table.declared | functions.get(file, set()) | \
        KERNEL_CALLS | set(known_locals)
    for name, line in used_names.get((file, h), ()):
        if name not in known and not name.startswith("__builtin_"):
            return name, line
    return None


def unseen_return(file, h):
    """(line, inside parentheses) of the first return spatch did not see, or None."""
    seen = seen_returns.get((file, h), {})
    for number, (count, inside) in sorted(written_returns.get((file, h), {}).items()):
        if len(seen.get(number, ())) < count:
            return number, inside
    return None

# A macro whose body names the inode parameter uses it where the handler
# expands it; SmPL sees only the macro call.  The derived local keeps it.
# So does a macro that names such a macro, to any depth (#define A() B(),
# #define B() iminor(inode)), and one whose paste may spell it.
_inode_macros = per_file({})


def macros_naming(file, ino):
    """Names of the macros of the file and its headers whose expansion
    names ino (ctext/macro_names.py: to any depth, a paste that may spell
    it, a cycle ended)."""
    if (file, ino) not in _inode_macros:
        found = macro_names.definitions("\n".join(source_lines(file)))
        found += [macro_names.definition(name, text)
                  for name, texts in macros_of(file).texts.items() for text in texts]
        _inode_macros[(file, ino)] = macro_names.naming(found, ino)
    return _inode_macros[(file, ino)]


def drops_an_argument(table, name):
    """Whether a definition of the function-like macro NAME does not name
    one of its parameters (#define DPRINTK(fmt, args...) left empty
    without DEBUG): an argument of a call may be compiled out."""
    for text in table.texts.get(name, ()):
        params = re.match(r"\(([^)]*)\)(.*)", text, re.DOTALL)
        if not params:
            continue
        body = set(IDENTIFIER.findall(params.group(2)))
        for param in (p.strip() for p in params.group(1).split(",")):
            word = "__VA_ARGS__" if param == "..." else param.rstrip(".").strip()
            if word and word not in body:
                return True
    return False


def in_dropped_argument(file, first, line, column):
    """The function-like macro whose call holds the code at LINE, COLUMN
    (of a function that starts at line FIRST) as an argument it may drop,
    or None."""
    code, table = code_text(file), macros_of(file)
    start, depth = offset_of(file, first, 0), 0
    for at in range(offset_of(file, line, column) - 1, start - 1, -1):
        char = code[at]
        if char == ")":
            depth += 1
        elif char == "(" and depth:
            depth -= 1
        elif char == "(":
            name = re.search(r"(\w+)\s*$", code[max(start, at - 80):at])
            if name and name.group(1) in table.function_like and \
                    drops_an_argument(table, name.group(1)):
                return name.group(1)
        elif char in ";{}" and depth == 0:
            return None
    return None


def unmatched_definition(file, h):
    """The line of a definition of h that the text of the file has but no
    rule matched (spatch drops a function whose control flow it cannot
    build), or None."""
    code = code_only("\n".join(source_lines(file)))
    found = re.search(r"^[^;{}#]*\b(%s)\s*\([^;{}]*\)\s*\{" % re.escape(h), code, re.MULTILINE)
    return code.count("\n", 0, found.start(1)) + 1 if found else None


def inode_in_macros(file, h, first, last):
    ino = inode_param[(file, h)]
    if not macros_naming(file, ino):
        return
    for number, _ in macro_uses(file, ino, first, last):
        fact(file, h, "inode_in_macro", number)
    if macro_use_in_every_build(file, ino, first, last):
        fact(file, h, "inode_macro_every_build", first)


def macro_uses(file, ino, first, last):
    """(line, column) of each use, in lines FIRST to LAST, of a macro of
    the file or its headers whose body names INO."""
    macros = macros_naming(file, ino)
    if not macros:
        return      # an empty alternation would match at every word
    uses = re.compile(r"\b(%s)\b" % "|".join(sorted(macros)))
    for number, text in enumerate(source_lines(file)[first - 1:last], first):
        for use in uses.finditer(re.sub(r"/\*.*?\*/|//.*$|\"(?:\\.|[^\"\\])*\"",
                                        lambda m: " " * len(m.group()), text)):
            yield number, use.start()


def macro_use_in_every_build(file, ino, first, last):
    """Whether the function of lines FIRST to LAST names INO in every build
    through a macro: outside every #if of its body, not in an argument a
    macro may drop, a macro that names_in_every_build()."""
    if not macros_naming(file, ino):
        return False
    depth = len(conditionals_at(file, first))
    lines = source_lines(file)
    return any(len(conditionals_at(file, number)) <= depth and
               names_in_every_build(file, re.match(r"\w+", lines[number - 1][column:]).group(),
                                    ino) and
               not in_dropped_argument(file, first, number, column)
               for number, column in macro_uses(file, ino, first, last))


def names_in_every_build(file, name, ino, seen=frozenset()):
    """Whether the macro NAME names INO wherever the file is compiled: its
    one definition is the file's, outside every #if, never #undef'd, and
    its body names INO or a macro that names it in every build; one in a
    header, or under an #if (#ifdef USE_INODE / #define FL_MINOR()
    iminor(inode) / #else / #define FL_MINOR() 0), may not.  A cycle of
    macros (SEEN) proves nothing."""
    lines = source_lines(file)
    defined = [number for number, text in enumerate(lines, 1)
               if re.match(r"\s*#\s*(define|undef)\s+%s\b" % re.escape(name), text)]
    texts = macros_of(file).texts.get(name, ())
    if not (len(defined) == 1 and len(texts) == 1 and name not in seen and
            re.match(r"\s*#\s*define\b", lines[defined[0] - 1]) is not None and
            outside_ifs(file, defined[0])):
        return False
    found = macro_names.definition(name, texts[0])
    words = set(IDENTIFIER.findall(found.body)) - found.parameters
    return ino in words or any(names_in_every_build(file, other, ino, seen | {name})
                               for other in words & macros_naming(file, ino))


def old_style_definition(file, h):
    """The line of an old-style (K&R) definition of h, whose parameters are
    names only, declared between the parentheses and the body; or None."""
    code = code_only("\n".join(source_lines(file)))
    found = re.search(r"\b%s\s*\(\s*\w+(?:\s*,\s*\w+)*\s*\)\s*(?:[^;{}()]+;\s*)+\{"
                      % re.escape(h), code)
    return code.count("\n", 0, found.start()) + 1 if found else None


def defining_macro(file, h):
    """(macro, line) when a macro of the file or its headers defines h: the
    macro's body defines a function named by its parameter, and the file
    calls it with h at file scope (DEFINE_IOCTL(h)); or None."""
    table = macros_of(file)
    code = code_only("\n".join(source_lines(file)))
    for match in re.finditer(r"^[ \t]*(\w+)\s*\(([^()]*)\)\s*;?[ \t]*$", code, re.MULTILINE):
        name, arguments = match.group(1), [a.strip() for a in match.group(2).split(",")]
        if h not in arguments:
            continue
        for text in table.texts.get(name, ()):
            params = re.match(r"\(([^)]*)\)(.*)", text, re.DOTALL)
            if not params:
                continue
            names = [p.strip() for p in params.group(1).split(",")]
            position = arguments.index(h)
            if position < len(names) and re.search(
                    r"\b%s\s*\([^;{}]*\)\s*\{" % re.escape(names[position]), params.group(2)):
                return name, code.count("\n", 0, match.start()) + 1
    return None

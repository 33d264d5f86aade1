"""The names a C text defines or declares, and the names its code calls.

One reading for the conversion rule (semantic-patches/ioctl_rule/macros.py:
which names a handler may use unread) and for convert's search for names
of unread headers that may forward through ->ioctl (convert/unread_forwarders.py):
a macro's #define, a function or object declared at file scope, an
enumerator; and, in code, a name called (not a member) or standing alone
as a statement."""

import functools
import re
from typing import NamedTuple

from ioctl_rework.ctext.spans import code_only

IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
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
ENUM_BODY = re.compile(r"\benum\b[^{;()]*\{([^{}]*)\}")
ENUMERATOR = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)")
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


class TextFacts(NamedTuple):
    """What one file's text defines and declares."""
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


# A name code uses that may be a macro: one called (not a member of a
# structure), or one standing alone as a statement (a lower-case statement
# macro hides a return as well as an upper-case one).
CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
STATEMENT_NAME = re.compile(r"(?:[;{}:)]|\belse\b|\bdo\b)\s*([A-Za-z_]\w*)\s*;")
C_WORDS = frozenset("""if else while for do switch case default return break continue goto sizeof
typeof __typeof__ __typeof __alignof__ _Alignof offsetof asm __asm__ __asm volatile
__volatile__ defined int long short char unsigned signed void float double const struct
union enum static register auto extern inline __inline__ __inline __attribute__
__builtin_expect __builtin_constant_p __builtin_offsetof""".split())


def names_used(code):
    """(name, offset) of each name CODE calls or states alone, members aside."""
    for match in CALLED.finditer(code):
        before = code[:match.start()].rstrip()
        if not before.endswith(".") and not before.endswith("->"):
            yield match.group(1), match.start()
    for match in STATEMENT_NAME.finditer(code):
        yield match.group(1), match.start(1)

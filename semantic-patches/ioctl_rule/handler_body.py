"""A handler's body as the lock sees it: the first statement, where the
lock goes; its locals, which decide whether a return may stay after the
unlock or goes through an int temporary; and declarations whose
initializers would run before the lock."""

import collections
import re

from .state import (current_file, declarations, definitions, has, inode_param, params,
                    returned_locals, static_at, unsigned_names, variables, volatile_names,
                    wide_names)
from .ctext import (COMMENT_END, COMMENT_START, IDENTIFIER, INT, INT_LITERAL, LINE_COMMENT,
                    NEGATED_OR_PARENTHESIZED, PREPROCESSOR, UNSIGNED_INT, code_only, fits_int,
                    plain_type)
from .source import block_depth, source_lines
from .macros import macros_of


# Calls that may run before lock_kernel() in a declaration: they only
# compute from their arguments.
PURE_CALLS = {"iminor", "imajor", "MINOR", "MAJOR", "file_inode", "PDE", "PROC_I",
              "container_of", "list_entry", "to_delayed_work", "dev_get_drvdata"}


# Facts are matched where they occur and joined to a handler through the
# function around them: walking each handler's body with <+... ...+> was
# slow (minutes per file on 2.6.9) and failed on some real control flow.
def handler_at(p):
    """The .ioctl-shaped definition around position p, or None."""
    h = p[0].current_element
    return h if (p[0].file, h) in definitions else None


def inode_at(p, ino):
    """The handler around p when ino is its inode parameter, or None."""
    h = handler_at(p)
    return h if h and inode_param.get((p[0].file, h)) == ino else None


def at_top_block(p, h):
    """Whether p is in the outermost block of h's body (by brace depth)."""
    return block_depth(p[0].file, definitions[(p[0].file, h)],
                       int(p[0].line), int(p[0].column)) == 1


def first_statement_of(file, h):
    """(line, column) where h's first statement starts, or None: the first
    code after the body's brace that no declaration of h covers.  Finding
    it in SmPL (h(...) { ... when != S1  S@p ... }) walks the whole body,
    which cost more than all other facts together."""
    lines = source_lines(file)
    spans = declarations.get((file, h), {})
    number, column = definitions[(file, h)], 0
    in_body = in_comment = False
    while number <= len(lines):
        text = lines[number - 1]
        if column == 0 and not in_comment and in_body and PREPROCESSOR.match(text):
            while text.endswith("\\") and number < len(lines):
                number += 1
                text = lines[number - 1]
            number += 1
            continue
        while column < len(text):
            if in_comment:
                end = text.find(COMMENT_END, column)
                column = len(text) if end < 0 else end + 2
                in_comment = end < 0
            elif text[column].isspace():
                column += 1
            elif text.startswith(COMMENT_START, column):
                in_comment, column = True, column + 2
            elif text.startswith(LINE_COMMENT, column):
                column = len(text)
            elif not in_body:
                in_body = text[column] == "{"
                column += 1
            elif (number, column) in spans:
                number, column = spans[(number, column)]
                text = lines[number - 1]
            elif text[column] == "}":
                return None
            else:
                return (number, column)
        number, column = number + 1, 0
    return None

# A return that is not a constant or a plain local is evaluated under the
# lock into a temporary.  The temporary is an int: assigning to it converts
# the value as the return of the legacy int handler did (a long, an unsigned or
# a size_t the handler returned came back truncated and sign-extended; from
# a long temporary it would come back whole).  The handler's own "ret"
# serves only when it is one non-static int of the outermost block.
# Otherwise a fresh int, named so that nothing in the file is shadowed; one
# name per file, since the rewriting rule that uses it matches every handler.
LocalVariable = collections.namedtuple("LocalVariable", "name type line static top")


def parameter_names(file, h):
    return {inode_param.get((file, h))} | set(params.get((file, h), ()))


def static_local_names():
    return {v.name for found in variables.values() for v in found if v.static}


def plain_local(name):
    """Whether "return name;" may stay as it is after the unlock: a local
    that is neither static (another caller may change it once unlocked)
    nor of a type an int may not hold (the int handler truncated it).
    A constraint gets the text of the expression, spaces before it too."""
    name = name.strip()
    return name not in unsigned_names and name not in wide_names and \
        name not in static_local_names()


def int_constant(text, seen=()):
    """Whether the constant TEXT, returned after the unlock, has the value
    the int handler returned: an int literal, or a name this file does not
    define (an errno, an enumerator), or defines as such a constant.  A
    macro of the file that computes (a call, a cast, a name of the inode)
    or a literal an int does not hold goes through the temporary instead."""
    text = text.strip()
    if INT_LITERAL.fullmatch(text):
        return int(text, 16) <= 0x7fffffff if text[:2].lower() == "0x" else \
            int(text, 8 if text.startswith("0") else 10) <= 0x7fffffff
    if not IDENTIFIER.fullmatch(text):
        inner = NEGATED_OR_PARENTHESIZED.match(text)
        return bool(inner) and inner.group(1) != text and int_constant(inner.group(1), seen)
    texts = macros_of(current_file[0]).texts.get(text) if current_file[0] else None
    if not texts:
        return True
    return text not in seen and all(int_constant(t, seen + (text,)) for t in texts)


def ret_reusable(file, h):
    rets = [v for v in variables.get((file, h), []) if v.name == "ret"]
    return len(rets) == 1 and rets[0].top and not rets[0].static and \
        plain_type(rets[0].type) in INT and "ret" not in parameter_names(file, h)


def ret_free(file, h):
    return not has(file, h, "ret_any") and "ret" not in parameter_names(file, h)


def needs_temporary(file, h):
    return has(file, h, "complex_return") or \
        not all(plain_local(x) for x in returned_locals.get((file, h), ()))


def record_variable(p, t, x):
    file, line, column = p[0].file, int(p[0].line), int(p[0].column)
    if plain_type(t) in UNSIGNED_INT:
        unsigned_names.add(x)
    if not fits_int(t):
        wide_names.add(x)
    if re.search(r"\bvolatile\b", t):
        volatile_names.add(x)
    h = handler_at(p)
    if h and line > definitions[(file, h)]:
        variables.setdefault((file, h), []).append(LocalVariable(
            x, t, line, (file, line, column) in static_at, at_top_block(p, h)))

# What a declaration's initializer may not do before the lock, besides
# calls (the early_call rule): write a variable or read a volatile one.
# In an initializer list, which SmPL does not look into, a call too.
VOLATILE_GLOBALS = {"jiffies", "jiffies_64"}
ASSIGNMENT = re.compile(r"(<<|>>|[-+*/%&|^])=|(?<![=!<>])=(?!=)")
LIST_CALL = re.compile(r"(\b\w+|[)\]])\s*\(")
NOT_CALLS = {"sizeof", "typeof", "__typeof__", "__alignof__", "_Alignof", "offsetof"}


def initializer_effect(init):
    """What the initializer text INIT does that needs the lock, or None."""
    if re.search(r"\+\+|--", init):
        return "increments or decrements a variable"
    for match in ASSIGNMENT.finditer(init):
        if match.group(1) or init.count("(", 0, match.start()) > init.count(")", 0, match.start()):
            return "assigns a variable"
    if re.search(r"\bvolatile\b", init) or \
            set(IDENTIFIER.findall(init)) & (volatile_names | VOLATILE_GLOBALS):
        return "reads a volatile variable"
    if "{" in init:
        for match in LIST_CALL.finditer(init):
            if match.group(1) not in NOT_CALLS and match.group(1) not in PURE_CALLS:
                return "calls a function in its initializer list"
    return None


def impure_declaration(file, h):
    """(line, what it does) for the first declaration of h's outermost block
    whose initializer needs the lock in a way the early_call rule does not
    see, or None."""
    lines = source_lines(file)
    for (line, column), (end, end_column) in sorted(declarations.get((file, h), {}).items()):
        if line < definitions[(file, h)] or \
                block_depth(file, definitions[(file, h)], line, column) != 1:
            continue
        text = lines[line - 1:end]
        text[-1] = text[-1][:end_column]
        text[0] = text[0][column:]
        parts = code_only("\n".join(text)).split("=", 1)
        what = initializer_effect(parts[1]) if len(parts) == 2 else None
        if what:
            return line, what
    return None

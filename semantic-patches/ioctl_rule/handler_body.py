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
from .kernel_interfaces import CONSTANTS as KERNEL_CONSTANTS


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


def top_declarations(file, h):
    """(line, declarator text, initializer text or None) of each declaration
    of h's outermost block, in order."""
    lines = source_lines(file)
    for (line, column), (end, end_column) in sorted(declarations.get((file, h), {}).items()):
        if line < definitions[(file, h)] or \
                block_depth(file, definitions[(file, h)], line, column) != 1:
            continue
        text = lines[line - 1:end]
        text[-1] = text[-1][:end_column]
        text[0] = text[0][column:]
        parts = code_only("\n".join(text)).split("=", 1)
        yield line, parts[0], parts[1] if len(parts) == 2 else None


def top_initializers(file, h):
    """(line, initializer text) of each declaration of h's outermost block
    that has one, in order: what runs before the lock would."""
    for line, _, init in top_declarations(file, h):
        if init is not None:
            yield line, init


def impure_declaration(file, h):
    """(line, what it does) for the first declaration of h's outermost block
    whose initializer needs the lock in a way the early_call rule does not
    see, or None."""
    for line, init in top_initializers(file, h):
        what = initializer_effect(init)
        if what:
            return line, what
    return None


# Before the lock a declaration may read the parameters, the file's
# private_data and what they point to through a member (the inode's
# number, the file's flags), constants, and the locals declared before it.
# Anything else (shared state through a pointer of the driver, a global, a
# macro this reading cannot see into) was read under the BKL: a racing
# ioctl's update between that read and a later write would be lost.
CAST = re.compile(r"\(\s*(?:[\w\s]*\b(?:struct|union|enum|unsigned|signed|int|long|short|char|"
                  r"void|const)\b[\w\s]*\**|[\w\s]+\*+)\s*\)")
SIZEOF = re.compile(r"\bsizeof\s*(?:\([^()]*\)|\w+)")


def initializer_parts(init):
    """The initializers in the text after a declaration's first "=": that
    of the first declarator, then of each later one that has one
    ("u32 sum = 0, i;" has only "0")."""
    parts, depth, start = [], 0, 0
    for offset, char in enumerate(init):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(init[start:offset])
            start = offset + 1
    parts.append(init[start:])
    return [parts[0]] + [p.split("=", 1)[1] for p in parts[1:] if "=" in p]


def memory_read(init, params, locals_, table):
    """What the initializer text INIT reads that is not a parameter (or a
    member of what one points to), a local declared before it, or a
    constant, or None.  TABLE: the file's MacroTable."""
    for part in initializer_parts(init)[1:]:
        what = memory_read(part, params, locals_, table)
        if what:
            return what
    text = CAST.sub(" ", SIZEOF.sub(" ", initializer_parts(init)[0]))
    # A type named in a macro's arguments (container_of(p, struct t, member))
    # and the member it names are no reads.
    text = re.sub(r"\b(?:struct|union|enum)\s+\w+", " ", text)
    text = re.sub(r"\b((?:container_of|list_entry|list_first_entry|offsetof)\s*\(.*),\s*\w+\s*\)",
                  r"\1)", text)
    for match in re.finditer(r"\*\s*[(\w]", text):
        before = text[:match.start()].rstrip()
        if not before or before[-1] in "=(,?:!&|+-*/%<>~":
            return "a value through a pointer"
    for match in IDENTIFIER.finditer(text):
        name = match.group(0)
        before, after = text[:match.start()].rstrip(), text[match.end():].lstrip()
        if before.endswith(".") or before.endswith("->") or after.startswith("(") or \
                name in params or name in KERNEL_CONSTANTS or name in NOT_CALLS or \
                name in TYPE_WORDS or re.fullmatch(r"E[A-Z0-9]+", name):
            continue
        address = before.endswith("&") and not before.endswith("&&")
        if name in locals_:
            if not address and (after.startswith("->") or after.startswith("[")):
                member = re.match(r"(->\s*\w+|\[)", after).group(1).replace(" ", "")
                return "%s%s, shared state through a local pointer" % (
                    name, member if member != "[" else "[...]")
            continue
        texts = table.texts.get(name)
        if texts and all(re.fullmatch(r"\s*\(?\s*-?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?\s*",
                                      t) for t in texts):
            continue
        if texts:
            return "macro %s, which may read shared state or hardware" % name
        if not address:
            return "%s, which is neither a parameter nor a local" % name
    return None


TYPE_WORDS = {"int", "long", "short", "char", "unsigned", "signed", "void", "const", "struct",
              "union", "enum", "volatile", "__user", "__iomem", "u8", "u16", "u32", "u64",
              "s8", "s16", "s32", "s64", "__u8", "__u16", "__u32", "__u64", "size_t",
              "ssize_t", "loff_t", "bool", "uint", "ulong", "dev_t"}


def shared_read_declaration(file, h):
    """(line, what it reads) for the first declaration of h's outermost
    block whose initializer reads memory other than the parameters and
    the file's private_data, or None."""
    params = parameter_names(file, h) - {None}
    locals_ = set()
    for line, init in top_initializers(file, h):
        what = memory_read(init, params, locals_, macros_of(file))
        if what:
            return line, what
        locals_ |= {v.name for v in variables.get((file, h), []) if v.line <= line}
    return None


# A declaration whose initializer must not run before the lock can still
# be pushed down when it is the only one: the declaration stays, without
# its initializer, and the assignment goes right after the lock (ext2's
# "struct ext2_inode_info *ei = EXT2_I(inode);").  Only one per handler:
# the rewriting rule adds one assignment after the lock.
CALL_IN_INIT = re.compile(r"(\b\w+|[)\]])\s*\(")


def initializer_needs_lock(init, params, locals_, table):
    """Whether the initializer text INIT must run under the lock."""
    for match in CALL_IN_INIT.finditer(CAST.sub(" ", SIZEOF.sub(" ", init))):
        if match.group(1) not in NOT_CALLS and match.group(1) not in PURE_CALLS and \
                match.group(1) not in TYPE_WORDS:
            return True
    return bool(initializer_effect(init) or memory_read(init, params, locals_, table))


def without_parentheses(text):
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", "", text)
    return text


def split_declaration(file, h, early_lines):
    """(line, name) of the one declaration of h's outermost block whose
    initializer needs the lock, when it can be split (one plain, non-static,
    non-const variable with an expression initializer that no later
    initializer names); None when none needs it or it cannot be split.
    EARLY_LINES: lines spatch found calling before the lock."""
    params = parameter_names(file, h) - {None}
    locals_, needing = set(), []
    declared = list(top_declarations(file, h))
    for line, declarator, init in declared:
        if init is not None and (line in early_lines or
                                 initializer_needs_lock(init, params, locals_, macros_of(file))):
            needing.append((line, declarator, init))
        locals_ |= {v.name for v in variables.get((file, h), []) if v.line <= line}
    if len(needing) != 1:
        return None
    line, declarator, init = needing[0]
    names = IDENTIFIER.findall(declarator)
    if not names or re.search(r"\b(static|const|register)\b|[\[,(]", declarator) or \
            init.lstrip().startswith("{") or "," in without_parentheses(init):
        return None
    name = names[-1]
    later = [i for l, _, i in declared if l > line and i is not None]
    if any(re.search(r"\b%s\b" % re.escape(name), i) for i in later):
        return None
    return line, name

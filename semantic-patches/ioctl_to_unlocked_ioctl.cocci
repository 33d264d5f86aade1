// SPDX-License-Identifier: GPL-2.0-only
/// Convert legacy .ioctl file operations to .unlocked_ioctl.
///
/// Until 2.6.36 the VFS called a file_operations' .ioctl handler with the
/// Big Kernel Lock held.  Each handler becomes an .unlocked_ioctl handler,
/// long h(struct file *, unsigned int, unsigned long), that takes the lock
/// itself, so every path still holds it where the VFS held it.  Where the
/// body used the inode parameter, the inode is derived from the file.
//
// Confidence: High
// Copyright: (C) 2026 The ioctl-rework authors.
// Options: --no-includes --include-headers --smpl-spacing --no-ifdef-to-if
//
// The rules are:
// - A handler is converted only when its definition is in this file (or it
//   is named by -D handlers=a,b), has the .ioctl signature and is not
//   refused; its fops entry is switched only then.  Other ops structures
//   (tty, block, proto, snd_pcm, v4l2, usb-serial) are never touched.
// - pushdown: lock_kernel() after the declarations and unlock_kernel()
//   before every return; a return of anything but a constant or a plain
//   local is evaluated under the lock into a temporary first: the
//   handler's "ret" when it is one non-static int or long of the
//   outermost block, else a fresh long named so that it shadows nothing.
//   An unsigned int value is returned as (int)x, as the int handler did.
// - wrapper: the handler keeps its body under its name; a new
//   NAME_unlocked_ioctl, before the first fops that names it, takes the
//   lock around a call to it.
// - auto (neither -D pushdown nor -D wrapper): pushdown unless an exit
//   or an early side effect would escape it: a macro that returns (of the
//   file or of a header it includes with quotes, directly or through
//   another macro), a return spatch does not see (a macro argument), a
//   statement expression, a computed goto, a macro of a header that was
//   not found, a local or parameter that hides the lock, a declaration
//   initializer that calls a function not known to be pure, calls
//   through a pointer, writes a variable or reads a volatile one, a
//   first statement inside an #if.  -D pushdown refuses those handlers.
// - Refused, and said why in report mode: the inode parameter is written
//   or its address taken; a call passes NULL as its inode; the handler is
//   used elsewhere with its old signature (EXPORT_SYMBOL follows it);
//   -D keep=a,b names it (convert found a file that cannot follow);
//   -D mutex and the handler takes the BKL itself or is called directly
//   (the mutex is not recursive, and callers would not take it);
//   a wrapper name that is already taken.
// - -ENOIOCTLCMD: the unlocked path turns it into -EINVAL.  Every mode
//   says so; -D enoioctlcmd_einval writes -EINVAL in the source, and
//   -D enoioctlcmd_refuse leaves such handlers alone.
//
// Other flags: -D mutex (a per-file DEFINE_MUTEX instead of the BKL, for
// kernels >= 2.6.39), -D inode_f_dentry (2.6.11-2.6.19) or -D inode_f_path
// (2.6.20-3.8) instead of file_inode() (>= 3.9), -D compat (also set
// .compat_ioctl: only right when the ioctl ABI is the same for 32-bit
// callers), -D multi_kernel (keep .ioctl under #ifndef HAVE_UNLOCKED_IOCTL).

virtual patch
virtual context
virtual org
virtual report
virtual pushdown
virtual wrapper
virtual mutex
virtual inode_f_dentry
virtual inode_f_path
virtual multi_kernel
virtual compat
virtual enoioctlcmd_einval
virtual enoioctlcmd_refuse

@initialize:python@
@@
import collections
import itertools
import os
import re
import sys

# SmPL finds the facts; these tables only join them per handler, which a
# single SmPL rule cannot do (a handler is selected by a fops entry OR by
# name, and refused by any of several independent rules).
fops_entries = {}    # file -> [(fops, handler, line, style)]
definitions = {}     # (file, handler) -> line
other_defs = {}      # (file, handler) -> line: same name, not the .ioctl signature
listed = set()       # -D handlers=...
kept = set()         # -D keep=...: left legacy, whatever else holds
facts = {}           # (file, handler) -> {fact: line}
functions = {}       # file -> set of defined function names
expr_uses = {}       # (file, handler) -> set of lines where it is an expression
known_uses = {}      # (file, handler) -> set of lines: calls and fops entries
compared = {}        # (file, handler) -> lines comparing an f_op->ioctl with it
decisions = {}       # (file, handler) -> (strategy or None, reason)
inode_param = {}     # (file, handler) -> the name of its inode parameter
params = {}          # (file, handler) -> names of its file, cmd and arg parameters
handler_names = set() # every name a handler may have, to prefilter matches
inode_uses = {}      # (file, handler) -> {(line, column)} of the inode parameter
inode_passed_to = {} # (file, handler, line, column) -> handler it is passed to
mutex_site = {}      # file -> line of the first converted definition
has_unlocked = set() # (file, fops) already setting .unlocked_ioctl
has_compat = set()   # (file, fops) already setting .compat_ioctl
include_lines = {}   # file -> lines of #include <...>
headers = set()      # (file, "smp_lock.h" | "mutex.h") already included
declarations = {}    # (file, handler) -> {(line, column): (line, column) where it ends}
first_statement_at = {} # (file, handler) -> (line, column) where its first statement starts
written_returns = {} # (file, handler) -> {line: (returns in the text, one inside parentheses)}
seen_returns = {}    # (file, handler) -> {line: {columns of the returns spatch matched}}
variables = {}       # (file, handler) -> [LocalVariable]
static_at = set()    # (file, line, column) of static declarations
unsigned_names = set() # names declared anywhere in the file with an unsigned int type
returned_locals = {} # (file, handler) -> names of locals returned as they are
volatile_names = set() # names declared volatile in the file

# Calls that may run before lock_kernel() in a declaration: they only
# compute from their arguments.
PURE_CALLS = {"iminor", "imajor", "MINOR", "MAJOR", "file_inode", "PDE", "PROC_I",
              "container_of", "list_entry", "to_delayed_work", "dev_get_drvdata"}

def fact(file, h, name, line):
    facts.setdefault((file, h), {}).setdefault(name, line)

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

# Comments, strings and character constants, whose braces do not count.
NOT_CODE = re.compile(r"/[*].*?[*]/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                      re.DOTALL)

def block_depth(file, first, line, column):
    lines = source_lines(file)[first - 1:line]
    lines[-1] = lines[-1][:column]
    code = NOT_CODE.sub("", "\n".join(lines))
    return code.count("{") - code.count("}")

def text_at(p):
    """The source text at a one-line position."""
    line = source_lines(p[0].file)[int(p[0].line) - 1]
    return line[int(p[0].column):int(p[0].column_end)]

# Rules after a rewrite may match in spatch's temporary copy of just the
# changed function: there only the function name of a position is right.
current_file = [None]  # the file whose definitions were collected last

def origin(p):
    """The file a position is in, even in a temporary copy."""
    if os.path.basename(p[0].file).startswith("cocci_"):
        return current_file[0]
    return p[0].file

CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|endif)\b")

def open_conditional(file, first, line):
    """The line of the innermost #if that started in lines [first, line)
    and is still open at line, or None."""
    opened = []
    for number, text in enumerate(source_lines(file)[first - 1:line - 1], first):
        match = CONDITIONAL.match(text)
        if match and match.group(1) == "endif":
            if opened:
                opened.pop()
        elif match:
            opened.append(number)
    return opened[-1] if opened else None

PREPROCESSOR = re.compile(r"\s*#")
# Spelled apart: SmPL would read a comment opener here as one.
COMMENT_START, COMMENT_END, LINE_COMMENT = "/" "*", "*" "/", "/" "/"

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

def strategy_at(p):
    """The strategy of the handler around p, for the rewriting rules."""
    key = (origin(p), p[0].current_element)
    return decide(*key)[0] if key in definitions else None

def has(file, h, name):
    return name in facts.get((file, h), {})

def wrapper_name(h):
    stem = h[:-len("_ioctl")] if h.endswith("_ioctl") else h
    return stem + "_unlocked_ioctl"

def mutex_name(file):
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(file))[0])
    return stem + "_mutex"

# A return that is not a constant or a plain local is evaluated under the
# lock into a temporary.  The handler's own "ret" serves only when it holds
# any int: one non-static int or long of the outermost block.  Otherwise a
# fresh long, named so that nothing in the file is shadowed; one name per
# file, since the rewriting rule that uses it matches every handler.
LocalVariable = collections.namedtuple("LocalVariable", "name type line static top")
INT_OR_LONG = {"int", "signed", "signed int", "long", "long int", "signed long",
               "signed long int"}
# Returned from a long function such a value is zero-extended where the
# legacy int function gave a negative errno: it is returned as (int)x.
UNSIGNED_INT = {"unsigned", "unsigned int", "u32", "__u32", "uint32_t", "u_int32_t",
                "uint", "u_int"}
QUALIFIERS = re.compile(r"\b(const|volatile|register|auto)\b")
_temp_names = {}     # file -> name of the temporary of complex returns

def plain_type(t):
    return " ".join(QUALIFIERS.sub(" ", t).split())

def parameter_names(file, h):
    return {inode_param.get((file, h))} | set(params.get((file, h), ()))

def static_local_names():
    return {v.name for found in variables.values() for v in found if v.static}

def plain_local(name):
    """Whether "return name;" may stay as it is after the unlock: a local
    that is neither static (another caller may change it once unlocked)
    nor unsigned (it would be returned as (int)name)."""
    return name not in unsigned_names and name not in static_local_names()

def ret_reusable(file, h):
    rets = [v for v in variables.get((file, h), []) if v.name == "ret"]
    return len(rets) == 1 and rets[0].top and not rets[0].static and \
        plain_type(rets[0].type) in INT_OR_LONG and "ret" not in parameter_names(file, h)

def ret_free(file, h):
    return not has(file, h, "ret_any") and "ret" not in parameter_names(file, h)

def needs_temporary(file, h):
    return has(file, h, "complex_return") or \
        not all(plain_local(x) for x in returned_locals.get((file, h), ()))

def temp_name(file):
    if file not in _temp_names:
        pushed = [h for (f, h) in list(definitions) if f == file and
                  decide(f, h)[0] == "pushdown" and needs_temporary(f, h)]
        if all(ret_reusable(file, h) or ret_free(file, h) for h in pushed):
            _temp_names[file] = "ret"
        else:
            taken = set(IDENTIFIER.findall(code_only("\n".join(source_lines(file)))))
            for bodies in macros_of(file).bodies.values():
                taken.update(*bodies)
            _temp_names[file] = next(name for name in ("ret%d" % n for n in itertools.count(2))
                                     if name not in taken)
    return _temp_names[file]

def declares_temporary(file, h):
    return decide(file, h)[0] == "pushdown" and needs_temporary(file, h) and \
        not (temp_name(file) == "ret" and ret_reusable(file, h))

def record_variable(p, t, x):
    file, line, column = p[0].file, int(p[0].line), int(p[0].column)
    if plain_type(t) in UNSIGNED_INT:
        unsigned_names.add(x)
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

def lock_names(file):
    if mutex_on:
        return {"mutex_lock", "mutex_unlock", mutex_name(file)}
    return {"lock_kernel", "unlock_kernel"}

def shadowed_lock(file, h):
    """(name, line) of a local or parameter of h that hides a lock function
    or the mutex a pushed-down lock would name, or None."""
    names = lock_names(file)
    for v in variables.get((file, h), []):
        if v.name in names:
            return v.name, v.line
    for name in sorted(parameter_names(file, h) & names):
        return name, definitions[(file, h)]
    return None

def wrapper_parameters(file, h):
    """The wrapper's parameters: the handler's names, unless one of them
    would hide what the wrapper calls or declares."""
    names = params.get((file, h), ("filp", "cmd", "arg"))
    if set(names) & (lock_names(file) | {"ret", h}) or len(set(names)) < 3:
        return ("file", "cmd", "arg")
    return names

# SmPL has no pattern for a statement expression, a computed goto or the
# body of a macro, so exits hidden there are found in the handler's text.
# A macro's body is read from the file and from every header it includes
# with quotes, found next to the including file as the preprocessor finds
# it first; a macro returns when its body says return or names a macro
# that returns.
_macros = {}         # file -> MacroTable
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(?)(.*)$", re.MULTILINE)
QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
CONTINUATION = re.compile(r"\\[ \t]*\r?\n")
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
MAX_HEADERS = 64

def code_only(text):
    """TEXT with comments, strings and character constants blanked, lines kept."""
    return NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)

class MacroTable:
    def __init__(self):
        self.bodies = {}       # name -> [identifiers of each definition's body]
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

IF_ZERO = re.compile(r"[ \t]*#[ \t]*if[ \t]+0\b")

def without_if_zero(lines):
    """LINES with the code under #if 0 blanked (its #else kept)."""
    out, depth, dead = [], 0, 0
    for text in lines:
        match = CONDITIONAL.match(text)
        kind = match.group(1) if match else None
        if dead:
            if kind in ("if", "ifdef", "ifndef"):
                depth += 1
            elif kind == "endif" and depth:
                depth -= 1
            elif depth == 0 and (kind == "endif" or re.match(r"\s*#\s*(else|elif)\b", text)):
                dead = 0
            out.append("")
            continue
        if IF_ZERO.match(text):
            dead, depth = 1, 0
            out.append("")
            continue
        out.append(text)
    return out

# A statement that may be a macro of a header we could not read.
STATEMENT_MACRO = re.compile(r"(?:[;{})]|\belse\b|\bdo\b)\s*([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)\s*[;(]")

def hidden_exits(file, h, first, last):
    table = macros_of(file)
    lines = without_if_zero(code_only("\n".join(source_lines(file)[first - 1:last])).split("\n"))
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

_sources = {}

def source_lines(file):
    if file not in _sources:
        with open(file, errors="replace", newline="") as f:
            _sources.clear()
            _sources[file] = f.read().split("\n")  # as spatch counts lines, not splitlines()
    return _sources[file]

def entry_state(file, fops, line):
    """"dead" when the fops also sets .unlocked_ioctl, which the VFS
    prefers; spatch does not look inside #ifdef HAVE_UNLOCKED_IOCTL
    branches, so code already set up for both kernels is not seen."""
    return "dead" if (file, fops) in has_unlocked else None

def only_dead_uses(file, h):
    entries = [e for e in fops_entries.get(file, []) if e[1] == h]
    if not entries or any(entry_state(file, e[0], e[2]) != "dead" for e in entries):
        return False
    return expr_uses.get((file, h), set()) <= {e[2] for e in entries}

def live_entries(file, h):
    return [e for e in fops_entries.get(file, [])
            if e[1] == h and entry_state(file, e[0], e[2]) is None]

def decide(file, h):
    """Join the facts about one handler into (strategy, reason)."""
    key = (file, h)
    if key in decisions:
        return decisions[key]
    f = facts.get(key, {})
    referenced = bool(live_entries(file, h))
    if h in kept:
        # convert found a file naming it that cannot follow the new signature.
        decisions[key] = (None, "kept with the old signature (-D keep)")
        return decisions[key]
    if "null_inode" in f:
        decisions[key] = (None, "the call at line %d passes NULL as its inode, which the "
                          "new signature cannot pass on" % f["null_inode"])
        return decisions[key]
    if not referenced and h not in listed and \
            any(e[1] == h for e in fops_entries.get(file, [])):
        result = (None, "dead: the fops also sets .unlocked_ioctl, which the VFS prefers")
        decisions[key] = result
        return result
    if not referenced and h not in listed:
        # Only the signature matches: not a .ioctl handler as far as we know.
        decisions[key] = (None, "no file_operations here uses it")
        return decisions[key]
    if key not in definitions:
        if key in other_defs:
            result = (None, "its definition at line %d does not have the .ioctl "
                      "signature" % other_defs[key])
        elif h in listed and (wrapper_on or multi_kernel_on):
            # The file of the definition refuses it too: every file agrees.
            result = (None, "the wrapper strategy needs the fops in the same file")
        elif h in listed:
            result = ("pushdown", "defined in another file")
        else:
            result = (None, "handler is not defined in this file; convert the "
                      "files together with ioctl-rework convert")
        decisions[key] = result
        return result
    # "f_op->ioctl == h" follows the entry to .unlocked_ioctl, except with
    # -D multi_kernel, where one kernel has each.
    followed = known_uses.get(key, set()) | \
        (set() if multi_kernel_on else compared.get(key, set()))
    others = sorted(expr_uses.get(key, set()) - followed)
    escape = None
    unseen = unseen_return(file, h)
    shadowed = shadowed_lock(file, h)
    if "stmt_expr" in f:
        escape = "a statement expression at line %d" % f["stmt_expr"]
    elif "computed_goto" in f:
        escape = "a computed goto at line %d" % f["computed_goto"]
    elif "return_macro" in f:
        escape = "macro %s at line %d can return" % (f["return_macro_name"],
                                                     f["return_macro"])
    elif unseen and unseen[1]:
        escape = "the return at line %d is passed in a macro argument" % unseen[0]
    elif unseen:
        escape = "the return at line %d is not a statement spatch could see" % unseen[0]
    elif "unknown_macro" in f:
        escape = "%s at line %d may be a macro that returns, from %s, which " \
                 "was not found" % (f["unknown_macro_name"], f["unknown_macro"],
                                    ", ".join(macros_of(file).missing))
    elif shadowed:
        escape = "%s at line %d hides the %s the lock needs" % (
            shadowed[0], shadowed[1], "mutex" if shadowed[0] == mutex_name(file)
            else "function")
        if shadowed[1] == definitions[key]:
            escape = "its parameter " + escape.replace(" at line %d" % shadowed[1], "")
    elif "early_call" in f:
        escape = "a declaration at line %d calls a function before the lock " \
                 "could be taken" % f["early_call"]
    elif "early_effect" in f:
        escape = "a declaration at line %d %s before the lock could be taken" \
                 % (f["early_effect"], f["early_effect_name"])
    elif impure_declaration(file, h):
        escape = "a declaration at line %d %s before the lock could be taken" \
                 % impure_declaration(file, h)
    elif "lock_in_conditional" in f:
        escape = "its first statement, where the lock would be taken, is inside " \
                 "the #if at line %d" % f["lock_in_conditional"]
    if "inode_written" in f:
        result = (None, "the inode parameter is written or its address taken "
                  "at line %d" % f["inode_written"])
    elif others:
        result = (None, "also used with its old signature at line %s"
                  % ", ".join(str(n) for n in others))
    elif mutex_on and "called" in f:
        # Its callers (a compat wrapper under lock_kernel(), another
        # handler) would not take the private mutex, or take it twice.
        result = (None, "it is called directly at line %d, and callers would "
                  "not exclude each other through the private mutex" % f["called"])
    elif mutex_on and any(is_handler(file, c) for c in calls.get(key, ())):
        callee = sorted(c for c in calls[key] if is_handler(file, c))[0]
        result = (None, "it calls the handler %s directly, which would then run "
                  "under two different locks" % callee)
    elif mutex_on and "takes_bkl" in f:
        result = (None, "it takes the BKL itself at line %d and the private "
                  "mutex is not recursive" % f["takes_bkl"])
    elif enoioctlcmd_refuse_on and "enoioctlcmd" in f:
        result = (None, "returns -ENOIOCTLCMD at line %d (-D enoioctlcmd_refuse)"
                  % f["enoioctlcmd"])
    elif multi_kernel_on:
        result = ("multi-kernel", None)
    elif pushdown_on or (not wrapper_on and (escape is None or (h in listed and not referenced))):
        if escape:
            result = (None, "pushdown is not safe: " + escape)
        else:
            result = ("pushdown", None)
    elif h in listed and not referenced:
        result = (None, "the wrapper strategy needs the fops in the same file")
    else:
        result = ("wrapper", escape)
    if result[0] in ("wrapper", "multi-kernel") and \
            wrapper_name(h) in functions.get(file, set()):
        result = (None, "the wrapper name %s is already taken" % wrapper_name(h))
    decisions[key] = result
    return result

calls = {}           # (file, function) -> names it calls with four arguments

def is_handler(file, name):
    """A handler defined here, or one convert names (listed or kept)."""
    return (file, name) in definitions or name in listed or name in kept

def renamed(h, p):
    """Whether prototypes of and calls to h follow the new signature."""
    if h in listed:
        return decide(origin(p), h)[0] in ("pushdown", "wrapper")
    return decisions.get((origin(p), h), (None,))[0] in ("pushdown", "wrapper")

def uses_inode(file, h):
    for line, column in inode_uses.get((file, h), ()):
        callee = inode_passed_to.get((file, h, line, column))
        if callee is None or decide(file, callee)[0] not in ("pushdown", "wrapper"):
            return True
    return False

def details(file, h):
    strategy, why = decide(file, h)
    out = [strategy]
    if uses_inode(file, h):
        out.append("uses inode")
    if has(file, h, "enoioctlcmd"):
        out.append("returns -ENOIOCTLCMD")
    return ", ".join(out)

def new_entry(file, fops, h, line):
    """The function an .ioctl = h entry switches to, or None."""
    if h == "NULL" or entry_state(file, fops, line) is not None:
        return None
    strategy = decide(file, h)[0]
    if strategy == "pushdown":
        return h
    if strategy == "wrapper":
        return wrapper_name(h)
    return None

def say(p, message, org):
    if org:
        cocci.print_main(message, p)
    else:
        print("%s:%s: %s" % (p[0].file, p[0].line, message))

def report_entry(fops, h, p, org=False):
    where = "%s: .ioctl = %s" % (fops, h)
    if h == "NULL":
        say(p, "%s: remove (an empty entry)" % where, org)
    elif entry_state(p[0].file, fops, int(p[0].line)) == "dead":
        say(p, "%s: remove (dead: the fops also sets .unlocked_ioctl)" % where, org)
    elif decide(p[0].file, h)[0]:
        why = decide(p[0].file, h)[1]
        say(p, "%s: convert (%s)%s" % (where, details(p[0].file, h),
                                       ": " + why if why else ""), org)
    else:
        say(p, "%s: left alone: %s" % (where, decide(p[0].file, h)[1]), org)

def enoioctlcmd_warning(h, p):
    strategy = decide(p[0].file, h)[0]
    if strategy is None or strategy == "multi-kernel" and not live_entries(p[0].file, h):
        return
    if enoioctlcmd_einval_on and strategy in ("pushdown", "wrapper"):
        what = "rewritten to -EINVAL, which is what userspace sees after conversion"
    else:
        what = "after conversion the VFS turns it into EINVAL; userspace saw errno 515 before"
    message = "%s: returns -ENOIOCTLCMD: %s" % (h, what)
    if report_on:
        print("%s:%s: %s" % (p[0].file, p[0].line, message))
    elif org_on:
        cocci.print_main(message, p)
    else:
        sys.stderr.write("%s:%s: warning: %s\n" % (p[0].file, p[0].line, message))

NO_MATCH = "ioctl_rework_no_match_"

def ident(name):
    return cocci.make_ident(name or NO_MATCH)

def switch_entry(fops, h, p):
    """Say what one .ioctl entry becomes by binding its handler to exactly
    one of plain (.unlocked_ioctl), with_compat (.unlocked_ioctl and
    .compat_ioctl), multi (both kernels) or dead (removed); entry is the
    new function."""
    file, line = p[0].file, int(p[0].line)
    name = new_entry(file, fops, h, line)
    add_compat = compat_on and (file, fops) not in has_compat
    multi = h != "NULL" and entry_state(file, fops, line) is None and \
        decide(file, h)[0] == "multi-kernel"
    dead = h == "NULL" or entry_state(file, fops, line) == "dead"
    coccinelle.plain = ident(h if name and not add_compat else None)
    coccinelle.with_compat = ident(h if name and add_compat else None)
    coccinelle.multi = ident(h if multi and not add_compat else None)
    coccinelle.multi_compat = ident(h if multi and add_compat else None)
    coccinelle.dead = ident(h if dead else None)
    coccinelle.entry = ident(wrapper_name(h) if multi else name)
    # The wrapper goes before the first fops that uses it (adding code
    # after some handlers' bodies makes spatch fail), so it needs no
    # prototype: the handler is declared before any fops names it.
    strategy = decide(file, h)[0] if h != "NULL" else None
    first = min([e[2] for e in live_entries(file, h)] or [0]) == line
    wrapped = first and strategy in ("wrapper", "multi-kernel")
    coccinelle.wsite = ident(h if wrapped and strategy == "wrapper" else None)
    coccinelle.msite = ident(h if wrapped and strategy == "multi-kernel" else None)
    coccinelle.wfn = ident(wrapper_name(h) if wrapped else None)
    filp, cmd, arg = wrapper_parameters(file, h)
    coccinelle.wfilp, coccinelle.wcmd, coccinelle.warg = ident(filp), ident(cmd), ident(arg)
    coccinelle.wie = cocci.make_expr(inode_expr(filp))

def is_mutex_site(p):
    return mutex_site.get(p[0].file) == int(p[0].line)

def needs_header(p, header):
    """New headers, and the private mutex (header None), go after the last
    #include <...> of a file in which something was converted."""
    file, line = p[0].file, int(p[0].line)
    if file not in mutex_site or line != max(include_lines.get(file, [0])):
        return False
    return header is None or (file, header) not in headers

def inode_expr(filp):
    if inode_f_dentry_on:
        return filp + "->f_dentry->d_inode"
    if inode_f_path_on:
        return filp + "->f_path.dentry->d_inode"
    return "file_inode(" + filp + ")"

# One spatch process may run the rule on many files (--file-groups) and
# keeps this module between them: what one file taught must not leak into
# the next (a handler name of one driver is an ordinary function in another).
PER_FILE = (fops_entries, definitions, other_defs, listed, kept, facts, functions, expr_uses,
            known_uses, compared, decisions, inode_param, params, handler_names,
            inode_uses, inode_passed_to, mutex_site, has_unlocked, has_compat,
            include_lines, headers, declarations, first_statement_at, calls, _macros,
            written_returns, seen_returns, variables, static_at, unsigned_names,
            returned_locals, _temp_names, volatile_names,
            _sources)

def forget_previous_file():
    for table in PER_FILE:
        table.clear()
    current_file[0] = None

multi_kernel_on = pushdown_on = wrapper_on = mutex_on = compat_on = False
report_on = org_on = enoioctlcmd_einval_on = False
inode_f_dentry_on = inode_f_path_on = enoioctlcmd_refuse_on = False

@script:python forget_previous_file@
@@
forget_previous_file()

// Flags become python booleans once, so that decide() can read them.
@script:python depends on multi_kernel@
@@
multi_kernel_on = True
@script:python depends on pushdown@
@@
pushdown_on = True
@script:python depends on wrapper@
@@
wrapper_on = True
@script:python depends on mutex@
@@
mutex_on = True
@script:python depends on compat@
@@
compat_on = True
@script:python depends on report@
@@
report_on = True
@script:python depends on org@
@@
org_on = True
@script:python depends on enoioctlcmd_einval@
@@
enoioctlcmd_einval_on = True
@script:python depends on inode_f_dentry@
@@
inode_f_dentry_on = True
@script:python depends on inode_f_path@
@@
inode_f_path_on = True
@script:python depends on enoioctlcmd_refuse@
@@
enoioctlcmd_refuse_on = True

@script:python name_list@
names << virtual.handlers;
@@
listed.update(n for n in names.split(",") if n)

@script:python keep_list@
names << virtual.keep;
@@
kept.update(n for n in names.split(",") if n)

// ---------------------------------------------------------------- facts

@ fops_c99 @
identifier fops, handler;
position p;
@@
struct file_operations fops = { ..., .ioctl = handler@p, ... };

@ fops_gnu @
identifier fops, handler;
position p;
@@
struct file_operations fops = { ..., ioctl: handler@p, ... };

@ script:python @
fops << fops_c99.fops; h << fops_c99.handler; p << fops_c99.p;
@@
if h != "NULL":
    fops_entries.setdefault(p[0].file, []).append((fops, h, int(p[0].line), "c99"))
    known_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))

@ script:python @
fops << fops_gnu.fops; h << fops_gnu.handler; p << fops_gnu.p;
@@
if h != "NULL":
    fops_entries.setdefault(p[0].file, []).append((fops, h, int(p[0].line), "gnu"))
    known_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))

@ fops_unlocked @
identifier fops, u;
position p;
@@
struct file_operations fops = { ..., .unlocked_ioctl = u@p, ... };

@ script:python @
fops << fops_unlocked.fops; p << fops_unlocked.p;
@@
has_unlocked.add((p[0].file, fops))

@ fops_compat @
identifier fops, c;
position p;
@@
struct file_operations fops = { ..., .compat_ioctl = c@p, ... };

@ script:python @
fops << fops_compat.fops; p << fops_compat.p;
@@
has_compat.add((p[0].file, fops))

@ include @
position p;
@@
#include <...>@p

@ script:python @
p << include.p;
@@
include_lines.setdefault(p[0].file, []).append(int(p[0].line))

@ has_smp_lock_h @
position p;
@@
#include <linux/smp_lock.h>@p

@ script:python @
p << has_smp_lock_h.p;
@@
headers.add((p[0].file, "smp_lock.h"))

@ has_mutex_h @
position p;
@@
#include <linux/mutex.h>@p

@ script:python @
p << has_mutex_h.p;
@@
headers.add((p[0].file, "mutex.h"))

@ definition @
identifier h, ino, filp, cmd, arg;
type TC, TA;
position p;
@@
int h@p(struct inode *ino, struct file *filp, TC cmd, TA arg) { ... }

@ script:python @
h << definition.h; ino << definition.ino; p << definition.p;
filp << definition.filp; cmd << definition.cmd; arg << definition.arg;
@@
definitions[(p[0].file, h)] = int(p[0].line)
current_file[0] = p[0].file
inode_param[(p[0].file, h)] = ino
params[(p[0].file, h)] = (filp, cmd, arg)
handler_names.add(h)
hidden_exits(p[0].file, h, int(p[0].current_element_line),
             int(p[0].current_element_line_end))

@ any_function @
identifier f;
position p;
@@
f@p(...) { ... }

@ script:python @
f << any_function.f; p << any_function.p;
@@
functions.setdefault(p[0].file, set()).add(f)
if (p[0].file, f) not in definitions:
    other_defs.setdefault((p[0].file, f), int(p[0].line))

// Inherited names, not script constraints: spatch compares an inherited
// name itself, while a constraint calls Python for every identifier.
@ inode_written @
identifier definition.ino;
expression E;
position p;
@@
(
  ino@p = E
|
  &ino@p
|
  ino@p++
|
  ino@p--
|
  ++ino@p
|
  --ino@p
)

@ script:python @
ino << definition.ino; p << inode_written.p;
@@
if inode_at(p, ino):
    fact(p[0].file, inode_at(p, ino), "inode_written", int(p[0].line))

@ uses_inode @
identifier definition.ino;
position p;
@@
ino@p

@ script:python @
ino << definition.ino; p << uses_inode.p;
@@
if inode_at(p, ino):
    inode_uses.setdefault((p[0].file, inode_at(p, ino)), set()).add((p[0].line, p[0].column))

// Passing the inode on to another converted handler is not a use: that
// argument goes away with the callee's conversion.
@ inode_passed depends on definition @
identifier passed, callee;
expression list[3] rest;
position p : script:python (callee) { callee in handler_names };
@@
callee(passed@p, rest)

@ script:python @
passed << inode_passed.passed; callee << inode_passed.callee; p << inode_passed.p;
@@
if inode_at(p, passed):
    inode_passed_to[(p[0].file, inode_at(p, passed), p[0].line, p[0].column)] = callee

@ takes_bkl @
position p;
@@
(
  lock_kernel@p()
|
  unlock_kernel@p()
)

@ script:python @
p << takes_bkl.p;
@@
fact(p[0].file, p[0].current_element, "takes_bkl", int(p[0].line))

@ enoioctlcmd @
position p;
@@
  -ENOIOCTLCMD@p

@ script:python @
p << enoioctlcmd.p;
@@
fact(p[0].file, p[0].current_element, "enoioctlcmd", int(p[0].line))

// A declaration of the outermost block runs before lock_kernel() would:
// only calls known to be pure may run there (PURE_CALLS); a call through
// a function pointer never is.
@ early_call @
expression callee;
type T;
identifier x;
expression list es;
position p;
@@
T x = <+... callee@p(es) ...+>;

@ script:python @
f << early_call.callee; p << early_call.p;
@@
h = handler_at(p)
if h and at_top_block(p, h) and re.fullmatch(r"\w+", f) and f not in PURE_CALLS:
    fact(p[0].file, h, "early_call", int(p[0].line))
elif h and at_top_block(p, h) and not re.fullmatch(r"\w+", f):
    fact(p[0].file, h, "early_effect", int(p[0].line))
    facts[(p[0].file, h)].setdefault("early_effect_name", "calls through the "
                                     "function pointer %s" % " ".join(f.split()))

// Declarations, to find the first statement after them (first_statement_of).
@ local_declaration depends on definition @
declaration D;
position p;
@@
D@p

@ script:python @
p << local_declaration.p;
@@
if handler_at(p):
    declarations.setdefault((p[0].file, handler_at(p)), {})[
        (int(p[0].line), int(p[0].column))] = (int(p[0].line_end), int(p[0].column_end))

// lock_kernel() goes before the first statement; if that is inside an
// #if, some configurations would never take the lock (or take it twice).
@ script:python @
h << definition.h; p << definition.p;
@@
first = first_statement_of(p[0].file, h)
if first:
    first_statement_at[(p[0].file, h)] = first
    opened = open_conditional(p[0].file, definitions[(p[0].file, h)], first[0])
    if opened:
        fact(p[0].file, h, "lock_in_conditional", opened)

@ complex_return @
constant C;
local idexpression x;
expression E;
position p, px;
@@
(
  return C;
|
  return -C;
|
  return x@px;
|
  return E@p;
)

@ script:python @
p << complex_return.p;
@@
if handler_at(p):
    fact(p[0].file, handler_at(p), "complex_return", int(p[0].line))

@ script:python @
x << complex_return.x; px << complex_return.px;
@@
if handler_at(px):
    returned_locals.setdefault((px[0].file, handler_at(px)), set()).add(x)

// Every return spatch sees; one written in the handler that it does not
// see is in a macro argument or in code it could not parse.
@ seen_return @
expression E;
position p;
@@
(
  return@p E;
|
  return@p;
)

@ script:python @
p << seen_return.p;
@@
if handler_at(p):
    seen_returns.setdefault((p[0].file, handler_at(p)), {}).setdefault(
        int(p[0].line), set()).add(int(p[0].column))

// Every variable: which "ret" can hold a return value, which locals are
// static or unsigned, and which names would hide the lock.
@ static_variable @
type T;
identifier x;
initializer I;
position p;
@@
(
  static T x@p;
|
  static T x@p = I;
)

@ script:python @
p << static_variable.p;
@@
static_at.add((p[0].file, int(p[0].line), int(p[0].column)))

@ variable @
type T;
identifier x;
initializer I;
position p;
@@
(
  T x@p;
|
  T x@p = I;
)

@ script:python @
t << variable.T; x << variable.x; p << variable.p;
@@
record_variable(p, t, x)

@ ret_any @
position p;
symbol ret;
@@
ret@p

@ script:python @
p << ret_any.p;
@@
if handler_at(p):
    fact(p[0].file, handler_at(p), "ret_any", int(p[0].line))

@ handler_use @
identifier definition.h;
position p;
@@
h@p

@ script:python @
h << definition.h; p << handler_use.p;
@@
expr_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))

// Handlers of other files (-D handlers=...) are few and only in phase 2.
@ listed_use depends on name_list @
identifier lh;
position p : script:python (lh) { lh in listed and lh not in handler_names };
@@
lh@p

@ script:python @
lh << listed_use.lh; p << listed_use.p;
@@
expr_uses.setdefault((p[0].file, lh), set()).add(int(p[0].line))

// (A metavariable with a script constraint gets a name no other rule
// uses: spatch 1.1.1 then fails to parse later scripts that inherit the
// same name.  It cannot be passed to a script either: read its text.)
// ioctl32 conversion helpers of the time check which driver they are
// handed: "if (file->f_op->ioctl != h) return -EFAULT;".
@ entry_compared depends on definition || name_list @
identifier other : script:python () { other in handler_names or other in listed };
expression E;
position p;
@@
(
  E->ioctl == other@p
|
  E->ioctl != other@p
|
  other@p == E->ioctl
|
  other@p != E->ioctl
)

@ script:python @
p << entry_compared.p;
@@
compared.setdefault((p[0].file, text_at(p)), set()).add(int(p[0].line))

@ direct_call depends on definition || name_list @
identifier h;
expression list[4] es;
position p : script:python (h) { h in handler_names or h in listed or h in kept };
@@
h@p(es)

@ script:python @
h << direct_call.h; p << direct_call.p;
@@
known_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))
fact(p[0].file, h, "called", int(p[0].line))
calls.setdefault((p[0].file, p[0].current_element), set()).add(h)

// EXPORT_SYMBOL(h) names it but does not call it: the export follows.
@ exported depends on definition || name_list @
identifier eh : script:python () { eh in handler_names or eh in listed };
declarer name EXPORT_SYMBOL, EXPORT_SYMBOL_GPL;
position p;
@@
(
EXPORT_SYMBOL(eh@p);
|
EXPORT_SYMBOL_GPL(eh@p);
)

@ script:python @
p << exported.p;
@@
known_uses.setdefault((p[0].file, text_at(p)), set()).add(int(p[0].line))

// A call that passes NULL for the inode: the handler may rely on it being
// NULL there, and the new signature derives the inode from the file.
@ null_inode_call depends on definition || name_list @
identifier nh : script:python () { nh in handler_names or nh in listed };
expression E2, E3, E4;
position p;
@@
nh@p(NULL, E2, E3, E4)

@ script:python @
p << null_inode_call.p;
@@
fact(p[0].file, text_at(p), "null_inode", int(p[0].line))

// ------------------------------------------------------------- decisions
// Each script binds, per handler, the names the rewriting rules use.  A
// script that dropped its match (include_match(False)) would drop every
// binding made so far with it, so a handler that is not to be rewritten
// gets NO_MATCH, a name no code contains.

@ script:python as_converted @
h << definition.h;
p << definition.p;
filp << definition.filp;
ph;
wh;
dh;
rh2;
rname;
ch;
newh;
lock;
unlock;
ie;
@@
file = p[0].file
strategy = decide(file, h)[0]
coccinelle.ph = ident(h if strategy == "pushdown" else None)
coccinelle.wh = ident(h if strategy == "wrapper" else None)
coccinelle.dh = ident(h if strategy in ("pushdown", "wrapper") and uses_inode(file, h) else None)
coccinelle.rh2 = ident(h if declares_temporary(file, h) else None)
coccinelle.rname = ident(temp_name(file))
coccinelle.ch = ident(h if strategy in ("pushdown", "wrapper") else None)
coccinelle.newh = ident(wrapper_name(h) if strategy == "wrapper" else h)
if strategy:
    mutex_site[file] = min(mutex_site.get(file, int(p[0].line)), int(p[0].line))
if mutex_on:
    coccinelle.lock = cocci.make_stmt("mutex_lock(&%s);" % mutex_name(file))
    coccinelle.unlock = cocci.make_stmt("mutex_unlock(&%s);" % mutex_name(file))
else:
    coccinelle.lock = cocci.make_stmt("lock_kernel();")
    coccinelle.unlock = cocci.make_stmt("unlock_kernel();")
coccinelle.ie = cocci.make_expr(inode_expr(filp))

@ script:python switch_c99 @
fops << fops_c99.fops;
h << fops_c99.handler;
p << fops_c99.p;
plain;
with_compat;
multi;
multi_compat;
dead;
entry;
wsite;
msite;
wfn;
wfilp;
wcmd;
warg;
wie;
@@
switch_entry(fops, h, p)

@ script:python switch_gnu @
fops << fops_gnu.fops;
h << fops_gnu.handler;
p << fops_gnu.p;
plain;
with_compat;
multi;
multi_compat;
dead;
entry;
wsite;
msite;
wfn;
wfilp;
wcmd;
warg;
wie;
@@
switch_entry(fops, h, p)

// ------------------------------------------------------------- pushdown

// Where lock_kernel() goes, found by SmPL for the handlers it goes into
// (the facts found it from the text, for the decision): the two must agree,
// or the file fails rather than get a lock in the wrong place.
@ first_statement depends on patch exists @
identifier as_converted.ph;
statement S, S1;
position p;
@@
ph(...) {
  ... when != S1
  S@p
  ... when any
}

@ script:python @
ph << as_converted.ph; p << first_statement.p;
@@
found = (int(p[0].line), int(p[0].column))
if first_statement_at.get((p[0].file, ph)) != found:
    raise RuntimeError("ioctl-rework: %s:%s: the first statement of %s is not where its "
                       "declarations end (%s); not converted"
                       % (p[0].file, p[0].line, ph, first_statement_at.get((p[0].file, ph))))

// Before the first statement.  It is the first rule to change the file:
// a position cannot be inherited across a change.
@ pushdown_lock depends on patch @
statement as_converted.lock;
statement S;
position first_statement.p : script:python () { strategy_at(p) == "pushdown" };
@@
+ lock
  S@p

@ pushdown_signature depends on patch @
identifier as_converted.ph, ino, filp, cmd, arg;
type TC, TA;
@@
- int
+ long
  ph(
-   struct inode *ino,
    struct file *filp, TC cmd, TA arg) { ... }

// A value the legacy int handler returned as a negative errno would come
// back zero-extended from a long one: (int) keeps it.  Before the unlocks,
// so that a pushed-down return evaluates it under the lock.
@ return_as_int depends on patch @
identifier unsigned_value : script:python () { unsigned_value in unsigned_names };
position p : script:python () { strategy_at(p) in ("pushdown", "wrapper") };
@@
  return
- unsigned_value@p
+ (int)unsigned_value
  ;

// Every return of the function: matched as statements, not by walking
// the body, which fails on some real control flow.  A static local is
// read under the lock like any other shared value.
@ pushdown_unlock depends on patch @
statement as_converted.unlock;
identifier as_converted.rname;
constant C;
local idexpression returned_local : script:python () { plain_local(returned_local) };
expression E;
position p : script:python () { strategy_at(p) == "pushdown" };
@@
(
+ unlock
  return C@p;
|
+ unlock
  return -C@p;
|
+ unlock
  return returned_local@p;
|
- return E@p;
+ rname = E;
+ unlock
+ return rname;
)

@ pushdown_ret depends on patch @
identifier as_converted.rh2, as_converted.rname;
@@
  rh2(...) {
+ long rname;
  ...
  }

@ pushdown_ret_blank depends on patch @
identifier as_converted.rh2, as_converted.rname;
statement S;
@@
  rh2(...) {
  long rname;
+
  S
  ...
  }

// -------------------------------------------------------------- wrapper

@ wrapper_signature depends on patch @
identifier as_converted.wh, ino, filp, cmd, arg;
type TC, TA;
@@
- int
+ long
  wh(
-   struct inode *ino,
    struct file *filp, TC cmd, TA arg) { ... }

@ wrapper_before_c99_fops depends on patch @
identifier fops_c99.fops;
identifier switch_c99.wsite, switch_c99.wfn;
identifier switch_c99.wfilp, switch_c99.wcmd, switch_c99.warg;
statement as_converted.lock, as_converted.unlock;
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	long ret;
+
+	lock
+	ret = wsite(wfilp, wcmd, warg);
+	unlock
+	return ret;
+}
+
  struct file_operations fops = { ..., .ioctl = wsite, ... };

@ wrapper_before_gnu_fops depends on patch @
identifier fops_gnu.fops;
identifier switch_gnu.wsite, switch_gnu.wfn;
identifier switch_gnu.wfilp, switch_gnu.wcmd, switch_gnu.warg;
statement as_converted.lock, as_converted.unlock;
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	long ret;
+
+	lock
+	ret = wsite(wfilp, wcmd, warg);
+	unlock
+	return ret;
+}
+
  struct file_operations fops = { ..., ioctl: wsite, ... };

// --------------------------------------------------------- multi-kernel
// The legacy handler stays as it is for kernels before 2.6.11; the new
// entry point exists only where HAVE_UNLOCKED_IOCTL says it is used.

@ multi_wrapper_before_c99_fops depends on patch @
identifier fops_c99.fops;
identifier switch_c99.msite, switch_c99.wfn;
identifier switch_c99.wfilp, switch_c99.wcmd, switch_c99.warg;
expression switch_c99.wie;
statement as_converted.lock, as_converted.unlock;
symbol ret;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	long ret;
+
+	lock
+	ret = msite(wie, wfilp, wcmd, warg);
+	unlock
+	return ret;
+}
+#endif
+
  struct file_operations fops = { ..., .ioctl = msite, ... };

@ multi_wrapper_before_gnu_fops depends on patch @
identifier fops_gnu.fops;
identifier switch_gnu.msite, switch_gnu.wfn;
identifier switch_gnu.wfilp, switch_gnu.wcmd, switch_gnu.warg;
expression switch_gnu.wie;
statement as_converted.lock, as_converted.unlock;
symbol ret;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	long ret;
+
+	lock
+	ret = msite(wie, wfilp, wcmd, warg);
+	unlock
+	return ret;
+}
+#endif
+
  struct file_operations fops = { ..., ioctl: msite, ... };

// ----------------------------------------------------------------- inode

@ derive_inode depends on patch @
identifier as_converted.dh, definition.ino;
expression as_converted.ie;
@@
  dh(...) {
+ struct inode *ino = ie;
  ...
  }

// A body that started with a statement gets a blank line after the new
// declaration, as checkpatch wants.
@ derive_inode_blank depends on patch @
identifier as_converted.dh, definition.ino;
expression as_converted.ie;
statement S;
@@
  dh(...) {
  struct inode *ino = ie;
+
  S
  ...
  }

// ---------------------------------------------------------- fops entries

@ switch_c99_entry depends on patch @
identifier fops_c99.fops, switch_c99.plain, switch_c99.entry;
@@
struct file_operations fops = { ...,
- .ioctl = plain,
+ .unlocked_ioctl = entry,
  ... };

@ switch_c99_compat depends on patch @
identifier fops_c99.fops, switch_c99.with_compat, switch_c99.entry;
@@
struct file_operations fops = { ...,
- .ioctl = with_compat,
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };

@ switch_gnu_entry depends on patch @
identifier fops_gnu.fops, switch_gnu.plain, switch_gnu.entry;
@@
struct file_operations fops = { ...,
- ioctl: plain,
+ .unlocked_ioctl = entry,
  ... };

@ switch_gnu_compat depends on patch @
identifier fops_gnu.fops, switch_gnu.with_compat, switch_gnu.entry;
@@
struct file_operations fops = { ...,
- ioctl: with_compat,
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };

@ remove_c99_dead depends on patch @
identifier fops_c99.fops, switch_c99.dead;
@@
struct file_operations fops = { ...,
- .ioctl = dead,
  ... };

@ remove_gnu_dead depends on patch @
identifier fops_gnu.fops, switch_gnu.dead;
@@
struct file_operations fops = { ...,
- ioctl: dead,
  ... };

@ multi_entry depends on patch @
identifier fops_c99.fops, switch_c99.multi, switch_c99.entry;
@@
struct file_operations fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = multi,
+#endif
  ... };

@ multi_entry_gnu depends on patch @
identifier fops_gnu.fops, switch_gnu.multi, switch_gnu.entry;
@@
struct file_operations fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: multi,
+#endif
  ... };

@ multi_entry_gnu_compat depends on patch @
identifier fops_gnu.fops, switch_gnu.multi_compat, switch_gnu.entry;
@@
struct file_operations fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: multi_compat,
+#endif
  ... };

@ multi_entry_compat depends on patch @
identifier fops_c99.fops, switch_c99.multi_compat, switch_c99.entry;
@@
struct file_operations fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = multi_compat,
+#endif
  ... };

// A handler only a dead entry named is dead code too, when it is static.
@ script:python dead_handler @
h << definition.h;
p << definition.p;
dfn;
@@
coccinelle.dfn = ident(h if only_dead_uses(p[0].file, h) else None)

@ remove_dead_handler depends on patch @
identifier dead_handler.dfn;
@@
- static int dfn(...) { ... }

// ------------------------------------------------------- other references

// A header may hold only the prototype, so these are not tied to a use.
@ prototype depends on patch && (definition || name_list) @
identifier rh : script:python () { rh in handler_names or rh in listed };
position p : script:python () { renamed(text_at(p), p) };
parameter P1, P2, P3, P4;
@@
- int
+ long
  rh@p(
- P1,
  P2, P3, P4);

@ compare_entry depends on patch @
identifier as_converted.ch, as_converted.newh;
expression E;
@@
(
  E->
- ioctl
+ unlocked_ioctl
  ==
- ch
+ newh
|
  E->
- ioctl
+ unlocked_ioctl
  !=
- ch
+ newh
|
- ch
+ newh
  ==
  E->
- ioctl
+ unlocked_ioctl
|
- ch
+ newh
  !=
  E->
- ioctl
+ unlocked_ioctl
)

// A local whose only use was the inode argument a call just lost goes
// with it: "struct inode *inode = file->f_dentry->d_inode;" of a compat
// wrapper would be an unused variable.  Only a declaration that reads the
// inode of a file (no call, no side effect) is removed.  Its name is
// recorded before the call changes: a position cannot cross a change.
@ fed_inode_call depends on patch && (definition || name_list) @
identifier fed_h : script:python () { fed_h in handler_names or fed_h in listed };
identifier fed_ino;
expression E2, E3, E4;
position p : script:python () { renamed(text_at(p), p) };
@@
  fed_h@p(fed_ino, E2, E3, E4)

@ script:python fed_inode_local @
ino << fed_inode_call.fed_ino;
p << fed_inode_call.p;
fed_fn;
fed_local;
@@
coccinelle.fed_fn = cocci.make_ident(p[0].current_element)
coccinelle.fed_local = cocci.make_ident(ino)

@ caller depends on patch && (definition || name_list) @
identifier rh : script:python () { rh in handler_names or rh in listed };
position p : script:python () { renamed(text_at(p), p) };
expression E1, E2, E3, E4;
@@
  rh@p(
- E1,
  E2, E3, E4)

@ drop_fed_inode depends on patch @
identifier fed_inode_local.fed_fn, fed_inode_local.fed_local;
expression F;
@@
  fed_fn(...) {
  ... when any
(
- struct inode *fed_local = F->f_dentry->d_inode;
|
- struct inode *fed_local = F->f_path.dentry->d_inode;
|
- struct inode *fed_local = file_inode(F);
)
  ... when != fed_local
  }

@ einval depends on patch && enoioctlcmd_einval @
position p : script:python () { strategy_at(p) in ("pushdown", "wrapper") };
@@
- -ENOIOCTLCMD@p
+ -EINVAL

// --------------------------------------------------- headers and the mutex

@ add_smp_lock_h depends on patch && !mutex @
position p : script:python () { needs_header(p, "smp_lock.h") };
@@
#include <...>@p
+#include <linux/smp_lock.h>

@ script:python mutex_of_file @
h << definition.h;
p << definition.p;
mfn;
mname;
@@
coccinelle.mfn = ident(h if is_mutex_site(p) else None)
coccinelle.mname = cocci.make_ident(mutex_name(p[0].file))

@ add_mutex_h depends on patch && mutex @
position p : script:python () { needs_header(p, "mutex.h") };
@@
#include <...>@p
+#include <linux/mutex.h>

// Before the first converted handler, which a comment may precede.
@ add_mutex depends on patch && mutex @
identifier mutex_of_file.mfn, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+static DEFINE_MUTEX(mname);
+
  mfn(...) { ... }

// ------------------------------------------------------ context, org, report

@ context_c99 depends on context @
identifier fops, handler;
@@
struct file_operations fops = { ...,
* .ioctl = handler,
  ... };

@ context_gnu depends on context @
identifier fops, handler;
@@
struct file_operations fops = { ...,
* ioctl: handler,
  ... };

@ context_enoioctlcmd depends on context @
position p : script:python () { handler_at(p) is not None };
@@
* -ENOIOCTLCMD@p

@ script:python depends on report @
fops << fops_c99.fops; h << fops_c99.handler; p << fops_c99.p;
@@
report_entry(fops, h, p)

@ script:python depends on report @
fops << fops_gnu.fops; h << fops_gnu.handler; p << fops_gnu.p;
@@
report_entry(fops, h, p)

@ script:python depends on org @
fops << fops_c99.fops; h << fops_c99.handler; p << fops_c99.p;
@@
report_entry(fops, h, p, org=True)

@ script:python depends on org @
fops << fops_gnu.fops; h << fops_gnu.handler; p << fops_gnu.p;
@@
report_entry(fops, h, p, org=True)

// -ENOIOCTLCMD changes what userspace sees; every mode says so.
@ script:python depends on !context @
p << enoioctlcmd.p;
@@
if handler_at(p):
    enoioctlcmd_warning(handler_at(p), p)

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
//   before every return; a return of anything but an int constant or a
//   plain local that an int holds is evaluated under the lock into a
//   temporary first: the handler's "ret" when it is one non-static int of
//   the outermost block, else a fresh int named so that it shadows
//   nothing.  An int, as the legacy return was: a long, unsigned or size_t
//   value (a call, a ternary, "arg", a macro of the file) comes back
//   truncated as the int handler returned it, never whole.  An unsigned
//   int local is returned as (int)x.
// - wrapper: the handler keeps its body under its name; a new
//   NAME_unlocked_ioctl, before the first fops that names it, takes the
//   lock around a call to it, whose value it keeps in an int (what the
//   legacy int handler returned, whatever the type of a return).
// - auto (neither -D pushdown nor -D wrapper): pushdown unless an exit
//   or an early side effect would escape it: a macro that returns (of the
//   file or of a header it includes with quotes, directly or through
//   another macro), a return spatch does not see (a macro argument), a
//   statement expression, a computed goto, a macro of a header that was
//   not found, a local or parameter that hides the lock, a declaration
//   initializer that calls a function not known to be pure, calls
//   through a pointer, writes a variable or reads a volatile one, a
//   first statement inside an #if.  -D pushdown refuses those handlers.
// - Every spelling of an entry: C99 or GNU, in a structure, an array of
//   them or through a typedef of this file; "h", "&h" or a cast of h (the
//   new entry names the function, uncast); a run-time "fops.ioctl = h;" or
//   "fops->ioctl = h;".  An entry is what its own initializer says: a
//   .ioctl beside an .unlocked_ioctl is dead in that initializer only.
//   A .ioctl naming a function that already has the .unlocked_ioctl
//   signature gets the wrapper.  A wrapper's name is the first free one.
// - An entry in a branch never compiled (#if 0, the #else of #if 1) is
//   left as it is and reported; the handler converts for its live entries.
//   A version test is not taken for dead: the wrapper converts each branch.
// - Refused, and said why in report mode: the inode parameter is written
//   or its address taken; a call passes NULL as its inode; the handler is
//   used elsewhere with its old signature (EXPORT_SYMBOL follows it); it is
//   defined twice (#ifdef/#else); -D keep=a,b names it (convert found a
//   file that cannot follow); spatch did not match its definition (a parse
//   failure, or a do { } while whose body ends in a return); -D mutex and
//   the handler takes the BKL itself (or a function of its file that it
//   calls does) or is called directly (the mutex is not recursive, and callers would
//   not take it); -D mutex and the handler, or a function
//   of its file that it calls, sleeps until another call wakes it
//   (wait_event*(), sleep_on*(), schedule*(), wait_for_completion*(),
//   down*() on a semaphore that code of the file ups without downing it):
//   the BKL was dropped while its holder slept, the mutex is not, so that
//   call would wait for it forever; an entry named through a macro, in a
//   positional initializer, or a run-time assignment spatch cannot type;
//   code the conversion adds would land inside an #if that leaves out one
//   of its uses (the wrapper before the first of its fops, a header after
//   no include compiled wherever the handler is, or only after one inside
//   an #if, where spatch adds nothing).
// - Where code lands: a header already there counts only where it is
//   compiled wherever the converted code is; a new header goes after the last #include <...>
//   compiled wherever something converted is and inside no #if but an
//   include guard; the mutex goes before the
//   first converted handler, or before an earlier function when an #if
//   around that handler leaves out another use; the wrapper of a fops
//   that is a static local of a function goes before that function.  The
//   mutex takes a name the file does not use yet.  A macro of the file
//   that names the inode parameter counts as a use of it.
// - -ENOIOCTLCMD: the unlocked path turns it into -EINVAL.  Every mode
//   says so; -D enoioctlcmd_einval writes -EINVAL in the source, and
//   -D enoioctlcmd_refuse leaves such handlers alone.
//
// Other flags: -D mutex (a per-file DEFINE_MUTEX instead of the BKL, for
// kernels >= 2.6.39), -D inode_f_dentry (2.6.11-2.6.19) or -D inode_f_path
// (2.6.20-3.8) instead of file_inode() (>= 3.9), -D compat (also set
// .compat_ioctl: only right when the ioctl ABI is the same for 32-bit
// callers), -D multi_kernel (keep .ioctl under #ifndef HAVE_UNLOCKED_IOCTL),
// -D no_bkl (with -D mutex, for kernels >= 2.6.39, which have no
// <linux/smp_lock.h>: the include goes where a handler was converted and
// nothing in the file calls the BKL any more).

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
virtual no_bkl
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
fops_entries = {}    # file -> [Entry]: every .ioctl entry, whatever its spelling
refused_entries = {} # file -> [(fops, what, line, reason)]: entries never rewritten
fops_types = set()   # "struct file_operations" and this file's typedefs of it
runtime_any = {}     # (file, line, column) -> (target, handler): "E->ioctl = h;"
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
unlocked_defs = {}   # (file, handler) -> line: already the .unlocked_ioctl signature
runtime_unlocked = {} # file -> line of a run-time "E.unlocked_ioctl = u;"
wrapper_names = {}   # (file, handler) -> the free name its wrapper gets
include_lines = {}   # file -> lines of #include <...>
headers = {}         # (file, "smp_lock.h" | "mutex.h") -> lines that include it already
bkl_callers = set()  # files that call the BKL (and so still need smp_lock.h)
smp_lock_h_line = {} # file -> line of its #include <linux/smp_lock.h>
declarations = {}    # (file, handler) -> {(line, column): (line, column) where it ends}
first_statement_at = {} # (file, handler) -> (line, column) where its first statement starts
sleeps_at = {}       # (file, function) -> [(line, primitive)] where it sleeps until woken
downs = {}           # (file, function) -> [((line, column), primitive, semaphore)]
ups = {}             # (file, function) -> {((line, column), semaphore)} it ups
calls_in = {}        # (file, function) -> names it calls (-D mutex only)
fops_scope = {}      # (file, line of a .ioctl entry) -> function its fops is local to
written_returns = {} # (file, handler) -> {line: (returns in the text, one inside parentheses)}
seen_returns = {}    # (file, handler) -> {line: {columns of the returns spatch matched}}
variables = {}       # (file, handler) -> [LocalVariable]
static_at = set()    # (file, line, column) of static declarations
unsigned_names = set() # names declared anywhere in the file with an unsigned int type
wide_names = set()   # names declared anywhere in the file with a type an int may not hold
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

_words = {}

def words_of(file):
    """Every identifier-like word of the file, comments and strings aside."""
    if file not in _words:
        _words[file] = set(re.findall(r"\w+", NOT_CODE.sub(" ", "\n".join(source_lines(file)))))
    return _words[file]

def wrapper_name(h, file=None):
    """NAME_unlocked_ioctl, or the first NAME_unlocked_ioctlN that neither
    the file nor another wrapper of this run uses."""
    file = file or current_file[0]
    if (file, h) in wrapper_names:
        return wrapper_names[(file, h)]
    stem = h[:-len("_ioctl")] if h.endswith("_ioctl") else h
    taken = (words_of(file) if file else set()) | set(wrapper_names.values())
    name, n = stem + "_unlocked_ioctl", 1
    while name in taken:
        n += 1
        name = "%s_unlocked_ioctl%d" % (stem, n)
    wrapper_names[(file, h)] = name
    return name

_mutex_names = {}

def mutex_name(file):
    """The private mutex of FILE, named after it; a name the file already
    uses for something else (its own mutex, a variable) is never taken."""
    if file not in _mutex_names:
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(file))[0])
        taken = set(re.findall(r"\w+", "\n".join(source_lines(file))))
        names = [stem + "_mutex", stem + "_ioctl_mutex"]
        names += ["%s_ioctl_mutex%d" % (stem, n) for n in range(2, len(taken) + 3)]
        _mutex_names[file] = next(n for n in names if n not in taken)
    return _mutex_names[file]

# A return that is not a constant or a plain local is evaluated under the
# lock into a temporary.  The temporary is an int: assigning to it converts
# the value as the return of the legacy int handler did (a long, an unsigned or
# a size_t the handler returned came back truncated and sign-extended; from
# a long temporary it would come back whole).  The handler's own "ret"
# serves only when it is one non-static int of the outermost block.
# Otherwise a fresh int, named so that nothing in the file is shadowed; one
# name per file, since the rewriting rule that uses it matches every handler.
LocalVariable = collections.namedtuple("LocalVariable", "name type line static top")
INT = {"int", "signed", "signed int"}
# Types whose every value an int holds: such a local is returned as it is.
# A local of any other arithmetic type goes through the int temporary.
INT_FITS = INT | {"short", "short int", "signed short", "signed short int", "unsigned short",
                  "unsigned short int", "char", "signed char", "unsigned char", "s8", "s16",
                  "s32", "u8", "u16", "__s8", "__s16", "__s32", "__u8", "__u16", "int8_t",
                  "int16_t", "int32_t", "uint8_t", "uint16_t", "bool", "_Bool"}
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

def fits_int(t):
    """Whether every value of type T is an int, or T is no arithmetic type."""
    t = plain_type(t)
    return t in INT_FITS or "*" in t or re.match(r"(struct|union)\b", t) is not None

def plain_local(name):
    """Whether "return name;" may stay as it is after the unlock: a local
    that is neither static (another caller may change it once unlocked)
    nor of a type an int may not hold (the int handler truncated it).
    A constraint gets the text of the expression, spaces before it too."""
    name = name.strip()
    return name not in unsigned_names and name not in wide_names and \
        name not in static_local_names()

INT_LITERAL = re.compile(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")
NEGATED_OR_PARENTHESIZED = re.compile(r"^\s*(?:-|\()\s*(.*?)\s*\)?\s*$", re.DOTALL)

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

IF_CONSTANT = re.compile(r"[ \t]*#[ \t]*if[ \t]+([01])\b")
ELSE = re.compile(r"[ \t]*#[ \t]*(else|elif)\b")
def dead_branches(lines):
    """For each of LINES, a pair: the line of the #if whose branch that is
    never compiled holds it (or None), and "if" for a known #if or "endif"
    for an #endif that closes an #if (else None).  Known are "#if 0" and
    "#if 1".  A version test is not: the wrapper runs the rule on each of
    its branches (convert_branches.py), so a driver that still builds for
    2.4 gets both entries converted alike.  After an #elif nothing is
    taken for dead."""
    out, stack = [], []   # per open #if: (known, dead, its line)
    for number, text in enumerate(lines, 1):
        match = CONDITIONAL.match(text)
        kind = match.group(1) if match else None
        constant = IF_CONSTANT.match(text)
        if constant:
            stack.append((True, constant.group(1) == "0", number))
            kind = "if"
        elif kind in ("if", "ifdef", "ifndef"):
            stack.append((False, False, number))
            kind = None
        elif ELSE.match(text) and stack and stack[-1][0]:
            _, dead, line = stack[-1]
            stack[-1] = (True, not dead, line) if ELSE.match(text).group(1) == "else" \
                else (False, False, line)
        elif kind == "endif" and stack:
            stack.pop()
        else:
            kind = None
        dead = [line for _, is_dead, line in stack if is_dead]
        out.append((dead[0] if dead else None, kind))
    return out

def without_dead_code(lines):
    """LINES with the code under #if 0, and under the #else of #if 1,
    blanked: never compiled, so no exit."""
    return ["" if dead or kind else text
            for text, (dead, kind) in zip(lines, dead_branches(lines))]

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
_inode_macros = {}

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

_sources = {}

def source_lines(file):
    if file not in _sources:
        with open(file, errors="replace", newline="") as f:
            _sources.clear()
            _sources[file] = f.read().split("\n")  # as spatch counts lines, not splitlines()
    return _sources[file]

class Entry(tuple):
    """One .ioctl entry: fops is the structure (or the expression a run-time
    assignment writes), container the initializer that holds it (its
    opening brace), None for a run-time assignment."""
    __slots__ = ()
    fops = property(lambda e: e[0])
    handler = property(lambda e: e[1])
    line = property(lambda e: e[2])
    column = property(lambda e: e[3])
    container = property(lambda e: e[4])
    site = property(lambda e: e[5])       # the line the wrapper goes before


def new_entry_record(file, fops, h, p, container, site):
    entry = Entry((fops, h, int(p[0].line), int(p[0].column), container, site))
    if entry not in fops_entries.setdefault(file, []):
        fops_entries[file].append(entry)
    known_uses.setdefault((file, h), set()).add(entry.line)
    return entry

def entry_at(p):
    for e in fops_entries.get(p[0].file, []):
        if (e.line, e.column) == (int(p[0].line), int(p[0].column)):
            return e
    return None

# Initializers are read from the text of the file a position is in, which
# after a rewrite is spatch's temporary copy of the changed declaration:
# what an entry is (its structure, whether that sets .unlocked_ioctl) is
# then read the same way as before the rewrite.
_braces = {}
_code = {}

def code_text(file):
    if file not in _code:
        _code[file] = NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()),
                                   "\n".join(source_lines(file)))
    return _code[file]

# A preprocessor directive with its continuation lines.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_directive_free = {}

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

def container_of(p):
    """The opening brace of the innermost initializer around p: the very
    structure (or array element) an entry belongs to, whatever its name."""
    file = p[0].file
    at = offset_of(file, int(p[0].line), int(p[0].column))
    around = [o for o, c in brace_pairs(file).items() if o < at <= c]
    return max(around) if around else None

def initializer_of(file, container):
    """The opening brace of the whole initializer that holds container:
    the brace after "=" (a fops that is a static local of a function sits
    inside that function's body, which is no initializer), or None."""
    pairs, code = brace_pairs(file), code_text(file)
    around = sorted((o for o, c in pairs.items() if o <= container <= c), reverse=True)
    return next((o for o in around if code[:o].rstrip().endswith("=")), None)

# Attributes a declaration may carry: __initdata, __pmacdata,
# __attribute__((unused)), ____cacheline_aligned.
ATTRIBUTE = r"(?<!\w)__\w+\s*(?:\(\s*\([^()]*\)\s*\)|\([^()]*\))?\s*"
ATTRIBUTES = "(?:" + ATTRIBUTE + ")*"

def declaration_of(file, container):
    """(type, name) of the declaration whose initializer holds container."""
    outer = initializer_of(file, container)
    if outer is None:
        return None, None
    head = re.split(r"[;{}]", directive_free_code(file)[:outer])[-1]
    match = re.search(r"(\w+)\s*(?:\[[^]]*\]\s*)?" + ATTRIBUTES + r"=\s*$", head)
    if not match:
        return None, None
    return head[:match.start()].strip(), match.group(1)

MEMBER_SET = {m: re.compile(r"\.\s*%s\s*=|\b%s\s*:" % (m, m))
              for m in ("unlocked_ioctl", "compat_ioctl")}

def sibling_branches(file, first, last, line):
    """[(from, to)] line ranges, within lines first..last, of the branches
    of each #if around LINE other than LINE's own: code that is never
    compiled together with it."""
    found, groups = [], []   # per open #if: [branch starts], its line
    for number, text in enumerate(source_lines(file)[first - 1:last], first):
        match = CONDITIONAL.match(text)
        if match and match.group(1) != "endif":
            groups.append([number])
        elif ELSE.match(text) and groups:
            groups[-1].append(number)
        elif match and groups:
            starts = groups.pop() + [number]
            branches = list(zip(starts, starts[1:]))
            if any(a < line < b for a, b in branches):
                found += [(a, b) for a, b in branches if not a < line < b]
    return found

def sets(file, container, member, line=None):
    """Whether the initializer opening at container sets member itself,
    in code compiled together with LINE (an entry of it) when given."""
    close = brace_pairs(file)[container]
    text = list(code_text(file)[container + 1:close])
    for o, c in brace_pairs(file).items():
        if container < o and c < close:
            text[o - container - 1:c - container] = " " * (c - o + 1)
    code = code_text(file)
    first = code.count("\n", 0, container) + 1
    for a, b in sibling_branches(file, first, code.count("\n", 0, close) + 1, line or 0):
        start = max(offset_of(file, a, 0), container + 1)
        end = min(offset_of(file, b, 0), close)
        text[start - container - 1:end - container - 1] = " " * (end - start)
    return bool(MEMBER_SET[member].search("".join(text)))

MACRO_CALL = re.compile(r"\w+\s*\([^()]*\)")
INITIALIZER_OPEN = re.compile(r"=\s*\{\Z")
TEXT_ENTRY = re.compile(r"(?:\.\s*ioctl\s*=|\bioctl\s*:)\s*(?:&\s*)?(?:\([^()]*\)\s*)?(\w+)")

# A conditional ioctl-rework's wrapper rewrote as "#ifdef BRANCH_RUN<n>" to
# run the rule once per branch and merge the results (convert_branches.py).
BRANCH_RUN = "IOCTL_REWORK_BRANCH_"

def hidden_entries(file):
    """Entries of the initializers spatch read that it did not match: one
    in a preprocessor branch it skipped (the #else of a driver that still
    builds for 2.4), or a GNU entry in an array whose other elements are
    C99.  [(fops, handler, line, why)]"""
    seen = {}
    pairs = brace_pairs(file)
    for e in fops_entries.get(file, []):
        if e.container is not None:
            outer = initializer_of(file, e.container)
            if outer is None:
                continue
            seen.setdefault(outer, (e.fops, set()))[1].add(e.line)
    code = code_text(file)
    # A fops whose every .ioctl is in a branch spatch did not read: no entry
    # of it was matched, and it is found by its declaration instead.
    for outer, close in pairs.items():
        if outer not in seen and INITIALIZER_OPEN.search(code, max(0, outer - 80), outer + 1) \
                and not any(o < outer < c for o, c in pairs.items()):
            declared, name = declaration_of(file, outer)
            if name and is_fops_type(declared) \
                    and TEXT_ENTRY.search(code, outer + 1, close):
                seen[outer] = (name, set())
    dead = without_dead_code(source_lines(file))
    refused_lines = {line for _, _, line, _ in refused_entries.get(file, [])}
    found = []
    for outer, (fops, lines) in sorted(seen.items()):
        first = code.count("\n", 0, outer) + 1
        for match in TEXT_ENTRY.finditer(code, outer + 1, pairs[outer]):
            line = code.count("\n", 0, match.start()) + 1
            if line in lines or line in refused_lines or match.group(1) == "NULL":
                continue
            if not dead[line - 1].strip():
                continue        # under #if 0: never compiled
            branch = open_conditional(file, first, line)
            if branch and "HAVE_UNLOCKED_IOCTL" in source_lines(file)[branch - 1]:
                continue        # the legacy half of the -D multi_kernel output
            if branch and never_compiled(file, line):
                continue        # dead_entries() says why it stays
            if branch and BRANCH_RUN in source_lines(file)[branch - 1]:
                continue        # the wrapper runs the rule on that branch too
            why = ("in the preprocessor branch of line %d, which spatch does not read"
                   % branch if branch else "in a spelling spatch did not match here")
            found.append((fops, match.group(1), line, why))
    return found

_dead_lines = {}

def never_compiled(file, line):
    """The line of the #if whose dead branch holds LINE of FILE, or None:
    #if 0 or the #else of #if 1."""
    if file not in _dead_lines:
        lines = code_text(file).split("\n")
        _dead_lines[file] = [dead for dead, _ in dead_branches(lines)]
    return _dead_lines[file][line - 1]

def unread_dead_initializers(file, code, pairs):
    """Initializers spatch does not read (a whole fops under #if 0) that
    name a handler of this file's live entries: found by their text."""
    handlers = set(e[1] for e in fops_entries.get(file, []))
    found = set()
    for match in TEXT_ENTRY.finditer(code):
        at = match.start()
        line = code.count("\n", 0, at) + 1
        if match.group(1) in handlers and never_compiled(file, line):
            around = [o for o, c in pairs.items() if o < at and at <= c]
            if around:
                found.add(min(around))
    return found

def dead_entries(file):
    """Entries in a branch never compiled with the converted file: left as
    they are, beside a handler converted for its live entries.
    [(fops, handler, line, why)]"""
    pairs = brace_pairs(file)
    outers = {min(o for o, c in pairs.items() if o <= e.container <= c)
              for e in fops_entries.get(file, []) if e.container is not None}
    code = code_text(file)
    outers |= unread_dead_initializers(file, code, pairs)
    found = []
    for outer in sorted(outers):
        fops = declaration_of(file, outer)[1] or "?"
        for match in TEXT_ENTRY.finditer(code, outer + 1, pairs[outer]):
            line = code.count("\n", 0, match.start()) + 1
            branch = never_compiled(file, line)
            if branch and match.group(1) != "NULL" and not entry_at_line(file, line):
                found.append((fops, match.group(1), line, why_never_compiled(file, branch)))
    return found

def why_never_compiled(file, branch):
    test = re.sub(r"\s+", " ", code_text(file).split("\n")[branch - 1].strip())
    return "in the branch of the %s at line %d that is never compiled" % (test, branch)

def entry_at_line(file, line):
    return any(e.line == line for e in fops_entries.get(file, []))

def is_fops_type(t):
    words = [w for w in re.sub(ATTRIBUTE, " ", t or "").split()
             if w not in ("const", "static", "volatile")]
    return " ".join(words) in fops_types | {"struct file_operations"}

def entry_state(file, entry):
    """"dead" when its initializer also sets .unlocked_ioctl, which the VFS
    prefers (file: where entry.container is an offset).  spatch does not
    look inside #ifdef HAVE_UNLOCKED_IOCTL branches, so code already set up
    for both kernels is not seen.  A run-time assignment is never dead:
    which one the VFS calls depends on the order, and such handlers are
    refused when the file also assigns .unlocked_ioctl (decide())."""
    if entry.container is not None and sets(file, entry.container, "unlocked_ioctl",
                                            entry.line):
        return "dead"
    return None

def only_dead_uses(file, h):
    entries = [e for e in fops_entries.get(file, []) if e[1] == h]
    if not entries or any(entry_state(file, e) != "dead" for e in entries):
        return False
    return expr_uses.get((file, h), set()) <= {e[2] for e in entries}

def live_entries(file, h):
    return [e for e in fops_entries.get(file, [])
            if e[1] == h and entry_state(file, e) is None]

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
    dead = [never_compiled(file, e.line) for e in fops_entries.get(file, []) if e[1] == h]
    if dead and all(dead) and h not in listed and \
            not any(name == h for _, name, _, _ in hidden_entries(file)):
        # Converted, it would be named by no entry that is compiled with it.
        decisions[key] = (None, "its entries are all " + why_never_compiled(file, dead[0]))
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
    if key not in definitions and key in unlocked_defs and referenced:
        # A latent bug of old trees: the VFS passed it an inode for its
        # file.  Its body stays; the wrapper calls it under the lock.
        result = (None, "it has the .unlocked_ioctl signature, but the lock is "
                  "not free under -D multi_kernel") if multi_kernel_on else \
            ("wrapper", "it already has the .unlocked_ioctl signature (line %d)"
             % unlocked_defs[key])
        decisions[key] = result
        return result
    if key not in definitions:
        if key in other_defs:
            result = (None, "its definition at line %d does not have the .ioctl "
                      "signature" % other_defs[key])
        elif h in listed and (wrapper_on or multi_kernel_on):
            # The file of the definition refuses it too: every file agrees.
            result = (None, "the wrapper strategy needs the fops in the same file")
        elif h in listed:
            result = ("pushdown", "defined in another file")
        elif unmatched_definition(file, h):
            result = (None, "spatch did not match its definition at line %d: it could "
                      "not parse it, or not build its control flow (a do { } while loop "
                      "whose body ends in a return or a goto); convert it by hand"
                      % unmatched_definition(file, h))
        else:
            result = (None, "handler is not defined in this file; convert the "
                      "files together with ioctl-rework convert")
        decisions[key] = result
        return result
    # "f_op->ioctl == h" follows the entry to .unlocked_ioctl, except with
    # -D multi_kernel, where one kernel has each.
    followed = known_uses.get(key, set()) | \
        (set() if multi_kernel_on else compared.get(key, set()))
    others = sorted(n for n in expr_uses.get(key, set()) - followed
                    if not never_compiled(file, n))
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
    runtime = sorted(e.line for e in live_entries(file, h) if e.container is None)
    hidden = [(line, why) for _, name, line, why in hidden_entries(file) if name == h]
    if hidden:
        result = (None, "an initializer also names it at line %d, %s; converting the "
                  "entries spatch sees would leave that one wrong: convert it by hand"
                  % hidden[0])
    elif "defined_twice" in f:
        result = (None, "it is defined twice, at lines %d and %d (under #if and #else): "
                  "one conversion cannot fit both; convert them by hand"
                  % (definitions[key], f["defined_twice"]))
    elif "inode_written" in f:
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
    elif mutex_on and bkl_in_callee(file, h):
        result = (None, "it calls %s: under the private mutex the BKL is not "
                  "held there, and the mutex is not dropped" % bkl_in_callee(file, h))
    elif mutex_on and waits_for_another_call(file, h):
        result = (None, "it sleeps until another call wakes it (%s) and, unlike "
                  "the BKL, the private mutex is not dropped while it sleeps: "
                  "the call that would wake it would wait for the mutex"
                  % waits_for_another_call(file, h))
    elif runtime and runtime_unlocked.get(file):
        result = (None, "it is assigned at run time at line %d and the file also "
                  "assigns .unlocked_ioctl at run time at line %d: which one the VFS "
                  "calls depends on the order" % (runtime[0], runtime_unlocked[file]))
    elif runtime and multi_kernel_on:
        result = (None, "it is assigned at run time at line %d: -D multi_kernel "
                  "writes #ifdef HAVE_UNLOCKED_IOCTL only in initializers" % runtime[0])
    elif enoioctlcmd_refuse_on and "enoioctlcmd" in f:
        result = (None, "returns -ENOIOCTLCMD at line %d (-D enoioctlcmd_refuse)"
                  % f["enoioctlcmd"])
    elif multi_kernel_on and h in listed and not referenced:
        result = (None, "the multi-kernel output needs the fops in the same file")
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
    if result[0] in ("pushdown", "wrapper", "multi-kernel") and key in definitions and \
            placement_problem(file, h, result[0]):
        result = (None, placement_problem(file, h, result[0]))
    decisions[key] = result
    return result

calls = {}           # (file, function) -> names it calls with four arguments
direct_calls = []    # (file, line, handler, caller): calls that lose their inode

def is_handler(file, name):
    """A handler defined here, or one convert names (listed or kept)."""
    return (file, name) in definitions or name in listed or name in kept

def renamed(h, p, file=None):
    """Whether prototypes of and calls to h follow the new signature."""
    file = file or origin(p)
    if h in listed:
        return decide(file, h)[0] in ("pushdown", "wrapper")
    return decisions.get((file, h), (None,))[0] in ("pushdown", "wrapper")

CASE_LABEL = re.compile(r"\b(case\b|default\s*:)")

def same_section(file, start, end):
    """Whether code from (line, column) START to END stays in the block
    and switch case of START: a down() and an up() that release a lock, not
    two branches (an up() in one branch signals a down() in another)."""
    lines = source_lines(file)[start[0] - 1:end[0]]
    lines[-1] = lines[-1][:end[1]]
    lines[0] = lines[0][start[1]:]
    depth = 0
    for piece in re.split(r"([{}])", NOT_CODE.sub("", "\n".join(lines))):
        if piece in ("{", "}"):
            depth += 1 if piece == "{" else -1
            if depth < 0:
                return False
        elif depth == 0 and CASE_LABEL.search(piece):
            return False
    return True

def woken_semaphores(file):
    """Semaphores some up() signals rather than releases: no down() of
    the same semaphore comes before it in its function and its section."""
    found = set()
    for (f, fn), upped in ups.items():
        if f != file:
            continue
        for up_at, sem in upped:
            if not any(s == sem and down_at < up_at and same_section(file, down_at, up_at)
                       for down_at, _, s in downs.get((f, fn), [])):
                found.add(sem)
    return found

def reachable(file, h):
    """h, then the functions of its file that it calls, breadth first."""
    todo, seen = [h], set()
    while todo:
        fn = todo.pop(0)
        if fn in seen:
            continue
        seen.add(fn)
        yield fn
        todo += sorted(c for c in calls_in.get((file, fn), ()) if c in functions.get(file, ()))

def waits_for_another_call(file, h):
    """Where h, or a function of its file that it calls, sleeps until
    another call wakes it: "primitive() at line N[ in fn()]", or None."""
    signals = woken_semaphores(file)
    for fn in reachable(file, h):
        found = sorted(sleeps_at.get((file, fn), []) +
                       [(at[0], name) for at, name, sem in downs.get((file, fn), [])
                        if sem in signals])
        if found:
            line, name = found[0]
            return "%s() at line %d%s" % (name, line, "" if fn == h else " in %s()" % fn)
    return None

def bkl_in_callee(file, h):
    """A function of the file that h calls and that takes or drops the BKL
    (a helper that drops it around a sleep): "fn(), which ...", or None."""
    for fn in reachable(file, h):
        if fn != h and has(file, fn, "takes_bkl"):
            return "%s(), which takes or drops the BKL at line %d" % (
                fn, facts[(file, fn)]["takes_bkl"])
    return None

def uses_inode(file, h):
    if has(file, h, "inode_in_macro"):
        return True
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

def new_entry(file, entry):
    """The function an entry switches to, or None."""
    h = entry.handler
    if h == "NULL" or entry_state(file, entry) is not None:
        return None
    strategy = decide(file, h)[0]
    if strategy == "pushdown":
        return h
    if strategy == "wrapper":
        return wrapper_name(h, file)
    return None

def action(file, entry, real=None):
    """What the rewriting rules do to one entry: "plain" (.unlocked_ioctl),
    "compat" (and .compat_ioctl), "multi" or "multi_compat" (both kernels),
    "dead" (removed), or None (left alone)."""
    h, real = entry.handler, real or file
    if h == "NULL" or entry_state(file, entry) == "dead":
        return "dead"
    add_compat = compat_on and (entry.container is None or
                                not sets(file, entry.container, "compat_ioctl",
                                         entry.line))
    strategy = decide(real, h)[0]
    if strategy in ("pushdown", "wrapper"):
        return "compat" if add_compat else "plain"
    if strategy == "multi-kernel" and entry.container is not None:
        return "multi_compat" if add_compat else "multi"
    return None

def action_at(p):
    """action() of the entry whose handler is at p, in the text p is in (a
    rewriting rule's constraint: the very entry, not every entry of that
    name)."""
    file, h = p[0].file, text_at(p)
    container = container_of(p)
    if container is None or not is_fops_type(declaration_of(file, container)[0]):
        return None
    if (origin(p), h) not in decisions and h != "NULL":
        return None
    if never_compiled(file, int(p[0].line)):
        return None     # left as it is (dead_entries)
    # decide() is keyed by the real file, the state by the text p is in.
    entry = Entry(("", h, int(p[0].line), int(p[0].column), container, None))
    return action(file, entry, origin(p))

def runtime_action_at(p):
    h = text_at(p)
    if (origin(p), h) not in decisions:
        return None
    return action(p[0].file, Entry(("", h, 0, 0, None, None)), origin(p))

def say(p, message, org):
    if org:
        cocci.print_main(message, p)
    else:
        print("%s:%s: %s" % (p[0].file, p[0].line, message))

def report_entry(fops, h, p, org=False):
    where = "%s: .ioctl = %s" % (fops, h)
    entry = entry_at(p)
    if entry is None:
        return
    if h == "NULL":
        say(p, "%s: remove (an empty entry)" % where, org)
    elif entry_state(p[0].file, entry) == "dead":
        say(p, "%s: remove (dead: the fops also sets .unlocked_ioctl)" % where, org)
    elif decide(p[0].file, h)[0] and never_compiled(p[0].file, entry.line):
        # Read by spatch, but left as it is (action_at).
        say(p, "%s: left alone: %s" % (where, why_never_compiled(
            p[0].file, never_compiled(p[0].file, entry.line))), org)
    elif decide(p[0].file, h)[0]:
        why = decide(p[0].file, h)[1]
        say(p, "%s: convert (%s)%s" % (where, details(p[0].file, h),
                                       ": " + why if why else ""), org)
    else:
        say(p, "%s: left alone: %s" % (where, decide(p[0].file, h)[1]), org)

def report_refused(file):
    """Entries no rewriting rule can reach, each with its reason."""
    if file is None:
        return
    found = list(refused_entries.get(file, []))
    for fops, h, line, why in hidden_entries(file):
        found.append((fops, h, line, why + ": convert it by hand"))
    found += dead_entries(file)
    for (where, line, column), (target, h) in sorted(runtime_any.items()):
        if where == file and (file, h) in definitions and not any(
                (e.line, e.column) == (line, column) for e in fops_entries.get(file, [])):
            found.append((target, h, line, "assigned at run time to an ioctl member of "
                           "%s, whose type spatch cannot see: convert it by hand" % target))
    for fops, what, line, reason in sorted(found, key=lambda r: r[2]):
        print("%s:%d: %s: .ioctl = %s: left alone: %s" % (file, line, fops, what, reason))

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

def switch_entry(h, p):
    """Bind what the entry at p becomes: entry is the new function; the
    wrapper is written before the first live entry of its handler (adding
    code after some handlers' bodies makes spatch fail), so it needs no
    prototype: the handler is declared before anything names it."""
    file = p[0].file
    entry = entry_at(p)
    strategy = decide(file, h)[0] if entry and h != "NULL" else None
    if strategy and (file, h) not in definitions and (file, h) in unlocked_defs:
        # Only its wrapper is new: the lock (or mutex) comes before it.
        mutex_site[file] = min(mutex_site.get(file, unlocked_defs[(file, h)]),
                               unlocked_defs[(file, h)])
    # One name per handler, whichever entry bound it: rules that inherit
    # it would otherwise rewrite one entry twice.
    coccinelle.entry = ident(h if strategy == "pushdown" else wrapper_name(h, file)
                             if strategy in ("wrapper", "multi-kernel") else None)
    live = sorted(live_entries(file, h), key=lambda e: (e.line, e.column))
    wrapped = bool(live) and live[0] == entry and strategy in ("wrapper", "multi-kernel")
    coccinelle.wsite = ident(h if wrapped and strategy == "wrapper" else None)
    coccinelle.msite = ident(h if wrapped and strategy == "multi-kernel" else None)
    coccinelle.wfn = ident(wrapper_name(h, file) if wrapped else None)
    filp, cmd, arg = wrapper_parameters(file, h)
    coccinelle.wfilp, coccinelle.wcmd, coccinelle.warg = ident(filp), ident(cmd), ident(arg)
    coccinelle.wie = cocci.make_expr(inode_expr(filp))
    coccinelle.wlock, coccinelle.wunlock = lock_statements(file)

def lock_statements(file):
    if mutex_on:
        return (cocci.make_stmt("mutex_lock(&%s);" % mutex_name(file)),
                cocci.make_stmt("mutex_unlock(&%s);" % mutex_name(file)))
    return cocci.make_stmt("lock_kernel();"), cocci.make_stmt("unlock_kernel();")

def wrapper_site(q, wsite):
    """Whether the wrapper of wsite goes before the definition (of a
    structure, or the function of a run-time assignment) named at q."""
    if wsite == NO_MATCH:
        return False
    live = sorted(live_entries(origin(q), wsite), key=lambda e: (e.line, e.column))
    if not live:
        return False
    if isinstance(live[0].site, str):          # the function of an assignment
        return live[0].site == text_at(q)
    if origin(q) != q[0].file:                 # a declaration changed already
        return live[0].fops == text_at(q)
    return live[0].site == int(q[0].line)

def drops_smp_lock_h(p):
    """Whether p is an #include <linux/smp_lock.h> that -D no_bkl removes."""
    file = p[0].file
    return no_bkl_on and smp_lock_h_line.get(file) == int(p[0].line) and \
        file in mutex_site and file not in bkl_callers

def local_to(fops, p):
    """The function a fops is a (static) local of, or None at file scope:
    spatch names the declaration itself as the element of a global."""
    return None if p[0].current_element == fops else p[0].current_element

# Where inserted code lands (a wrapper, the mutex, a header) must be
# compiled in every configuration in which something uses it.
BRANCH = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")

def conditionals_at(file, line):
    """The #if blocks open at LINE, outermost first, each as (line of its
    #if, how many #elif/#else of it came before LINE)."""
    stack = []
    for number, text in enumerate(source_lines(file)[:line - 1], 1):
        match = BRANCH.match(text)
        if not match:
            continue
        if match.group(1) in ("if", "ifdef", "ifndef"):
            stack.append((number, 0))
        elif match.group(1) == "endif":
            if stack:
                stack.pop()
        elif stack:
            stack[-1] = (stack[-1][0], stack[-1][1] + 1)
    return tuple(stack)

def encloses(file, site, uses):
    """Whether code at line SITE is compiled wherever each line of USES is."""
    around = conditionals_at(file, site)
    return all(conditionals_at(file, use)[:len(around)] == around for use in uses)

def converted_lines(file):
    """Lines that use what the conversion adds: the definitions of the
    converted handlers and the fops entries that name them."""
    lines = []
    for (f, h), (strategy, _) in list(decisions.items()):
        if f == file and strategy in ("pushdown", "wrapper", "multi-kernel") \
                and (f, h) in definitions:
            lines.append(definitions[(f, h)])
            lines += [e[2] for e in live_entries(f, h)]
    return lines

GUARD = re.compile(r"\s*#\s*ifndef\s+(\w+)\s*$")

def is_guard(file, line):
    """Whether the #if at LINE is an include guard (#ifndef X, #define X)."""
    lines = source_lines(file)
    match = GUARD.match(lines[line - 1])
    rest = [l for l in lines[line:line + 3] if l.strip()]
    return bool(match and rest and
                re.match(r"\s*#\s*define\s+%s\b" % match.group(1), rest[0]))

def outside_ifs(file, line):
    """Whether LINE is inside no #if but include guards: spatch adds
    nothing after an include inside one."""
    return all(not branches and is_guard(file, at)
               for at, branches in conditionals_at(file, line))

def header_site(file, uses):
    """The last #include <...> compiled wherever USES are that spatch can
    add a line after, or None."""
    fit = [l for l in include_lines.get(file, [])
           if encloses(file, l, uses) and outside_ifs(file, l)]
    return max(fit) if fit else None

def mutex_line(file):
    """The line of the function the mutex goes before: the first converted
    handler, unless an #if around it leaves out another use."""
    uses = converted_lines(file)
    if encloses(file, mutex_site[file], uses):
        return mutex_site[file]
    # (spatch adds no declaration after an include directive.)
    fits = [line for (f, _), line in list(other_defs.items()) + list(definitions.items())
            if f == file and line <= min(uses) and encloses(file, line, uses)]
    if not fits:
        raise RuntimeError("ioctl-rework: %s:%d: no function ahead of the converted "
                           "handlers is compiled wherever they are, to put the private "
                           "mutex before; not converted" % (file, mutex_site[file]))
    return max(fits)

def is_mutex_site(p):
    return p[0].file in mutex_site and mutex_line(p[0].file) == int(p[0].line)

def needs_header(p, header):
    """New headers go after the last #include <...> of a file in which
    something was converted that every configuration using them compiles."""
    file, line = p[0].file, int(p[0].line)
    if file not in mutex_site or line != header_site(file, converted_lines(file)):
        return False
    return not included(file, header, converted_lines(file))

def included(file, header, uses):
    """Whether an #include of header is compiled wherever each of USES is
    (one under an #ifdef that leaves a use out does not count)."""
    return any(encloses(file, line, uses) for line in headers.get((file, header), ()))

def placement_problem(file, h, strategy):
    """Why code the conversion of h adds would land where some
    configuration that uses it does not compile it, or None."""
    uses = [definitions[(file, h)]] + [e[2] for e in live_entries(file, h)]
    header = "mutex.h" if mutex_on else "smp_lock.h"
    # (A file without system includes gets none, as before: its own
    # header may well bring the lock in.)
    if not included(file, header, uses) and include_lines.get(file) and \
            header_site(file, uses) is None:
        inside = [l for l in include_lines[file] if encloses(file, l, uses)]
        if inside:
            at = next(at for at, branches in conditionals_at(file, max(inside))
                      if branches or not is_guard(file, at))
            return "every #include <...> compiled wherever it is used is inside the " \
                   "#if at line %d, after which spatch adds no <linux/%s>" % (at, header)
        return "no #include <...> is compiled wherever it is used, to add " \
               "<linux/%s> after" % header
    if strategy not in ("wrapper", "multi-kernel"):
        return None
    live = sorted(live_entries(file, h), key=lambda e: (e.line, e.column))
    entries = [e.line for e in live]
    scope = fops_scope.get((file, live[0].line))
    if scope and strategy == "multi-kernel":
        return "its fops at line %d is local to %s(), where the multi-kernel " \
               "wrapper cannot go" % (live[0].line, scope)
    # The wrapper goes before the fops, or the function of a local fops or
    # of a run-time assignment (a site that is a name).
    site = live[0].site
    if isinstance(site, str):
        site = other_defs.get((file, site), definitions.get((file, site), live[0].line))
    if not encloses(file, site, entries):
        return "the wrapper would go before line %d, inside the #if at line %d, " \
               "which leaves out the fops at line %d" % (
                   site, conditionals_at(file, site)[-1][0],
                   next(e for e in entries if not encloses(file, site, [e])))
    return None

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
            inode_uses, inode_passed_to, mutex_site, _code,
            include_lines, headers, bkl_callers, smp_lock_h_line, declarations,
            first_statement_at, calls, _macros,
            written_returns, seen_returns, variables, static_at, unsigned_names, wide_names,
            returned_locals, _temp_names, volatile_names,
            _sources, _dead_lines, refused_entries, fops_types, runtime_any, unlocked_defs, direct_calls,
            wrapper_names, _braces, _words, runtime_unlocked,
            sleeps_at, downs, ups, calls_in, fops_scope, _inode_macros, _mutex_names)

def is_static(file, h):
    """Whether h's definition says static (only then is a dead one deleted)."""
    line = definitions[(file, h)]
    head = " ".join(source_lines(file)[max(0, line - 2):line])
    return re.search(r"\bstatic\b[^;{}]*\b%s\s*\(" % re.escape(h), head) is not None

def report_other_changes(file):
    """What else the patch changes, for convert's summary: handlers deleted
    with their dead entries, and direct calls that lose the inode."""
    if file is None:
        return
    for (where, h), line in sorted(definitions.items()):
        if where == file and only_dead_uses(file, h) and is_static(file, h):
            print("%s:%d: %s: delete the handler: only dead entries named it"
                  % (file, line, h))
    for where, line, h, caller in sorted(set(direct_calls)):
        if where == file and renamed(h, None, file):
            print("%s:%d: %s: change the call in %s: the inode argument goes"
                  % (file, line, h, caller))

def forget_previous_file():
    for table in PER_FILE:
        table.clear()
    current_file[0] = None

multi_kernel_on = pushdown_on = wrapper_on = mutex_on = compat_on = False
report_on = org_on = enoioctlcmd_einval_on = False
inode_f_dentry_on = inode_f_path_on = enoioctlcmd_refuse_on = no_bkl_on = False

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
@script:python depends on no_bkl@
@@
no_bkl_on = True

@script:python name_list@
names << virtual.handlers;
@@
listed.update(n for n in names.split(",") if n)

@script:python keep_list@
names << virtual.keep;
@@
kept.update(n for n in names.split(",") if n)

// ---------------------------------------------------------------- facts

// A file_operations is spelled "struct file_operations" or through a
// typedef of this file.
@ fops_typedef @
type T;
@@
typedef struct file_operations T;

@ script:python @
T << fops_typedef.T;
@@
fops_types.add(T)

// Every spelling of an entry in an initializer: C99 or GNU, of a structure
// or of each element of an array of them; the handler named, its address
// taken, cast, or a macro call (the DRM templates' DRM(ioctl)).  The type
// is any: the script keeps file_operations, never a tty_operations.
@ fops_entry @
type T, CT;
identifier fops, handler;
position p, fp;
@@
(
T fops@fp = { ..., .ioctl = \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... };
|
T fops@fp = { ..., ioctl: \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... };
|
T fops@fp[...] = { ..., { ..., .ioctl = \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
|
T fops@fp[...] = { ..., { ..., ioctl: \(handler@p \| &handler@p \| (CT)handler@p \| handler@p(...)\), ... }, ... };
)

@ script:python @
T << fops_entry.T; fops << fops_entry.fops; h << fops_entry.handler;
p << fops_entry.p; fp << fops_entry.fp;
@@
current_file[0] = p[0].file
if is_fops_type(T):
    call = MACRO_CALL.match(source_lines(p[0].file)[int(p[0].line) - 1][int(p[0].column):])
    if call:
        name = re.sub(r"\s+", "", call.group(0))
        refused_entries.setdefault(p[0].file, []).append(
            (fops, name, int(p[0].line), "the handler is named through a macro (%s), which "
             "spatch cannot follow: convert this entry by hand" % name))
    else:
        # A fops local to a function gets its wrapper before that function.
        scope = local_to(fops, p)
        fops_scope[(p[0].file, int(p[0].line))] = scope
        new_entry_record(p[0].file, fops, h, p, container_of(p), scope or int(fp[0].line))

// Run-time assignments, where spatch knows the type (a variable, a
// pointer, an array element, through a typedef).
@ fops_runtime @
struct file_operations F;
struct file_operations *FP;
identifier handler;
type CT;
position p;
@@
(
F.ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
|
FP->ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
)

@ script:python @
h << fops_runtime.handler; p << fops_runtime.p;
@@
target = re.sub(r"\s+", "", source_lines(p[0].file)[int(p[0].line) - 1]
                .split("ioctl")[0].rstrip().rstrip(".>-").rstrip())
new_entry_record(p[0].file, target, h, p, None, p[0].current_element)

// The same where spatch cannot tell the type: left alone, with why, when
// the handler is a legacy one of this file (runtime_refusals).
@ fops_runtime_any @
expression E;
identifier handler;
type CT;
position p;
@@
(
E.ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
|
E->ioctl = \(handler@p \| &handler@p \| (CT)handler@p\);
)

@ script:python @
E << fops_runtime_any.E; h << fops_runtime_any.handler; p << fops_runtime_any.p;
@@
runtime_any[(p[0].file, int(p[0].line), int(p[0].column))] = (re.sub(r"\s+", "", E), h)

@ fops_runtime_unlocked @
struct file_operations F;
struct file_operations *FP;
expression E;
position p;
@@
(
F.unlocked_ioctl = E@p;
|
FP->unlocked_ioctl = E@p;
)

@ script:python @
p << fops_runtime_unlocked.p;
@@
runtime_unlocked.setdefault(p[0].file, int(p[0].line))

// A positional initializer (2.4 style, by member order) cannot be
// rewritten by name: a legacy handler of this file in one is refused.
@ fops_positional @
type T;
identifier fops, h;
position p;
@@
T fops = { ..., h@p, ... };

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
headers.setdefault((p[0].file, "smp_lock.h"), []).append(int(p[0].line))
smp_lock_h_line[p[0].file] = int(p[0].line)

@ bkl_call @
position p;
@@
(
lock_kernel@p(...)
|
unlock_kernel@p(...)
|
kernel_locked@p(...)
)

@ script:python @
p << bkl_call.p;
@@
bkl_callers.add(p[0].file)

@ has_mutex_h @
position p;
@@
#include <linux/mutex.h>@p

@ script:python @
p << has_mutex_h.p;
@@
headers.setdefault((p[0].file, "mutex.h"), []).append(int(p[0].line))

@ definition @
identifier h, ino, filp, cmd, arg;
type TC, TA;
position p;
@@
int h@p(struct inode *ino, struct file *filp, TC cmd, TA arg) { ... }

@ script:python @
h << definition.h; ino << definition.ino; p << definition.p;
filp << definition.filp; cmd << definition.cmd; arg << definition.arg;
TC << definition.TC; TA << definition.TA;
@@
# "return arg;" came back truncated to an int: it goes through the temporary.
for name, t in ((cmd, TC), (arg, TA)):
    if not fits_int(t):
        wide_names.add(name)
if (p[0].file, h) in definitions:
    # Two definitions (#ifdef/#else): the facts of both are joined under
    # one name, so neither can be converted safely (decide()).
    fact(p[0].file, h, "defined_twice", int(p[0].line))
else:
    definitions[(p[0].file, h)] = int(p[0].line)
current_file[0] = p[0].file
inode_param[(p[0].file, h)] = ino
params[(p[0].file, h)] = (filp, cmd, arg)
handler_names.add(h)
hidden_exits(p[0].file, h, int(p[0].current_element_line),
             int(p[0].current_element_line_end))
inode_in_macros(p[0].file, h, int(p[0].current_element_line),
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

// A .ioctl naming a function of the .unlocked_ioctl shape (a latent bug of
// old trees) gets the wrapper: its body runs under the lock, unchanged.
@ unlocked_shaped @
identifier h, filp, cmd, arg;
type TR, TC, TA;
position p;
@@
TR h@p(struct file *filp, TC cmd, TA arg) { ... }

@ script:python @
h << unlocked_shaped.h; p << unlocked_shaped.p;
filp << unlocked_shaped.filp; cmd << unlocked_shaped.cmd; arg << unlocked_shaped.arg;
@@
if (p[0].file, h) not in unlocked_defs:
    unlocked_defs[(p[0].file, h)] = int(p[0].line)
    params[(p[0].file, h)] = (filp, cmd, arg)

@ script:python @
h << fops_positional.h; p << fops_positional.p; T << fops_positional.T;
fops << fops_positional.fops;
@@
if is_fops_type(T) and (p[0].file, h) in definitions:
    refused_entries.setdefault(p[0].file, []).append(
        (fops, h, int(p[0].line), "a positional initializer names it; write the "
         "structure with designated initializers (.ioctl = %s) and run again" % h))

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

// With -D mutex, what a handler may sleep on until another call wakes it,
// in any function of the file: the decision follows the calls between them.
@ sleeps_until_woken depends on mutex @
identifier sleeper =~ "^(wait_event[a-z_0-9]*|interruptible_sleep_on[a-z_0-9]*|sleep_on[a-z_0-9]*|schedule|schedule_timeout[a-z_0-9]*|io_schedule[a-z_0-9]*|wait_for_completion[a-z_0-9]*)$";
position p;
@@
sleeper@p(...)

@ script:python @
sleeper << sleeps_until_woken.sleeper; p << sleeps_until_woken.p;
@@
sleeps_at.setdefault((p[0].file, p[0].current_element), []).append((int(p[0].line), sleeper))

@ semaphore_down depends on mutex @
identifier downer =~ "^down(_interruptible|_killable|_timeout)?$";
expression sem;
position p;
@@
downer@p(sem, ...)

@ script:python @
downer << semaphore_down.downer; sem << semaphore_down.sem; p << semaphore_down.p;
@@
downs.setdefault((p[0].file, p[0].current_element), []).append(
    ((int(p[0].line), int(p[0].column)), downer, re.sub(r"\s+", "", sem)))

@ semaphore_up depends on mutex @
expression sem;
position p;
@@
up@p(sem)

@ script:python @
sem << semaphore_up.sem; p << semaphore_up.p;
@@
ups.setdefault((p[0].file, p[0].current_element), set()).add(
    ((int(p[0].line), int(p[0].column)), re.sub(r"\s+", "", sem)))

@ call_in_function depends on mutex @
identifier callee;
position p;
@@
callee@p(...)

@ script:python @
callee << call_in_function.callee; p << call_in_function.p;
@@
calls_in.setdefault((p[0].file, p[0].current_element), set()).add(callee)

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
constant returned_int : script:python () { int_constant(returned_int) };
local idexpression x;
expression E;
position p, px;
@@
(
  return returned_int;
|
  return -returned_int;
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
direct_calls.append((p[0].file, int(p[0].line), h, p[0].current_element))

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
coccinelle.newh = ident(wrapper_name(h, file) if strategy == "wrapper" else h)
if strategy:
    mutex_site[file] = min(mutex_site.get(file, int(p[0].line)), int(p[0].line))
coccinelle.lock, coccinelle.unlock = lock_statements(file)
coccinelle.ie = cocci.make_expr(inode_expr(filp))

@ script:python switch_fops @
h << fops_entry.handler;
p << fops_entry.p;
entry;
wsite;
msite;
wfn;
wfilp;
wcmd;
warg;
wie;
wlock;
wunlock;
@@
switch_entry(h, p)

@ script:python switch_runtime @
h << fops_runtime.handler;
p << fops_runtime.p;
entry;
wsite;
msite;
wfn;
wfilp;
wcmd;
warg;
wie;
wlock;
wunlock;
@@
switch_entry(h, p)

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
constant unlocked_int : script:python () { int_constant(unlocked_int) };
local idexpression returned_local : script:python () { plain_local(returned_local) };
expression E;
position p : script:python () { strategy_at(p) == "pushdown" };
@@
(
+ unlock
  return unlocked_int@p;
|
+ unlock
  return -unlocked_int@p;
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
+ int rname;
  ...
  }

@ pushdown_ret_blank depends on patch @
identifier as_converted.rh2, as_converted.rname;
statement S;
@@
  rh2(...) {
  int rname;
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

@ wrapper_before_fops depends on patch @
identifier switch_fops.wsite, switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position wq1 : script:python (wsite) { wrapper_site(wq1, wsite) };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wsite(wfilp, wcmd, warg);
+	wunlock
+	return ret;
+}
+
  T fops@wq1 = I;

@ wrapper_before_function depends on patch @
identifier switch_runtime.wsite, switch_runtime.wfn;
identifier switch_runtime.wfilp, switch_runtime.wcmd, switch_runtime.warg;
statement switch_runtime.wlock, switch_runtime.wunlock;
identifier fn;
position wq3 : script:python (wsite) { wrapper_site(wq3, wsite) };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wsite(wfilp, wcmd, warg);
+	wunlock
+	return ret;
+}
+
  fn@wq3(...) { ... }

// A fops that is a static local of a function: the wrapper goes at file
// scope, before that function (the site of its entry is the function).
@ wrapper_before_local_fops depends on patch @
identifier switch_fops.wsite, switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
statement switch_fops.wlock, switch_fops.wunlock;
identifier fn;
position wq2 : script:python (wsite) { wrapper_site(wq2, wsite) };
symbol ret;
@@
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = wsite(wfilp, wcmd, warg);
+	wunlock
+	return ret;
+}
+
  fn@wq2(...) { ... }

// --------------------------------------------------------- multi-kernel
// The legacy handler stays as it is for kernels before 2.6.11; the new
// entry point exists only where HAVE_UNLOCKED_IOCTL says it is used.

@ multi_wrapper_before_fops depends on patch @
identifier switch_fops.msite, switch_fops.wfn;
identifier switch_fops.wfilp, switch_fops.wcmd, switch_fops.warg;
expression switch_fops.wie;
statement switch_fops.wlock, switch_fops.wunlock;
type T;
identifier fops;
initializer I;
position mq1 : script:python (msite) { wrapper_site(mq1, msite) };
symbol ret;
@@
+#ifdef HAVE_UNLOCKED_IOCTL
+static long wfn(struct file *wfilp, unsigned int wcmd,
+		  unsigned long warg)
+{
+	int ret;
+
+	wlock
+	ret = msite(wie, wfilp, wcmd, warg);
+	wunlock
+	return ret;
+}
+#endif
+
  T fops@mq1 = I;

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
// Each rule rewrites the very entries action() gave it, in any spelling.

@ switch_entry depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq1 : script:python () { action_at(sq1) == "plain" };
@@
(
T fops = { ...,
- .ioctl = \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq1\|&handler@sq1\|(CT)handler@sq1\),
+ .unlocked_ioctl = entry,
  ... }, ... };
)

@ switch_compat depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq2 : script:python () { action_at(sq2) == "compat" };
@@
(
T fops = { ...,
- .ioctl = \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq2\|&handler@sq2\|(CT)handler@sq2\),
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
  ... }, ... };
)

@ remove_dead depends on patch @
identifier fops_entry.handler;
type T, CT;
identifier fops;
position sq3 : script:python () { action_at(sq3) == "dead" };
@@
(
T fops = { ...,
- .ioctl = \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... };
|
T fops = { ...,
- ioctl: \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... };
|
T fops[...] = { ..., { ...,
- .ioctl = \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
|
T fops[...] = { ..., { ...,
- ioctl: \(handler@sq3\|&handler@sq3\|(CT)handler@sq3\),
  ... }, ... };
)

@ multi_entry depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq4 : script:python () { action_at(sq4) == "multi" };
@@
(
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... };
|
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  .ioctl = \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+#else
  ioctl: \(handler@sq4\|&handler@sq4\|(CT)handler@sq4\),
+#endif
  ... }, ... };
)

@ multi_entry_compat depends on patch @
identifier fops_entry.handler, switch_fops.entry;
type T, CT;
identifier fops;
position sq5 : script:python () { action_at(sq5) == "multi_compat" };
@@
(
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... };
|
T fops = { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  .ioctl = \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
|
T fops[...] = { ..., { ...,
+#ifdef HAVE_UNLOCKED_IOCTL
+ .unlocked_ioctl = entry,
+ .compat_ioctl = entry,
+#else
  ioctl: \(handler@sq5\|&handler@sq5\|(CT)handler@sq5\),
+#endif
  ... }, ... };
)

// Run-time assignments: never dead, never multi-kernel (decide()).
@ switch_runtime_entry depends on patch @
identifier fops_runtime.handler, switch_runtime.entry;
struct file_operations F;
struct file_operations *FP;
type CT;
position rq1 : script:python () { runtime_action_at(rq1) == "plain" };
@@
(
  F.
- ioctl = \(handler@rq1\|&handler@rq1\|(CT)handler@rq1\);
+ unlocked_ioctl = entry;
|
  FP->
- ioctl = \(handler@rq1\|&handler@rq1\|(CT)handler@rq1\);
+ unlocked_ioctl = entry;
)

@ switch_runtime_compat depends on patch @
identifier fops_runtime.handler, switch_runtime.entry;
struct file_operations F;
struct file_operations *FP;
type CT;
position rq2 : script:python () { runtime_action_at(rq2) == "compat" };
@@
(
- F.ioctl = \(handler@rq2\|&handler@rq2\|(CT)handler@rq2\);
+ F.unlocked_ioctl = entry;
+ F.compat_ioctl = entry;
|
- FP->ioctl = \(handler@rq2\|&handler@rq2\|(CT)handler@rq2\);
+ FP->unlocked_ioctl = entry;
+ FP->compat_ioctl = entry;
)

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
coccinelle.fed_local = ident(None if named_by_used_macro(origin(p), ino) else ino)

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

@ script:python mutex_of_file depends on patch && mutex @
h << any_function.f;
p << any_function.p;
mfn;
mname;
@@
coccinelle.mfn = ident(h if is_mutex_site(p) else None)
coccinelle.mname = cocci.make_ident(mutex_name(p[0].file))

// No kernel since 2.6.39 has the header; only the BKL's own calls needed
// it.  Where it is the last include, <linux/mutex.h> takes its line.
@ remove_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { drops_smp_lock_h(p) and not needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p

@ replace_smp_lock_h depends on patch && mutex && no_bkl @
position p : script:python () { drops_smp_lock_h(p) and needs_header(p, "mutex.h") };
@@
- #include <linux/smp_lock.h>@p
+ #include <linux/mutex.h>

@ add_mutex_h depends on patch && mutex @
position p : script:python () { needs_header(p, "mutex.h") and not drops_smp_lock_h(p) };
@@
#include <...>@p
+#include <linux/mutex.h>

// Before the first converted handler, which a comment may precede; or,
// when an #if around it leaves out another use, before the last function
// ahead of every use that every use compiles with (mutex_line()).
@ add_mutex depends on patch && mutex @
identifier mutex_of_file.mfn, mutex_of_file.mname;
declarer name DEFINE_MUTEX;
@@
+static DEFINE_MUTEX(mname);
+
  mfn(...) { ... }

// ------------------------------------------------------ context, org, report

@ context_entry depends on context @
identifier handler, fops;
type T, CT;
position cq : script:python () { entry_at(cq) is not None };
@@
(
T fops = { ...,
* .ioctl = \(handler@cq\|&handler@cq\|(CT)handler@cq\),
  ... };
|
T fops = { ...,
* ioctl: \(handler@cq\|&handler@cq\|(CT)handler@cq\),
  ... };
|
T fops[...] = { ..., { ...,
* .ioctl = \(handler@cq\|&handler@cq\|(CT)handler@cq\),
  ... }, ... };
|
T fops[...] = { ..., { ...,
* ioctl: \(handler@cq\|&handler@cq\|(CT)handler@cq\),
  ... }, ... };
)

@ context_runtime depends on context @
expression E;
position fops_runtime.p;
identifier handler;
@@
* E = handler@p;

@ context_enoioctlcmd depends on context @
position p : script:python () { handler_at(p) is not None };
@@
* -ENOIOCTLCMD@p

@ script:python depends on report @
fops << fops_entry.fops; h << fops_entry.handler; p << fops_entry.p;
@@
report_entry(fops, h, p)

@ script:python depends on report @
h << fops_runtime.handler; p << fops_runtime.p;
@@
report_entry(entry_at(p).fops, h, p)

@ script:python depends on org @
fops << fops_entry.fops; h << fops_entry.handler; p << fops_entry.p;
@@
report_entry(fops, h, p, org=True)

@ script:python depends on org @
h << fops_runtime.handler; p << fops_runtime.p;
@@
report_entry(entry_at(p).fops, h, p, org=True)

// Once per file: the entries no rewriting rule can reach, and what else
// the patch changes.
@ script:python depends on report @
@@
report_refused(current_file[0])
report_other_changes(current_file[0])

// -ENOIOCTLCMD changes what userspace sees; every mode says so.
@ script:python depends on !context @
p << enoioctlcmd.p;
@@
if handler_at(p):
    enoioctlcmd_warning(handler_at(p), p)

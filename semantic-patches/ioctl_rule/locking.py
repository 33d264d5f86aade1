"""The lock a conversion takes (the BKL, a private mutex per file or one
per kbuild module), and what a mutex cannot do that the BKL did: be taken
again by a handler that calls another, or be dropped while its holder
sleeps."""

import os
import re

from .state import (calls_in, definitions, downs, facts, flags, functions, has, kept, listed,
                    per_file, poll_calls, sleeps_at, ups, variables)
from .ctext import CASE_LABEL, DIRECTIVE, NOT_CODE, closing_or_none
from .source import code_text, offset_of, source_lines
from .handler_body import parameter_names
from .macros import macros_of
from . import registers


_mutex_names = per_file({})


def mutex_name(file):
    """The mutex of FILE: its kbuild module's (-D module_mutex=NAME, a name
    convert found free in every file of the module), or the private mutex
    named after the file; a name the file already uses for something else
    (its own mutex, a variable) is never taken."""
    if flags.module_mutex:
        return flags.module_mutex
    if file not in _mutex_names:
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(file))[0])
        taken = set(re.findall(r"\w+", "\n".join(source_lines(file)))) | macros_of(file).words
        names = [stem + "_mutex", stem + "_ioctl_mutex"]
        names += ["%s_ioctl_mutex%d" % (stem, n) for n in range(2, len(taken) + 3)]
        _mutex_names[file] = next(n for n in names if n not in taken)
    return _mutex_names[file]


def lock_names(file):
    if flags.mutex:
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


def is_handler(file, name):
    """A handler defined here, or one convert names (listed or kept)."""
    return (file, name) in definitions or name in listed or name in kept


def outside_the_mutex(file, fn):
    """Whether fn, a function of the file that is not a handler, runs only
    where the private mutex is not held: it is the module's init or exit
    function (`__init`/`__exit`, or named by module_init()/module_exit()),
    and so is every function of the file that reaches it by direct calls
    (a handler, converted already or not, holds the mutex)."""
    code = code_text(file)
    todo, seen = [fn], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if not _init_or_exit(code, name):
            return False
        todo += [caller for (where, caller), called in calls_in.items()
                 if where == file and name in called]
    return True


def _init_or_exit(code, fn):
    name = re.escape(fn)
    return re.search(r"\b__(?:init|exit)\b[^;{}()]*\b%s\s*\(|\bmodule_(?:init|exit)\s*\(\s*%s\s*\)"
                     % (name, name), code) is not None


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


# A wait or a delay inside a loop whose condition reads shared state polls
# for what another call sets: the BKL was dropped while its holder slept,
# the private mutex is not, so the call that would set it waits for the
# mutex (a busy delay never let it in at all).  A loop over a local counter
# is no poll.
LOOP = re.compile(r"\b(while|for)\s*\(|\bdo\s*\{")


def enclosing_loop(file, line, column):
    """(line, condition text, loop text) of the innermost loop around (LINE,
    COLUMN), or None."""
    code = code_text(file)
    at = offset_of(file, line, column)
    best = None
    for match in LOOP.finditer(code, 0, at):
        if match.group(1):
            close = closing_or_none(code, match.end() - 1, "()")
            if close is None:
                continue
            condition = code[match.end():close]
            rest = close + 1 + len(code[close + 1:]) - len(code[close + 1:].lstrip())
            end = closing_or_none(code, rest) if code[rest:rest + 1] == "{" else \
                code.find(";", close)
        else:
            brace = match.end() - 1
            end = closing_or_none(code, brace)
            if end is None:
                continue
            tail = re.match(r"\s*while\s*\(", code[end + 1:])
            if not tail:
                continue
            open_at = end + 1 + tail.end() - 1
            condition = code[open_at + 1:closing_or_none(code, open_at, "()") or open_at]
        if end is not None and match.start() < at <= end:
            best = (code.count("\n", 0, match.start()) + 1, condition,
                    code[match.start():end + 1])
    return best


NOT_A_NAME = {"sizeof", "return", "else", "case", "goto", "do", "while", "for", "if",
              "const", "volatile", "unsigned", "signed", "int", "long", "char", "short"}


def reads_shared_state(file, fn, condition, loop, busy=False):
    """Whether a loop CONDITION of fn may read memory another call writes.
    Default-deny: it is local only when it reads nothing through a pointer,
    a member or an element, calls nothing, and names only locals and
    parameters of fn (which the LOOP text sets from such values alone) and
    constants (a number macro, an enumerator).  A global of a header, a
    status macro, a function that reads the device: all count as shared,
    except, in a BUSY loop (registers.py), a register read at a local address."""
    return not local_only(file, fn, condition, loop, 2, busy)


def local_only(file, fn, expression, loop, depth, busy=False):
    if busy and depth >= 0:
        expression = registers.without_register_reads(
            file, expression, lambda address: local_only(file, fn, address, loop, depth - 1))
        if expression is None:
            return False
    if depth < 0 or re.search(r"->|\[|\.\s*[A-Za-z_]|(?:^|[^\w)\]])\s*\*\s*\w|\w\s*\(",
                              expression):
        return False
    names = set(re.findall(r"\b[A-Za-z_]\w*\b", expression)) - NOT_A_NAME
    for name in names:
        if name in constants_of(file):
            continue
        if name not in declared_locals(file, fn):
            return False
        # Set in the loop: from what?
        for value in re.findall(r"\b%s\s*(?:[-+*/%%&|^]|<<|>>)?=(?!=)\s*([^;,)]*)" % re.escape(name),
                                loop):
            if not local_only(file, fn, value, loop, depth - 1, busy):
                return False
    return True


# (The `;` before a declaration is not consumed: it ends the one before.)
DECLARATION = re.compile(r"(?:^|(?<=[;{}]))\s*((?:(?:const|static|register|volatile|unsigned|signed"
                         r"|long|short|(?:struct|union|enum)\s+\w+)\s+)*[A-Za-z_]\w*"
                         r"(?:\s+|\s*\*+\s*)[*\s]*[A-Za-z_][^;{}]*);")
KEYWORDS = {"return", "else", "case", "goto", "break", "continue", "default", "do", "sizeof"}


def declared_locals(file, fn):
    """The parameters of fn and the names its declarations declare (each
    declarator of a comma declaration)."""
    text = function_text(file, fn)
    if not text:
        return set()
    close = closing_or_none(text, 0, "()") or 0
    names = {m.group(1) for m in (re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$", piece.strip())
                                  for piece in text[1:close].split(",")) if m}
    for match in DECLARATION.finditer(text[close + 1:]):
        statement = match.group(1)
        if statement.split()[0] in KEYWORDS or re.match(r"[A-Za-z_]\w*\s*(?:=|\(|\[|->|\.)",
                                                         statement):
            continue
        depth, piece, pieces = 0, "", []
        for char in statement:
            depth += char in "([{"
            depth -= char in ")]}"
            if char == "," and depth == 0:
                pieces.append(piece)
                piece = ""
            else:
                piece += char
        pieces.append(piece)
        for number, piece in enumerate(pieces):
            declarator = piece.split("=")[0]
            if number == 0:
                declarator = re.sub(r"^.*?[A-Za-z_]\w*(?=[\s*]+[*\s]*[A-Za-z_]\w*\s*(?:\[|$))",
                                    "", declarator.strip())
            found = re.match(r"[\s*]*([A-Za-z_]\w*)", declarator)
            if found:
                names.add(found.group(1))
    return names


def function_text(file, fn):
    """The parameter list and body of fn's definition in FILE ('' if none)."""
    code = code_text(file)
    for match in re.finditer(r"\b%s\s*\(" % re.escape(fn), code):
        close = closing_or_none(code, match.end() - 1, "()")
        if close is None:
            continue
        rest = code[close + 1:].lstrip()
        if rest.startswith("{"):
            brace = close + 1 + code[close + 1:].index("{")
            return code[match.end() - 1:(closing_or_none(code, brace) or brace) + 1]
    return ""


def constants_of(file):
    """Names that stand for constants: macros of the file and its headers
    whose every definition is a number expression, and enumerators."""
    if file not in _constants:
        table = macros_of(file)
        found = {name for name, texts in table.texts.items()
                 if name not in table.function_like and texts and
                 all(t and re.fullmatch(r"(?:\s|\d\w*|[()+\-*/%<>|&^~])*", t) for t in texts)}
        _constants[file] = found | table.enumerators
    return _constants[file]


_constants = per_file({})


def exit_condition(file, loop):
    """What decides when LOOP ends: its condition, or, for a loop whose
    condition always holds (for (;;), while (1), do ... while (1)), every
    if-condition of its body (the break, return or goto under one of them
    is its exit; default-deny: all of them, whatever they lead to)."""
    line, condition, text = loop
    if re.sub(r"[\s;()]|\b(?:1|true)\b", "", condition):
        return condition
    tests = []
    for match in re.finditer(r"\bif\s*\(", text):
        close = closing_or_none(text, match.end() - 1, "()")
        if close is not None:
            tests.append("(%s)" % text[match.end():close])
    return " && ".join(tests) or condition


def polls_shared_state(file, h):
    """Where h, or a function of its file that it calls, waits or delays in
    a loop on shared state: "msleep() in the loop at line N[ in fn()]", or None."""
    for fn in reachable(file, h):
        for line, column, poller in sorted(poll_calls.get((file, fn), [])):
            loop = enclosing_loop(file, line, column)
            busy = loop and poller in registers.BUSY_WAITS and registers.busy_wait(file, loop[2])
            if loop and reads_shared_state(file, fn, exit_condition(file, loop), loop[2], busy):
                return "%s() in the loop at line %d%s" % (poller, loop[0],
                                                          "" if fn == h else " in %s()" % fn)
    return None

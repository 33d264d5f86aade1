"""The lock a conversion takes (the BKL or a private mutex per file), and
what the private mutex cannot do that the BKL did: be taken again by a
handler that calls another, or be dropped while its holder sleeps."""

import os
import re

from .state import (calls_in, definitions, downs, facts, flags, functions, has, kept, listed,
                    per_file, poll_calls, sleeps_at, ups, variables)
from .ctext import CASE_LABEL, DIRECTIVE, NOT_CODE
from .source import code_text, offset_of, source_lines
from .handler_body import parameter_names
from .macros import macros_of


_mutex_names = per_file({})


def mutex_name(file):
    """The private mutex of FILE, named after it; a name the file already
    uses for something else (its own mutex, a variable) is never taken."""
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


def matching(code, start, opening, closing):
    """The offset of the bracket closing the one at START, or None."""
    depth = 0
    for offset in range(start, len(code)):
        if code[offset] == opening:
            depth += 1
        elif code[offset] == closing:
            depth -= 1
            if depth == 0:
                return offset
    return None


def enclosing_loop(file, line, column):
    """(line, condition text) of the innermost loop around (LINE, COLUMN), or None."""
    code = code_text(file)
    at = offset_of(file, line, column)
    best = None
    for match in LOOP.finditer(code, 0, at):
        if match.group(1):
            close = matching(code, match.end() - 1, "(", ")")
            if close is None:
                continue
            condition = code[match.end():close]
            rest = close + 1 + len(code[close + 1:]) - len(code[close + 1:].lstrip())
            end = matching(code, rest, "{", "}") if code[rest:rest + 1] == "{" else \
                code.find(";", close)
        else:
            brace = match.end() - 1
            end = matching(code, brace, "{", "}")
            if end is None:
                continue
            tail = re.match(r"\s*while\s*\(", code[end + 1:])
            if not tail:
                continue
            open_at = end + 1 + tail.end() - 1
            condition = code[open_at + 1:matching(code, open_at, "(", ")") or open_at]
        if end is not None and match.start() < at <= end:
            best = (code.count("\n", 0, match.start()) + 1, condition)
    return best


def reads_shared_state(file, fn, condition):
    """Whether a loop CONDITION of fn reads memory another call may write:
    through a pointer or a member, an element, or a variable of file scope."""
    if re.search(r"->|\[|\.\s*[A-Za-z_]|(?:^|[^\w)\]])\s*\*\s*\w", condition):
        return True
    globals_ = file_scope_variables(file)
    return any(name in globals_ for name in re.findall(r"\b[A-Za-z_]\w*\b", condition))


def file_scope_variables(file):
    """Names of the variables the file declares outside any function."""
    code = DIRECTIVE.sub("", code_text(file))
    depth, outside = 0, []
    for char in code:
        depth += char == "{"
        outside.append(char if depth == 0 or char == "\n" else " ")
        depth -= char == "}" and depth > 0
    text = "".join(outside)
    return set(re.findall(r"[\w*]\s+\**\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?(?:=|;|,)", text))


def polls_shared_state(file, h):
    """Where h, or a function of its file that it calls, waits or delays in
    a loop on shared state: "msleep() in the loop at line N[ in fn()]", or None."""
    for fn in reachable(file, h):
        for line, column, poller in sorted(poll_calls.get((file, fn), [])):
            loop = enclosing_loop(file, line, column)
            if loop and reads_shared_state(file, fn, loop[1]):
                return "%s() in the loop at line %d%s" % (poller, loop[0],
                                                          "" if fn == h else " in %s()" % fn)
    return None

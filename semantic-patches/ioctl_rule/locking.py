"""The lock a conversion takes (the BKL or a private mutex per file), and
what the private mutex cannot do that the BKL did: be taken again by a
handler that calls another, or be dropped while its holder sleeps."""

import os
import re

from .state import (calls_in, definitions, downs, facts, flags, functions, has, kept, listed,
                    per_file, sleeps_at, ups, variables)
from .ctext import CASE_LABEL, NOT_CODE
from .source import source_lines
from .handler_body import parameter_names


_mutex_names = per_file({})


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

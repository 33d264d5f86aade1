"""What each matching rule of the conversion rule found, recorded into the
tables of state.py: one function per script rule of the facts part of
ioctl_to_unlocked_ioctl.cocci, named after the SmPL rule that calls it.
P is the rule's position metavariable; names are its bound texts."""

import re

from . import state
from .state import fact, facts
from .source import source_lines, text_at
from .conditionals import open_conditional
from .ctext import fits_int
from .entries import MACRO_CALL, container_of, is_fops_type, local_to, new_entry_record
from .handler_body import (PURE_CALLS, at_top_block, first_statement_of, handler_at, inode_at,
                           record_variable)
from .macros import hidden_exits, inode_in_macros
from . import kbuild_defines, unseen_inode

from ioctl_rework.ctext import null_inode


def listed_names(names):
    """-D handlers=a,b: handlers of other files, converted with this one."""
    state.listed.update(n for n in names.split(",") if n)


def kept_names(names):
    """-D keep=a,b: handlers convert found a file that cannot follow."""
    state.kept.update(n for n in names.split(",") if n)


def wrapper_names(names):
    """-D wrapper_for=a,b: auto gives these the wrapper (convert's verify
    stage rejected their pushdown)."""
    state.wrapper_for.update(n for n in names.split(",") if n)


def module_mutex(name):
    """-D module_mutex=NAME: the mutex of the kbuild module the file is one
    object of, shared with its other files (convert chose a free name)."""
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise ValueError("ioctl-rework: -D module_mutex=%r: not a C identifier" % name)
    state.flags.module_mutex = name


def fops_typedef(t):
    state.fops_types.add(t)


def fops_entry(t, fops, h, p, fp):
    state.current_file[0] = p[0].file
    if is_fops_type(t):
        call = MACRO_CALL.match(source_lines(p[0].file)[int(p[0].line) - 1][int(p[0].column):])
        if call:
            name = re.sub(r"\s+", "", call.group(0))
            state.refused_entries.setdefault(p[0].file, []).append(
                (fops, name, int(p[0].line), "the handler is named through a macro (%s), which "
                 "spatch cannot follow: convert this entry by hand" % name))
        else:
            # A fops local to a function gets its wrapper before that function.
            scope = local_to(fops, p)
            state.fops_scope[(p[0].file, int(p[0].line))] = scope
            new_entry_record(p[0].file, fops, h, p, container_of(p), scope or int(fp[0].line))


def fops_runtime(h, p):
    target = re.sub(r"\s+", "", source_lines(p[0].file)[int(p[0].line) - 1]
                    .split("ioctl")[0].rstrip().rstrip(".>-").rstrip())
    new_entry_record(p[0].file, target, h, p, None, p[0].current_element)


def fops_runtime_any(e, h, p):
    state.runtime_any[(p[0].file, int(p[0].line), int(p[0].column))] = (re.sub(r"\s+", "", e), h)


def fops_runtime_unlocked(p):
    state.runtime_unlocked.setdefault(p[0].file, int(p[0].line))


def fops_positional(t, fops, h, p):
    if is_fops_type(t) and (p[0].file, h) in state.definitions:
        state.refused_entries.setdefault(p[0].file, []).append(
            (fops, h, int(p[0].line), "a positional initializer names it; write the "
             "structure with designated initializers (.ioctl = %s) and run again" % h))


# The lock's headers, as the include rule's line spells them.
_LOCK_HEADER = re.compile(r"\s*#\s*include\s*<\s*linux/(smp_lock|mutex)\.h\s*>")


def include(p):
    """An #include <...>: where a new header may go, and the lock's headers."""
    state.include_lines.setdefault(p[0].file, []).append(int(p[0].line))
    header = _LOCK_HEADER.match(source_lines(p[0].file)[int(p[0].line) - 1])
    if header and header[1] == "smp_lock":
        has_smp_lock_h(p)
    elif header:
        has_mutex_h(p)


def quoted_include(p):
    state.quoted_include_lines.setdefault(p[0].file, []).append(int(p[0].line))


def has_smp_lock_h(p):
    state.headers.setdefault((p[0].file, "smp_lock.h"), []).append(int(p[0].line))
    state.smp_lock_h_line[p[0].file] = int(p[0].line)


def bkl_call(p):
    state.bkl_callers.add(p[0].file)


def has_mutex_h(p):
    state.headers.setdefault((p[0].file, "mutex.h"), []).append(int(p[0].line))


def definition(h, ino, filp, cmd, arg, tc, ta, p):
    # "return arg;" came back truncated to an int: it goes through the temporary.
    for name, t in ((cmd, tc), (arg, ta)):
        if not fits_int(t):
            state.wide_names.add(name)
    if (p[0].file, h) in state.definitions:
        # Two definitions (#ifdef/#else): the facts of both are joined under
        # one name, so neither can be converted safely (decide()).
        fact(p[0].file, h, "defined_twice", int(p[0].line))
    else:
        state.definitions[(p[0].file, h)] = int(p[0].line)
    state.current_file[0] = p[0].file
    state.inode_param[(p[0].file, h)] = ino
    state.params[(p[0].file, h)] = (filp, cmd, arg)
    state.handler_names.add(h)
    hidden_exits(p[0].file, h, int(p[0].current_element_line),
                 int(p[0].current_element_line_end))
    inode_in_macros(p[0].file, h, int(p[0].current_element_line),
                    int(p[0].current_element_line_end))
    unseen_inode.record(p[0].file, h, ino, int(p[0].current_element_line),
                        int(p[0].current_element_line_end))
    kbuild_defines.record(p[0].file, h, int(p[0].current_element_line),
                          int(p[0].current_element_line_end))


def any_function(f, p):
    state.functions.setdefault(p[0].file, set()).add(f)
    if (p[0].file, f) not in state.definitions:
        state.other_defs.setdefault((p[0].file, f), int(p[0].line))


def unlocked_shaped(h, filp, cmd, arg, p):
    if (p[0].file, h) not in state.unlocked_defs:
        state.unlocked_defs[(p[0].file, h)] = int(p[0].line)
        state.params[(p[0].file, h)] = (filp, cmd, arg)


def inode_written(ino, p):
    if inode_at(p, ino):
        fact(p[0].file, inode_at(p, ino), "inode_written", int(p[0].line))


def uses_inode(ino, p):
    if inode_at(p, ino):
        state.inode_uses.setdefault((p[0].file, inode_at(p, ino)), set()).add(
            (p[0].line, p[0].column))


def inode_passed(passed, callee, p):
    if inode_at(p, passed):
        state.inode_passed_to[(p[0].file, inode_at(p, passed), p[0].line, p[0].column)] = callee


def takes_bkl(p):
    fact(p[0].file, p[0].current_element, "takes_bkl", int(p[0].line))


def sleeps_until_woken(sleeper, p):
    state.sleeps_at.setdefault((p[0].file, p[0].current_element), []).append(
        (int(p[0].line), sleeper))


def polls(poller, p):
    state.poll_calls.setdefault((p[0].file, p[0].current_element), []).append(
        (int(p[0].line), int(p[0].column), poller))


def semaphore_down(downer, sem, p):
    state.downs.setdefault((p[0].file, p[0].current_element), []).append(
        ((int(p[0].line), int(p[0].column)), downer, re.sub(r"\s+", "", sem)))


def semaphore_up(sem, p):
    state.ups.setdefault((p[0].file, p[0].current_element), set()).add(
        ((int(p[0].line), int(p[0].column)), re.sub(r"\s+", "", sem)))


def call_in_function(callee, p):
    state.calls_in.setdefault((p[0].file, p[0].current_element), set()).add(callee)


def enoioctlcmd(p):
    fact(p[0].file, p[0].current_element, "enoioctlcmd", int(p[0].line))


def early_call(f, p):
    h = handler_at(p)
    if h and at_top_block(p, h) and re.fullmatch(r"\w+", f) and f not in PURE_CALLS:
        fact(p[0].file, h, "early_call", int(p[0].line))
    elif h and at_top_block(p, h) and not re.fullmatch(r"\w+", f):
        fact(p[0].file, h, "early_effect", int(p[0].line))
        facts[(p[0].file, h)].setdefault("early_effect_name", "calls through the "
                                         "function pointer %s" % " ".join(f.split()))


def local_declaration(p):
    if handler_at(p):
        state.declarations.setdefault((p[0].file, handler_at(p)), {})[
            (int(p[0].line), int(p[0].column))] = (int(p[0].line_end), int(p[0].column_end))


def first_statement(h, p):
    """Where lock_kernel() would go; if that is inside an #if, some
    configurations would never take the lock (or take it twice)."""
    first = first_statement_of(p[0].file, h)
    if first:
        state.first_statement_at[(p[0].file, h)] = first
        opened = open_conditional(p[0].file, state.definitions[(p[0].file, h)], first[0])
        if opened:
            fact(p[0].file, h, "lock_in_conditional", opened)


def complex_return(p):
    if handler_at(p):
        fact(p[0].file, handler_at(p), "complex_return", int(p[0].line))


def returned_local(x, px):
    if handler_at(px):
        state.returned_locals.setdefault((px[0].file, handler_at(px)), set()).add(x)


def seen_return(p):
    if handler_at(p):
        state.seen_returns.setdefault((p[0].file, handler_at(p)), {}).setdefault(
            int(p[0].line), set()).add(int(p[0].column))


def static_variable(p):
    state.static_at.add((p[0].file, int(p[0].line), int(p[0].column)))


def variable(t, x, p):
    record_variable(p, t, x)


def ret_any(p):
    if handler_at(p):
        fact(p[0].file, handler_at(p), "ret_any", int(p[0].line))


def handler_use(h, p):
    """h named as an expression (handler_use, listed_use)."""
    state.expr_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))


def entry_compared(p):
    state.compared.setdefault((p[0].file, text_at(p)), set()).add(int(p[0].line))
    state.compared_in.setdefault((p[0].file, text_at(p)), set()).add(
        (int(p[0].line), p[0].current_element))


def caller_name(p):
    """The function P is in, as records name it: spatch calls code outside
    any function (the body of a #define) "something_else", which no reader
    of a record can find."""
    if p[0].current_element == "something_else":
        return "a macro body (line %s)" % p[0].line
    return p[0].current_element


def direct_call(h, p):
    state.known_uses.setdefault((p[0].file, h), set()).add(int(p[0].line))
    fact(p[0].file, h, "called", int(p[0].line))
    state.calls.setdefault((p[0].file, caller_name(p)), set()).add(h)
    state.direct_calls.append((p[0].file, int(p[0].line), h, caller_name(p)))


def exported(p):
    state.known_uses.setdefault((p[0].file, text_at(p)), set()).add(int(p[0].line))


def null_inode_call(p):
    fact(p[0].file, text_at(p), "null_inode", int(p[0].line))


def null_local_inode_call(name, p):
    """A call passing a local set only to NULL as the inode passes NULL."""
    if null_inode.null_local("\n".join(source_lines(p[0].file)), int(p[0].line), str(name)):
        null_inode_call(p)


def first_statement_agrees(ph, p):
    """SmPL found where lock_kernel() goes for the handlers it goes into;
    the text found it for the decision: the two must agree, or the file
    fails rather than get a lock in the wrong place."""
    found = (int(p[0].line), int(p[0].column))
    if state.first_statement_at.get((p[0].file, ph)) != found:
        raise RuntimeError("ioctl-rework: %s:%s: the first statement of %s is not where its "
                           "declarations end (%s); not converted"
                           % (p[0].file, p[0].line, ph, state.first_statement_at.get((p[0].file, ph))))

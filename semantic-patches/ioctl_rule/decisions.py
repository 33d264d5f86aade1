"""decide(): the facts about one handler joined into its strategy
("pushdown", "wrapper", "multi-kernel") or None and the reason it is left
alone, and what follows from that decision."""

import itertools

from .state import (calls, compared, decisions, definitions, direct_calls, expr_uses, facts, flags,
                    fops_entries, fops_scope, kept_signature,
                    has, inode_passed_to, inode_uses, kept, known_uses, listed, origin, other_defs,
                    per_file, runtime_unlocked, splits, unlocked_defs, variables, wrapper_for)
from .ctext import IDENTIFIER, code_only
from .source import source_lines
from .conditionals import conditionals_at, never_compiled, why_never_compiled
from .macros import (body_include_exit, defining_macro, in_dropped_argument, macros_of,
                     old_style_definition, unmatched_definition, unread_name, unseen_return)
from .entries import hidden_entries, live_entries
from .handler_body import (impure_declaration, needs_temporary, parameter_names, ret_free,
                           ret_reusable, shared_read_declaration, split_declaration)
from .locking import (bkl_in_callee, is_handler, mutex_name, outside_the_mutex,
                      polls_shared_state, reachable, shadowed_lock, waits_for_another_call)
from .placement import placement_problem
from .task_exits import ends_task
from . import forwarded_calls, kbuild_defines, renames, unseen_inode


def strategy_at(p):
    """The strategy of the handler around p, for the rewriting rules."""
    key = (origin(p), p[0].current_element)
    return decide(*key)[0] if key in definitions else None
_temp_names = per_file({})     # file -> name of the temporary of complex returns


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


def unread_headers(file):
    """What could not be read, for the reason a name was not found."""
    table = macros_of(file)
    missing = table.missing + table.unread
    found = "; not found: " + ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "") \
        if missing else ""
    # An include flag of the directory's Makefile that could not be expanded:
    # what its directory holds was not read either (default-deny).
    unexpanded = table.search.unexpanded if table.search is not None else ()
    return found + ("; not expanded: " + ", ".join(unexpanded[:4]) +
                    (", ..." if len(unexpanded) > 4 else "") if unexpanded else "")


def declares_temporary(file, h):
    return decide(file, h)[0] == "pushdown" and needs_temporary(file, h) and \
        not (temp_name(file) == "ret" and ret_reusable(file, h))


_joining = per_file(set())     # (file, handler) of a call group being decided


def decide(file, h):
    """Join the facts about one handler into (strategy, reason)."""
    key = (file, h)
    if key in decisions:
        return decisions[key]
    if flags.mutex and key not in _joining and \
            (callers_of(file, h) or any(is_handler(file, c) for c in calls.get(key, ()))):
        group = call_group(file, h)
        _joining.update(group)
        try:
            alone = {member: decide(*member) for member in group}
        finally:
            _joining.difference_update(group)
        decisions.update(join_call_group(file, alone))
        return decisions[key]
    return decide_alone(file, h)


def callers_of(file, h):
    """The functions of FILE that call h directly: (caller, line), sorted."""
    return sorted({(caller, line) for where, line, callee, caller in direct_calls
                   if where == file and callee == h})


def call_group(file, h):
    """h and the functions its direct calls join it to, both ways: under
    the private mutex they are all converted, or none."""
    todo, group = [h], set()
    while todo:
        fn = todo.pop()
        if (file, fn) in group:
            continue
        group.add((file, fn))
        todo += [caller for caller, _ in callers_of(file, fn)]
        todo += [c for c in calls.get((file, fn), ()) if is_handler(file, c)]
    return group


def join_call_group(file, alone):
    """The decisions of a group of handlers that call each other directly,
    under -D mutex, from each one's decision ALONE.  A called handler takes
    the wrapper: its callers already hold the private mutex, so the body
    they call must not take it again; the wrapper alone takes it for the
    VFS.  Any caller that would not hold that mutex (not a converted
    handler of this file) refuses the whole group."""
    # Called by a handler, which holds the mutex; or only by the module's
    # init or exit function, which does not (its call goes through the
    # handler's own lock: a pushdown).
    called = {(file, callee) for _, _, callee, caller in direct_calls
              if (file, caller) in alone and (file, caller) in definitions} & set(alone)
    outside = {(file, fn) for (where, fn) in alone
               if (where, fn) not in definitions and outside_the_mutex(file, fn)}
    problem = None
    for (where, fn), (strategy, why) in sorted(alone.items()):
        calls_at = [line for caller, line in callers_of(file, fn)]
        from_outside = [line for caller, line in callers_of(file, fn)
                        if (file, caller) in outside]
        if (where, fn) in outside:
            continue
        if from_outside and (where, fn) in definitions and \
                ((where, fn) in called or strategy != "pushdown"):
            problem = "%s is called directly at line %d by the module's init or exit " \
                "function, which does not hold the private mutex, and %s" % (
                    fn, min(from_outside),
                    "a handler holding it calls it too" if (where, fn) in called
                    else "its %s body would run without it" % (strategy or "unconverted"))
        elif (where, fn) not in definitions:
            problem = "%s is not a handler of this file converted under the private " \
                "mutex%s" % (fn, " (its call at line %d)" % min(calls_at) if calls_at
                             and (where, fn) not in called else "")
        elif strategy is None:
            problem = "%s is left alone: %s" % (fn, why)
        elif (where, fn) in called and flags.pushdown:
            problem = "%s is called directly at line %d under the private mutex, which " \
                "its pushed-down body would take again (-D pushdown)" % (fn, min(calls_at))
        elif (where, fn) in called and flags.multi_kernel:
            problem = "%s is called directly at line %d: -D multi_kernel keeps its old " \
                "signature under the BKL for old kernels" % (fn, min(calls_at))
        elif (where, fn) in called and fn in listed and not live_entries(file, fn):
            problem = "%s is called directly at line %d and the wrapper it needs goes " \
                "beside its fops, in another file" % (fn, min(calls_at))
        elif (where, fn) in called and placement_problem(file, fn, "wrapper"):
            problem = placement_problem(file, fn, "wrapper")
        if problem:
            break
    joined = {}
    for (where, fn), (strategy, why) in alone.items():
        others = ", ".join(sorted(other for _, other in alone if other != fn))
        if (where, fn) in outside:
            joined[(where, fn)] = (strategy, why)
            continue
        if problem and strategy is None:
            joined[(where, fn)] = (strategy, why)
        elif problem:
            joined[(where, fn)] = (None, "it calls or is called by %s directly, and under "
                                   "the private mutex they are converted together or not "
                                   "at all: %s" % (others or "itself", problem))
        elif (where, fn) in called:
            line = min(line for _, line in callers_of(file, fn))
            joined[(where, fn)] = ("wrapper", "it is called directly at line %d by a handler "
                                   "that holds the private mutex: its body runs under it, "
                                   "and the wrapper takes it for the VFS" % line)
        else:
            joined[(where, fn)] = (strategy, why)
    return joined


def decide_alone(file, h):
    """decide() for one handler, its direct calls aside; under -D mutex a
    file that calls through a member named ioctl converts none of them
    (forwarded_calls.py)."""
    key = (file, h)
    if key in decisions:
        return decisions[key]
    result = _decide_from_facts(file, h)
    refused = flags.mutex and result[0] is not None and forwarded_calls.refusal(file, h)
    if refused:
        decisions[key] = result = (None, refused)
    return result


def _decide_from_facts(file, h):
    key = (file, h)
    f = facts.get(key, {})
    referenced = bool(live_entries(file, h))
    if h in kept:
        # convert found a file naming it that cannot follow the new signature.
        decisions[key] = (None, "kept with the old signature (-D keep)")
        return decisions[key]
    renamed_why = renames.renamed(file)
    if renamed_why and (referenced or h in listed):
        # What the compiler sees is not what the rule reads: every strategy.
        decisions[key] = (None, renamed_why)
        return decisions[key]
    if "null_inode" in f and uses_inode(file, h):
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
                  "not free under -D multi_kernel") if flags.multi_kernel else \
            ("wrapper", "it already has the .unlocked_ioctl signature (line %d)"
             % unlocked_defs[key])
        decisions[key] = result
        return result
    if key not in definitions:
        if old_style_definition(file, h):
            result = (None, "its definition at line %d is old-style (K&R), which the "
                      "rule does not rewrite: give it a prototype-style parameter list, "
                      "or convert it by hand" % old_style_definition(file, h))
        elif key in other_defs:
            result = (None, "its definition at line %d does not have the .ioctl "
                      "signature" % other_defs[key])
        elif defining_macro(file, h):
            result = (None, "it is defined by the macro %s at line %d, which the rule "
                      "does not expand: convert the macro by hand" % defining_macro(file, h))
        elif h in listed and (flags.wrapper or flags.multi_kernel):
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
        (set() if flags.multi_kernel else compared.get(key, set()))
    others = sorted(n for n in expr_uses.get(key, set()) - followed
                    if not never_compiled(file, n))
    escape = None
    unseen = unseen_return(file, h)
    shadowed = shadowed_lock(file, h)
    unread = unread_name(file, h, parameter_names(file, h) |
                         {v.name for v in variables.get(key, [])})
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
    elif kbuild_defines.hidden_by_flags(file, h):
        escape = kbuild_defines.hidden_by_flags(file, h)
    elif body_include_exit(file, h):
        escape = "its body %s (line %d)" % body_include_exit(file, h)[::-1]
    elif unread:
        escape = "%s at line %d may be a macro that returns: its definition was not read " \
                 "(it is not in the file, in a header found, or among the kernel " \
                 "interfaces known not to return)%s" % (unread[0], unread[1],
                                                        unread_headers(file))
    elif shadowed:
        escape = "%s at line %d hides the %s the lock needs" % (
            shadowed[0], shadowed[1], "mutex" if shadowed[0] == mutex_name(file)
            else "function")
        if shadowed[1] == definitions[key]:
            escape = "its parameter " + escape.replace(" at line %d" % shadowed[1], "")
    elif "lock_in_conditional" in f:
        escape = "its first statement, where the lock would be taken, is inside " \
                 "the #if at line %d" % f["lock_in_conditional"]
    early = early_declaration(file, h, f)
    split = None
    if escape is None and early and not flags.wrapper and not flags.multi_kernel:
        # The initializer is the only obstacle: split it, when it can be.
        split = split_declaration(file, h, {f.get("early_call"), f.get("early_effect")})
        if split:
            splits[key] = split
    if escape is None and early and not split:
        escape = early
    runtime = sorted(e.line for e in live_entries(file, h) if e.container is None)
    hidden = [(line, why) for _, name, line, why in hidden_entries(file) if name == h]
    # Under the BKL a use of the old signature (a function pointer, say)
    # needs the body and its signature as they are: the wrapper keeps both.
    # So does an inode named where spatch did not parse (unseen_inode.py),
    # or one a kbuild flag's name may stand for (kbuild_defines.py).
    hidden_inode = unseen_inode.unseen_use(file, h)
    flagged = kbuild_defines.hidden_by_flags(file, h)
    keeps_signature = bool(others or hidden_inode or flagged) and not (
        flags.mutex or flags.pushdown or flags.multi_kernel) and kept_wrapper_fits(file, h)
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
    elif others and flags.mutex and not flags.pushdown and not flags.multi_kernel:
        # The mutex proof needs every run of the body under the mutex; a
        # call through the pointer (or the other use) does not take it.
        result = (None, "also used with its old signature at line %s: a call through "
                  "that use runs the body without the private mutex, which the wrapper "
                  "takes only for the VFS" % ", ".join(str(n) for n in others))
    elif others and not keeps_signature:
        result = (None, "also used with its old signature at line %s"
                  % ", ".join(str(n) for n in others))
    elif flagged and not keeps_signature:
        result = (None, "%s: it may return or name the inode, which a new signature would "
                  "leave undeclared; convert it by hand" % flagged)
    elif hidden_inode and not keeps_signature:
        result = (None, "its inode is named at line %d, in code spatch did not parse (an "
                  "#if branch it passed over, which a kbuild -D or a config option may "
                  "compile): a new signature would leave that inode undeclared; convert it "
                  "by hand" % hidden_inode)
    elif flags.mutex and "takes_bkl" in f:
        result = (None, "it takes the BKL itself at line %d and the private "
                  "mutex is not recursive" % f["takes_bkl"])
    elif flags.mutex and bkl_in_callee(file, h):
        result = (None, "it calls %s: under the private mutex the BKL is not "
                  "held there, and the mutex is not dropped" % bkl_in_callee(file, h))
    elif flags.mutex and waits_for_another_call(file, h):
        result = (None, "it sleeps until another call wakes it (%s) and, unlike "
                  "the BKL, the private mutex is not dropped while it sleeps: "
                  "the call that would wake it would wait for the mutex"
                  % waits_for_another_call(file, h))
    elif flags.mutex and polls_shared_state(file, h):
        result = (None, "it polls shared state (%s) that another call sets and, unlike "
                  "the BKL, the private mutex is not dropped while it waits: the call "
                  "that would set it would wait for the mutex" % polls_shared_state(file, h))
    elif flags.mutex and ends_task(file, h):
        result = (None, "it can end the task (%s) with the private mutex held: unlike "
                  "the BKL, a mutex is not released when its holder exits, so every later "
                  "call would wait for it for ever" % ends_task(file, h))
    elif runtime and runtime_unlocked.get(file):
        result = (None, "it is assigned at run time at line %d and the file also "
                  "assigns .unlocked_ioctl at run time at line %d: which one the VFS "
                  "calls depends on the order" % (runtime[0], runtime_unlocked[file]))
    elif runtime and flags.multi_kernel:
        result = (None, "it is assigned at run time at line %d: -D multi_kernel "
                  "writes #ifdef HAVE_UNLOCKED_IOCTL only in initializers" % runtime[0])
    elif flags.enoioctlcmd_refuse and "enoioctlcmd" in f:
        result = (None, "returns -ENOIOCTLCMD at line %d (-D enoioctlcmd_refuse)"
                  % f["enoioctlcmd"])
    elif flags.enoioctlcmd_refuse and enoioctlcmd_helper(file, h):
        result = (None, "may return -ENOIOCTLCMD through %s() (-D enoioctlcmd_refuse)"
                  % enoioctlcmd_helper(file, h))
    elif flags.multi_kernel and h in listed and not referenced:
        result = (None, "the multi-kernel output needs the fops in the same file")
    elif flags.multi_kernel:
        result = ("multi-kernel", None)
    elif keeps_signature:
        # The use sees the same function; the wrapper runs the body under
        # the BKL with the inode, as the VFS did.
        result = ("wrapper", ("also used with its old signature at line %s"
                              % ", ".join(str(n) for n in others) if others else
                              "its inode is named at line %d, in code spatch did not parse"
                              % hidden_inode if hidden_inode else flagged) +
                  ": the wrapper calls it with the inode, as the VFS did, and its "
                  "signature stays")
    elif h in wrapper_for and not flags.pushdown and escape is None and \
            not (h in listed and not referenced):
        result = ("wrapper", "the proof rejected its pushdown (-D wrapper_for)")
    elif flags.pushdown or (not flags.wrapper and (escape is None or (h in listed and not referenced))):
        if escape:
            result = (None, "pushdown is not safe: " + escape)
        elif split:
            result = ("pushdown", "the initializer of %s at line %d runs under the lock: "
                      "%s" % (split[1], split[0], early[0].lower() + early[1:]))
        else:
            result = ("pushdown", None)
    elif h in listed and not referenced:
        result = (None, "the wrapper strategy needs the fops in the same file")
    else:
        result = ("wrapper", escape)
    if result[0] in ("pushdown", "wrapper", "multi-kernel") and key in definitions and \
            placement_problem(file, h, result[0]):
        result = (None, placement_problem(file, h, result[0]))
    if result[0] == "wrapper" and keeps_signature:
        kept_signature.add(key)
    decisions[key] = result
    return result


def kept_wrapper_fits(file, h):
    """Whether a wrapper that keeps h's signature has a place: every live
    entry of h is in a fops at file scope (the wrapper goes before it)."""
    live = live_entries(file, h)
    return bool(live) and (file, h) in definitions and all(
        e.container is not None and not isinstance(e.site, str)
        and fops_scope.get((file, e.line)) is None for e in live)


def early_declaration(file, h, f):
    """Why a declaration of h's outermost block must not run before the
    lock (the first one), or None."""
    if "early_call" in f:
        return "a declaration at line %d calls a function before the lock " \
               "could be taken" % f["early_call"]
    if "early_effect" in f:
        return "a declaration at line %d %s before the lock could be taken" \
            % (f["early_effect"], f["early_effect_name"])
    if impure_declaration(file, h):
        return "a declaration at line %d %s before the lock could be taken" \
            % impure_declaration(file, h)
    if shared_read_declaration(file, h):
        return "a declaration at line %d reads %s before the lock could be taken" \
            % shared_read_declaration(file, h)
    return None


def split_at(p):
    """The variable whose initializer moves under the lock in the pushed-down
    handler around p, or None (the rewriting rules' constraint)."""
    key = (origin(p), p[0].current_element)
    return splits.get(key, (None, None))[1] if key in definitions and \
        decide(*key)[0] == "pushdown" else None


def renamed(h, p, file=None):
    """Whether prototypes of and calls to h follow the new signature."""
    file = file or origin(p)
    if (file, h) in kept_signature:
        return False
    if h in listed:
        return decide(file, h)[0] in ("pushdown", "wrapper")
    return decisions.get((file, h), (None,))[0] in ("pushdown", "wrapper")


def uses_inode(file, h):
    if has(file, h, "inode_in_macro") or unseen_inode.unseen_use(file, h) or \
            kbuild_defines.hidden_by_flags(file, h):
        return True
    return bool(inode_use_lines(file, h))


def inode_use_lines(file, h):
    """The lines where h uses its inode."""
    return [int(line) for line, _ in inode_use_positions(file, h)]


def inode_use_positions(file, h):
    """(line, column) of each use of h's inode (passing it on to another
    converted handler is no use: that call loses the argument)."""
    found = []
    for line, column in inode_uses.get((file, h), ()):
        callee = inode_passed_to.get((file, h, line, column))
        if callee is None or decide(file, callee)[0] not in ("pushdown", "wrapper"):
            found.append((line, column))
    return found


def inode_only_conditional(file, h):
    """Whether every use of h's inode is inside an #if of its body (a
    DEBUG printk): a local the new signature declares would be unused
    where it is compiled out, so each use names the inode expression."""
    lines = inode_use_lines(file, h)
    depth = len(conditionals_at(file, definitions[(file, h)]))
    return bool(lines) and not has(file, h, "inode_in_macro") and \
        all(len(conditionals_at(file, line)) > depth for line in lines)


def inode_used_in_every_build(file, h):
    """Whether h names its inode outside every #if of its body and not in
    an argument a macro may drop, itself or through a macro every build
    defines naming it (macros.py): a macro may name it in one branch of its
    #if and not in another (#ifdef USE_INODE / #define FL_MINOR()
    iminor(inode) / #else / #define FL_MINOR() 0), so a derived local used
    only through such macros or under an #if may be unused in some build."""
    first = definitions[(file, h)]
    depth = len(conditionals_at(file, first))
    return has(file, h, "inode_macro_every_build") or \
        any(len(conditionals_at(file, int(line))) <= depth and
            not in_dropped_argument(file, first, int(line), int(column))
            for line, column in inode_use_positions(file, h))


def details(file, h):
    strategy, why = decide(file, h)
    out = [strategy]
    if uses_inode(file, h):
        out.append("uses inode")
    if (file, h) in kept_signature:
        out.append("keeps signature")
    if has(file, h, "enoioctlcmd"):
        out.append("returns -ENOIOCTLCMD")
    elif enoioctlcmd_helper(file, h):
        out.append("returns -ENOIOCTLCMD through %s()" % enoioctlcmd_helper(file, h))
    return ", ".join(out)


def enoioctlcmd_helper(file, h):
    """A function of the file that h calls (directly or not) and that
    returns -ENOIOCTLCMD, or None: the handler may pass it back."""
    return next((fn for fn in reachable(file, h) if fn != h and has(file, fn, "enoioctlcmd")),
                None)

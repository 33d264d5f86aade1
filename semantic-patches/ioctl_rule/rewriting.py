"""What the rewriting rules are given: the names each script rule binds
for them, and the constraints that pick the very entry or definition a
rule may rewrite."""

from ioctl_rework.ctext.free_names import first_free

from .bindings import Expr, Ident, Stmt
from .state import (compared_in, current_file, decisions, definitions, flags, fops_scope,
                    kept_signature, mutex_site, origin, params, splits, unlocked_defs,
                    wrapper_names)
from .source import text_at, words_of
from .conditionals import never_compiled
from .macros import macro_use_in_every_build, macro_uses, macros_of
from .entries import (Entry, container_of, declaration_of, entry_at, entry_state, is_fops_type,
                      live_entries, only_dead_uses, sets)
from .locking import lock_names, mutex_name
from .placement import is_mutex_site
from .decisions import (decide, declares_temporary, inode_only_conditional, temp_name,
                        inode_used_in_every_build, uses_inode)


def wrapper_name(h, file=None):
    """NAME_unlocked_ioctl, or the first NAME_unlocked_ioctlN that neither
    the file nor another wrapper of this run uses."""
    file = file or current_file[0]
    if (file, h) in wrapper_names:
        return wrapper_names[(file, h)]
    stem = h[:-len("_ioctl")] if h.endswith("_ioctl") else h
    # A name declared in an included header is taken too: the compiler sees it.
    taken = (words_of(file) | macros_of(file).words if file else set()) | \
        set(wrapper_names.values())
    name = first_free(stem + "_unlocked_ioctl", taken)
    wrapper_names[(file, h)] = name
    return name


def wrapper_parameters(file, h):
    """The wrapper's parameters: the handler's names, unless one of them
    would hide what the wrapper calls or declares."""
    names = params.get((file, h), ("filp", "cmd", "arg"))
    if set(names) & (lock_names(file) | {"ret", h}) or len(set(names)) < 3:
        return ("file", "cmd", "arg")
    return names


def action(file, entry, real=None):
    """What the rewriting rules do to one entry: "plain" (.unlocked_ioctl),
    "compat" (and .compat_ioctl), "multi" or "multi_compat" (both kernels),
    "dead" (removed), or None (left alone)."""
    h, real = entry.handler, real or file
    if h == "NULL" or entry_state(file, entry) == "dead":
        return "dead"
    add_compat = flags.compat and (entry.container is None or
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
    if h == "NULL":
        # `F.ioctl = NULL;` at run time clears what a copy of another
        # file_operations set (*fops = base; memcpy): not dead, as an
        # initializer's NULL is, once the copy carries .unlocked_ioctl.
        # Multi-kernel output would need both members under #ifdef: left.
        if flags.multi_kernel:
            return None
        return "compat" if flags.compat else "plain"
    if (origin(p), h) not in decisions:
        return None
    return action(p[0].file, Entry(("", h, 0, 0, None, None)), origin(p))


def switch_entry(h, p):
    """What the entry at p binds: entry is the new function; the wrapper
    is written before the first live entry of its handler (adding code
    after some handlers' bodies makes spatch fail), so it needs no
    prototype: the handler is declared before anything names it."""
    file = p[0].file
    entry = entry_at(p)
    strategy = decide(file, h)[0] if entry and h != "NULL" else None
    if strategy and (file, h) not in definitions and (file, h) in unlocked_defs:
        # Only its wrapper is new: the lock (or mutex) comes before it.
        mutex_site[file] = min(mutex_site.get(file, unlocked_defs[(file, h)]),
                               unlocked_defs[(file, h)])
    live = sorted(live_entries(file, h), key=lambda e: (e.line, e.column))
    wrapped = bool(live) and live[0] == entry and strategy in ("wrapper", "multi-kernel")
    filp, cmd, arg = wrapper_parameters(file, h)
    # The wrapper of a handler whose signature stays passes the inode, as
    # does the new entry point of a multi-kernel handler.
    inode = [inode_expr(filp)] if (file, h) in kept_signature or \
        strategy == "multi-kernel" else []
    lock, unlock = lock_statements(file)
    return {
        # One name per handler, whichever entry bound it: rules that inherit
        # it would otherwise rewrite one entry twice.
        "entry": Ident(h if strategy == "pushdown" or h == "NULL" else wrapper_name(h, file)
                       if strategy in ("wrapper", "multi-kernel") else None),
        # The wrapper rules pick their strategy's wrappers (wrapper_site()).
        "wfn": Ident(wrapper_name(h, file) if wrapped else None),
        "wfilp": Ident(filp), "wcmd": Ident(cmd), "warg": Ident(arg),
        "wcall": Expr("%s(%s)" % (h, ", ".join(inode + [filp, cmd, arg]))),
        "wlock": lock, "wunlock": unlock,
    }


def wrapper_prototype(h, p):
    """The wrapper is defined before the first live entry of its handler; a
    comparison that follows the entry to it (f_op->ioctl == h becomes
    f_op->unlocked_ioctl == h_unlocked_ioctl) may stand above that, in a
    function before the fops.  The wrapper is then declared before the
    first such function (pfn), or nothing is bound."""
    file = p[0].file
    none = {"pfn": Ident(None), "pname": Ident(None),
            "pfilp": Ident(None), "pcmd": Ident(None), "parg": Ident(None)}
    if decide(file, h)[0] != "wrapper":
        return none
    live = sorted(live_entries(file, h), key=lambda e: (e.line, e.column))
    if not live:
        return none
    site = live[0].site if isinstance(live[0].site, str) else fops_scope.get((file, live[0].line))
    above = sorted((line, fn) for line, fn in compared_in.get((file, h), ())
                   if line < live[0].line and fn != site and not never_compiled(file, line))
    if not above:
        return none
    filp, cmd, arg = wrapper_parameters(file, h)
    return {"pfn": Ident(above[0][1]), "pname": Ident(wrapper_name(h, file)),
            "pfilp": Ident(filp), "pcmd": Ident(cmd), "parg": Ident(arg)}


def lock_statements(file):
    if flags.mutex:
        return (Stmt("mutex_lock(&%s);" % mutex_name(file)),
                Stmt("mutex_unlock(&%s);" % mutex_name(file)))
    return Stmt("lock_kernel();"), Stmt("unlock_kernel();")


def wrapper_site(q, wfn, strategy):
    """Whether wfn, the wrapper of a handler of that strategy ("wrapper" or
    "multi-kernel"), goes before the definition (of a structure, or the
    function of a run-time assignment) named at q."""
    file = origin(q)
    wrapped = [h for (f, h), name in wrapper_names.items() if (f, name) == (file, wfn)]
    if not wrapped or decide(file, wrapped[0])[0] != strategy:
        return False
    live = sorted(live_entries(file, wrapped[0]), key=lambda e: (e.line, e.column))
    if not live:
        return False
    if isinstance(live[0].site, str):          # the function of an assignment
        return live[0].site == text_at(q)
    if origin(q) != q[0].file:                 # a declaration changed already
        return live[0].fops == text_at(q)
    return live[0].site == int(q[0].line)


def inode_expr(filp):
    if flags.inode_f_dentry:
        return filp + "->f_dentry->d_inode"
    if flags.inode_f_path:
        return filp + "->f_path.dentry->d_inode"
    return "file_inode(" + filp + ")"


def converted_handler(h, p, filp):
    """What the definition of h at p binds: its name for the rules of its
    strategy (pushdown, wrapper, the derived inode, the temporary of
    complex returns), the lock statements and the inode expression."""
    file = p[0].file
    strategy = decide(file, h)[0]
    # A wrapper that keeps the handler's signature leaves its definition.
    retyped = strategy == "pushdown" or strategy == "wrapper" and (file, h) not in kept_signature
    derived = retyped and uses_inode(file, h) and not inode_only_conditional(file, h)
    values = {
        "ph": Ident(h if strategy == "pushdown" else None),
        "wh": Ident(h if strategy == "wrapper" and retyped else None),
        "dh": Ident(h if derived and inode_used_in_every_build(file, h) else None),
        # A local some build may not use is marked so: no unused variable.
        "mh": Ident(h if derived and not inode_used_in_every_build(file, h) else None),
        "uh": Ident(h if retyped and inode_only_conditional(file, h) else None),
        "rh2": Ident(h if declares_temporary(file, h) else None),
        "rname": Ident(temp_name(file)),
        "ch": Ident(h if strategy in ("pushdown", "wrapper") else None),
        "newh": Ident(wrapper_name(h, file) if strategy == "wrapper" else h),
        "sph": Ident(h if strategy == "pushdown" and splits.get((file, h)) else None),
        "split_var": Ident(splits[(file, h)][1] if strategy == "pushdown" and
                           splits.get((file, h)) else None),
    }
    if strategy:
        mutex_site[file] = min(mutex_site.get(file, int(p[0].line)), int(p[0].line))
    values["lock"], values["unlock"] = lock_statements(file)
    values["ie"] = Expr(inode_expr(filp))
    return values


def dead_handler(h, p):
    """A static handler that only dead entries named is deleted with them."""
    return {"dfn": Ident(h if only_dead_uses(p[0].file, h) else None)}


def inode_fed_to_call(ino, p):
    """The function that passes its local ino as the inode of a converted
    handler, and the local to drop, unless a macro of the file uses it
    unseen (then the local to mark unused)."""
    file, fn = origin(p), p[0].current_element
    first, last = int(p[0].current_element_line), int(p[0].current_element_line_end)
    # Only a macro used inside FN can name FN's local: C's scope, not the file's.
    kept = any(macro_uses(file, ino, first, last))
    # Kept for a macro, the local may be unused where the macro's #if
    # branch names no inode: it is marked unused (a handler's own derived
    # local is marked by its conversion).
    marked = kept and (file, fn) not in definitions and not macro_use_in_every_build(
        file, ino, first, last)
    return {"fed_fn": Ident(fn),
            "fed_local": Ident(None if kept else ino),
            "fed_kept": Ident(ino if marked else None)}


def mutex_of_file(f, p):
    """The function the mutex is defined (or declared) before, and its name:
    mfn for the private static mutex, mfn_home for the module's mutex in the
    file that defines it, mfn_extern in the module's other files."""
    site = f if is_mutex_site(p) else None
    kind = "mfn" if not flags.module_mutex else \
        "mfn_home" if flags.module_mutex_home else "mfn_extern"
    found = {name: Ident(site if name == kind else None)
             for name in ("mfn", "mfn_home", "mfn_extern")}
    found["mname"] = Ident(mutex_name(p[0].file))
    return found



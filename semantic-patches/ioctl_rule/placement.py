"""Where code the conversion adds lands (a wrapper, the private mutex, a
header) must be compiled in every configuration in which something uses
it; these say where, or why nowhere."""

from .state import (bkl_callers, decisions, definitions, flags, fops_entries, fops_scope,
                    headers, include_lines, mutex_site, other_defs, quoted_include_lines,
                    smp_lock_h_line)
from .conditionals import conditionals_at, encloses, is_guard, outside_ifs
from .entries import live_entries


def drops_smp_lock_h(p):
    """Whether p is an #include <linux/smp_lock.h> that -D no_bkl removes."""
    file = p[0].file
    return flags.no_bkl and smp_lock_h_line.get(file) == int(p[0].line) and \
        file in mutex_site and file not in bkl_callers


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


def include_sites(file):
    """The lines a new header may follow: the #include <...> of the file,
    or, in a file that has none, its #include "..." (an umbrella header
    of the driver: without the new one the lock is undeclared)."""
    return include_lines.get(file) or quoted_include_lines.get(file, [])


def header_site(file, uses):
    """The last include of include_sites() compiled wherever USES are that
    spatch can add a line after, or None."""
    fit = [l for l in include_sites(file) if encloses(file, l, uses) and outside_ifs(file, l)]
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
    header = "mutex.h" if flags.mutex else "smp_lock.h"
    # (A file without any include gets none: nothing to add it after.)
    if not included(file, header, uses) and include_sites(file) and \
            header_site(file, uses) is None:
        inside = [l for l in include_sites(file) if encloses(file, l, uses)]
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
    sharing = shares_wrapper_site(file, h, live[0])
    if sharing:
        # spatch adds one text before a token: a second wrapper there
        # stops the whole file ("already tagged fake token").
        return "its wrapper would go before the declaration at line %d, where %s() " \
               "(another element of the same fops declaration) may need its own: " \
               "give each handler a fops declaration of its own, or convert it by hand" % (
                   live[0].line if isinstance(live[0].site, str) else live[0].site,
                   sharing)
    return None


def shares_wrapper_site(file, h, first):
    """Another handler whose first live entry is in the declaration of
    FIRST (h's first), an array of fops or a list of them, or None.  Its
    strategy is not asked (it asks this): default-deny, any may wrap."""
    if isinstance(first.site, str):
        return None
    for other in sorted({e[1] for e in fops_entries.get(file, []) if e[1] != h}):
        live = sorted(live_entries(file, other), key=lambda e: (e.line, e.column))
        if live and not isinstance(live[0].site, str) and live[0].site == first.site and \
                live[0].fops == first.fops:
            return other
    return None

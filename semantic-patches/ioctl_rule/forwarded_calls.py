"""-D mutex: a file that calls through a member named ioctl converts none
of its handlers.

Such a call (`fp_lower->ioctl(...)`, `file->f_op->ioctl(...)`, a local
fops, an element of the file's own fops array) may reach any handler of
the file, or of its kbuild module, whatever the pointer holds: which one
is not proven (default-deny).  Under the BKL the forwarded call nested;
under the private mutex a converted handler holds the mutex when the
forwarded call takes it again: a deadlock.  So, as with direct calls
between handlers, they would be converted together or not at all; here
none is, each with the site.  The sites are read from the text
(ioctl_rework.ctext.member_calls, shared with convert's forwarding stage):
whether a member belongs to a file_operations the file does not declare,
and calls written in a macro's body, are beyond what SmPL sees.
"""

import re

from ioctl_rework.ctext import include_search
from ioctl_rework.ctext.member_calls import calls_through_macros, calls_through_member

from .macros import macros_of, root_and_path

from .source import source_lines
from .state import definitions, flags, per_file

_sites = per_file({})          # file -> [MemberCall]
# ioctl as a macro's argument (LOWER_OP(lower, ioctl, ...)).
_MACRO_HINT = re.compile(r"[(,]\s*ioctl\s*[,)]")

_WHY = ("and under the private mutex they are converted together or not at all: the "
        "forwarded call would take the mutex its caller holds")


def sites(file):
    """The calls through a member named ioctl of FILE's compiled code, and
    through a macro of a header it includes, or one naming the member by
    an argument (the same sites convert's macro check refuses)."""
    if file not in _sites:
        text = "\n".join(source_lines(file))
        _sites[file] = calls_through_member(text)
        if _MACRO_HINT.search(text) or any("ioctl" in body for bodies in
                                          macros_of(file).texts.values() for body in bodies):
            root, rel = root_and_path(file)
            headers = include_search.read_headers(root, rel)
            _sites[file] += calls_through_macros(text, rel, headers.texts, not headers.cut)
    return _sites[file]


def refusal(file, h):
    """Why handler h of FILE is left alone under -D mutex, or None."""
    found = sites(file)
    if not found:
        return None
    more = " (and %d more)" % (len(found) - 1) if len(found) > 1 else ""
    module = " or a handler of another file of its kbuild module" if flags.module_mutex \
        else ""
    own = [site for site in found if site.function == h]
    if own:
        more = " (and %d more)" % (len(found) - 1) if len(found) > 1 else ""
        others = sorted({fn for where, fn in definitions if where == file} - {h})
        reach = ", ".join(others) + " of this file" if others else "this handler itself"
        return "it calls through %s%s, which may reach %s%s, %s" % (
            own[0].where(), more, reach, module, _WHY)
    site = found[0]
    if site.macro:
        by = "the macro %s" % site.macro
    elif site.function and (file, site.function) in definitions:
        by = site.function
    elif site.function:
        by = "%s(), which a handler may call," % site.function
    else:
        by = "code outside any function"
    return "%s may reach it through %s%s, %s" % (by, site.where(), more, _WHY)

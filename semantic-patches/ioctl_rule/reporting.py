"""What report and org mode print: one line per fops entry (convert, and
how, or left alone and why), the entries no rewriting rule can reach, and
what else the patch changes.  Lines are FILE:LINE: message, which the
wrappers parse back (rules.parse_report); org mode prints through spatch
(ORG_PRINT: cocci.print_main)."""

import re
import sys

from .state import definitions, direct_calls, flags, fops_entries, refused_entries, runtime_any
from .source import source_lines
from .conditionals import never_compiled, why_never_compiled
from .entries import (dead_entries, entry_at, entry_state, hidden_entries, live_entries,
                      only_dead_uses)
from .decisions import decide, details, renamed
from .handler_body import handler_at


def say(p, message, org_print):
    if org_print:
        org_print(message, p)
    else:
        print("%s:%s: %s" % (p[0].file, p[0].line, message))


def org_printer(cocci):
    """-D org prints through spatch's org output; report mode prints itself."""
    return cocci.print_main if flags.org else None


def report_entry(fops, h, p, org_print=None):
    where = "%s: .ioctl = %s" % (fops, h)
    entry = entry_at(p)
    if entry is None:
        return
    if h == "NULL" and entry.container is None and flags.multi_kernel:
        say(p, "%s: left alone: a run-time assignment of NULL, which may clear what a copy "
               "of another file_operations set: multi-kernel output would need "
               ".unlocked_ioctl under #ifdef HAVE_UNLOCKED_IOCTL and .ioctl under #else; "
               "convert it by hand" % where, org_print)
    elif h == "NULL" and entry.container is None:
        say(p, "%s: clear (a run-time assignment of NULL, which may clear what a copy of "
               "another file_operations set: .unlocked_ioctl = NULL)" % where, org_print)
    elif h == "NULL":
        say(p, "%s: remove (an empty entry)" % where, org_print)
    elif entry_state(p[0].file, entry) == "dead":
        say(p, "%s: remove (dead: the fops also sets .unlocked_ioctl)" % where, org_print)
    elif decide(p[0].file, h)[0] and never_compiled(p[0].file, entry.line):
        # Read by spatch, but left as it is (action_at).
        say(p, "%s: left alone: %s" % (where, why_never_compiled(
            p[0].file, never_compiled(p[0].file, entry.line))), org_print)
    elif decide(p[0].file, h)[0]:
        why = decide(p[0].file, h)[1]
        say(p, "%s: convert (%s)%s" % (where, details(p[0].file, h),
                                       ": " + why if why else ""), org_print)
    else:
        say(p, "%s: left alone: %s" % (where, decide(p[0].file, h)[1]), org_print)


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


def enoioctlcmd_warning(p, org_print):
    """-ENOIOCTLCMD at p, in a handler this run converts."""
    h = handler_at(p)
    if h is None:
        return
    strategy = decide(p[0].file, h)[0]
    if strategy is None or strategy == "multi-kernel" and not live_entries(p[0].file, h):
        return
    if flags.enoioctlcmd_einval and strategy in ("pushdown", "wrapper"):
        what = "rewritten to -EINVAL, which is what userspace sees after conversion"
    else:
        what = "after conversion the VFS turns it into EINVAL; userspace saw errno 515 before"
    message = "%s: returns -ENOIOCTLCMD: %s" % (h, what)
    if flags.report:
        print("%s:%s: %s" % (p[0].file, p[0].line, message))
    elif flags.org:
        org_print(message, p)
    else:
        sys.stderr.write("%s:%s: warning: %s\n" % (p[0].file, p[0].line, message))


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

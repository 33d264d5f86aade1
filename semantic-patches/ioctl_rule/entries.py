"""The .ioctl entries of fops initializers: where each sits, the
initializer and declaration that hold it, whether that also sets
.unlocked_ioctl (dead), and entries spatch did not match (a preprocessor
branch it skipped, a spelling it missed, a branch never compiled)."""

import re

from .state import expr_uses, fops_entries, fops_types, known_uses, refused_entries
from .ctext import ATTRIBUTE, ATTRIBUTES
from .source import brace_pairs, code_text, directive_free_code, offset_of, source_lines
from .conditionals import (never_compiled, open_conditional, sibling_branches, why_never_compiled,
                           without_dead_code)


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


def container_of(p):
    """The opening brace of the innermost initializer around p: the very
    structure (or array element) an entry belongs to, whatever its name."""
    file = p[0].file
    at = offset_of(file, int(p[0].line), int(p[0].column))
    around = [o for o, c in brace_pairs(file).items() if o < at <= c]
    return max(around) if around else None


DESIGNATOR = re.compile(r"[{,]\s*\[[^][;{}]*\]\s*=\s*$")


def initializer_of(file, container):
    """The opening brace of the whole initializer that holds container:
    the brace after "=" (a fops that is a static local of a function sits
    inside that function's body, which is no initializer), or None."""
    pairs, code = brace_pairs(file), code_text(file)
    around = sorted((o for o, c in pairs.items() if o <= container <= c), reverse=True)
    # An array element's designator ("{ [2] = {", ", [0] = {") is no
    # declaration's "=" (a declarator "fops[3] = {" follows a name).
    return next((o for o in around if code[:o].rstrip().endswith("=")
                 and not DESIGNATOR.search(code, max(0, o - 200), o)), None)


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


def local_to(fops, p):
    """The function a fops is a (static) local of, or None at file scope:
    spatch names the declaration itself as the element of a global."""
    return None if p[0].current_element == fops else p[0].current_element

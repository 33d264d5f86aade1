"""Names of a handler's inode that spatch did not parse.

spatch parses one branch of an #if it cannot read whole (an `#ifndef X`
whose #else opens the same block again) and passes over the others, so an
inode named only there is no use it reports: the conversion would drop the
parameter (or name the inode expression at the uses it saw), and the
branch a kbuild -D X, or a CONFIG_ option, compiles would name an inode
that is gone.  Default-deny: every line of the body that names the inode
parameter must hold a use spatch reported; comments, strings, directives,
#if 0 code, members (`.inode`, `->inode`) and tags (`struct inode`) are
no names of it.  decide() keeps the signature of a handler with such a
line behind the wrapper, or refuses it."""

import re

from ioctl_rework.ctext.spans import TAG_OR_MEMBER_BEFORE

from .state import inode_passed_to, inode_uses, per_file
from .source import directive_free_code, offset_of, source_lines
from .conditionals import never_compiled

_named = per_file({})     # (file, handler) -> lines of its body that name its inode


def record(file, h, ino, first, last):
    """Note the lines of h's body (its definition spans lines FIRST to
    LAST) whose code names its inode parameter INO."""
    code = directive_free_code(file)
    start = code.find("{", offset_of(file, first, 0))
    end = offset_of(file, last + 1, 0) if last < len(source_lines(file)) else len(code)
    if start < 0:
        return
    lines = set()
    for match in re.finditer(r"\b%s\b" % re.escape(ino), code[start:end]):
        at = start + match.start()
        before = code[code.rfind("\n", 0, at) + 1:at]
        line = code.count("\n", 0, at) + 1
        if not TAG_OR_MEMBER_BEFORE.search(before) and never_compiled(file, line) is None:
            lines.add(line)
    _named[(file, h)] = lines


def unseen_use(file, h):
    """The first line of h's body that names its inode where spatch
    reported no use of it, or None."""
    seen = {int(line) for line, _ in inode_uses.get((file, h), ())} | \
        {int(line) for where, fn, line, _ in inode_passed_to if (where, fn) == (file, h)}
    return min(_named.get((file, h), set()) - seen, default=None)

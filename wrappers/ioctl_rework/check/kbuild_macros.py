"""The macros gcc has before a file's first line: its kbuild -D and -U flags.

`ccflags-y += -DFOO`, `EXTRA_CFLAGS += -DFOO=1`, `CFLAGS_x.o += -UNOFOO`,
a parent's `subdir-ccflags-y`, as ctext.include_search.kbuild_flags reads
them, decide `#ifdef FOO` blocks as much as the file's own #defines do.
Default-deny: a name is known only when every flag naming it agrees and
each is sure to reach gcc (an unconditional variable, in a Makefile with
no make conditional, include, or reassignment of it); any other name a
flag sets is unknown, and so is a CONFIG_ name (the config header kbuild
forces in may set it again).  A forced header (-include, -imacros) or a flag not
expanded may set any name, so then nothing is known, not even the
target's macros; and a flag naming a target macro leaves that unknown (a
header the file includes may define it again).
"""

import posixpath
import re
from pathlib import Path

from ioctl_rework.ctext import include_search

# Variables whose flags reach every compile of the object they apply to.
_UNCONDITIONAL = re.compile(r"^(?:ccflags-y|subdir-ccflags-y|EXTRA_CFLAGS|EXTRA_CPPFLAGS"
                            r"|CFLAGS_[\w.-]+\.o|CPPFLAGS_[\w.-]+\.o)$")
# What makes a Makefile's flags depend on more than its text.
_MAKE_CONDITIONAL = re.compile(r"^[ \t]*(?:-?include|sinclude|ifeq|ifneq|ifdef|ifndef|else)\b",
                               re.M)
_PLAIN_ASSIGNMENT = r"^[ \t]*{}\s*:?=(?!=)"


class Unknowable:
    """A forced header or a flag not expanded: any name may be set."""

    def __init__(self, why: str):
        self.why = why


def flag_macros(root: Path | None, rel: str) -> "dict[str, str | bool | None] | Unknowable":
    """name -> its value ("1" for -DFOO), False (-U), or None (not known)
    for each name the kbuild flags of REL (under ROOT) set; {} without a
    ROOT."""
    if root is None:
        return {}
    flags = include_search.kbuild_flags(root, rel)
    unread = flags.forced + flags.unexpanded
    if unread:
        return Unknowable(unread[0])
    seen: dict[str, set] = {}
    unsure = set()
    for flag, variable, makefile in flags.macro_flags:
        name = include_search.flag_name(flag)
        seen.setdefault(name, set()).add(_value(flag))
        # kbuild forces the config header in after every -D and -U.
        if not _sure(root, makefile, variable) or name.startswith("CONFIG_"):
            unsure.add(name)
    return {name: values.pop() if len(values) == 1 and name not in unsure else None
            for name, values in seen.items()}


def _value(flag: str) -> str | bool:
    """What cpp holds for FLAG: False for -U, the text after = for -D (1
    without one, "" for a function-like macro: defined, value unknown)."""
    if flag.startswith("-U"):
        return False
    body = re.match(r"-D\s*[A-Za-z_]\w*(\()?(?:[^=]*)(?:=(.*))?$", flag, re.S)
    if body[1]:
        return ""
    return "1" if body[2] is None else body[2].strip("\"'")


def _sure(root: Path, makefile: str, variable: str) -> bool:
    """Whether VARIABLE's flags in MAKEFILE surely reach gcc."""
    if not _UNCONDITIONAL.match(variable):
        return False
    try:
        text = (Path(root) / makefile).read_text(errors="replace")
    except OSError:
        return False
    if _MAKE_CONDITIONAL.search(text):
        return False
    # `ccflags-y := ...` after a `+=` drops what came before it.
    assigned = re.findall(_PLAIN_ASSIGNMENT.format(re.escape(variable)), text, re.M)
    added = re.findall(r"^[ \t]*{}\s*\+=".format(re.escape(variable)), text, re.M)
    return not assigned or len(assigned) + len(added) == 1


def makefiles_above(paths) -> list[str]:
    """The Makefile and Kbuild of each directory from every one of PATHS
    up to the root: what kbuild_flags reads for them."""
    found = []
    for path in paths:
        here = posixpath.dirname(path)
        while True:
            for name in ("Makefile", "Kbuild"):
                makefile = posixpath.join(here, name)
                if makefile not in found:
                    found.append(makefile)
            if not here:
                break
            here = posixpath.dirname(here)
    return found

"""A patch that changes a kbuild flag: what it makes compiled is not shown.

`ccflags-y += -DFOO`, 2.6-era `EXTRA_CFLAGS += -DFOO=1`, `CFLAGS_x.o +=
-UNOFOO`, a parent's `subdir-ccflags-y`, a forced `-include`: gcc reads
the C files of the directory (and below) with them, so a patch that only
changes a Makefile can make live an `#ifdef FOO` block holding a legacy
.ioctl that the patch does not show, in a file it does not touch.  check
judges the files a patch changes; it does not follow a flag to every file
it reaches.  Default-deny: a changed line of a Makefile or Kbuild file
that can set a macro or force a header in is NOT_CHECKED, to be reviewed
by hand (--allow-unchecked).
"""

import posixpath
import re

from ioctl_rework.check.result import Level, Problem
from ioctl_rework.check.rule_runs import NOT_CHECKED
from ioctl_rework.patches.patch_set import Line, PatchSet

# Files make reads as kbuild Makefiles, or includes from them.
_MAKEFILE = re.compile(r"^(?:Makefile|Kbuild)(?:\..*)?$|\.mk$")
# A changed line that can reach the preprocessor: a flag variable, or a
# -D/-U/-i... word (on a continuation line, or in a variable a flag line
# expands later).
_FLAG_LINE = re.compile(r"\b(?:EXTRA_C(?:PP)?FLAGS|(?:subdir-)?c(?:c|pp)flags-|C(?:PP)?FLAGS_"
                        r"|KBUILD_C(?:PP)?FLAGS)"
                        r"|(?<![\w-])['\"]?-(?:D|U|include\b|imacros\b|i\w+)")


def flag_changes(patch_set: PatchSet, level: Level, staged: bool) -> list[Problem]:
    """NOT_CHECKED for the first changed flag line of each Makefile of
    PATCH_SET; STAGED: from the pre-commit hook, which takes no options."""
    hint = ("; review by hand the C files it reaches and commit with `git commit "
            "--no-verify`" if staged else
            "; review by hand the C files it reaches and pass --allow-unchecked")
    found = []
    for fp in patch_set.files:
        if not _MAKEFILE.search(posixpath.basename(fp.path)):
            continue
        changed = [(hunk, ln) for hunk in fp.hunks for ln in hunk.lines
                   if ln.kind != " " and _FLAG_LINE.search(_code(ln.text))]
        if not changed:
            continue
        hunk, ln = changed[0]
        found.append(Problem(
            level, NOT_CHECKED, "the patch changes a kbuild flag that can define or undefine "
            "a macro for every C file of this directory (and below, for subdir-ccflags): an "
            "#ifdef block holding a legacy .ioctl, in a file the patch does not show, may "
            "compile now; check reads no file the patch does not change" + hint,
            fp.path, _shown_at(hunk, ln), ln.patch_line, ln.kind + ln.text))
    return found


def _code(text: str) -> str:
    """A Makefile line without its comment."""
    return re.sub(r"(?<!\\)#.*", "", text)


def _shown_at(hunk, line: Line) -> int:
    """The new file's line of LINE (a removed one: the line now after it)."""
    if line.new is not None:
        return line.new
    new = hunk.new_start if hunk.new_count else hunk.new_start + 1
    for ln in hunk.lines:
        if ln is line:
            return new
        if ln.kind != "-":
            new += 1
    return new

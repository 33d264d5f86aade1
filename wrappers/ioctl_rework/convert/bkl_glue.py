"""Multi-kernel glue that a target without the BKL cannot build.

A driver that is already multi-kernel keeps its `.unlocked_ioctl` under
`#ifdef HAVE_UNLOCKED_IOCTL` (its compat handler under `#ifdef
HAVE_COMPAT_IOCTL`), or under a test of the version number in any
spelling (`#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,11)`, `>= 0x02060b`,
the `#else` of `< KERNEL_VERSION(2,6,11)`: the branch the target compiles,
ctext.conditionals); the conversion leaves that branch as it is
(resolving the conditional, on a modern target, keeps exactly it).  When
the branch still takes the BKL (`lock_kernel()`), or reaches the inode
through `f_dentry`, a target without them cannot build it: that is said,
file, line and function, rather than left to the compiler, once for the
file (not as an entry: glue is no .ioctl entry); and the file is not
written, since converting its other entries would leave it half converted
and still not building (plan.py holds it through the follow-up).
"""

import itertools
import re
from dataclasses import dataclass

from ioctl_rework.ctext import ioctl_tokens
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext.conditionals import compiled_lines, target_macros
from ioctl_rework.settings import Target

_BKL_CALL = re.compile(r"\b(?:un)?lock_kernel\s*\(")
_F_DENTRY = re.compile(r"\bf_dentry\b")
_VERSION_TEST = re.compile(r"\bLINUX_VERSION_CODE\b")
# A kernel with .unlocked_ioctl (2.6.11) also has .compat_ioctl: a compat
# handler under #ifdef HAVE_COMPAT_IOCTL is glue of the same kind.
_HAVE_MACROS = ("HAVE_UNLOCKED_IOCTL", "HAVE_COMPAT_IOCTL")
# 3.19 removed file->f_dentry (the macro had stood in for f_path.dentry).
_F_DENTRY_GONE = (3, 19, 0)


def _in_unlocked_branch(text: str, line: int, compiled: list) -> tuple[int, str] | None:
    """The line and words of the #if whose branch, compiled on the target
    (COMPILED: compiled_lines for it), holds LINE: the HAVE_UNLOCKED_IOCTL or
    HAVE_COMPAT_IOCTL half of an #ifdef, or any branch of a test of
    LINUX_VERSION_CODE."""
    for branch in c_spans.open_branches(text, line):
        if branch.condition in _HAVE_MACROS and not branch.after_elif and \
                (branch.kind == "ifdef") != branch.in_else and branch.kind != "if":
            return branch.line, f"#{branch.kind} {branch.condition}"
        if branch.kind == "if" and _VERSION_TEST.search(branch.condition) and \
                compiled[line - 1] is True:
            return branch.line, "#if " + " ".join(branch.condition.split())
    return None


@dataclass(frozen=True)
class GlueLine:
    """A line of kept glue that TARGET cannot build, and why."""

    line: int
    function: str
    branch: int             # the line of its #if
    words: str              # the #if, as written
    what: str               # what the line does
    which: str              # the kernels that lack it


def glue_lines(text: str, target: Target) -> list[GlueLine]:
    """The glue lines of TEXT (a file of the run, before it) TARGET cannot build."""
    if not any(m in text for m in _HAVE_MACROS) and not _VERSION_TEST.search(text):
        return []
    checks = []
    if not target.has_bkl:
        checks.append((_BKL_CALL, "takes the BKL (lock_kernel())", ">= 2.6.39"))
    if target.version >= _F_DENTRY_GONE:
        checks.append((_F_DENTRY, "reaches the inode through file->f_dentry", ">= 3.19"))
    if not checks:
        return []
    code = c_spans.code_only(text)
    compiled = compiled_lines(text, target_macros(target.version))
    found = []
    for number, line in enumerate(code.split("\n"), 1):
        for pattern, what, which in checks:
            if not pattern.search(line):
                continue
            glue = _in_unlocked_branch(text, number, compiled)
            if glue is None or c_spans.never_compiled(text, number):
                continue
            branch, words = glue
            function = ioctl_tokens.enclosing_function(code, number) or "?"
            found.append(GlueLine(number, function, branch, words, what, which))
    return found


def file_refusal(text: str, target: Target) -> str | None:
    """Why a file of TEXT is not written for TARGET, once for the whole file:
    each glue branch it keeps that TARGET cannot build (its #if, function
    and lines), or None.  Writing the rest of the file converted would
    leave it half converted and still not building."""
    found = glue_lines(text, target)
    if not found:
        return None
    parts = []
    for (branch, words, function), lines in itertools.groupby(
            found, key=lambda g: (g.branch, g.words, g.function)):
        by_what: dict[tuple[str, str], list[int]] = {}
        for g in lines:
            by_what.setdefault((g.what, g.which), []).append(g.line)
        what = ", and ".join(f"{does} at line{'s' if len(numbers) > 1 else ''} "
                             f"{', '.join(map(str, numbers))}, which kernels {which} do not "
                             "have" for (does, which), numbers in by_what.items())
        parts.append(f"the {words} glue at line {branch} ({function}) {what}")
    return (f"{'; '.join(parts)}: target {target} cannot build it, so the file is not "
            "written (converting its other entries would leave it half converted and "
            "still not building): left as it was; convert the glue by hand")


def unwritable(rels, read, target: Target) -> dict[str, str]:
    """Each of RELS (read by READ: relpath -> bytes) whose glue TARGET
    cannot build -> why it is not written (file_refusal)."""
    found = {}
    for rel in sorted(rels):
        try:
            text = read(rel).decode("utf-8", "surrogateescape")
        except OSError:
            continue            # the tree scan lists it
        why = file_refusal(text, target)
        if why is not None:
            found[rel] = why
    return found

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
file, line and function, rather than left to the compiler.
"""

import re

from ioctl_rework.ctext import ioctl_tokens
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext.conditionals import compiled_lines, target_macros
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
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


def refusals(rel: str, text: str, target: Target) -> list[HandlerRecord]:
    """The glue lines of TEXT (a file of the run, before it) TARGET cannot build."""
    if not any(m in text for m in _HAVE_MACROS) and not _VERSION_TEST.search(text):
        return []
    checks = []
    if not target.has_bkl:
        checks.append((_BKL_CALL, "takes the BKL (lock_kernel()), which kernels >= 2.6.39 "
                                  "do not have"))
    if target.version >= _F_DENTRY_GONE:
        checks.append((_F_DENTRY, "reaches the inode through file->f_dentry, which kernels "
                                  ">= 3.19 do not have"))
    code = c_spans.code_only(text)
    compiled = compiled_lines(text, target_macros(target.version))
    found = []
    for number, line in enumerate(code.split("\n"), 1):
        for pattern, why in checks:
            if not pattern.search(line):
                continue
            glue = _in_unlocked_branch(text, number, compiled)
            if glue is None or c_spans.never_compiled(text, number):
                continue
            branch, words = glue
            function = ioctl_tokens.enclosing_function(code, number) or "?"
            found.append(HandlerRecord(
                rel, number, "?", function, HandlerStatus.SKIPPED,
                f"the {words} glue at line {branch} {why}; target "
                f"{target} cannot build it: left alone; convert it by hand"))
    return found

"""Multi-kernel glue that a target without the BKL cannot build.

A driver that is already multi-kernel keeps its `.unlocked_ioctl` under
`#ifdef HAVE_UNLOCKED_IOCTL`; the conversion leaves that branch as it is
(resolving the conditional, on a modern target, keeps exactly it).  When
the branch still takes the BKL (`lock_kernel()`), or reaches the inode
through `f_dentry`, a target without them cannot build it: that is said,
file, line and function, rather than left to the compiler.
"""

import re

from ioctl_rework.ctext import ioctl_tokens
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.settings import Target

_BKL_CALL = re.compile(r"\b(?:un)?lock_kernel\s*\(")
_F_DENTRY = re.compile(r"\bf_dentry\b")
# 3.19 removed file->f_dentry (the macro had stood in for f_path.dentry).
_F_DENTRY_GONE = (3, 19, 0)


def _in_unlocked_branch(text: str, line: int) -> int | None:
    """The line of the #if HAVE_UNLOCKED_IOCTL whose compiled branch holds LINE."""
    for branch in c_spans.open_branches(text, line):
        if branch.condition == "HAVE_UNLOCKED_IOCTL" and not branch.after_elif and \
                (branch.kind == "ifdef") != branch.in_else and branch.kind != "if":
            return branch.line
    return None


def refusals(rel: str, text: str, target: Target) -> list[HandlerRecord]:
    """The glue lines of TEXT (a file of the run, before it) TARGET cannot build."""
    if "HAVE_UNLOCKED_IOCTL" not in text:
        return []
    checks = []
    if not target.has_bkl:
        checks.append((_BKL_CALL, "takes the BKL (lock_kernel()), which kernels >= 2.6.39 "
                                  "do not have"))
    if target.version >= _F_DENTRY_GONE:
        checks.append((_F_DENTRY, "reaches the inode through file->f_dentry, which kernels "
                                  ">= 3.19 do not have"))
    code = c_spans.code_only(text)
    found = []
    for number, line in enumerate(code.split("\n"), 1):
        for pattern, why in checks:
            if not pattern.search(line):
                continue
            branch = _in_unlocked_branch(text, number)
            if branch is None or c_spans.never_compiled(text, number):
                continue
            function = ioctl_tokens.enclosing_function(code, number) or "?"
            found.append(HandlerRecord(
                rel, number, "?", function, HandlerStatus.SKIPPED,
                f"the #ifdef HAVE_UNLOCKED_IOCTL glue at line {branch} {why}; target "
                f"{target} cannot build it: left alone; convert it by hand"))
    return found

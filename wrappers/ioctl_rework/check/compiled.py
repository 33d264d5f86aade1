"""Legacy .ioctl entries judged by what compiles, whatever the rules read.

The rules find a legacy entry where spatch parses it, and leave alone the
legacy half of a multi-kernel driver (`#ifndef HAVE_UNLOCKED_IOCTL`).  A
patch can make that half live without touching it (renaming the test,
adding `#undef HAVE_UNLOCKED_IOCTL`), or write an entry in a shape the
rules do not read (`.ioctl = (h)`, a compound literal, a fops embedded in
another structure).  Here every `.ioctl =` entry of a file a patch
changes is placed by the text: if the patch adds it, or changes a
preprocessor directive above it, and it compiles on the target (see
ctext.conditionals), it is an ERROR when it is in a file_operations, and
NOT_CHECKED when check cannot tell what structure it is in.  The rules'
own findings come first; these fill what they did not say.
"""

import re
from dataclasses import dataclass

from ioctl_rework.audit.findings import Kind
from ioctl_rework.check.judge import FileView, how_to_check
from ioctl_rework.check.result import Level
from ioctl_rework.check.rule_runs import NOT_CHECKED, Raw
from ioctl_rework.ctext.conditionals import compiled_lines, target_macros
from ioctl_rework.ctext.spans import initializer_type
from ioctl_rework.patches.patch_set import Line

# `.ioctl = h`, `.ioctl = &h`, `.ioctl = (h)`, and GNU's `ioctl: h`.
_ENTRY = re.compile(r"(?:(?<![\w>])\.\s*ioctl\s*=|(?<![\w.>])ioctl\s*:)"
                    r"\s*&?\s*\(*\s*&?\s*(\w+)")
_DIRECTIVE = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif|else|endif|define|undef)\b")
_CAST = re.compile(r"\(\s*(?:const\s+)?struct\s+(\w+)\s*\)\s*$")
_NAMED = re.compile(r"\bstruct\s+\w+\s+[\w\s*]*?(\w+)\s*(?:\[[^\]]*\])?\s*=\s*$")
_NO_HANDLER = ("NULL", "0")


@dataclass(frozen=True)
class Placed:
    """A finding of this module and the patch line it is shown at."""
    raw: Raw
    shown: Line


def _struct(code: str, offset: int) -> tuple[str | None, str]:
    """(type, variable) of the initializer around OFFSET: the type None
    when it is not a declaration check can read (embedded, a macro)."""
    kind = initializer_type(code, offset)
    brace = code.rfind("{", 0, offset)
    before = code[max(0, brace - 300):brace] if brace >= 0 else ""
    if kind is None:
        cast = _CAST.search(before)
        return (cast[1], "a compound literal") if cast else (None, "")
    named = _NAMED.search(before)
    return kind, named[1] if named else "a file_operations"


def _directive_changes(view: FileView) -> dict[int, Line]:
    """Lines of the new file where the patch adds a preprocessor directive
    or removes one (at the line that now follows it)."""
    found = {n: ln for n, ln in view.final.added.items() if _DIRECTIVE.match(ln.text)}
    for patch in view.final.patches:
        for hunk in patch.hunks:
            new = hunk.new_start if hunk.new_count else hunk.new_start + 1
            for ln in hunk.lines:
                if ln.kind == "-" and _DIRECTIVE.match(ln.text):
                    found.setdefault(new, ln)
                if ln.kind != "-":
                    new += 1
    return found


def legacy_entries(view: FileView, path: str, version: tuple[int, int, int],
                   level: Level) -> list[Placed]:
    """ERROR and NOT_CHECKED findings for the legacy entries of VIEW (see
    the module doc); VERSION is the target kernel's."""
    code = view.code
    if "ioctl" not in code:
        return []
    compiled = compiled_lines(view.text, target_macros(version))
    changes = {} if view.reconstructed else _directive_changes(view)
    found = []
    for match in _ENTRY.finditer(code):
        handler = match[1]
        if handler in _NO_HANDLER:
            continue
        n = code.count("\n", 0, match.start()) + 1
        live = compiled[n - 1] if n <= len(compiled) else None
        if live is False:
            continue
        above = [c for c in sorted(changes) if c <= n]
        if n in view.changed:
            shown = view.changed[n]
        elif above:
            shown = changes[above[-1]]
            shown = Line(shown.kind, shown.text, shown.old, above[-1], shown.patch_line)
        else:
            continue
        kind, name = _struct(code, match.start())
        why = "" if n in view.changed else (
            f" (line {n}: the patch changes the preprocessor directives above it, so that "
            + ("it compiles on the target" if live else
               "it may compile: that depends on macros check cannot see; test "
               "HAVE_UNLOCKED_IOCTL to keep a branch for old kernels") + ")")
        if kind == "file_operations":
            message = (f"{name} sets the legacy .ioctl ({handler}), which runs under the BKL "
                       "and was removed in 2.6.36; use .unlocked_ioctl and .compat_ioctl"
                       + why)
            found.append(Placed(Raw(Kind.LEGACY_IOCTL.name, Level.ERROR, message, path, n,
                                    name, handler), shown))
        elif kind is None:
            message = (f"the patch sets .ioctl ({handler}) in an initializer check cannot "
                       "place (a file_operations embedded in another structure, or built by "
                       "a macro?): it may be a legacy .ioctl" + why
                       + how_to_check(view.reconstructed))
            found.append(Placed(Raw(NOT_CHECKED, level, message, path, n, "", handler),
                                shown))
    found += _bare_directives(view, path, level)
    return found


def _bare_directives(view: FileView, path: str, level: Level) -> list[Placed]:
    """A bare patch that changes a directive about ioctl (an #ifdef
    HAVE_UNLOCKED_IOCTL renamed, an #undef) may make a branch it does not
    show live: NOT_CHECKED."""
    if not view.reconstructed:
        return []
    found = []
    for n, ln in sorted(_directive_changes(view).items()):
        if re.search(r"ioctl", ln.text, re.IGNORECASE):
            found.append(Placed(Raw(
                NOT_CHECKED, level, "the patch changes a preprocessor directive about ioctl, "
                "which decides whether code it does not show is compiled"
                + how_to_check(True), path, n, "", ""),
                Line(ln.kind, ln.text, ln.old, n, ln.patch_line)))
    return found


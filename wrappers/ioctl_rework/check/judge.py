"""Which findings a patch introduced, judged as checkpatch.pl judges a patch:
by what it changes.

A finding counts when the patch changes code where it is: on its own
line, or in the structure or handler it names (a change that only deletes
lines there counts too).  A change of comments or whitespace alone is not
a change of code: an old legacy fops that a patch only comments on is a
NOTE, not an ERROR.  A patch read without its tree shows only its hunks;
where they do not show enough to decide (an ioctl member whose structure
opens above the hunk, a change in a function with the legacy handler's
signature whose file_operations the patch does not show), the code is
NOT_CHECKED, which fails the check as an error does.
"""

import re
from dataclasses import dataclass, replace
from functools import cached_property

from ioctl_rework.ctext.spans import (LABEL, LEGACY_MEMBER, code_only, code_tokens, definition_spans,
                                  initializer_type, without_comments)
from ioctl_rework.check.result import Level
from ioctl_rework.check.rule_runs import NOT_CHECKED, Raw
from ioctl_rework.audit.findings import Kind
from ioctl_rework.patches.patch_set import FinalFile, Hunk, Line, PatchSet


HANDLER_KINDS = (Kind.BKL_IN_UNLOCKED.name, Kind.ENOIOCTLCMD_UNLOCKED.name)


def cosmetic_lines(patch_set: PatchSet) -> frozenset[int]:
    """The patch lines (numbers in the patch) of every run of changes that
    changes no code: only comments or whitespace.  A run is the lines
    between two context lines; comments are read with the hunk's context,
    so a line inside a comment the hunk shows opening counts as comment."""
    found = set()
    for fp in patch_set.files:
        for hunk in fp.hunks:
            code = {}
            for side in ("+", "-"):
                lines = [ln for ln in hunk.lines if ln.kind in (" ", side)]
                text = without_comments("\n".join(ln.text for ln in lines))
                code.update({(side, ln.patch_line): c
                             for ln, c in zip(lines, text.split("\n"))})
            for run in _runs(hunk):
                added = "\n".join(code["+", ln.patch_line] for ln in run if ln.kind == "+")
                removed = "\n".join(code["-", ln.patch_line] for ln in run if ln.kind == "-")
                if code_tokens(added) == code_tokens(removed):
                    found.update(ln.patch_line for ln in run)
    return frozenset(found)


def _runs(hunk: Hunk) -> list[list[Line]]:
    runs, current = [], []
    for line in hunk.lines:
        if line.kind == " ":
            if current:
                runs.append(current)
            current = []
        else:
            current.append(line)
    return runs + ([current] if current else [])


# What a hunk header (git's function context) says a hunk is in.

_DEFINED = re.compile(r"(\w+)\s*(?:\(|(?:\[[^\]]*\])?\s*=\s*\{)")
# (struct inode *, struct file *, ...: a hunk header may stop anywhere in
# it (GNU diff -p keeps 40 characters), so an unfinished list counts.
_LEGACY_SIGNATURE = re.compile(
    r"\(\s*struct\s+inode\b[^,)]*(?:$|,\s*struct\s+file\b[^,)]*(?:,|$))")
_TOP_LEVEL = re.compile(r"^(?:[A-Za-z_$]|\})")


def _section_definitions(hunk: Hunk) -> dict[int, str]:
    """patch line -> the definition the hunk's header names, for the lines
    of the hunk before anything at the top level (a closing brace, the
    next definition) ends it."""
    match = _DEFINED.search(hunk.section)
    if not match:
        return {}
    found = {}
    for line in hunk.lines:
        if _TOP_LEVEL.match(line.text) and not LABEL.match(line.text):
            break
        found[line.patch_line] = match.group(1)
    return found


@dataclass
class FileView:
    """One file as a patch leaves it, with what check needs to judge it."""

    final: FinalFile
    text: str
    cosmetic: frozenset[int]
    reconstructed: bool

    @cached_property
    def changed(self) -> dict[int, Line]:
        """Added lines that change code."""
        return {n: ln for n, ln in self.final.added.items()
                if ln.patch_line not in self.cosmetic}

    @cached_property
    def changed_gaps(self) -> dict[int, Line]:
        return {n: ln for n, ln in self.final.gaps.items()
                if ln.patch_line not in self.cosmetic}

    @cached_property
    def code(self) -> str:
        return code_only(self.text)

    @cached_property
    def section_names(self) -> dict[int, str]:
        """Added lines -> the definition their hunk's header names, when the
        patch does not show that definition's first line (a bare patch)."""
        if not self.reconstructed:
            return {}
        by_patch_line = {ln.patch_line: n for n, ln in self.final.added.items()}
        found = {}
        for fp in self.final.patches:
            for hunk in fp.hunks:
                for patch_line, name in _section_definitions(hunk).items():
                    if patch_line in by_patch_line:
                        found[by_patch_line[patch_line]] = name
        return found

    @cached_property
    def member_names(self) -> set[str]:
        """The names the code shown sets an ioctl member to."""
        return {m.group(1) for m in re.finditer(r"ioctl\s*[=:]\s*&?\s*(\w+)", self.code)}

    def section_ioctl_lines(self) -> list[int]:
        """Changed lines of a bare patch in a function that an ioctl member
        names, known only from their hunk's header: ioctl code as much as
        the lines c_spans.ioctl_lines() finds in a definition it sees."""
        return [n for n, name in self.section_names.items()
                if n in self.changed and name in self.member_names]

    def spans(self, name: str) -> list[range]:
        return definition_spans(self.text, name)


def anchor(raw: Raw, view: FileView, code_changes_only: bool = True) -> Line | None:
    """The line RAW is shown at, or None if the patch did not change code
    where it is (with CODE_CHANGES_ONLY false: did not touch it at all)."""
    added = view.changed if code_changes_only else view.final.added
    gaps = view.changed_gaps if code_changes_only else view.final.gaps
    if raw.line in added:
        return added[raw.line]
    # What a handler does is the handler's: a change to its fops elsewhere
    # (a .compat_ioctl deleted) does not introduce it.
    names = (raw.handler,) if raw.type in HANDLER_KINDS else (raw.struct, raw.handler)
    for name in names:
        if not name:
            continue
        for span in view.spans(name):
            touched = [n for n in span if n in added]
            if touched:
                return added[touched[0]]
        touched = sorted(n for n, named in view.section_names.items()
                         if named == name and n in added)
        if touched:
            return added[touched[0]]
    # A structure or handler the patch changed only by deleting lines: the
    # finding is shown at its own line when that is in there (the entry,
    # not the closing brace that now follows the deletion).
    for name in names:
        for span in view.spans(name) if name else ():
            deleted = [n for n in span if n in gaps and n != span.start]
            if deleted:
                return replace(gaps[deleted[0]],
                               new=raw.line if raw.line in span else deleted[0])
    return None


def unchecked_level(allow_unchecked: bool) -> Level:
    return Level.WARNING if allow_unchecked else Level.ERROR


def how_to_check(reconstructed: bool, staged: bool = False) -> str:
    """What the NOT_CHECKED message tells the user to do."""
    if reconstructed:
        return ("; give the tree the patch applies to (--tree DIR) or check the commit "
                "(--git REV) so that the whole file is read")
    if staged:
        # From the pre-commit hook, which takes no options.
        return ("; fix the code spatch cannot read, or review it by hand and commit with "
                "`git commit --no-verify`")
    return ("; fix the code spatch cannot read or raise --timeout, or review it by hand "
            "and pass --allow-unchecked")


def missing_context(view: FileView, level: Level, path: str) -> list[Raw]:
    """NOT_CHECKED findings for a bare patch whose hunks do not show enough."""
    if not view.reconstructed:
        return []
    found = []
    code_lines = view.code.split("\n")
    offsets = [0]
    for line in code_lines:
        offsets.append(offsets[-1] + len(line) + 1)
    hint = how_to_check(True)
    for n in sorted(view.changed):
        member = LEGACY_MEMBER.search(code_lines[n - 1].encode(errors="surrogateescape"))
        if member and initializer_type(view.code, offsets[n - 1] + member.start()) is None:
            found.append(Raw(NOT_CHECKED, level,
                             "the patch sets a legacy .ioctl, but its hunk does not show "
                             "the structure it is in" + hint, path, n, "", ""))
    for name, first in _legacy_shaped_changes(view).items():
        if name not in view.member_names:
            found.append(Raw(NOT_CHECKED, level,
                             f"the patch changes {name}, which has the signature of a legacy "
                             ".ioctl handler, but does not show the file_operations that "
                             "names it" + hint, path, first, "", name))
    flagged = {raw.line for raw in found}
    for first in _unplaced_changes(view):
        if first not in flagged:
            found.append(Raw(NOT_CHECKED, level,
                             "the patch does not say which function or structure this hunk "
                             "changes (a diff without function context, or with a goto label "
                             "for it: `git diff` gives it for C files with `*.c diff=cpp` in "
                             ".gitattributes, `diff -up` gives it)" + hint, path, first, "", ""))
    return found


def _unplaced_changes(view: FileView) -> list[int]:
    """The first changed line of each hunk that does not say where it is,
    if it changes code inside a body or initializer whose first line the
    hunk does not show: it may be a legacy handler's, or a legacy fops'.
    A hunk does not say where it is in a file patch without any function
    context (`diff -u` without -p), or when git's default function context
    took a goto label for a function."""
    final = {ln.patch_line: n for n, ln in view.final.added.items()}
    code = view.code.split("\n")
    found = []
    for fp in view.final.patches:
        without_context = not any(hunk.section for hunk in fp.hunks)
        for hunk in fp.hunks:
            if hunk.new_start <= 1 or not (without_context or LABEL.match(hunk.section)):
                continue                # a hunk from the top of the file shows it all
            for line in hunk.lines:
                if _TOP_LEVEL.match(line.text) and not LABEL.match(line.text):
                    break               # a definition the hunk shows the start of
                n = final.get(line.patch_line)
                if n in view.changed and code[n - 1].strip() and line.text[:1] in " \t":
                    found.append(n)
                    break
    return found


def _legacy_shaped_changes(view: FileView) -> dict[str, int]:
    """Functions with the legacy handler's signature that the patch changes
    code in -> the first such line."""
    found: dict[str, int] = {}
    sections = {name for fp in view.final.patches for h in fp.hunks
                if _LEGACY_SIGNATURE.search(h.section)
                for name in [_DEFINED.search(h.section).group(1)]}
    for n, name in sorted(view.section_names.items()):
        if name in sections and n in view.changed:
            found.setdefault(name, n)
    for match in re.finditer(r"(\w+)\s*(\([^)]*\))\s*\{", view.code):
        if not _LEGACY_SIGNATURE.search(match.group(2).replace("\n", " ")):
            continue
        for span in view.spans(match.group(1)):
            touched = [n for n in span if n in view.changed]
            if touched:
                found.setdefault(match.group(1), touched[0])
    return found

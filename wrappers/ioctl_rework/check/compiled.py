"""Legacy .ioctl entries judged by what compiles, whatever the rules read.

The rules find a legacy entry where spatch parses it, and leave alone the
legacy half of a multi-kernel driver (`#ifndef HAVE_UNLOCKED_IOCTL`).  A
patch can make that half live without touching it (renaming the test,
adding `#undef HAVE_UNLOCKED_IOCTL`), or write an entry in a shape the
rules do not read (`.ioctl = (h)`, a compound literal, a fops embedded in
another structure).  Here every `.ioctl =` entry of a file a patch
changes is placed by the text: if the patch adds it, or changes a
preprocessor directive above it, and it compiles on the target (see
ctext.conditionals, with the -D and -U flags of its Makefiles:
check.kbuild_macros), it is an ERROR when it is in a file_operations, and
NOT_CHECKED when check cannot tell what structure it is in.  The rules'
own findings come first; these fill what they did not say.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.audit.findings import Kind
from ioctl_rework.check.judge import FileView, how_to_check
from ioctl_rework.check.kbuild_macros import Unknowable, flag_macros
from ioctl_rework.check.result import Level
from ioctl_rework.check.rule_runs import NOT_CHECKED, Raw
from ioctl_rework.ctext import include_search, ioctl_tokens, renamed_words
from ioctl_rework.ctext.conditionals import TARGET_NAMES, compiled_lines, target_macros
from ioctl_rework.ctext.fops_holders import Shape
from ioctl_rework.ctext.ioctl_tokens import Use
from ioctl_rework.ctext.spans import closing, code_only, join_splices, open_branches, toplevel_span
from ioctl_rework.patches.patch_set import Line

_FOPS = re.compile(r"\bstruct\s+file_operations\b[^;{}()=]*=\s*\{"
                   r"|\(\s*(?:const\s+)?struct\s+file_operations\s*\)\s*\{")
# Every member file_operations has had, 2.6.0 to 6.x: a designator naming
# anything else is a macro (or a typo gcc would refuse).
FOPS_MEMBERS = frozenset("""
    owner llseek read write read_iter write_iter iopoll iterate iterate_shared poll
    unlocked_ioctl compat_ioctl ioctl mmap mmap_supported_flags mmap_prepare open flush
    release fsync aio_fsync fasync lock sendpage sendfile get_unmapped_area check_flags
    flock splice_write splice_read splice_eof setlease fallocate show_fdinfo
    mmap_capabilities copy_file_range remap_file_range clone_file_range dedupe_file_range
    fadvise uring_cmd uring_cmd_iopoll fop_flags aio_read aio_write readdir readv writev
    dir_notify""".split())
_DIRECTIVE = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif|else|endif|define|undef)\b")
# An #include: the header may #undef or #define what a kbuild flag set.
_INCLUDE = re.compile(r"^\s*#\s*include(?:_next)?\b")
_NO_HANDLER = ("NULL", "0")


@dataclass(frozen=True)
class Placed:
    """A finding of this module and the patch line it is shown at."""
    raw: Raw
    shown: Line


def _directive_changes(view: FileView) -> dict[int, Line]:
    """Lines of the new file where the patch adds a preprocessor directive
    or removes one (at the line that now follows it)."""
    found = {n: ln for n, ln in view.final.added.items()
             if _DIRECTIVE.match(ln.text) or _INCLUDE.match(ln.text)}
    for patch in view.final.patches:
        for hunk in patch.hunks:
            new = hunk.new_start if hunk.new_count else hunk.new_start + 1
            for ln in hunk.lines:
                if ln.kind == "-" and (_DIRECTIVE.match(ln.text) or _INCLUDE.match(ln.text)):
                    found.setdefault(new, ln)
                if ln.kind != "-":
                    new += 1
    return found


_CONDITIONAL = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif|else|endif)\b")
_DEFINES = re.compile(r"^\s*#\s*(?:define|undef)\s+(\w+)")


def _touch(view: FileView, code: str, changes: dict[int, Line], n: int,
           flagged: frozenset = frozenset()) -> Line | None:
    """The line a finding at line N is shown at, if the patch touches it:
    the line itself, or a directive change that can decide whether it is
    compiled: a conditional in its definition or around it, a #define
    or #undef above it of a macro those conditionals name, or an #include
    above it when FLAGGED, the names a kbuild flag sets, may decide it (the
    header may #undef or #define one again)."""
    if n in view.changed:
        return view.changed[n]
    around = open_branches(view.text, n)
    span = toplevel_span(code, n)
    names = {w for b in around for w in re.findall(r"\w+", b.condition)}
    deciding = []
    for c, ln in changes.items():
        if _CONDITIONAL.match(ln.text):
            if c in span or c in {b.line for b in around}:
                deciding.append(c)
        elif _INCLUDE.match(ln.text):
            if c <= n and flagged:
                deciding.append(c)
        else:
            defined = _DEFINES.match(ln.text)
            if defined and c <= n and defined[1] in names:
                deciding.append(c)
    if not deciding:
        return None
    first = min(deciding)
    shown = changes[first]
    return Line(shown.kind, shown.text, shown.old, first, shown.patch_line)


def legacy_entries(view: FileView, path: str, version: tuple[int, int, int],
                   level: Level, kbuild_root: Path | None = None) -> list[Placed]:
    """ERROR and NOT_CHECKED findings for the legacy entries of VIEW (see
    the module doc); VERSION is the target kernel's; KBUILD_ROOT holds the
    Makefiles above PATH, as the patch leaves them."""
    found = _bare_directives(view, path, level)
    # Last: a legacy entry found is shown at its line as well.
    renamed = _renamed(view, path, level, kbuild_root)
    if "ioctl" not in view.text and "file_operations" not in view.text:
        return found + renamed
    code = code_only(view.text)
    flagged = flag_names(kbuild_root, path)
    compiled = compiled_lines(view.text, macros_before(version, kbuild_root, path), flagged)
    changes = {} if view.reconstructed else _directive_changes(view)
    for token in ioctl_tokens.tokens(view.text):
        if token.use is not Use.ENTRY or token.value in _NO_HANDLER:
            continue
        n = token.line
        live = compiled[n - 1] if n <= len(compiled) else None
        if live is False:
            continue
        # Unknown after an #include where a flag set a name: it may decide.
        shown = _touch(view, code, changes, n, flagged if live is None else frozenset())
        if shown is None:
            continue
        fops = ioctl_tokens.of_file_operations(code, token)
        placed = token.holder is not None and token.holder.shape is not Shape.UNPLACED
        handler = token.handler or token.value
        why = "" if n in view.changed else (
            f" (line {n}: the patch changes the preprocessor directives above it, so that "
            + ("it compiles on the target" if live else
               "it may compile: that depends on macros check cannot see; test "
               "HAVE_UNLOCKED_IOCTL to keep a branch for old kernels") + ")")
        if fops or fops is None and placed:
            name = token.holder.name if token.holder else "a file_operations"
            message = (f"{name} sets the legacy .ioctl ({handler}), which runs under the BKL "
                       "and was removed in 2.6.36; use .unlocked_ioctl and .compat_ioctl"
                       + why)
            found.append(Placed(Raw(Kind.LEGACY_IOCTL.name, Level.ERROR, message, path, n,
                                    name, handler, ioctl_tokens.spelling(token)), shown))
        elif fops is None:
            message = (f"the patch sets .ioctl ({handler}) in an initializer check cannot "
                       "place (built by a macro?): it may be a legacy .ioctl" + why
                       + how_to_check(view.reconstructed))
            found.append(Placed(Raw(NOT_CHECKED, level, message, path, n, "", handler),
                                shown))
    found += _unreadable_members(view, code, join_splices(code), compiled, changes, path,
                                 level)
    return found + renamed


def macros_before(version: tuple[int, int, int], kbuild_root: Path | None,
                   path: str) -> dict:
    """The macros gcc holds before PATH's first line: the target's, and its
    kbuild flags' (none known when a flag may set any name; a target macro
    a flag names is not known: a header may define it again)."""
    flags = flag_macros(kbuild_root, path)
    if isinstance(flags, Unknowable) or "KERNEL_VERSION" in flags:
        return {}
    macros = target_macros(version)
    return {**{name: value for name, value in flags.items() if name not in macros},
            **{name: value if name not in flags else None for name, value in macros.items()}}


def _renamed(view: FileView, path: str, level: Level,
             kbuild_root: Path | None) -> list[Placed]:
    """NOT_CHECKED where PATH's kbuild flags define a word the rules read as
    C (-Dunlocked_ioctl=ioctl: a legacy entry gcc sees, the text hides):
    at the first changed line naming the word, else the first changed line."""
    if not view.changed:
        return []
    own = _renaming_directive(view, path)
    if own is not None:
        n, why = own
        shown = view.changed.get(n) or view.changed[min(view.changed)]
        return [Placed(Raw(NOT_CHECKED, level, why, path, n, "", ""), shown)]
    if kbuild_root is None:
        return []
    flags = include_search.kbuild_flags(kbuild_root, path)
    why = renamed_words.refusal(kbuild_root, path, flags, advice="check it by hand")
    if why is None:
        return []
    words = {include_search.flag_name(flag)
             for flag, _ in renamed_words.renaming_flags(kbuild_root, path, flags)}
    code = code_only(view.text).split("\n")
    naming = [n for n in sorted(view.changed)
              if n <= len(code) and set(re.findall(r"\w+", code[n - 1])) & words]
    n = (naming or sorted(view.changed))[0]
    shown = view.changed[n]
    return [Placed(Raw(NOT_CHECKED, level, why, path, n, "", ""), shown)]


_RENAMING = re.compile(r"^[ \t]*#[ \t]*(define|undef)[ \t]+(\w+)(\(?)", re.M)


def _renaming_directive(view: FileView, path: str) -> tuple[int, str] | None:
    """(line, why) of the first directive of VIEW that renames what every
    file including it reads: an object-like #define of a member or type the
    rules read (`#define unlocked_ioctl ioctl`), or, in a header, a #define
    or #undef of a target macro (HAVE_UNLOCKED_IOCTL); or None.  A
    directive never compiled is none."""
    code = code_only(view.text)
    compiled = compiled_lines(view.text, {})
    for match in _RENAMING.finditer(code):
        n = code.count("\n", 0, match.start()) + 1
        kind, name, paren = match.groups()
        if n <= len(compiled) and compiled[n - 1] is False:
            continue
        if kind == "define" and not paren and name in renamed_words.MEMBER_WORDS:
            return n, (f"#define {name} makes the compiler read another word where the "
                       f"text says {name}, which the rules read as C: check it by hand")
        if not path.endswith(".c") and name in TARGET_NAMES:
            return n, (f"a header that #{kind}s {name} decides, in every file that includes "
                       "it, which half of a multi-kernel driver compiles, and check does not "
                       "follow it there: check it by hand")
    return None


def flag_names(kbuild_root: Path | None, path: str) -> frozenset:
    """The names PATH's kbuild flags set: a header it includes, which check
    does not read, may #undef or #define them again (compiled_lines)."""
    flags = flag_macros(kbuild_root, path)
    return frozenset() if isinstance(flags, Unknowable) else frozenset(flags)


def _unreadable_members(view: FileView, code: str, joined, compiled: list, changes: dict,
                        path: str, level: Level) -> list[Placed]:
    """NOT_CHECKED for what a file_operations initializer the patch touches
    holds that check cannot read as a member: a designator that names no
    member (a macro, perhaps pasting tokens), a macro call in place of an
    entry.  Such a spelling may reach the compiler as .ioctl."""
    found = []
    flat = joined.text
    aliases = ioctl_tokens.word_aliases(flat)
    for fops in _FOPS.finditer(flat):
        end = closing(flat, fops.end() - 1)
        body = flat[fops.end():end]
        for match in re.finditer(r"(?<![\w>])\.\s*(\w+)\s*(\(|=)|(?:^|[{,])\s*([A-Za-z_]\w*)\s*\(",
                                 body):
            n = joined.line(fops.end() + match.start())
            if n <= len(compiled) and compiled[n - 1] is False:
                continue
            name = match[1] or match[3]
            if match[1] and match[2] == "=" and aliases.get(name, name) in FOPS_MEMBERS:
                continue
            shown = _touch(view, code, changes, n)
            if shown is None:
                continue
            what = (f"a macro call ({name}(...)) in place of an entry" if match[3] else
                    f"the designator .{name}, which names no member of file_operations "
                    "(a macro?)")
            found.append(Placed(Raw(
                NOT_CHECKED, level, f"a file_operations initializer holds {what}: what it "
                "sets, perhaps the legacy .ioctl, is known only to the compiler; check it "
                "with --kdir, or spell the entry out", path, n, "", name), shown))
    return found


def _bare_directives(view: FileView, path: str, level: Level) -> list[Placed]:
    """A bare patch that changes a directive in a hunk about ioctl (an
    #ifdef HAVE_UNLOCKED_IOCTL renamed, an #undef) may make a branch it does
    not show live: NOT_CHECKED."""
    if not view.reconstructed:
        return []
    found = []
    for patch in view.final.patches:
        for hunk in patch.hunks:
            new = hunk.new_start if hunk.new_count else hunk.new_start + 1
            changed = []
            for ln in hunk.lines:
                if ln.kind != " " and _DIRECTIVE.match(ln.text):
                    changed.append((new, ln))
                if ln.kind != "-":
                    new += 1
            changed = [(n, ln) for n, ln in changed if not _DEFINES.match(ln.text)
                       or _DEFINES.match(ln.text)[1] in TARGET_NAMES or ln.text.lstrip(
                           "# \t").startswith("undef")]
            if changed and any(re.search(r"ioctl", ln.text, re.IGNORECASE)
                               for ln in hunk.lines):
                n, ln = changed[0]
                found.append(Placed(Raw(
                    NOT_CHECKED, level, "the patch changes a preprocessor directive near "
                    "ioctl code, which decides whether code it does not show is compiled"
                    + how_to_check(True), path, n, "", ""),
                    Line(ln.kind, ln.text, ln.old, n, ln.patch_line)))
    return found

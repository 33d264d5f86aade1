"""Phase 2 of a convert run: every file that names a converted handler
follows it, or the handler is converted nowhere.

A handler's group is every file of the run that names it: the file of its
definition, its fops, headers with its prototype, other files that call it
or export it.  Files that name another function of the same name (a static
one of another driver) are not in it.  Files other than where the rule
decides it from its fops entry run again with the handler listed
(-D handlers=), so that prototypes and calls follow; a handler dropped
later is kept legacy where the rule would still convert it (-D keep=).

Whether the group followed is judged from the text (namings), not from
what the rule said: before the run, a use no rewrite can carry over (the
handler stored as a value, a call passing another inode) drops it; after
it, any line still naming it the old way does.
"""

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.ctext import shared_state
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert import namings
from ioctl_rework.convert.file_runs import FileRun, RunTask
from ioctl_rework.convert.summary import HandlerStatus

# Report reasons that mean "defined in another file".
_ELSEWHERE = ("not defined in this file", "defined in another file")
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)


@dataclass(frozen=True, order=True)
class HandlerKey:
    """A handler: its name, and its definition file when it is static
    (two drivers may each have a static function of the same name)."""

    name: str
    home: str = ""


@dataclass(frozen=True)
class Verdict:
    """Why a handler is converted nowhere."""

    status: HandlerStatus
    reason: str
    file: str | None = None     # the file that could not be rewritten, if one could not


@dataclass(frozen=True)
class FollowedHandler:
    """What the follow-up leaves of one handler, for its record: every
    file naming it, whether one exports it, and why it is converted
    nowhere (None: it is not dropped)."""

    files: tuple[str, ...]
    exported: bool
    dropped: Verdict | None = None


@dataclass
class HandlerGroup:
    key: HandlerKey
    # Files where the rule converts it unlisted: its fops and definition file.
    decided: set[str] = field(default_factory=set)
    # fops files that name it but left it for another file to define.
    elsewhere: set[str] = field(default_factory=set)
    files: list[str] = field(default_factory=list)     # every file naming it
    # The rule's wrapper keeps its legacy signature (a use of the file
    # needs it): nothing else follows, so no other file may name it.
    keeps_signature: bool = False

    def listed_in(self, rel: str) -> bool:
        return bool(self.elsewhere) or rel not in self.decided


@dataclass
class Groups:
    groups: dict[HandlerKey, HandlerGroup]
    dropped: dict[HandlerKey, Verdict] = field(default_factory=dict)
    # Checked once: what no rewrite can carry over (old text does not change).
    _blocked_before: dict[HandlerKey, Verdict | None] = field(default_factory=dict)

    def live(self) -> list[HandlerGroup]:
        return [g for k, g in sorted(self.groups.items()) if k not in self.dropped]

    def key_of(self, rel: str, name: str) -> HandlerKey:
        static = HandlerKey(name, rel)
        return static if static in self.groups else HandlerKey(name)

    def tasks(self) -> list[RunTask]:
        """Each file that lists a live handler or keeps a dropped one."""
        listed: dict[str, set[str]] = {}
        kept: dict[str, set[str]] = {}
        for key, group in self.groups.items():
            for rel in group.files:
                if key in self.dropped:
                    # Where it is defined or named by a fops, and where a
                    # caller must know it stays legacy (--lock mutex).
                    kept.setdefault(rel, set()).add(key.name)
                elif group.listed_in(rel):
                    listed.setdefault(rel, set()).add(key.name)
        return sorted(RunTask(rel, tuple(sorted(listed.get(rel, set()) - kept.get(rel, set()))),
                              tuple(sorted(kept.get(rel, ()))))
                      for rel in set(listed) | set(kept))


def build(runs: dict[str, FileRun], mentions: dict[str, set[str]], files: set[str],
          content) -> Groups:
    """The group of every handler phase 1 converted or found defined elsewhere.
    CONTENT(rel) gives a file's text ("" when it cannot be read: Sources.text)."""
    groups: dict[HandlerKey, HandlerGroup] = {}
    for run in runs.values():
        for d in run.decisions:
            if d.convert and d.strategy in ("pushdown", "wrapper"):
                static = c_spans.is_static(content(run.file), d.handler)
                key = HandlerKey(d.handler, run.file if static else "")
                groups.setdefault(key, HandlerGroup(key)).decided.add(run.file)
                groups[key].keeps_signature |= d.keeps_signature
            elif not d.convert and any(w in (d.reason or "") for w in _ELSEWHERE):
                key = HandlerKey(d.handler)
                groups.setdefault(key, HandlerGroup(key)).elsewhere.add(run.file)
    for key, group in groups.items():
        # grep's word matches, less those that are no use of the function
        # (a member or a struct tag of the same name, a comment, #if 0).
        named = {rel for rel in mentions.get(key.name, set()) & files
                 if namings.namings(content(rel), key.name)}
        named |= group.decided | group.elsewhere
        if key.home:
            reach = _included(key.home, content) | {key.home}
            group.files = sorted(named & reach)
        else:
            # A static function of that name is another one, unless its
            # file includes the fops (a header holding a static fops).
            group.files = sorted(rel for rel in named
                                 if rel in group.decided or rel in group.elsewhere
                                 or not c_spans.is_static(content(rel), key.name)
                                 or _included(rel, content) & group.elsewhere)
    return Groups(groups)


def check(groups: Groups, final: dict[str, FileRun], blocked: dict[str, str], content,
          refusal: str | None = None, mutex: bool = False,
          root: Path | None = None) -> dict[HandlerKey, Verdict]:
    """Live handlers whose files did not all follow, and why.  With MUTEX
    (--lock mutex) a handler called from another file is one: the caller
    holds its own file's mutex, and the handler's body would run under two
    locks (the rule refuses the same in one file).  ROOT: where the files
    are, whose headers the inode a call passes is read with, as the rule
    reads them (without it, none is read)."""
    newly = {}
    for group in groups.live():
        key = group.key
        if key not in groups._blocked_before:
            groups._blocked_before[key] = _cannot_follow(group, content, mutex, root)
        verdict = groups._blocked_before[key] or _did_not_follow(group, final, blocked,
                                                                   content, refusal)
        if verdict:
            newly[key] = verdict
    return newly


def _cannot_follow(group: HandlerGroup, content, mutex: bool,
                   root: Path | None) -> Verdict | None:
    """A use in the original text that no rewrite can carry over."""
    name = group.key.name
    parameter = _parameter_entry(group, content)
    if parameter:
        return parameter
    compat = _compat_under_the_bkl(group, content) if mutex else None
    if compat:
        return compat
    if group.keeps_signature:
        named_elsewhere = sorted(set(group.files) - group.decided)
        if named_elsewhere or len(group.decided) != 1:
            return Verdict(HandlerStatus.SKIPPED,
                           f"{(named_elsewhere or sorted(group.decided))[0]} names it too, "
                           "and the wrapper that keeps its old signature (for a use of "
                           "its own file) is proven only where nothing else names it; "
                           "converted nowhere")
        return None
    for rel in group.files:
        text = content(rel)
        uses = namings.namings(text, name)
        defined_here = any(use.kind == namings.DEFINITION for use in uses)
        for use in uses:
            if mutex and use.kind == namings.CALL and not defined_here:
                return Verdict(HandlerStatus.SKIPPED,
                               f"{rel}:{use.line}: called from another file, whose caller "
                               "would hold another lock with --lock mutex; converted nowhere")
            if use.kind == namings.OTHER:
                return Verdict(HandlerStatus.SKIPPED,
                               f"{rel}:{use.line}: uses {name} as a value (`{use.text}`), "
                               "which cannot follow the new signature; converted nowhere")
            headers = (rel, root) if root is not None else (None, None)
            if defined_here and namings.passes_null(use, text, *headers):
                continue            # the rule's to judge (its null_inode_call)
            why = namings.foreign_inode(text, use, *headers)
            if why:
                return Verdict(HandlerStatus.SKIPPED,
                               f"{rel}:{use.line}: a call {why}: the new signature cannot "
                               "pass that inode on; converted nowhere")
    return None


def _did_not_follow(group: HandlerGroup, final: dict[str, FileRun], blocked: dict[str, str],
                    content, refusal: str | None) -> Verdict | None:
    name = group.key.name
    defined = False
    stale = []
    for rel in group.files:
        run = final.get(rel)
        # A read-only file blocks only what would change it.
        if run is not None and (not run.ok or rel in blocked and run.changed):
            why = blocked.get(rel) or run.reason
            return Verdict(HandlerStatus.FAILED, f"its files cannot all be rewritten "
                                                 f"({rel}: {why}); converted nowhere", rel)
        if group.keeps_signature:
            continue            # its old names are right: the wrapper calls it so
        text = run.new.decode("utf-8", "surrogateescape") if run else content(rel)
        for use in namings.namings(text, name):
            defined = defined or use.kind == namings.DEFINITION
            if not use.follows:
                unseen = run and _in_unparsed(text, run.parse_errors, use.line)
                stale.append((rel, use, run.reason if unseen else None))
    if group.elsewhere and refusal and stale:
        return Verdict(HandlerStatus.SKIPPED, refusal)
    listed_stale = [(rel, use) for rel, use, _ in stale if rel not in group.decided]
    if refusal and listed_stale:
        # The rule follows a handler into another file only for pushdown.
        rel, use = listed_stale[0]
        return Verdict(HandlerStatus.SKIPPED,
                       f"{rel}:{use.line} names it too, and {refusal}", rel)
    if stale:
        rel, use, unparsed = stale[0]
        refused = [d.reason for d in (final[rel].decisions if rel in final else ())
                   if d.handler == name and not d.convert and d.reason]
        if refused and not unparsed:    # the rule said why, in the file of its fops
            return Verdict(HandlerStatus.SKIPPED, refused[0], rel)
        where = f"{rel}:{use.line}: its {use.kind} keeps the old signature (`{use.text}`)"
        if unparsed:  # spatch may not have seen it
            return Verdict(HandlerStatus.FAILED, f"{where}, and {unparsed}; converted nowhere",
                           rel)
        return Verdict(HandlerStatus.SKIPPED,
                       f"{where}: that file cannot follow; converted nowhere", rel)
    if group.elsewhere and not defined:
        return Verdict(HandlerStatus.SKIPPED, refusal or
                       "no definition with the .ioctl signature was found in the tree")
    return None


def _parameter_entry(group: HandlerGroup, content) -> Verdict | None:
    """An entry of GROUP's fops files that stores a parameter of the
    function it is in (`fops->ioctl = handler;` in a helper that takes the
    handler): its value is whatever the callers pass, and no definition of
    that name exists to convert."""
    name = group.key.name
    if any(use.kind == namings.DEFINITION for rel in group.files
           for use in namings.namings(content(rel), name)):
        return None             # a handler of that name exists: the entries are judged as usual
    for rel in sorted(group.elsewhere):
        text = content(rel)
        code = c_spans.code_only(text)
        for use in namings.namings(text, name):
            if use.kind != namings.ENTRY:
                continue
            span = c_spans.toplevel_span(code, use.line)
            head = "\n".join(code.split("\n")[span.start - 1:use.line])
            function = re.search(r"(\w+)\s*\(([^;{}]*)\)\s*\{", head)
            if function and re.search(rf"\b{re.escape(name)}\b", function[2]):
                passed = _passed(code, function[1], function[2], name)
                return Verdict(HandlerStatus.SKIPPED,
                               f"{name} is a parameter of {function[1]}() ({rel}:{use.line}): "
                               "the entry is set to whatever its callers pass"
                               f"{passed}, which the run does not follow; left alone; "
                               "convert it by hand")
    return None


def _passed(code: str, function: str, params: str, name: str) -> str:
    """What the calls of FUNCTION (whose parameter list is PARAMS) in CODE
    pass as its parameter NAME, said after "whatever its callers pass"."""
    index = next((i for i, p in enumerate(c_spans.split_top_level(params))
                  if re.search(rf"\b{re.escape(name)}\s*\)?\s*(?:\(|$)", p.strip())), None)
    if index is None:
        return ""
    found = []
    for call in re.finditer(rf"\b{re.escape(function)}\s*\(", code):
        close = c_spans.closing_or_none(code, call.end() - 1, "()")
        args = c_spans.split_top_level(code[call.end():close]) if close else []
        if len(args) > index and not re.match(r"\s*\{", code[close + 1:]):
            line = code.count("\n", 0, call.start()) + 1
            found.append(f"{' '.join(args[index].split())} (line {line})")
    return f" (here: {', '.join(found)})" if found else ""


_COMPAT_ENTRY = re.compile(r"(?:\.\s*compat_ioctl\s*=|\bcompat_ioctl\s*:)\s*&?\s*(\w+)")
_BKL_CALL = re.compile(r"\block_kernel\s*\(")


def _compat_under_the_bkl(group: HandlerGroup, content) -> Verdict | None:
    """Under the private mutex: a .compat_ioctl of a file of GROUP that
    takes the BKL itself and does not call the handler (that call is judged
    elsewhere).  It ran under the same lock as the legacy handler; after
    the conversion the one takes the BKL and the other the mutex, and the
    state they share is no longer guarded against the other.  A handler of
    that file proven to reach no state the compat handler reaches
    (ctext.shared_state) is not concerned and converts."""
    name = group.key.name
    for rel in group.files:
        text = content(rel)
        code = c_spans.code_only(text)
        for entry in _COMPAT_ENTRY.finditer(code):
            compat = entry[1]
            head = re.search(rf"\b{re.escape(compat)}\s*\([^;{{}}]*\)\s*\{{", code)
            if head is None:
                continue
            body = code[head.end():c_spans.closing(code, head.end() - 1)]
            lock = _BKL_CALL.search(body)
            if lock is None or re.search(rf"\b{re.escape(name)}\b", body):
                continue
            line = code.count("\n", 0, head.end() + lock.start()) + 1
            if c_spans.never_compiled(text, line):
                continue
            why = _shares_with(text, name, compat)
            if why is None:
                continue
            return Verdict(HandlerStatus.SKIPPED,
                           f"{rel}:{line}: {compat}, the .compat_ioctl of its file, takes the "
                           f"BKL, and {why}; under the private mutex the two would no longer "
                           "exclude each other (--lock bkl keeps them together); converted "
                           "nowhere")
    return None


def _shares_with(text: str, handler: str, compat: str) -> str | None:
    """Why HANDLER may share state with COMPAT, a function of TEXT, or None
    when it is proven to share none."""
    if not c_spans.definition_spans(text, handler):
        return f"{handler} is not defined in that file, so what it reaches is not read"
    reach = shared_state.reach(text, handler, compat)
    if reach.shared:
        return f"both reach {', '.join(sorted(reach.shared))}"
    if reach.unknown:
        return (f"{', '.join(sorted(reach.unknown))}, defined outside the file, may reach the "
                "state of either")
    return None


def _in_unparsed(text: str, parse_errors: tuple[int, ...], line: int) -> bool:
    """Whether LINE is in code spatch skipped: it may not have seen it."""
    code = c_spans.code_only(text)
    return any(line in c_spans.toplevel_span(code, error) for error in parse_errors)


def followed_handlers(groups: Groups, final: dict[str, FileRun],
                      content) -> dict[tuple[str, str], FollowedHandler]:
    """What GROUPS leave of each handler a run of FINAL decides, by (its
    file, its name): of a handler with a group only (one the rule neither
    converted nor found defined elsewhere has none)."""
    found: dict[tuple[str, str], FollowedHandler] = {}
    for run in final.values():
        for d in run.decisions:
            key = groups.key_of(run.file, d.handler)
            group = groups.groups.get(key)
            if group is not None and (run.file, d.handler) not in found:
                dropped = groups.dropped.get(key)
                found[(run.file, d.handler)] = FollowedHandler(
                    tuple(group.files), dropped is None and _exported(group, content), dropped)
    return found


def _exported(group: HandlerGroup, content) -> bool:
    return any(use.kind == namings.EXPORT for rel in group.files
               for use in namings.namings(content(rel), group.key.name))


def _included(home: str, content, depth: int = 3) -> set[str]:
    """The files HOME includes, through quoted includes, by path in the tree:
    "x.h" from its own directory, <x.h> from include/."""
    found, todo = set(), [(home, 0)]
    while todo:
        rel, level = todo.pop()
        for kind, name in _INCLUDE.findall(content(rel)):
            path = os.path.normpath(os.path.join(os.path.dirname(rel), name) if kind == '"'
                                    else os.path.join("include", name))
            if path not in found and not path.startswith(".."):
                found.add(path)
                if kind == '"' and level < depth:
                    todo.append((path, level + 1))
    return found

"""One run of the conversion rule per branch of an #if/#else, merged.

spatch reads one branch of an #if inside an initializer, so the rule
refuses an entry it cannot see (`.ioctl = h` under #if, `ioctl: h` under
#else) and a handler defined twice (#ifdef/#else): converting what it saw
would leave the other branch wrong.  Here the wrapper turns each such
conditional into `#ifdef IOCTL_REWORK_BRANCH_<line>` (the name the rule
knows: it then leaves the other branch to its own run), runs the rule
once with those names defined and once undefined, so that each run sees
one consistent configuration, and merges the two outputs three-way
against the common input with `git merge-file`.

The merge is taken only when it is provably the same conversion seen
from both sides: each handler is done alike by both runs (same strategy,
or the same refusal), or is named nowhere in the branches only the other
run reads; no branch refusal is left in either run; each run changed no
line of the branches it did not read; the merge has no conflict (so each
configuration sees its own run's changes, and the other run's changes to
code both read, which concern handlers it agrees on or never names); no
configuration gets a file-scope line twice; the directives come back as
they were.  Otherwise the file
keeps the refusal of the ordinary run, with the reason the branch runs
gave.
"""

import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ioctl_rework import children
from ioctl_rework.ctext import spans as c_spans

MARKER = "IOCTL_REWORK_BRANCH_"

# The rule's refusals that a run per branch can resolve (its decide()).
_HIDDEN = re.compile(r"in the preprocessor branch of line (\d+), which spatch does not read")
_TWICE = re.compile(r"it is defined twice, at lines (\d+) and (\d+) \(under #if and #else\)")
_IF = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef)\b")
_ELSE = re.compile(r"[ \t]*#[ \t]*(else|elif)\b")
_ENDIF = re.compile(r"[ \t]*#[ \t]*endif\b")


@dataclass(frozen=True)
class Conditional:
    """An #if ... #else ... #endif: its three directive lines (1-based)."""

    start: int
    otherwise: int
    end: int


class BranchError(Exception):
    """Why the branches could not be converted in runs of their own."""


def needs_branch_runs(decisions) -> bool:
    return any(d.reason and (_HIDDEN.search(d.reason) or _TWICE.search(d.reason))
               for d in decisions if not d.convert)


def conditionals(lines: list[str]) -> list[tuple[int, list[int], int]]:
    """Every #if group of LINES: (its #if line, its #else/#elif lines, its #endif)."""
    found, stack = [], []
    for number, text in enumerate(lines, 1):
        if _IF.match(text):
            stack.append((number, []))
        elif _ELSE.match(text) and stack:
            stack[-1][1].append(number)
        elif _ENDIF.match(text) and stack:
            start, middle = stack.pop()
            found.append((start, middle, number))
    return found


def _as_conditional(group, lines: list[str]) -> Conditional:
    start, middle, end = group
    if len(middle) != 1 or _ELSE.match(lines[middle[0] - 1]).group(1) != "else":
        raise BranchError("the #if at line %d has %s, not one #else"
                          % (start, "an #elif" if middle else "no #else"))
    return Conditional(start, middle[0], end)


def branch_conditionals(text: str, decisions) -> list[Conditional]:
    """The conditionals whose branches the refusals of DECISIONS name."""
    lines = c_spans.code_only(text).split("\n")    # no #if of a comment
    groups = conditionals(lines)
    chosen: dict[int, Conditional] = {}
    for d in decisions:
        if d.convert or not d.reason:
            continue
        hidden, twice = _HIDDEN.search(d.reason), _TWICE.search(d.reason)
        if hidden:
            group = next((g for g in groups if g[0] == int(hidden.group(1))), None)
            if group is None:
                raise BranchError("no #if ... #endif starts at line %s" % hidden.group(1))
        elif twice:
            first, second = int(twice.group(1)), int(twice.group(2))
            around = [g for g in groups if g[0] < first and second < g[2]
                      and any(first < m < second for m in g[1])]
            if not around:
                raise BranchError("its definitions at lines %d and %d are not the two "
                                  "branches of one #if" % (first, second))
            group = max(around)
        else:
            continue
        conditional = _as_conditional(group, lines)
        chosen[conditional.start] = conditional
    return sorted(chosen.values(), key=lambda c: c.start)


def _directive_lines(lines: list[str], start: int) -> range:
    """The lines of the directive at START, with its backslash continuations."""
    end = start
    while lines[end - 1].rstrip("\r").endswith("\\") and end < len(lines):
        end += 1
    return range(start, end + 1)


def with_markers(text: str, found: list[Conditional]) -> str:
    """TEXT with each conditional's #if line made `#ifdef MARKER<line>`
    (its continuation lines left empty, so every line keeps its number)."""
    lines = text.split("\n")
    for conditional in found:
        span = _directive_lines(lines, conditional.start)
        ending = "\r" if lines[span[0] - 1].endswith("\r") else ""
        for number in span:
            lines[number - 1] = ending
        lines[span[0] - 1] = "#ifdef %s%d%s" % (MARKER, conditional.start, ending)
    return "\n".join(lines)


def without_markers(merged: str, original: str, found: list[Conditional]) -> str:
    """MERGED with the directives of ORIGINAL back in place of the markers."""
    lines, source = merged.split("\n"), original.split("\n")
    for conditional in found:
        span = _directive_lines(source, conditional.start)
        ending = "\r" if source[span[0] - 1].endswith("\r") else ""
        marker = "#ifdef %s%d%s" % (MARKER, conditional.start, ending)
        at = [i for i, line in enumerate(lines) if line == marker]
        if len(at) != 1 or lines[at[0] + 1:at[0] + len(span)] != [ending] * (len(span) - 1):
            raise BranchError("the #if at line %d did not come through the runs unchanged"
                              % conditional.start)
        lines[at[0]:at[0] + len(span)] = source[span[0] - 1:span[-1]]
    return "\n".join(lines)


def merge3(ours: bytes, base: bytes, theirs: bytes) -> bytes:
    """git merge-file of two edits of BASE; BranchError on a conflict."""
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-branches-") as tmp:
        paths = []
        for name, data in (("first", ours), ("base", base), ("second", theirs)):
            (Path(tmp) / name).write_bytes(data)
            paths.append(str(Path(tmp) / name))
        proc = children.run(["git", "merge-file", "-p", "--quiet", *paths],
                            capture_output=True)
    if proc.returncode != 0:
        raise BranchError("the runs of the two branches change the same lines differently"
                          if proc.returncode > 0 else "git merge-file failed: "
                          + proc.stderr.decode(errors="replace").strip())
    return proc.stdout


def _only_in(text: str, found: list[Conditional], first: bool) -> str:
    """The code of the branches one run reads and the other does not."""
    code = c_spans.code_only(text).split("\n")
    return "\n".join("\n".join(code[c.start:c.otherwise - 1] if first else
                               code[c.otherwise:c.end - 1]) for c in found)


def _verdicts(run) -> dict[str, set]:
    """handler -> what the run does with its entries: (True, strategy) or
    (False, reason)."""
    found: dict[str, set] = {}
    for d in run.decisions:
        found.setdefault(d.handler, set()).add((True, d.strategy) if d.convert
                                               else (False, d.reason))
    return found


def _check_agree(runs, text: str, found: list[Conditional]) -> None:
    """Each handler is done alike by both runs, or named nowhere in what
    only the run that leaves it out reads."""
    for run in runs:
        if not run.ok:
            raise BranchError("a run on one branch failed: %s" % run.reason)
        if needs_branch_runs(run.decisions):
            raise BranchError("a branch holds another #if that spatch does not read")
    verdicts = [_verdicts(run) for run in runs]
    for index, mine in enumerate(verdicts):
        other = verdicts[1 - index]
        exclusive = _only_in(text, found, first=index == 1)
        for handler, verdict in mine.items():
            if handler in other and other[handler] != verdict:
                raise BranchError("the branches need different conversions of %s: %s and %s"
                                  % (handler, _said(verdict), _said(other[handler])))
            if handler not in other and re.search(r"\b%s\b" % re.escape(handler), exclusive):
                raise BranchError("%s is named in the other branch, which does not "
                                  "convert it" % handler)


def _said(verdict: set) -> str:
    return " and ".join(sorted(what if done else "left alone (%s)" % what
                               for done, what in verdict))


def branches(data: bytes, names: list[str]) -> tuple[list[str], list[str]]:
    """The lines of DATA in the branches of the conditionals `#ifdef NAME`
    (NAMES): (those of their #if branches, those of their #else branches)."""
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    wanted = {"#ifdef " + name for name in names}
    first: list[str] = []
    second: list[str] = []
    for start, middle, end in conditionals(lines):
        if lines[start - 1].rstrip("\r") in wanted:
            if len(middle) != 1:
                raise BranchError("a run added a branch to the #if it reads")
            first += lines[start:middle[0] - 1]
            second += lines[middle[0]:end - 1]
    return first, second


def projection(data: bytes, names: list[str], first: bool) -> list[str]:
    """DATA as the configuration that reads the #if branches (FIRST) or the
    #else branches of NAMES sees it: the other branches left out."""
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    wanted = {"#ifdef " + name for name in names}
    drop: set[int] = set()
    for start, middle, end in conditionals(lines):
        if lines[start - 1].rstrip("\r") in wanted and len(middle) == 1:
            drop |= set(range(middle[0] + 1, end) if first else range(start + 1, middle[0]))
    return [line for number, line in enumerate(lines, 1) if number not in drop]


def _check_projections(base: bytes, outputs: list[bytes], merged: bytes,
                       names: list[str]) -> None:
    """Each run changed only code its configuration reads, so that the
    merge (BASE with both runs' changes, git merge-file having found no
    two touching the same lines) shows each configuration its own run's
    changes plus the other run's changes to code both read; and no
    configuration of the merge has a file-scope line (a definition, an
    #include) added twice."""
    for index, output in enumerate(outputs):
        unread = 1 - index
        if branches(output, names)[unread] != branches(base, names)[unread]:
            raise BranchError("the run that reads the %s branches changed code in the "
                              "%s ones" % (("#if", "#else")[index], ("#if", "#else")[unread]))
        seen = projection(base, names, index == 0)
        view = projection(merged, names, index == 0)
        # More copies than the run of that configuration wrote itself: a
        # prototype and its definition may share a first line.
        own = projection(output, names, index == 0)
        added = {line for line in view
                 if line not in seen and re.match(r"#\s*include|[A-Za-z_]", line)}
        twice = sorted(line for line in added if view.count(line) > max(1, own.count(line)))
        if twice:
            raise BranchError("the %s branches would get `%s` twice at file scope"
                              % (("#if", "#else")[index], twice[0].strip()))


def convert_branches(file_run, run_variant: Callable[[bytes, list[str]], object]):
    """FILE_RUN with its branch refusals resolved by one run per branch, or
    FILE_RUN with the reason they could not be (run_variant(data, args)
    runs the rule on DATA in place of the file, with ARGS added)."""
    text = file_run.old.decode("utf-8", "surrogateescape")
    try:
        found = branch_conditionals(text, file_run.decisions)
        marked = with_markers(text, found).encode("utf-8", "surrogateescape")
        names = ["%s%d" % (MARKER, c.start) for c in found]
        runs = [run_variant(marked, [flag for name in names for flag in (option, name)])
                for option in ("--defined", "--undefined")]
        _check_agree(runs, text, found)
        merged = merge3(runs[0].new, marked, runs[1].new)
        _check_projections(marked, [run.new for run in runs], merged, names)
        new = without_markers(merged.decode("utf-8", "surrogateescape"), text, found)
    except BranchError as err:
        return _refused(file_run, str(err))
    decisions: dict[tuple, object] = {}
    for d in (d for run in runs for d in run.decisions):
        key = (d.line, d.fops, d.handler)
        if key in decisions:   # an entry both runs read: what either body does
            d = replace(d, uses_inode=d.uses_inode or decisions[key].uses_inode,
                        returns_enoioctlcmd=d.returns_enoioctlcmd
                        or decisions[key].returns_enoioctlcmd)
        decisions[key] = d
    changes = {c: None for run in runs for c in run.changes}
    reasons = [run.reason for run in runs if run.reason]
    return replace(file_run, decisions=tuple(replace(d, file=file_run.file)
                                             for _, d in sorted(decisions.items())),
                   new=new.encode("utf-8", "surrogateescape"),
                   reason=reasons[0] if reasons else None,
                   changes=tuple(replace(c, file=file_run.file) for c in changes))


def _refused(file_run, why: str):
    """FILE_RUN, its branch refusals saying why one run per branch failed."""
    def explained(d):
        if d.convert or not d.reason or not (_HIDDEN.search(d.reason) or _TWICE.search(d.reason)):
            return d
        return replace(d, reason="%s (one run per branch: %s)" % (d.reason, why))
    return replace(file_run, decisions=tuple(explained(d) for d in file_run.decisions))

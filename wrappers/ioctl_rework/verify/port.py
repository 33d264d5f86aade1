"""A port's build (`convert --kdir` against a kernel newer than the
driver): which of the new build's messages the conversion caused.

When KDIR does not build the legacy text at all (a 2.6-era driver on a
current kernel: no .ioctl member, no <linux/smp_lock.h>, a fatal error
that hides the rest), the rewrite lets the compiler get further, and
every message it prints then is new.  Most are the API drift that the
conversion leaves by design.  A new message is not the conversion's,
and keeps it, when it is

  * on a line api_drift lists for the target, which the rewrite did not
    touch; or
  * outside the ioctl path: not in a converted handler, and not in a
    top-level declaration (function, file_operations, mutex) that holds a
    line the rewrite changed;

and in either case names no identifier the rewrite removed from the file.

Anything else (and any message in a file that is not the driver's) is the
conversion's, and puts its files back as the verify stage always does.
"""

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.verify import api_drift
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework import settings
from ioctl_rework.verify.diagnostics import Diagnostic

_QUOTED = re.compile(r"['\u2018](\w+)['\u2019]")
_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


@dataclass(frozen=True)
class Excused:
    """A new message of a port's build that is not the conversion's."""

    diagnostic: Diagnostic
    why: str

    def __str__(self) -> str:
        return f"{self.diagnostic} ({self.why})"


@dataclass(frozen=True)
class PortJudgement:
    caused: tuple[Diagnostic, ...]      # the conversion's: they put its files back
    excused: tuple[Excused, ...]


@dataclass(frozen=True)
class _FileView:
    """One file of the build as the rewrite left it."""

    lines: list[str]
    ioctl_path: frozenset[int]          # 1-based lines
    changed: frozenset[int]
    removed_names: frozenset[str]
    drift: dict[int, api_drift.Finding]


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _view(rel: str, old: bytes, new: bytes, handlers: frozenset[str],
          target: settings.Target) -> _FileView:
    old_text, new_text = _text(old), _text(new)
    old_lines, new_lines = old_text.split("\n"), new_text.split("\n")
    changed: set[int] = set()
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(j1 + 1, j2 + 1))
        elif tag == "delete":
            # Nothing is left of the lines; their neighbours are where they were.
            changed.update(n for n in (j1, j1 + 1) if 1 <= n <= len(new_lines))
    code = c_spans.code_only(new_text)
    path: set[int] = set()
    for line in changed:
        path.update(c_spans.toplevel_span(code, line))
    for handler in handlers:
        for span in c_spans.definition_spans(new_text, handler):
            path.update(span)
    removed = set(_IDENTIFIER.findall(c_spans.code_only(old_text))) - \
        set(_IDENTIFIER.findall(code))
    drift = {f.line: f for f in api_drift.scan_text(new_text, rel, target)}
    return _FileView(new_lines, frozenset(path), frozenset(changed), frozenset(removed), drift)


def judge(new: list[Diagnostic], changes: dict[str, tuple[bytes, bytes]], context_root: Path,
          handlers: frozenset[str], target: settings.Target) -> PortJudgement:
    """Split NEW (the messages a port's new build added) into the
    conversion's and the others.  CHANGES: relpath -> (old, new) of the
    run; HANDLERS: the converted handlers of the files built."""
    views: dict[str, _FileView | None] = {}
    caused, excused = [], []
    for diagnostic in new:
        rel = diagnostic.file
        if rel not in views:
            views[rel] = _load(rel, changes, Path(context_root), handlers, target)
        view = views[rel]
        why = _excuse(diagnostic, view, handlers) if view is not None else None
        if why is None:
            caused.append(diagnostic)
        else:
            excused.append(Excused(diagnostic, why))
    return PortJudgement(tuple(caused), tuple(excused))


def _load(rel: str, changes: dict[str, tuple[bytes, bytes]], context_root: Path,
          handlers: frozenset[str], target: settings.Target) -> _FileView | None:
    if rel in changes:
        old, new = changes[rel]
        return _view(rel, old, new, handlers, target)
    if Path(rel).is_absolute() or rel.startswith(".."):
        return None                     # KDIR's own headers: no line of them is the driver's
    try:
        data = (context_root / rel).read_bytes()
    except OSError:
        return None
    return _view(rel, data, data, handlers, target)


def _excuse(diagnostic: Diagnostic, view: _FileView, handlers: frozenset[str]) -> str | None:
    line = diagnostic.line
    if set(_QUOTED.findall(diagnostic.text)) & view.removed_names:
        return None                     # what the rewrite took away, missed somewhere
    finding = view.drift.get(line)
    if finding is not None and line not in view.changed:
        return (f"API drift: {finding.drift.what}, changed in {finding.drift.changed_in}; "
                f"use {finding.drift.instead}")
    if line <= 0 or line in view.ioctl_path or diagnostic.function in handlers:
        return None
    return "outside the ioctl path"

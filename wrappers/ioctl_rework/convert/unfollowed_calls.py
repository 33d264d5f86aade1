"""Calls through a member named ioctl that the forwarding rule neither
followed nor refused nor listed.

The rule (f_op_ioctl_forwarding.cocci) matches calls through a
file_operations whose type the file declares, by pointer
(`E->f_op->ioctl(...)`, `fops->ioctl(...)`) or by value (`ports[n].ioctl(...)`
of an array the file defines).  A call through another file's fops object
declared in a header the rule does not read (`xd_core_fops.ioctl(...)`,
`ops[1].ioctl(...)`, `(&fops)->ioctl(...)`) is none of those: left on
.ioctl, it calls NULL once the fops it reaches is converted, and every
command it forwards fails.  Each such call the
rule did not report is refused here, as the rule's refusals are, so that
it denies the run (forwarding.denied): no file of it is half-written.

A call proven to go through another structure (ctext/member_types.py:
`gadget->ops->ioctl(...)` of a usb_gadget_ops, read from the headers the
file includes under the run's tree) reaches no .ioctl handler and is none.
"""

import re
from pathlib import Path

from ioctl_rework.convert import accounting
from ioctl_rework.convert.forwarding import Forwarded
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.ctext import ioctl_tokens, member_calls, member_types, spans

_UNREAD = "the forwarding rule could not read the file"
# A call through the member in any spelling (`.ioctl(`, `->ioctl)(`): which texts to read.
_CALL = re.compile(rb"(?:\.|->)\s*ioctl\s*\)?\s*\(")


def may_call(data: bytes) -> bool:
    """Whether DATA may call through a member named ioctl (a prefilter)."""
    return b"ioctl" in data and _CALL.search(data) is not None


def unfollowed(texts: dict[str, tuple[bytes, bytes]], done: Forwarded,
               root: Path | None = None) -> list[HandlerRecord]:
    """The calls of TEXTS (relpath -> (text before the run, after the
    conversion)) through .ioctl that no record of DONE (a call followed,
    refused or listed) explains at their line of the text before the run,
    and that are not proven to go through another structure than a
    file_operations (its declarations read in the file and the headers it
    includes under ROOT, the tree; None: the file alone).
    The text after the conversion is read, the one the forwarding rule
    read, not the one it wrote: the fallback it writes for a target that
    still has .ioctl calls the legacy member on purpose."""
    records = done.refused + done.listed + done.changes
    explained = {(r.file, r.line) for r in records}
    # A conversion may move a call off its line (an initializer split under
    # the lock): a call through a pointer (->ioctl) in a function the rule
    # reported on is the rule's.  One by value (.ioctl), which the rule follows only
    # where the file declares its type, must be explained at its own line.
    reported = {(r.file, r.handler) for r in done.refused + done.listed} | \
        {(c.file, c.where) for c in done.changes}
    unread = {r.file for r in done.refused if r.reason and r.reason.startswith(_UNREAD)}
    found = []
    for rel, (old, current) in sorted(texts.items()):
        if rel in unread:
            continue                   # refused whole already
        converted = _text(current)
        old_line = accounting.line_map(_text(old), converted)
        lines = converted.split("\n")
        declarations = None
        for site in member_calls.calls_through_member(converted):
            line = old_line.get(site.line, site.line)
            if (rel, line) in explained or \
                    "->" in site.member and (rel, site.function) in reported:
                continue
            declarations = declarations or member_types.corpus(root, rel, converted)
            if member_types.other_structures(declarations, site.line):
                continue            # through another structure: it reaches no .ioctl
            found.append(HandlerRecord(
                rel, line, "?", site.function or site.macro or "?", HandlerStatus.FAILED,
                f"a call through .ioctl (`{lines[site.line - 1].strip()}`), which the "
                "forwarding rule does not follow (it follows calls through a "
                "file_operations, by pointer or by value, whose type the file itself "
                "declares; this object's type it cannot tell: declared in a header it does "
                "not read, or reached through a cast or a call): a converted driver it "
                "reaches has no .ioctl; not converted, convert it by hand"))
        found += _contested(rel, converted, old_line, explained, root)
    return found


def _contested(rel: str, converted: str, old_line: dict, explained: set,
               root: Path | None) -> list[HandlerRecord]:
    """The calls through ioctl that the file's text declares of another
    structure (so neither the rule nor the sites above follow them) where
    the compiler may see otherwise (ctext/member_types.contested: a kbuild
    -D renaming the type, a macro call that may declare the object)."""
    if root is None:
        return []
    code = spans.code_only(converted)
    lines = converted.split("\n")
    declarations, found = None, []
    for token in ioctl_tokens.tokens(converted):
        line = old_line.get(token.line, token.line)
        if token.use not in (ioctl_tokens.Use.CALL, ioctl_tokens.Use.READ) or \
                (rel, line) in explained or \
                ioctl_tokens.member_of_file_operations(code, token) is not False:
            continue
        declarations = declarations or member_types.corpus(root, rel, converted)
        if member_types.contested(declarations, token.line):
            found.append(HandlerRecord(
                rel, line, "?", ioctl_tokens.enclosing_function(code, token.line) or "?",
                HandlerStatus.FAILED,
                f"a call through .ioctl (`{lines[token.line - 1].strip()}`) whose object the "
                "file declares of another structure, but a kbuild flag of the file (-D, -U, "
                "-include) or a macro call that may declare the object makes what the compiler "
                "sees unproven: a converted driver it reaches may have no .ioctl; not "
                "converted, convert it by hand"))
    return found


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")

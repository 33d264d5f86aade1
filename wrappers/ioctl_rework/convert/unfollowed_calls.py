"""Calls through a member named ioctl that the forwarding rule neither
followed nor refused nor listed.

The rule (f_op_ioctl_forwarding.cocci) matches calls through a pointer it
knows is a file_operations (`E->f_op->ioctl(...)`, `fops->ioctl(...)`).
A call by value through another file's fops object (`xd_core_fops.ioctl(...)`,
`ops[1].ioctl(...)`) or through a pointer whose type it cannot tell
(`(&fops)->ioctl(...)` of a fops declared in a header it does not read)
is none of those: left on .ioctl, it calls NULL once the fops it reaches
is converted, and every command it forwards fails.  Each such call the
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
from ioctl_rework.ctext import member_calls, member_types

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
    # reported on is the rule's.  One by value (.ioctl) it never follows.
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
                "forwarding rule does not follow "
                "(it follows calls through a pointer to a file_operations, not one by value "
                "or through a pointer of a type it cannot tell): a converted driver it "
                "reaches has no .ioctl; not converted, convert it by hand"))
    return found


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")

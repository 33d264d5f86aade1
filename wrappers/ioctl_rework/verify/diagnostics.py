"""What a kbuild run said about each object: gcc's and sparse's messages,
read from make's output, and which of them a rewrite added.

A rewrite moves lines, so a message is compared without its line and
column: by tool, file, function, severity and text.  Counted are errors
(of either tool), gcc's warnings, and sparse's context-imbalance
messages (a lock taken and not released, or released twice); sparse's
other warnings (address spaces, endianness) say nothing about a
conversion and differ between kernels.
"""

import collections
import re
from dataclasses import dataclass, replace

# kbuild's quiet lines say which command the next messages come from.
_COMMAND = re.compile(r"^\s+(?P<tool>CC|CHECK|CPP)(?: \[M\])?\s+(?P<path>\S+)$")
# Quotes are ASCII under LANG=C, and typographic when a UTF-8 locale gets through.
_IN_FUNCTION = re.compile(r"^(?P<path>[^:\s][^:]*): In function ['\u2018](?P<function>[^'\u2019]+)"
                          r"['\u2019]:$")
_MESSAGE = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>\d+):(?:(?P<column>\d+):)? "
                      r"(?P<severity>fatal error|error|warning): (?P<text>.*)$")
# gcc's notes that say where the macro a message comes out of was used.
_MACRO_NOTE = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>\d+):(?:\d+:)? note: in "
                         r"expansion of macro ")
_CONTEXT = "context imbalance"


@dataclass(frozen=True)
class Diagnostic:
    tool: str               # "gcc" or "sparse"
    file: str               # relative to the scratch tree when it is one of ours
    line: int
    column: int
    function: str           # "" outside a function, and always for sparse
    severity: str           # "error" or "warning" ("fatal error" counts as "error")
    text: str
    # Where the macros the message comes out of were used: (file, line), in
    # gcc's order (the outermost use last); not part of the key.
    expansions: tuple[tuple[str, int], ...] = ()
    fatal: bool = False     # gcc stopped here ("fatal error")

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """What stays the same when the lines around it move."""
        text = re.sub(r"\bline \d+\b", "line N", self.text)
        text = re.sub(r":\d+(:\d+)?\b", ":N", text)
        return (self.tool, self.file, self.function, self.severity, text)

    @property
    def counts(self) -> bool:
        """Whether a new one of these rejects a conversion."""
        return self.severity == "error" or self.tool == "gcc" or _CONTEXT in self.text

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:" + (f"{self.column}:" if self.column else "")
        tool = "sparse: " if self.tool == "sparse" else ""
        return f"{where} {tool}{self.severity}: {self.text}"


def parse(output: str, scratch: str, owner: str | None = None) -> dict[str, list[Diagnostic]]:
    """Source path (relative to SCRATCH) -> the messages of its compile and
    check, from make's output (kbuild quiet mode, LC_ALL=C).  Messages in a
    header are the messages of the file that includes it.  OWNER: the
    source of messages before any kbuild line (one gcc run's output)."""
    prefix = scratch.rstrip("/") + "/"

    def relative(path: str) -> str:
        return path[len(prefix):] if path.startswith(prefix) else path

    found: dict[str, list[Diagnostic]] = {owner: []} if owner is not None else {}
    tool, function = "gcc", ""
    for line in output.splitlines():
        command = _COMMAND.match(line)
        if command:
            source = re.sub(r"\.(o|i)$", ".c", relative(command["path"]))
            owner, tool, function = source, "sparse" if command["tool"] == "CHECK" else "gcc", ""
            found.setdefault(owner, [])
            continue
        context = _IN_FUNCTION.match(line)
        if context:
            function = context["function"]
            continue
        if line.endswith(": At top level:"):
            function = ""
            continue
        note = _MACRO_NOTE.match(line)
        if note and owner is not None and found[owner]:
            last = found[owner][-1]
            found[owner][-1] = replace(last, expansions=last.expansions + (
                (relative(note["path"]), int(note["line"])),))
            continue
        message = _MESSAGE.match(line)
        if message and owner is not None:
            severity = "error" if message["severity"] == "fatal error" else message["severity"]
            found[owner].append(Diagnostic(tool, relative(message["path"]), int(message["line"]),
                                           int(message["column"] or 0),
                                           function if tool == "gcc" else "",
                                           severity, message["text"].strip(),
                                           fatal=message["severity"] == "fatal error"))
    return found


def added(before: list[Diagnostic], after: list[Diagnostic]) -> list[Diagnostic]:
    """The counted messages of AFTER that BEFORE does not have (as many
    times as it has them more often), in AFTER's order."""
    spare = collections.Counter(d.key for d in before)
    new = []
    for diagnostic in after:
        if spare[diagnostic.key]:
            spare[diagnostic.key] -= 1
        elif diagnostic.counts:
            new.append(diagnostic)
    return new


def describe(new: list[Diagnostic]) -> str:
    """The first new message, and how many more there are."""
    more = f" (and {len(new) - 1} more)" if len(new) > 1 else ""
    return f"{new[0]}{more}"

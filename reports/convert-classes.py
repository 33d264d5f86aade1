#!/usr/bin/python3
"""Count, in one whole-tree convert run, the shapes of each section of issue 12.

Reads the run's `--json` summary (decisions, reasons, each file's diff),
the tree it ran on (to read the spelling of each entry line) and the
tree's `audit --format json` (partly parsed files).  Prints markdown rows
of counts only: no code of the tree goes out.

Usage: reports/convert-classes.py SUMMARY.json TREE AUDIT.json
SUMMARY.json may be the audit's JSON itself: its legacy-ioctl findings are
then read as the rule's decisions (auto-* converted, manual skipped, with
their reasons), without diffs, wrapper reasons or the verify stage.
"""

import collections
import json
import re
import sys
from pathlib import Path

# Why auto chose the wrapper, as the rule words it (decide()).
WRAPPER_REASONS = [
    ("1", "a macro that can return", r"can return"),
    ("1", "a return in a macro argument or unseen", r"macro argument|not a statement spatch"),
    ("1", "a statement expression", r"statement expression"),
    ("1", "a computed goto", r"computed goto"),
    ("1", "a macro of a header that was not found", r"which was not found"),
    ("2", "a local or parameter hiding the lock", r"hides the"),
    ("3", "a declaration that calls a function before the lock", r"calls a function before"),
    ("3", "another impure declaration (write, volatile, pointer call)",
     r"before the lock could be taken"),
    ("4", "the first statement inside an #if", r"first statement.*inside"),
    ("6", "a handler that already has the .unlocked_ioctl signature",
     r"already has the \.unlocked_ioctl signature"),
]

# The spelling of an entry, from its line (section 6).
SPELLINGS = [
    ("run-time assignment", r"(->|\.)\s*ioctl\s*=\s*[^,]*;"),
    ("named through a macro call", r"ioctl\s*[=:]\s*\w+\s*\("),
    ("address of the handler", r"ioctl\s*[=:]\s*&"),
    ("cast of the handler", r"ioctl\s*[=:]\s*\("),
    ("GNU `ioctl:`", r"\bioctl\s*:"),
    ("C99 `.ioctl =`", r"\.\s*ioctl\s*="),
]
CONDITIONAL = re.compile(r"\s*#\s*(if|ifdef|ifndef|else|elif|endif)\b")


def spelling(line: str) -> str:
    for name, pattern in SPELLINGS:
        if re.search(pattern, line):
            return name
    return "positional or other"


def in_conditional(lines: list[str], number: int) -> bool:
    """Whether LINE NUMBER is inside an #if of the file."""
    depth = 0
    for text in lines[:number - 1]:
        match = CONDITIONAL.match(text)
        if match and match.group(1) in ("if", "ifdef", "ifndef"):
            depth += 1
        elif match and match.group(1) == "endif":
            depth = max(0, depth - 1)
    return depth > 0


def added(diff: str, pattern: str) -> int:
    return len(re.findall(r"^\+(?!\+\+)" + pattern, diff, re.MULTILINE))


def from_audit(tree: dict) -> dict:
    """An audit's legacy-ioctl findings in the shape of a convert summary."""
    status = {"auto-pushdown": "converted", "auto-wrapper": "converted",
              "auto-remove": "removed", "manual": "skipped"}
    handlers = [{"file": f["file"], "line": f["line"], "fops": f["struct"],
                 "handler": f["handler"], "status": status[f["effort"]],
                 "strategy": f["effort"].removeprefix("auto-"), "reason": f["reason"],
                 "uses_inode": False}
                for f in tree["findings"] if f["kind"] == "legacy-ioctl"]
    return {"handlers": handlers, "files": [], "totals": {}}


def main() -> int:
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().split("\n\n")[2])
    summary = json.loads(Path(sys.argv[1]).read_text())
    if "trees" in summary:
        summary = from_audit(summary["trees"][0])
    tree = Path(sys.argv[2])
    audit = json.loads(Path(sys.argv[3]).read_text())["trees"][0]
    handlers = summary["handlers"]
    rows = []

    def row(section, what, count):
        rows.append((section, what, count))

    converted = [h for h in handlers if h["status"] == "converted"]
    wrapped = [h for h in converted if h["strategy"] == "wrapper"]
    for section, what, pattern in WRAPPER_REASONS:
        row(section, f"wrapper chosen: {what}",
            sum(1 for h in wrapped if re.search(pattern, h["reason"] or "")))
    refused = [h for h in handlers if h["status"] != "converted"]
    row("1", "pushdown refused for a hidden exit",
        sum(1 for h in refused if "pushdown is not safe" in (h["reason"] or "")))

    diffs = "\n".join(f["diff"] or "" for f in summary["files"])
    # The temporary is an int: the value the legacy int handler returned.
    row("2", "fresh `int ret` added (no usable ret)", added(diffs, r"\s+int ret;$"))
    row("2", "fresh int with another name (ret taken or unfit)",
        added(diffs, r"\s+int (?!ret;)\w+;$"))
    row("2", "`return (int)x` for an unsigned value", added(diffs, r".*return \(int\)"))
    row("4", "converted handlers that use the inode (derived local)",
        sum(1 for h in converted if h["uses_inode"]))

    texts: dict[str, list[str]] = {}

    def lines_of(rel: str) -> list[str]:
        if rel not in texts:
            texts[rel] = (tree / rel).read_text(errors="replace").split("\n")
        return texts[rel]

    spellings = collections.Counter()
    conditional = collections.Counter()
    for h in handlers:
        lines = lines_of(h["file"])
        spellings[spelling(lines[h["line"] - 1]), h["status"]] += 1
        if in_conditional(lines, h["line"]):
            conditional[h["status"]] += 1
        if "[" in h["fops"]:
            spellings["element of an array of fops", h["status"]] += 1
    for (name, status), count in sorted(spellings.items()):
        row("6", f"entry spelled: {name}, {status}", count)
    for status, count in sorted(conditional.items()):
        row("6", f"entry inside an #if of its file, {status}", count)
    row("6", "refused: defined twice (#ifdef/#else)",
        sum(1 for h in refused if "defined twice" in (h["reason"] or "")))
    row("6", "refused: in a preprocessor branch spatch does not read",
        sum(1 for h in refused if "which spatch does not read" in (h["reason"] or "")))
    for kind, count in sorted(summary["totals"].get("changes", {}).items()):
        row("6", f"other change: {kind}", count)
    row("6", "wrapper given a free name (NAME_unlocked_ioctlN)",
        added(diffs, r".*\w_unlocked_ioctl\d+\(struct file"))

    crlf = [f for f in summary["files"] if f["status"] == "converted"
            and "\r" in "\n".join(lines_of(f["file"]))]
    row("7", "rewritten files with CRLF line ends", len(crlf))

    partial = [s for s in audit["skipped"] if s.get("partial")]
    row("9", f"candidate files partly parsed (of {audit['stats']['candidates']})", len(partial))

    print("| section | shape | count |\n| --- | --- | --- |")
    for section, what, count in rows:
        print(f"| {section} | {what} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

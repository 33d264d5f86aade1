#!/usr/bin/python3
"""How much of a tree's candidate files spatch parses, before and after a change.

Reads two `ioctl-rework audit --format json` runs of the same tree (the
audit lists every candidate file spatch parsed only in part, with the lines
where its parser gave up) and the tree itself, to tell where each such line
is: in the body of a #define (which no --macro-file hint can reach: spatch
expands nothing inside a #define) or in code.  Prints markdown: the counts,
then one row per file still partly parsed.  Only paths, line numbers and
macro names go out, never the tree's code.

Usage: reports/parse-coverage.py TITLE TREE BEFORE.json AFTER.json [NOTES]
NOTES, if given, has lines `PATH: reason`, the reason a file's code (not
its #defines) cannot be parsed, read by hand.
"""

import json
import re
import sys
from pathlib import Path

_DEFINE = re.compile(r"\s*#\s*define\s+(\w+)")


def partly_parsed(audit_json: Path) -> tuple[int, dict[str, list[int]]]:
    """The candidate count and {file: lines spatch could not parse}."""
    tree = json.loads(audit_json.read_text())["trees"][0]
    files = {s["file"]: [int(n) for n in re.findall(r"\d+", s["reason"].split("line", 1)[1])]
             for s in tree["skipped"] if s.get("partial")}
    return tree["stats"]["candidates"], files


def defines(text: str) -> dict[int, tuple[int, str]]:
    """{line: (first line, name)} for every line of a #define (1-based)."""
    found, lines, i = {}, text.split("\n"), 0
    while i < len(lines):
        match = _DEFINE.match(lines[i])
        if match:
            start = i
            while lines[i].rstrip("\r").endswith("\\") and i + 1 < len(lines):
                i += 1
            for n in range(start, i + 1):
                found[n + 1] = (start + 1, match.group(1))
        i += 1
    return found


def where(tree: Path, file: str, numbers: list[int]) -> tuple[list[str], list[int]]:
    """The macros whose #define holds some of NUMBERS, and the other lines."""
    inside = defines((tree / file).read_text(errors="replace"))
    names = sorted({f"{inside[n][1]} (line {inside[n][0]})" for n in numbers if n in inside})
    return names, [n for n in numbers if n not in inside]


def main() -> int:
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.strip().split("\n\n")[2])
    title, tree = sys.argv[1], Path(sys.argv[2])
    before_count, before = partly_parsed(Path(sys.argv[3]))
    after_count, after = partly_parsed(Path(sys.argv[4]))
    notes = {}
    if len(sys.argv) == 6:
        for line in Path(sys.argv[5]).read_text().splitlines():
            if ": " in line:
                path, reason = line.split(": ", 1)
                notes[path.strip()] = reason.strip()

    def code_files(files):
        return [f for f, numbers in files.items() if where(tree, f, numbers)[1]]

    def share(n, total):
        return f"{n} of {total} ({100 * n / total:.1f}%)"

    lines = [f"## {title}", "",
             "| candidate files partly parsed | before | after |", "| --- | --- | --- |",
             f"| any line | {share(len(before), before_count)} | "
             f"{share(len(after), after_count)} |",
             f"| a line of code (not of a #define) | {share(len(code_files(before)), before_count)}"
             f" | {share(len(code_files(after)), after_count)} |", ""]
    fixed = sorted(set(before) - set(after))
    worse = sorted(f for f in after if f not in before)
    lines += [f"Parsed whole now: {len(fixed)}" + (": " + ", ".join(f"`{f}`" for f in fixed)
                                                   if fixed else "."),
              f"Partly parsed now, not before: {len(worse)}"
              + (": " + ", ".join(f"`{f}`" for f in worse) if worse else "."), "",
              "| file | #define bodies spatch cannot parse | code it cannot parse |",
              "| --- | --- | --- |"]
    for file in sorted(after):
        names, code = where(tree, file, after[file])
        text = ""
        if code:
            text = "line " + ", ".join(map(str, code)) + (f": {notes[file]}" if file in notes
                                                          else "")
        lines.append(f"| `{file}` | {', '.join(names) or '-'} | {text or '-'} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

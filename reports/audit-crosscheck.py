#!/usr/bin/python3
"""Cross-check the audit's legacy-ioctl findings against a grep of initializers.

Independent of spatch and of the audit's prefilter: every line of a .c/.h
file that sets `.ioctl = NAME` (or the GNU `ioctl: NAME`) is walked
backwards, counting braces, to the `{` that opens its initializer; the
entry counts when the text before that brace declares a
`struct file_operations`.  The resulting (file, handler) pairs are
compared with the audit's JSON report.

Usage: reports/audit-crosscheck.py TREE AUDIT.json
Prints the two sets' sizes and every pair found by only one side.
"""

import json
import re
import sys
from pathlib import Path

ENTRY = re.compile(r"^\s*(?:\.\s*ioctl\s*=|ioctl\s*:)\s*(\w+)")
FOPS = re.compile(r"struct\s+file_operations\b")


def enclosing_header(lines: list[str], index: int) -> str:
    """The text just before the brace that opens the initializer of line INDEX."""
    depth = 0
    for number in range(index, -1, -1):
        line = lines[number] if number != index else ""
        for position in range(len(line) - 1, -1, -1):
            if line[position] == "}":
                depth += 1
            elif line[position] == "{":
                if depth == 0:
                    # The declaration may start a line or two above the brace
                    # (`static struct` / `file_operations foo = {`).
                    return " ".join(lines[max(0, number - 2):number] + [line[:position]])
                depth -= 1
    return ""


def grep_pairs(tree: Path) -> set[tuple[str, str]]:
    pairs = set()
    for path in sorted(tree.rglob("*.[ch]")):
        if path.is_symlink():
            continue
        lines = path.read_text(errors="replace").splitlines()
        for index, line in enumerate(lines):
            match = ENTRY.match(line)
            if match and FOPS.search(enclosing_header(lines, index)):
                pairs.add((path.relative_to(tree).as_posix(), match.group(1)))
    return pairs


def audit_pairs(report: Path) -> set[tuple[str, str]]:
    value = json.loads(report.read_text())
    return {(f["file"], f["handler"]) for tree in value["trees"] for f in tree["findings"]
            if f["kind"] == "legacy-ioctl"}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    grep, audit = grep_pairs(Path(argv[1])), audit_pairs(Path(argv[2]))
    print(f"grep of initializers: {len(grep)} (file, handler) pairs")
    print(f"audit legacy-ioctl:   {len(audit)} pairs; in both: {len(grep & audit)}")
    for file, handler in sorted(grep - audit):
        print(f"only grep:  {file} {handler}")
    for file, handler in sorted(audit - grep):
        print(f"only audit: {file} {handler}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

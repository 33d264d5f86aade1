#!/usr/bin/python3
"""Run the compat classifier where upstream already decided, as a markdown report.

Upstream's choice is the reference: every file_operations initializer of
TREE that sets `.compat_ioctl = compat_ptr_ioctl` (upstream: compat-ptr) or
`.compat_ioctl` to its own `.unlocked_ioctl` handler (upstream:
same-handler).  The classifier runs on those files; the report gives the
agreement rate and every disagreement with the classifier's reason.  Only
paths, counts and reasons go into the report, never the tree's code.

Usage: reports/compat-eval.py TREE [NOTE.md] > reports/compat-linux-6.1.md
NOTE.md, if given, is inserted after the totals (how each kind of
disagreement was judged).
"""

import collections
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wrappers"))

from ioctl_rework import compat
from ioctl_rework.audit import scan as audit
from ioctl_rework.spatch import runner as spatch  # noqa: E402
from ioctl_rework.cache import Cache, default_directory  # noqa: E402

_UNLOCKED = re.compile(rb"\.unlocked_ioctl\s*=\s*&?\s*(\w+)")
_COMPAT = re.compile(rb"\.compat_ioctl\s*=\s*&?\s*(\w+)")
_FOPS = re.compile(rb"(?<!\w)file_operations\s+(\w+)\s*(?:\[[^\]]*\])?\s*=\s*\{")


def upstream_choices(tree: Path) -> list[tuple[str, str, str, str]]:
    """(file, fops, handler, upstream class) for every initializer that
    chose compat_ptr_ioctl or the same handler."""
    found = []
    for path, _ in spatch.source_files([tree]):
        path = Path(path)
        if path.suffix != ".c":
            continue
        data = path.read_bytes()
        if b"compat_ioctl" not in data:
            continue
        for match in _FOPS.finditer(data):
            body = audit.fops_initializers(data[match.start():])[0]
            unlocked, compat_entry = _UNLOCKED.search(body), _COMPAT.search(body)
            if not unlocked or not compat_entry:
                continue
            handler, chosen = unlocked.group(1).decode(), compat_entry.group(1).decode()
            if chosen == "compat_ptr_ioctl":
                upstream = "compat-ptr"
            elif chosen == handler:
                upstream = "same-handler"
            else:
                continue
            found.append((path.relative_to(tree).as_posix(), match.group(1).decode(),
                          handler, upstream))
    return found


def reason_kind(text: str) -> str:
    """A reason without its names and line numbers, for counting alike ones."""
    text = re.sub(r"line \d+", "line N", text)
    text = re.sub(r"^\w+ is passed to (_IOC_\w+|_SIOC_\w+)\(\) .*",
                  r"cmd is decoded with \1() outside a switch on it", text)
    text = re.sub(r"^(\w+) is passed to \w+( -> \w+)+\(\)", "it is passed to a function pointer",
                  text)
    text = re.sub(r"^\([^)]*\)\w+ is passed to", "a cast of arg is passed to", text)
    text = re.sub(r"\b(?!_S?IOC_)[A-Za-z_]\w*\(\)", "F()", text)
    text = re.sub(r"^\S+ could not be probed", "X could not be probed", text)
    text = re.sub(r"command \S+ could not be probed: .*", "a command could not be probed", text)
    text = re.sub(r"^(struct|union) \S+ \(line N\) could not be probed: .*",
                  "a type could not be probed", text)
    text = re.sub(r"^\w+ is passed to", "it is passed to", text)
    text = re.sub(r"^\w+ is a pointer", "arg is a pointer", text)
    return text


def main() -> int:
    tree = Path(sys.argv[1]).resolve()
    note = Path(sys.argv[2]).read_text() if len(sys.argv) > 2 else ""
    start = time.monotonic()
    choices = upstream_choices(tree)
    files = sorted({file for file, _, _, _ in choices})
    results = compat.classify_files([tree / f for f in files], tree=tree,
                                    cache=Cache(default_directory(), "audit"))
    ours = {(Path(r.file).relative_to(tree).as_posix(), r.handler): r for r in results}
    rows, agree = [], 0
    by_pair = collections.Counter()
    kinds = collections.Counter()
    for file, fops, handler, upstream in choices:
        result = ours.get((file, handler))
        mine = result.compat_class.value if result else "unknown"
        why = (result.describe().split(": ", 1)[1] if result and ": " in result.describe()
               else "no definition with cmd and arg parameters in this file")
        by_pair[(upstream, mine)] += 1
        if mine == upstream:
            agree += 1
            continue
        kinds[(upstream, mine, reason_kind(why) if mine == "unknown" else mine)] += 1
        rows.append((file, fops, handler, upstream, mine, why))
    total = len(choices)
    lines = [f"# Compat classifier against upstream: linux {audit._tree_version(tree)}", "",
             f"{total} `file_operations` in {len(files)} files set `.compat_ioctl` to "
             "`compat_ptr_ioctl` or to their own `.unlocked_ioctl`; the classifier "
             f"agrees with upstream on **{agree} of {total}** "
             f"({100.0 * agree / max(1, total):.0f}%). "
             f"Run time {time.monotonic() - start:.0f} s (reports/compat-eval.py).", "",
             "| upstream | ours | count |", "|---|---|---:|"]
    lines += [f"| {u} | {m} | {n} |" for (u, m), n in sorted(by_pair.items())]
    lines += ["", "Disagreements by kind of reason:", "", "| upstream | ours | reason | count |",
              "|---|---|---|---:|"]
    lines += [f"| {u} | {m} | {k} | {n} |" for (u, m, k), n in
              sorted(kinds.items(), key=lambda item: -item[1])]
    if note:
        lines += ["", note.rstrip()]
    lines += ["", "## Every disagreement", "", "| file | fops | upstream | ours | reason |",
              "|---|---|---|---|---|"]
    for file, fops, handler, upstream, mine, why in sorted(rows):
        lines.append(f"| {file} | {fops} | {upstream} | {mine} | "
                     f"{why.replace('|', '/')} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The audit on trees of every era, checked against counts made without it (issue 24, Measure).

For each TREE and the JSON of `ioctl-rework audit --format json TREE`:
- legacy-ioctl recall against an independent count: every `.ioctl =` or
  `ioctl:` in the .c/.h files, comments and `#if 0` blocks removed, whose
  initializer (or, for an array element, the initializer around it) is
  declared `struct file_operations`, or is a `.fops = { ... }` embedded
  in another structure.  The count uses no code of the audit, of spatch or
  of the candidates prefilter; each pair it finds that the audit does not
  is listed with its explanation (EXPLAINED below, written after reading
  the code; a miss without one is printed as unexplained).
- missing-compat findings the tree's own compat table contradicts: a
  finding whose every case label (read from the handler's body by text)
  the table names (COMPATIBLE_IOCTL, ULONG_IOCTL, HANDLE_IOCTL in
  fs/compat_ioctl.c, include/linux/compat_ioctl.h, the x86 ioctl32 tables,
  register_ioctl32_conversion calls anywhere, and the cases of
  compat_sys_ioctl itself, which 6.1 still has), matched by name, not by
  number as the audit does, and which is neither `translated` nor
  `needs-translation` by that table.
- compat classes decided vs unknown, the unknown ones grouped by reason.
Only paths, counts and reasons go into the report, never a tree's code.

Usage: reports/audit-era.py [--runs=TEXT] NAME=TREE=AUDIT.json [...] > reports/audit-era.md
NAME is how the report calls the tree (its directory name); TEXT says how
the runs were made (the commit, the machine).
"""

import collections
import importlib.util
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_reason_kind = _script("compat-eval").reason_kind


def reason_kind(text: str) -> str:
    """compat-eval's kinds, and the names of this report's reasons taken out."""
    text = re.sub(r"^the compat table cannot be read for it: ", "", text)
    text = re.sub(r"^no definition of \w+ ", "no definition of the handler ", text)
    text = re.sub(r"^a pointer set from \w+ ", "a pointer set from arg ", text)
    text = re.sub(r"^[\w ]+ \(line \d+\) could not be probed: .*", "a type could not be probed",
                  text)
    return _reason_kind(text)

# Where the trees come from, as the report says it.
ORIGIN = {
    "linux-2.6.9": "the unmodified 2.6.9 release tree (as in audit-linux-2.6.9.md)",
    "linux-2.6.20": "upstream 2.6.20 from a public mirror, plus a study author's notes and kvm "
                    "edits (not a pristine release; the counts are of this tree as it is)",
    "linux-6.1": "Debian's linux-source-6.1 package",
}
# Misses of the independent count, read by hand: (tree, file, handler) -> why.
EXPLAINED: dict[tuple[str, str, str], str] = {
    ("linux-2.6.9", "drivers/char/drm/drm_drv.h", "DRM(ioctl)"):
        "the DRM template header: the fops' own name is a macro call too "
        "(`struct file_operations DRM(fops) = {`), which spatch does not take for a "
        "declaration, so the audit sees no initializer there (nor lists the file as partly "
        "parsed); the drivers that expand the template by hand (i810_dma.c, i830_dma.c) are "
        "found",
}
# What the unknown classes of a tree come down to, read by hand.
NOTES = {
    "linux-2.6.9": [
        "2.6.9 has no `.unlocked_ioctl` (2.6.11 brought it), so no missing-compat finding; "
        "the compat table is read only for a tree with one.",
    ],
    "linux-6.1": [
        "6.1 has no generic compat table any more (the last went in 5.x): every finding says "
        "so, and the 8 commands compat_sys_ioctl handles itself are named by no handler's case "
        "labels alone.  How often the decided classes agree with what upstream chose for the "
        "same drivers is measured in compat-linux-6.1.md.",
        "No definition of the handler in the file (16): the handler is defined in another "
        "file than its fops (cifs, dvb-core's `dvb_generic_ioctl`, hfsplus, jffs2, udf: the "
        "classifier reads one file at a time), or spatch gave up on the file before the "
        "handler (`drivers/char/pcmcia/cm4000_cs.c`, a parse error the audit lists).",
    ],
    "linux-2.6.20": [
        "`drivers/input/misc/uinput.c`: its 16 `UI_*` commands could not be probed: 2.6.20's "
        "`<linux/uinput.h>` uses `struct ff_effect` without including `<linux/input.h>` (a "
        "program includes that first), so it does not compile alone and the probe leaves it "
        "out (with gcc's words in the finding).  The handler would be unknown anyway: arg goes "
        "to `uinput_set_bit()`, which is not followed.  No `UI_*` command is in the table by "
        "name either.",
        "`fs/gfs2/ops_file.c` (two fops, one handler): `FS_IOC_GETFLAGS`/`FS_IOC_SETFLAGS` come "
        "from 2.6.20's `<linux/fs.h>`, which does not compile for userspace as the probe "
        "includes it (`field 'le_list' has incomplete type`).  Neither is in the table by name, "
        "so the finding would be right with its number; unknown is the default-deny answer "
        "when the number cannot be had.",
        "`sound/core/info.c`: cmd goes on through a function pointer "
        "(`entry->c.ops->ioctl`): whose commands nobody can tell from this file.",
    ],
}
# Misses explained by their shape, read from the count's own record.
SHAPES = {
    "macro": "the handler is named through a macro call (the DRM templates' `DRM(ioctl)`); "
             "no C matcher follows it without expanding the macro",
    "embedded": "a file_operations embedded in another structure (`.fops = { ... }`): issue "
                "24 section 2, another helper's part",
}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
_ENTRY = re.compile(r"(?:\.\s*ioctl\s*=|(?<![\w.>])ioctl\s*:)\s*([^,}]+?)\s*(?=[,}])")
_FOPS = re.compile(r"struct\s+file_operations\b")
_EMBEDDED = re.compile(r"\.\s*fops\s*=\s*$")
_CASE = re.compile(r"\bcase\s+([A-Za-z_]\w*)\s*:")
_TABLE_ENTRY = re.compile(r"\b(?:COMPATIBLE_IOCTL|ULONG_IOCTL|HANDLE_IOCTL)\s*\(\s*(\w+)")
_REGISTERED = re.compile(r"\bregister_ioctl32_conversion\s*\(\s*(\w+)")
_TABLE_FILES = ("fs/compat_ioctl.c", "include/linux/compat_ioctl.h",
                "arch/x86_64/ia32/ia32_ioctl.c", "arch/x86_64/kernel/ioctl32.c",
                "arch/x86/ia32/ia32_ioctl.c", "arch/x86/kernel/ioctl32.c")
DECIDED = ("same-handler", "compat-ptr", "needs-translation", "translated")


def compiled_text(text: str) -> str:
    """TEXT without comments and `#if 0` blocks, line breaks kept."""
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out, dead = [], []          # dead: per open #if, whether its branch is dead
    for line in text.split("\n"):
        directive = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
        if directive:
            word, rest = directive.groups()
            outer = any(dead[:-1]) if word in ("elif", "else", "endif") else any(dead)
            if word in ("if", "ifdef", "ifndef"):
                dead.append(word == "if" and rest.strip() == "0")
            elif word in ("else", "elif") and dead:
                dead[-1] = not dead[-1] if word == "else" and dead[-1] else False
            elif word == "endif" and dead:
                dead.pop()
            out.append("" if outer else line)
            continue
        out.append("" if any(dead) else line)
    return "\n".join(out)


def _opening_brace(text: str, at: int) -> int:
    depth = 0
    for index in range(at, -1, -1):
        if text[index] == "}":
            depth += 1
        elif text[index] == "{":
            if depth == 0:
                return index
            depth -= 1
    return -1


def _owner(text: str, at: int) -> str | None:
    """'fops' or 'embedded' when the initializer around AT is a
    file_operations (for an array element: the one around it); None
    otherwise."""
    brace = _opening_brace(text, at)
    while brace > 0:
        before = text[max(0, brace - 300):brace].rstrip()
        if _EMBEDDED.search(before):
            return "embedded"
        if before.endswith(("{", ",")):         # an element of an array
            brace = _opening_brace(text, brace - 1)
            continue
        statement = re.split(r"[;{}]", before)[-1]
        return "fops" if _FOPS.search(statement) else None
    return None


def independent_entries(tree: Path) -> dict[tuple[str, str], str]:
    """(file, handler) -> 'fops', 'embedded' or 'macro', for every legacy
    entry in compiled code."""
    found = {}
    for path in sorted(tree.rglob("*.[ch]")):
        if path.is_symlink() or not path.is_file():
            continue
        raw = path.read_text(errors="replace")
        if "ioctl" not in raw:
            continue
        text = compiled_text(raw)
        for match in _ENTRY.finditer(text):
            owner = _owner(text, match.start())
            if owner is None:
                continue
            value = " ".join(match.group(1).split())
            name = re.fullmatch(r"[(&\s]*(\w+)[)\s]*", value)
            rel = path.relative_to(tree).as_posix()
            if name:
                found[rel, name.group(1)] = owner
            else:
                found[rel, value] = "macro"
    return found


def _body(text: str, opening: re.Pattern) -> str:
    match = opening.search(text)
    if not match:
        return ""
    depth = 0
    for index in range(match.end() - 1, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[match.end() - 1:index]
    return ""


_COMPAT_SYSCALL = re.compile(r"(?:\bcompat_sys_ioctl\s*\([^;{]*\)|"
                             r"\bCOMPAT_SYSCALL_DEFINE3\s*\(\s*ioctl\b[^;{]*\))\s*\{")


def table_names(tree: Path) -> set[str]:
    """The commands the tree serves for a 32-bit caller before any driver
    sees them: its tables' entries, and the cases of compat_sys_ioctl itself."""
    names = set()
    for rel in ("fs/ioctl.c", "fs/compat_ioctl.c", "fs/compat.c"):
        if (tree / rel).is_file():
            body = _body(compiled_text((tree / rel).read_text(errors="replace")), _COMPAT_SYSCALL)
            names |= set(_CASE.findall(body))
    for rel in _TABLE_FILES:
        if (tree / rel).is_file():
            names |= set(_TABLE_ENTRY.findall(compiled_text((tree / rel).read_text(errors="replace"))))
    if (tree / "fs/compat.c").is_file() and "register_ioctl32_conversion" in \
            (tree / "fs/compat.c").read_text(errors="replace"):
        for path in tree.rglob("*.c"):
            text = path.read_text(errors="replace")
            if "register_ioctl32_conversion" in text:
                names |= set(_REGISTERED.findall(compiled_text(text)))
    return names


def case_labels(tree: Path, file: str, handler: str) -> set[str]:
    text = compiled_text((tree / file).read_text(errors="replace"))
    match = re.search(rf"\b{re.escape(handler)}\s*\([^;{{)]*\)\s*\{{", text)
    if not match:
        return set()
    brace, depth = match.end() - 1, 0
    for index in range(brace, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return set(_CASE.findall(text[brace:index]))
    return set()


def report(name: str, tree: Path, audit_json: Path) -> tuple[list[str], str]:
    value = json.loads(audit_json.read_text())["trees"][0]
    findings = value["findings"]
    lines = [f"## {name} ({value['version']})", "",
             f"{ORIGIN.get(name, 'a kernel tree')}.  Audit: {value['stats']['candidates']} "
             f"candidate files, {len(findings)} findings, {value['stats']['seconds']:.0f} s "
             "(whole tree, cold cache, jobs 2, on the loaded shared machine).", ""]
    # Recall.
    mine = independent_entries(tree)
    audited = {(f["file"], f["handler"]) for f in findings if f["kind"] == "legacy-ioctl"}
    both = set(mine) & audited
    lines += ["### legacy-ioctl recall", "",
              f"- independent count: {len(mine)} (file, handler) pairs in compiled code "
              f"({sum(v == 'fops' for v in mine.values())} in a `struct file_operations`, "
              f"{sum(v == 'embedded' for v in mine.values())} embedded, "
              f"{sum(v == 'macro' for v in mine.values())} named through a macro)",
              f"- audit: {len(audited)} pairs; in both: {len(both)}; **recall "
              f"{100 * len(both) / len(mine) if mine else 100:.1f}%**", ""]
    misses = sorted(set(mine) - audited)
    for file, handler in misses:
        why = EXPLAINED.get((name, file, handler)) or SHAPES.get(mine[file, handler]) \
            or "UNEXPLAINED"
        lines.append(f"- missed: `{file}` {handler}: {why}")
    extra = sorted(audited - set(mine))
    for file, handler in extra:
        why = EXPLAINED.get((name, file, handler), "UNEXPLAINED")
        lines.append(f"- audit only: `{file}` {handler}: {why}")
    if misses or extra:
        lines.append("")
    # Contradictions.
    names = table_names(tree)
    missing = [f for f in findings if f["kind"] == "missing-compat"]
    contradicted = []
    for finding in missing:
        labels = case_labels(tree, finding["file"], finding["handler"])
        if labels and labels <= names and finding.get("compat_class") not in (
                "translated", "needs-translation"):
            contradicted.append((finding, labels))
    lines += ["### missing-compat findings the tree's own table contradicts", "",
              f"- the table (and compat_sys_ioctl's own cases) names {len(names)} commands; {value['stats'].get('passed_by_table', 0)}"
              f" handler(s) no finding: it passes every command they handle",
              f"- {len(missing)} missing-compat findings; contradicted by the table (every case "
              f"label named in it, by name): **{len(contradicted)}**", ""]
    for finding, labels in contradicted:
        lines.append(f"- `{finding['file']}` {finding['handler']}: {finding.get('compat_class')}"
                     f" ({', '.join(sorted(labels))}): {finding.get('compat_detail')}")
    # Classes.
    classes = collections.Counter(f.get("compat_class") for f in missing)
    decided = sum(classes[c] for c in DECIDED)
    lines += ["", "### compat classes", "",
              f"- decided {decided}, unknown {classes['unknown']} (of {len(missing)})"
              + "".join(f"; {c} {classes[c]}" for c in DECIDED if classes[c]), ""]
    reasons = collections.Counter(reason_kind(f["compat_detail"] or "") for f in missing
                                  if f.get("compat_class") == "unknown")
    if reasons:
        lines += ["| unknown because | count |", "|---|---:|"]
        lines += [f"| {why} | {count} |" for why, count in reasons.most_common()]
        lines.append("")
    lines += [f"- {note}" for note in NOTES.get(name, ())]
    row = (f"| {name} | {100 * len(both) / len(mine) if mine else 100:.1f}% "
           f"({len(both)}/{len(mine)}) | {len(contradicted)} of {len(missing)} | {decided} | "
           f"{classes['unknown']} |")
    return lines + ([""] if name in NOTES else []), row


def main(argv: list[str]) -> int:
    runs = [arg.split("=", 1)[1] for arg in argv if arg.startswith("--runs=")]
    argv = [arg for arg in argv if not arg.startswith("--runs=")]
    if not argv or any(arg.count("=") != 2 for arg in argv):
        print(__doc__, file=sys.stderr)
        return 2
    lines = ["# The audit on three kernel eras", "",
             "Made by `reports/audit-era.py` from whole-tree runs of `ioctl-rework audit "
             "--format json` (the JSON stays outside the repository); paths, counts and "
             "reasons only." + (" " + runs[0] if runs else ""), ""]
    sections, rows = [], []
    for arg in argv:
        name, tree, audit_json = arg.split("=")
        section, row = report(name, Path(tree), Path(audit_json))
        sections += section
        rows.append(row)
    lines += ["| tree | legacy-ioctl recall | missing-compat contradicted by the table | "
              "classes decided | unknown |", "|---|---|---|---|---|", *rows, "", *sections]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

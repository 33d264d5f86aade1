"""Every legacy entry of a file is listed, whether the rule read it or not.

The conversion rule reports the entries spatch matches.  The shared
finder (ctext.ioctl_tokens.legacy_entries) reads the same file as text and
sees every spelling: a fops embedded in another structure, a compound
literal, a device table, a parenthesised handler, split tokens, code
spatch could not parse.  An entry the rule did not report is listed as a
manual legacy-ioctl finding with its spelling as the reason, never
dropped; an entry whose handler the text does not name is listed as
partly parsed, with its line, and so is the use of a macro of the file
whose body holds an entry (ioctl_tokens.macro_entries).  One entry written over several lines is
one finding, however many of its lines the rule reported.
"""

from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework.audit.findings import Effort, Finding, Kind, SkippedFile
from ioctl_rework.ctext import ioctl_tokens


@dataclass
class Merged:
    findings: list[Finding]
    partly: list[SkippedFile] = field(default_factory=list)


def merge(findings: list[Finding], files: dict[str, Path]) -> Merged:
    """FINDINGS (the rules', files as shown) with the entries of FILES
    (shown name -> path to read) the rule did not report."""
    merged = Merged([f for f in findings if f.kind is not Kind.LEGACY_IOCTL or f.file not in files])
    legacy = [f for f in findings if f.kind is Kind.LEGACY_IOCTL and f.file in files]
    for shown, path in sorted(files.items()):
        try:
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
        except OSError:
            merged.findings += [f for f in legacy if f.file == shown]
            continue
        mine = [f for f in legacy if f.file == shown]
        kept, added, partly = _merge_file(shown, text, mine)
        merged.findings += kept + added
        merged.partly += partly
    merged.findings.sort(key=lambda f: (f.file, f.line, f.kind.value))
    return merged


def _merge_file(shown: str, text: str, reported: list[Finding]
                ) -> tuple[list[Finding], list[Finding], list[SkippedFile]]:
    dropped, added, partly = set(), [], []
    for entry in ioctl_tokens.legacy_entries(text):
        said = [f for f in reported if f.line in entry.lines
                and (entry.handler is None or f.handler == entry.handler)]
        if said:
            # The rule read one entry twice (`. ioctl` + newline + `=`): once.
            first = min(said, key=lambda f: f.line)
            dropped |= {id(f) for f in said if f is not first and
                        (f.struct, f.handler) == (first.struct, first.handler)}
            continue
        spelling = ioctl_tokens.spelling(entry)
        if entry.handler is None and entry.value not in ("NULL", "0"):
            partly.append(SkippedFile(shown, f"line {entry.line}: a legacy .ioctl entry "
                                      f"whose handler is not a name (`{entry.statement}`), "
                                      f"{spelling}: convert it by hand", partial=True))
            continue
        name = entry.holder.name if entry.holder else (entry.base or "?")
        added.append(Finding(shown, entry.line, Kind.LEGACY_IOCTL, name,
                             entry.handler or entry.value, effort=Effort.MANUAL.value,
                             reason=f"{spelling}, which the conversion rule does not read: "
                                    "convert it by hand"))
    # An entry written in a macro of the file: where the macro is used.
    # The rule reads some through spatch's own expansion, and reports them
    # at the #define: that answers for a macro used once.
    uses = ioctl_tokens.macro_entries(text)
    for use in uses:
        once = sum(u.macro == use.macro for u in uses) == 1
        if not any(f.line == use.line or once and f.line in use.define_lines
                   for f in reported):
            partly.append(SkippedFile(
                shown, f"line {use.line}: a legacy .ioctl entry written in the macro "
                f"{use.macro} (its #define at line {use.defined}), which no stage expands "
                f"(`{use.statement}`): convert it by hand", partial=True))
    return [f for f in reported if id(f) not in dropped], added, partly

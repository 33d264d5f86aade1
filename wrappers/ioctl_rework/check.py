"""`ioctl-rework check`: the audit, run on what a patch changes, as a gate.

The stages, one function each: read the patch (a git range, a patch file,
the staged changes); lay the files it touches, as the patch leaves them,
in a temporary directory; run the audit and the signature rule there; keep
the findings the patch introduces (on an added line, or in a structure or
handler the patch adds or changes); print them as checkpatch.pl would.
"""

import argparse
import enum
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import __version__, convert, hook, patch_parser, rules, spatch
from ioctl_rework.audit import audit
from ioctl_rework.cache import Cache
from ioctl_rework.findings import Effort, Kind
from ioctl_rework.formats import TOOL, sarif
from ioctl_rework.summary import FileStatus, HandlerStatus
from ioctl_rework.patch_parser import FinalFile, MalformedPatch

SIGNATURE_RULE = rules.RULES_DIR / "ioctl_signature_mismatch.cocci"
SIGNATURE_MISMATCH = "SIGNATURE_MISMATCH"


class CheckError(Exception):
    """Input check cannot use: a bad revision range, a missing file, no repository."""


class Level(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class SourceKind(enum.Enum):
    GIT = "git"
    DIFF = "diff"
    STAGED = "staged"


@dataclass(frozen=True)
class CheckRequest:
    source: SourceKind
    value: str | None = None            # the range for GIT, the file for DIFF ("-": stdin)
    tree: Path | None = None            # the git work tree, or the tree a DIFF applies to
    fix: bool = False
    jobs: int = 2
    timeout: int = 60


@dataclass(frozen=True)
class Problem:
    level: Level
    type: str                           # LEGACY_IOCTL, MISSING_COMPAT, ...
    message: str
    file: str
    line: int                           # in the new file: the added line it is shown at
    patch_line: int                     # the same line in the patch
    text: str                           # that line, with its "+" or " " prefix
    struct: str = ""
    handler: str = ""
    conversion: str = ""                # for LEGACY_IOCTL: the diff the conversion rule makes
    note: str = ""                      # why there is no conversion, or what it cannot do


@dataclass(frozen=True)
class Skipped:
    file: str
    reason: str
    partial: bool = False               # checked, but spatch did not parse all of it

    def describe(self) -> str:
        return f"{self.file} {'checked only in part' if self.partial else 'not checked'}: " \
               f"{self.reason}"


@dataclass
class CheckResult:
    name: str                           # what was checked, for the summary line
    problems: list[Problem] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    lines_checked: int = 0
    files_checked: list[str] = field(default_factory=list)
    fix_diff: str | None = None
    notes: list[str] = field(default_factory=list)

    def count(self, level: Level) -> int:
        return sum(1 for p in self.problems if p.level is level)

    @property
    def exit_status(self) -> int:
        return 1 if self.count(Level.ERROR) else 0


# Reading the patch and the files as it leaves them.

def _git(repo: Path, *args: str, what: str) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                          check=False)
    if proc.returncode != 0:
        message = proc.stderr.decode(errors="replace").strip().splitlines()
        raise CheckError(what + (f" ({message[0]})" if message else ""))
    return proc.stdout.decode(errors="surrogateescape")


_DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "-M",
                 "--src-prefix=a/", "--dst-prefix=b/")


def _git_toplevel(tree: Path) -> Path:
    if not tree.is_dir():
        raise CheckError(f"{tree}: no such directory")
    return Path(_git(tree, "rev-parse", "--show-toplevel",
                     what=f"{tree} is not a git work tree").strip())


def _range_end(repo: Path, rev_range: str) -> tuple[str, str]:
    """The diff of REV_RANGE, and the revision whose files it ends with."""
    if rev_range.startswith("-"):
        raise CheckError(f"bad revision range {rev_range!r}")
    for sep in ("...", ".."):
        if sep in rev_range:
            start, end = rev_range.split(sep, 1)
            end = end or "HEAD"
            for rev in (start or "HEAD", end):
                _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}",
                     what=f"bad revision range {rev_range!r}: {rev!r} is not a commit")
            diff = _git(repo, "diff", *_DIFF_OPTIONS, rev_range, "--",
                        what=f"bad revision range {rev_range!r}")
            return diff, end
    _git(repo, "rev-parse", "--verify", "--quiet", f"{rev_range}^{{commit}}",
         what=f"bad revision range {rev_range!r}: not a commit or a range A..B")
    # One commit: its own change, against its first parent (or nothing).
    diff = _git(repo, "diff-tree", "-r", "-p", "--root", "-m", "--first-parent",
                "--no-commit-id", *_DIFF_OPTIONS, rev_range, "--",
                what=f"bad revision {rev_range!r}")
    return diff, rev_range


def _git_blobs(repo: Path, rev: str, paths: list[str]) -> dict[str, bytes]:
    """The contents of PATHS at REV (":" prefix only: the index), in one git process."""
    spec = "".join(f"{rev}:{p}\0" for p in paths).encode(errors="surrogateescape")
    proc = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch", "-z"],
                          input=spec, capture_output=True, check=False)
    if proc.returncode != 0:
        raise CheckError(f"cannot read files at {rev or 'the index'}: "
                         f"{proc.stderr.decode(errors='replace').strip()}")
    out, blobs, pos = proc.stdout, {}, 0
    for path in paths:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            blobs[path] = out[pos:pos + size]
            pos += size + 1
    return blobs


def _read_diff_file(value: str) -> str:
    if value == "-":
        return sys.stdin.buffer.read().decode(errors="surrogateescape")
    try:
        return Path(value).read_bytes().decode(errors="surrogateescape")
    except OSError as err:
        raise CheckError(f"{value}: cannot read the patch: {err.strerror}") from err


def _apply(patch: str, directory: Path, reverse: bool = False) -> bool:
    """Apply (or with REVERSE, test un-applying) the source-file part of PATCH in DIRECTORY."""
    command = ["git", "apply", "--whitespace=nowarn", "--include=*.c", "--include=*.h",
               "--exclude=*"]
    command += ["--reverse", "--check"] if reverse else []
    directory.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(command, input=patch.encode(errors="surrogateescape"),
                          cwd=directory, capture_output=True, check=False,
                          env={"GIT_CEILING_DIRECTORIES": str(directory.parent),
                               "PATH": "/usr/bin:/bin", "HOME": str(directory)})
    return proc.returncode == 0


def _copy_from_tree(tree: Path, paths: list[str], dest: Path) -> bool:
    """Copy each of PATHS from TREE to DEST; False if one is missing."""
    for path in paths:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(tree / path, target)
        except OSError:
            return False
    return True


def _post_images_from_tree(patch: str, patch_set: patch_parser.PatchSet,
                           files: list[FinalFile], tree: Path,
                           work: Path) -> dict[str, bytes] | None:
    """The files as PATCH leaves them, when it applies to TREE or is in it already."""
    before, produced = [], set()
    for fp in patch_set.files:
        if (fp.old_path and fp.old_path.endswith(patch_parser.SOURCE_SUFFIXES)
                and fp.old_path not in produced and not fp.binary):
            before.append(fp.old_path)
        if fp.new_path:
            produced.add(fp.new_path)
    after = [f.path for f in patch_set.final_files()
             if f.is_source and not f.deleted and not f.binary]
    for directory, wanted, reverse in ((work / "before", before, False),
                                       (work / "after", after, True)):
        if _copy_from_tree(tree, wanted, directory) and _apply(patch, directory, reverse):
            return {f.path: (directory / f.path).read_bytes() for f in files}
    return None


@dataclass(frozen=True)
class _Patch:
    name: str
    text: str
    post_images: dict[str, bytes]       # path -> content, for the files to check
    reconstructed: bool                 # from the patch's own lines, no tree


def _read_patch(request: CheckRequest, work: Path) -> tuple[_Patch, patch_parser.PatchSet]:
    if request.source is SourceKind.DIFF:
        text = _read_diff_file(request.value)
        patch_set = patch_parser.parse(text)
        files = [f for f in patch_set.final_files() if _checkable(f) is None]
        images = None
        if request.tree is not None:
            if not request.tree.is_dir():
                raise CheckError(f"{request.tree}: no such directory")
            images = _post_images_from_tree(text, patch_set, files, request.tree, work)
            if images is None:
                print(f"check: the patch does not apply to {request.tree}; "
                      "checking what the patch itself shows", file=sys.stderr)
        name = "stdin" if request.value == "-" else request.value
        if images is None:
            images = {f.path: f.reconstruct().encode(errors="surrogateescape") for f in files}
            return _Patch(name, text, images, True), patch_set
        return _Patch(name, text, images, False), patch_set
    repo = _git_toplevel(request.tree or Path.cwd())
    if request.source is SourceKind.STAGED:
        text = _git(repo, "diff", "--cached", *_DIFF_OPTIONS, "--",
                    what="cannot read the staged changes")
        rev, name = "", "staged changes"
    else:
        text, rev = _range_end(repo, request.value)
        name = request.value
    patch_set = patch_parser.parse(text)
    files = [f for f in patch_set.final_files() if _checkable(f) is None]
    images = _git_blobs(repo, rev, [f.path for f in files])
    return _Patch(name, text, images, False), patch_set


def _checkable(f: FinalFile) -> str | None:
    """Why F is not checked, or None."""
    if f.deleted:
        return "deleted by the patch"
    if f.binary:
        return "binary file"
    if not f.is_source:
        return "not C source"
    if not f.added:
        return "no added lines"
    return None


# Where definitions are, so that a change inside one counts as touching it.

_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def _code_only(text: str) -> str:
    """TEXT with comments and literals blanked, newlines kept."""
    return _NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def _closing(code: str, open_at: int, pair: str = "{}") -> int:
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == pair[0]:
            depth += 1
        elif code[i] == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    return len(code) - 1


def _start_line(lines: list[str], line: int) -> int:
    """The first line of the declaration whose name is on LINE (1-based)."""
    while line > 1:
        above = lines[line - 2].strip()
        if not above or above.endswith((";", "}", "{", "\\")) or above.startswith("#"):
            break
        line -= 1
    return line


def _line_of(code: str, offset: int) -> int:
    return code.count("\n", 0, offset) + 1


def _definitions(code: str, lines: list[str], name: str) -> list[range]:
    spans = []
    for match in re.finditer(rf"\b{re.escape(name)}\b(\s*\[[^\]]*\])?\s*(=\s*\{{|\()", code):
        if match.group(2) == "(":
            close = _closing(code, match.end() - 1, "()")
            body = re.match(r"\s*(?:__\w+(?:\([^)]*\))?\s*)*\{", code[close + 1:])
            if not body:
                continue                # a call or a prototype
            end = _closing(code, close + body.end())
        else:
            end = _closing(code, match.end() - 1)
        spans.append(range(_start_line(lines, _line_of(code, match.start())),
                           _line_of(code, end) + 1))
    return spans


def definition_spans(text: str, name: str) -> list[range]:
    """Line ranges of NAME's initializer (`NAME = {...}`) and function definition."""
    if not name:
        return []
    code = _code_only(text)
    return _definitions(code, code.split("\n"), name)


_IOCTL_MEMBER = re.compile(r"(?<!\w)(?:unlocked_|compat_)?ioctl\s*[=:]\s*&?\s*(\w+)")
_IOCTL_WORDS = re.compile(r"ioctl|lock_kernel|ENOIOCTLCMD")
_LEGACY_MEMBER = re.compile(rb"(?<!\w)ioctl\s*[=:]")


def ioctl_lines(text: str, added: dict[int, patch_parser.Line]) -> list[int]:
    """The added lines that can be part of a finding: they name an ioctl,
    the BKL or -ENOIOCTLCMD, or lie in an initializer that sets an ioctl
    member or in a function such a member names.  Every finding is anchored
    at one of these, so a file where none is added needs no spatch.
    """
    found = {n for n, line in added.items() if _IOCTL_WORDS.search(line.text)}
    code = _code_only(text)
    lines = code.split("\n")
    spans = []
    for member in _IOCTL_MEMBER.finditer(code):
        depth = 0
        for i in range(member.start() - 1, -1, -1):
            if code[i] == "}":
                depth += 1
            elif code[i] == "{":
                if depth == 0:
                    spans.append(range(_start_line(lines, _line_of(code, i)),
                                       _line_of(code, _closing(code, i)) + 1))
                    break
                depth -= 1
        spans += _definitions(code, lines, member.group(1))
    found |= {n for span in spans for n in added if n in span}
    return sorted(found)


# From findings to problems.

@dataclass(frozen=True)
class _Raw:
    """A finding before filtering: the audit's, or the signature rule's."""
    type: str
    level: Level
    message: str
    file: str
    line: int
    struct: str
    handler: str
    note: str = ""


# The audit's kinds, as check reports them.
AUDIT_MESSAGES = {
    Kind.LEGACY_IOCTL: (Level.ERROR, "{struct} sets the legacy .ioctl ({handler}), "
                        "which runs under the BKL and was removed in 2.6.36; "
                        "use .unlocked_ioctl and .compat_ioctl"),
    Kind.MISSING_COMPAT: (Level.WARNING, "{struct} sets .unlocked_ioctl ({handler}) "
                          "without .compat_ioctl; 32-bit processes cannot use it"),
    Kind.BKL_IN_UNLOCKED: (Level.WARNING, "{handler}, the .unlocked_ioctl of {struct}, "
                           "takes lock_kernel(); push the lock down to what needs it "
                           "or use a driver lock"),
    Kind.ENOIOCTLCMD_UNLOCKED: (Level.WARNING, "{handler}, the .unlocked_ioctl of "
                                "{struct}, returns -ENOIOCTLCMD, which userspace sees "
                                "as EINVAL or ENOTTY; return -ENOTTY"),
}


def _run_audit(paths: list[Path], jobs: int, timeout: int
               ) -> tuple[list[_Raw], list[Skipped]]:
    # No cache: the files live in a temporary directory, never seen again.
    result = audit(paths, jobs, timeout, cache=Cache(None))
    raws = []
    for finding in result.findings:
        level, template = AUDIT_MESSAGES[finding.kind]
        message = template.format(struct=finding.struct or "a file_operations",
                                  handler=finding.handler)
        if finding.dead_ioctl:
            message += " (.unlocked_ioctl is set too, so .ioctl is dead code)"
        note = ""
        if finding.effort == Effort.MANUAL.value:
            note = f"the conversion rule leaves it alone: {finding.reason}; convert it by hand"
        elif finding.effort == Effort.AUTO_REMOVE.value:
            note = f"the conversion rule deletes the entry: {finding.reason}"
        raws.append(_Raw(finding.kind.name, level, message, finding.file, finding.line,
                         finding.struct, finding.handler, note))
    skipped = [Skipped(str(s.file), s.reason, s.partial) for s in result.skipped]
    return raws, skipped


_MISMATCH = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<fops>\w+): \.(?P<member>\w+) = "
                       r"(?P<handler>\w+): signature mismatch: (?P<reason>.*)$")


def _run_signature_rule(paths: list[Path], jobs: int, timeout: int
                        ) -> tuple[list[_Raw], list[Skipped], dict[str, tuple[int, ...]]]:
    """Findings, skips, and the lines where spatch's parser gave up, by file."""
    raws, skipped, parse_errors = [], [], {}
    for result in spatch.run_files(SIGNATURE_RULE, paths, ["-D", "report"], jobs=jobs,
                                   timeout=timeout):
        if result.outcome in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
            parse_errors[str(result.file)] = result.parse_errors
        if result.outcome not in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
            skipped.append(Skipped(str(result.file), result.reason))
            continue
        if result.parse_errors:
            # A rule that found nothing in a partly parsed file is an OK run.
            skipped.append(Skipped(str(result.file), result.reason, partial=True))
        for line in result.stdout.splitlines():
            match = _MISMATCH.match(line)
            if match:
                raws.append(_Raw(
                    SIGNATURE_MISMATCH, Level.ERROR,
                    f"{match['handler']} does not fit .{match['member']} of "
                    f"{match['fops']}: {match['reason']}",
                    str(result.file), int(match["line"]), match["fops"], match["handler"]))
    return raws, skipped, parse_errors


def _anchor(raw: _Raw, f: FinalFile, text: str) -> patch_parser.Line | None:
    """The added line RAW is reported at, or None if the patch did not introduce it."""
    added = f.added
    if raw.line in added:
        return added[raw.line]
    for name in (raw.struct, raw.handler):
        for span in definition_spans(text, name):
            touched = [n for n in span if n in added]
            if touched:
                return added[touched[0]]
    return None


# The run.

def _relative(file: str, root: Path, known: set[str]) -> str | None:
    path = Path(file)
    if path.is_absolute():
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            return None
        return rel if rel in known else None
    rel = path.as_posix().removeprefix("./")
    if rel in known:
        return rel
    return next((k for k in known if (root / k).resolve() == (root / rel).resolve()), None)


def _conversion_target(request: CheckRequest, patch: _Patch) -> rules.Target:
    if request.tree is not None and not patch.reconstructed:
        try:
            return rules.Target.from_makefile(request.tree)
        except rules.TargetError:
            pass
    return rules.DEFAULT_TARGET


@dataclass(frozen=True)
class _Conversion:
    diff: str                           # "" when nothing changes
    failure: str = ""                   # why convert could not rewrite the file


def _conversions(root: Path, paths: list[str], options: rules.ConversionOptions,
                 request: CheckRequest) -> tuple[dict[str, _Conversion], list[str]]:
    """convert's result for each of PATHS (relative to ROOT), and its notes
    on handlers it did not convert."""
    if not paths:
        return {}, []
    result = convert.convert(convert.ConvertRequest(
        tuple(root / p for p in paths), options, root, request.jobs, request.timeout))
    records = {record.file: record for record in result.summary.files}
    found = {}
    for path in paths:
        record = records.get(path)
        if record is not None and record.status in (FileStatus.FAILED, FileStatus.SKIPPED):
            found[path] = _Conversion("", record.reason or record.status.value)
        else:
            found[path] = _Conversion(record.diff if record else "")
    notes = [f"{h.file}:{h.line}: {h.handler} not converted: {h.reason}"
             for h in result.summary.handlers
             if h.status is not HandlerStatus.CONVERTED and h.reason]
    return found, notes


def run_check(request: CheckRequest) -> CheckResult:
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-check.") as tmp:
        work = Path(tmp)
        patch, patch_set = _read_patch(request, work)
        root = work / "new"
        result = CheckResult(patch.name, lines_checked=patch_set.total_lines)
        finals = {}
        for f in patch_set.final_files():
            reason = _checkable(f)
            if reason is None and f.path not in patch.post_images:
                reason = "not in the tree the patch leaves"
            if reason:
                result.skipped.append(Skipped(f.path, reason))
            else:
                finals[f.path] = f
        for path in finals:
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(patch.post_images[path])
        result.files_checked = list(finals)
        # Only files where the patch adds ioctl code are worth a spatch run.
        relevant = {}
        for path, f in finals.items():
            if b"ioctl" in patch.post_images[path]:
                lines = ioctl_lines(patch.post_images[path].decode(errors="surrogateescape"),
                                    f.added)
                if lines:
                    relevant[path] = lines
        if relevant:
            _collect(result, request, patch, root, finals, relevant)
    return result


def _collect(result: CheckResult, request: CheckRequest, patch: _Patch, root: Path,
             finals: dict[str, FinalFile], relevant: dict[str, list[int]]) -> None:
    paths = [root / p for p in relevant]
    options = rules.ConversionOptions(target=_conversion_target(request, patch))
    # A file with a legacy member will most likely need its conversion shown:
    # start convert at once, next to the audit and the signature rule,
    # rather than after them.  (--fix converts every file afterwards.)
    likely = [] if request.fix else [
        p for p in relevant if _LEGACY_MEMBER.search(patch.post_images[p])]
    with ThreadPoolExecutor(max_workers=3) as pool:
        audit_run = pool.submit(_run_audit, paths, request.jobs, request.timeout)
        signature_run = pool.submit(_run_signature_rule, paths, request.jobs, request.timeout)
        convert_run = pool.submit(_conversions, root, likely, options, request)
        raws, skipped = audit_run.result()
        more, more_skipped, parse_errors = signature_run.result()
        conversions = convert_run.result()[0]
    known = set(finals)
    parse_errors = {_relative(f, root, known): lines for f, lines in parse_errors.items()}
    unchecked = []
    for s in skipped + more_skipped:
        rel = _relative(s.file, root, known) or s.file
        partial = s.partial
        if rel in relevant and parse_errors.get(rel):
            # spatch resumes after a parse error: a run that gave up only
            # outside the added ioctl code has still read all of it, and
            # one that gave up inside it has not, whatever it found.
            first, last = relevant[rel][0], relevant[rel][-1]
            partial = not any(first <= n <= last for n in parse_errors[rel])
        if Skipped(rel, s.reason, partial) not in result.skipped:
            result.skipped.append(Skipped(rel, s.reason, partial))
            if not partial and rel in relevant:
                unchecked.append((rel, s.reason))
    texts = {p: (root / p).read_text(errors="surrogateescape") for p in finals}
    introduced = []
    # A gate must not pass what it could not read: a rule that failed on
    # ioctl code the patch adds is a warning there, not only a note.
    for rel, reason in unchecked:
        raws.append(_Raw("NOT_CHECKED", Level.WARNING,
                         f"a rule could not check the ioctl code this patch adds: {reason}",
                         rel, relevant[rel][0], "", ""))
    for raw in raws + more:
        rel = _relative(raw.file, root, known)
        if rel is None:
            continue
        anchor = _anchor(raw, finals[rel], texts[rel])
        if anchor is not None:
            introduced.append((rel, raw, anchor))
    legacy = sorted({rel for rel, raw, _ in introduced if raw.type == Kind.LEGACY_IOCTL.name})
    missed = [rel for rel in legacy if rel not in conversions]
    if missed and not request.fix:
        conversions.update(_conversions(root, missed, options, request)[0])
    order = list(finals)
    shown = set()
    for rel, raw, anchor in sorted(introduced, key=lambda t: (order.index(t[0]), t[2].new,
                                                              t[1].type)):
        diff, note = "", raw.note
        if raw.type == Kind.LEGACY_IOCTL.name and rel in conversions and rel not in shown:
            # One diff per file: it converts every handler in it.
            shown.add(rel)
            diff = conversions[rel].diff
            if conversions[rel].failure:
                note = f"the conversion rule failed on this file: {conversions[rel].failure}"
        problem = Problem(raw.level, raw.type, raw.message, rel, anchor.new,
                          anchor.patch_line, anchor.kind + anchor.text, raw.struct,
                          raw.handler, diff, note)
        if problem not in result.problems:
            result.problems.append(problem)
    if request.fix:
        _fix(result, root, list(finals), options, request)


def _fix(result: CheckResult, root: Path, paths: list[str], options: rules.ConversionOptions,
         request: CheckRequest) -> None:
    conversions, notes = _conversions(root, paths, options, request)
    result.fix_diff = "".join(conversions[p].diff for p in paths)
    result.notes += [f"--fix: {p} not converted: {conversions[p].failure}"
                     for p in paths if conversions[p].failure]
    result.notes += [f"--fix: {note}" for note in notes]


# Output.

def format_text(result: CheckResult) -> str:
    out = []
    for p in result.problems:
        out.append(f"{p.level.name}:{p.type}: {p.message}")
        out.append(f"#{p.patch_line}: FILE: {p.file}:{p.line}:")
        out.append(p.text)
        if p.note:
            out.append(f"NOTE: {p.note}")
        if p.conversion:
            out.append(f"the conversion {rules.CONVERSION_RULE.name} would make:")
            out.append(p.conversion.rstrip("\n"))
        out.append("")
    for s in result.skipped:
        out.append(f"NOTE: {s.describe()}")
    out += [f"NOTE: {note}" for note in result.notes]
    if result.skipped or result.notes:
        out.append("")
    errors, warnings = result.count(Level.ERROR), result.count(Level.WARNING)
    out.append(f"total: {errors} errors, {warnings} warnings, "
               f"{result.lines_checked} lines checked")
    out.append("")
    if errors or warnings:
        out.append(f"{result.name} has legacy ioctl problems, please review.")
    else:
        out.append(f"{result.name} has no obvious legacy ioctl problems.")
    if result.fix_diff is not None:
        out += ["", "the conversion of the files the patch touches:" if result.fix_diff
                else "--fix: the conversion changes nothing in the files the patch touches",
                result.fix_diff.rstrip("\n")]
    return "\n".join(out).rstrip("\n") + "\n"


def _problem_dict(p: Problem) -> dict:
    return {"level": p.level.value, "type": p.type, "message": p.message, "file": p.file,
            "line": p.line, "patch_line": p.patch_line, "text": p.text,
            "struct": p.struct, "handler": p.handler, "conversion": p.conversion or None,
            "note": p.note or None}


def format_json(result: CheckResult) -> str:
    doc = {
        "tool": f"{TOOL} check", "version": __version__, "patch": result.name,
        "problems": [_problem_dict(p) for p in result.problems],
        "skipped": [{"file": s.file, "reason": s.reason, "partial": s.partial}
                    for s in result.skipped],
        "files_checked": result.files_checked,
        "total": {"errors": result.count(Level.ERROR),
                  "warnings": result.count(Level.WARNING),
                  "lines_checked": result.lines_checked},
        "fix": result.fix_diff,
        "notes": result.notes,
    }
    return json.dumps(doc, indent=2) + "\n"


def _sarif_result(p: Problem, rule_ids: list[str]) -> dict:
    identity = "\0".join((p.type, p.file, p.struct, p.handler)).encode()
    return {
        "ruleId": p.type,
        "ruleIndex": rule_ids.index(p.type),
        "level": p.level.value,
        "message": {"text": p.message + (f" ({p.note})" if p.note else "")},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": p.file},
            "region": {"startLine": p.line, "snippet": {"text": p.text[1:]}}}}],
        # Stable when lines move, as the audit's SARIF is.
        "partialFingerprints": {"ioctlReworkCheck/v1": hashlib.sha256(identity).hexdigest()},
    }


def format_sarif(result: CheckResult) -> str:
    """SARIF 2.1.0 with the audit's schema and tool identity; check's own levels."""
    rule_ids = sorted({p.type for p in result.problems})
    doc = {
        "$schema": sarif.SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": f"{TOOL} check", "version": __version__,
                "informationUri": sarif.INFORMATION_URI,
                "rules": [{"id": r, "name": r.title().replace("_", "")} for r in rule_ids]}},
            "results": [_sarif_result(p, rule_ids) for p in result.problems],
            "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": [
                {"level": "note", "message": {"text": s.describe()},
                 "locations": [{"physicalLocation": {"artifactLocation": {"uri": s.file}}}]}
                for s in result.skipped]}],
        }],
    }
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"text": format_text, "json": format_json, "sarif": format_sarif}


# The command line.

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Check a patch for legacy ioctl code it adds, as checkpatch.pl "
                          "does for style. Exit 1 when it adds an ERROR, 0 otherwise, "
                          "2 when the input cannot be used.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--git", metavar="REV_RANGE",
                        help="check a commit (REV) or a range (A..B, A...B)")
    source.add_argument("--diff", metavar="FILE",
                        help="check a patch file (`-` for stdin); git or diff -u format")
    source.add_argument("--staged", action="store_true",
                        help="check the staged changes (what `git commit` would commit)")
    source.add_argument("--install-hook", action="store_true",
                        help="install a git pre-commit hook that runs `check --staged`")
    parser.add_argument("--tree", metavar="DIR", type=Path,
                        help="the git work tree (default: the current directory); with "
                             "--diff, the tree the patch applies to (default: none, the "
                             "patch's own lines are checked)")
    parser.add_argument("--format", choices=sorted(FORMATS), default="text")
    parser.add_argument("--fix", action="store_true",
                        help="also print the conversion of every file the patch touches")
    parser.add_argument("--jobs", "-j", type=int, default=2, metavar="N",
                        help="spatch processes at once (default 2)")
    parser.add_argument("--timeout", type=int, default=60, metavar="S",
                        help="time limit per file and rule (default 60 s)")


def main(args: argparse.Namespace) -> int:
    if args.install_hook:
        try:
            installed = hook.install(args.tree or Path.cwd())
        except hook.HookError as err:
            print(f"ioctl-rework check: {err}", file=sys.stderr)
            return 2
        print(installed.describe())
        return 0
    if args.git is not None:
        request = CheckRequest(SourceKind.GIT, args.git, args.tree, args.fix,
                               args.jobs, args.timeout)
    elif args.diff is not None:
        request = CheckRequest(SourceKind.DIFF, args.diff, args.tree, args.fix,
                               args.jobs, args.timeout)
    elif args.staged:
        request = CheckRequest(SourceKind.STAGED, None, args.tree, args.fix,
                               args.jobs, args.timeout)
    else:
        print("ioctl-rework check: say what to check: --git REV_RANGE, --diff FILE "
              "or --staged (or --install-hook)", file=sys.stderr)
        return 2
    try:
        result = run_check(request)
    except (CheckError, spatch.SpatchMissing) as err:
        print(f"ioctl-rework check: {err}", file=sys.stderr)
        return 2
    except MalformedPatch as err:
        print(f"ioctl-rework check: malformed patch: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(FORMATS[args.format](result))
    if args.format != "text":
        for s in result.skipped:
            print(f"check: {s.describe()}", file=sys.stderr)
    return result.exit_status

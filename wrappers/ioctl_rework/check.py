"""`ioctl-rework check`: the audit, run on what a patch changes, as a gate.

The stages: check_input reads the patch (a git range, a patch file, the
staged changes) and the files as it leaves them, which are laid out in a
temporary directory; the audit and the signature rule run there (spatch
only on files where the patch adds ioctl code, see c_spans); the findings
the patch introduces are kept (on an added line, or in a structure or
handler the patch adds or changes); check_result prints them as
checkpatch.pl would, or as json or SARIF.
"""

import argparse
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework import convert, hook, patch_parser, rules, spatch
from ioctl_rework.audit import RuleRun, audit, run_batched
from ioctl_rework.c_spans import (ANY_IOCTL_MEMBER, LEGACY_MEMBER, definition_spans,
                                  ioctl_lines)
from ioctl_rework.cache import Cache
from ioctl_rework.check_input import (InputError, PatchInput, SourceKind, read_patch,
                                      unchecked_reason)
from ioctl_rework.check_result import FORMATS, CheckResult, Level, Problem, Skipped
from ioctl_rework.findings import Effort, Kind
from ioctl_rework.patch_parser import FinalFile, MalformedPatch
from ioctl_rework.summary import FileStatus, HandlerStatus

SIGNATURE_RULE = rules.RULES_DIR / "ioctl_signature_mismatch.cocci"
SIGNATURE_MISMATCH = "SIGNATURE_MISMATCH"


@dataclass(frozen=True)
class CheckRequest:
    source: SourceKind
    value: str | None = None            # the range for GIT, the file for DIFF ("-": stdin)
    tree: Path | None = None            # the git work tree, or the tree a DIFF applies to
    fix: bool = False
    jobs: int = 2
    timeout: int = 60


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


def _run_signature_rule(paths: list[Path], jobs: int, timeout: int, work: Path
                        ) -> tuple[list[_Raw], list[Skipped], dict[str, tuple[int, ...]]]:
    """Findings, skips, and the lines where spatch's parser gave up, by file."""
    raws, skipped, parse_errors = [], [], {}
    # Batched as the audit runs its rules: one spatch start-up for many files.
    run = RuleRun("signature", SIGNATURE_RULE,
                  (*rules.rule_options(SIGNATURE_RULE), "-D", "report"), ANY_IOCTL_MEMBER)
    for result in run_batched(run, paths, jobs, timeout, work):
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
    # A structure or handler the patch changed only by deleting lines: the
    # finding is reported at the first line deleted there.
    for name in (raw.struct, raw.handler):
        for span in definition_spans(text, name):
            gaps = [n for n in span if n in f.gaps and n != span.start]
            if gaps:
                return replace(f.gaps[gaps[0]], new=gaps[0])
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


def _conversion_target(request: CheckRequest, patch: PatchInput) -> rules.Target:
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
        patch = read_patch(request.source, request.value, request.tree, work)
        patch_set = patch.patch_set
        root = work / "new"
        result = CheckResult(patch.name, lines_checked=patch_set.total_lines)
        finals = {}
        for f in patch_set.final_files():
            reason = unchecked_reason(f)
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
                                    {**f.gaps, **f.added})
                if lines:
                    relevant[path] = lines
        if relevant:
            _collect(result, request, patch, root, finals, relevant)
    return result


# A series adding many legacy drivers shows the first few conversions;
# converting every file would cost more than the check itself (--fix does).
MAX_CONVERSIONS_SHOWN = 10


def _collect(result: CheckResult, request: CheckRequest, patch: PatchInput, root: Path,
             finals: dict[str, FinalFile], relevant: dict[str, list[int]]) -> None:
    paths = [root / p for p in relevant]
    known = set(finals)
    options = rules.ConversionOptions(target=_conversion_target(request, patch))
    # A file with a legacy member will most likely need its conversion shown:
    # start convert at once, next to the audit and the signature rule,
    # rather than after them.  (--fix converts every file afterwards.)
    likely = [] if request.fix else [
        p for p in relevant if LEGACY_MEMBER.search(patch.post_images[p])]
    with ThreadPoolExecutor(max_workers=3) as pool:
        audit_run = pool.submit(_run_audit, paths, request.jobs, request.timeout)
        signature_run = pool.submit(_run_signature_rule, paths, request.jobs, request.timeout,
                                    root.parent)
        convert_run = pool.submit(_conversions, root, likely[:MAX_CONVERSIONS_SHOWN],
                                  options, request)
        raws, skipped = audit_run.result()
        more, more_skipped, parse_errors = signature_run.result()
        conversions = convert_run.result()[0]
    parse_errors = {_relative(f, root, known): lines for f, lines in parse_errors.items()}
    raws += more + _record_skips(result, skipped + more_skipped, parse_errors, relevant,
                                 root, known)
    texts = {p: (root / p).read_text(errors="surrogateescape") for p in finals}
    introduced = []
    for raw in raws:
        rel = _relative(raw.file, root, known)
        anchor = _anchor(raw, finals[rel], texts[rel]) if rel else None
        if anchor is not None:
            introduced.append((rel, raw, anchor))
    order = list(finals)
    introduced.sort(key=lambda t: (order.index(t[0]), t[2].new, t[1].type))
    legacy = list(dict.fromkeys(rel for rel, raw, _ in introduced
                                if raw.type == Kind.LEGACY_IOCTL.name))
    if not request.fix:
        shown = legacy[:MAX_CONVERSIONS_SHOWN]
        conversions.update(_conversions(root, [p for p in shown if p not in conversions],
                                        options, request)[0])
        if len(legacy) > len(shown):
            result.notes.append(f"conversions shown for the first {len(shown)} of "
                                f"{len(legacy)} files with a new legacy .ioctl; "
                                "`--fix` prints them all")
    for rel, raw, anchor in introduced:
        diff, note = "", raw.note
        if raw.type == Kind.LEGACY_IOCTL.name and rel in conversions:
            # One diff per file, at its first legacy entry: it converts them all.
            conversion = conversions.pop(rel)
            diff = conversion.diff
            if conversion.failure:
                note = f"the conversion rule failed on this file: {conversion.failure}"
        problem = Problem(raw.level, raw.type, raw.message, rel, anchor.new,
                          anchor.patch_line, anchor.kind + anchor.text, raw.struct,
                          raw.handler, diff, note)
        if problem not in result.problems:
            result.problems.append(problem)
    if request.fix:
        _fix(result, root, list(finals), options, request)


def _record_skips(result: CheckResult, skipped: list[Skipped],
                  parse_errors: dict[str, tuple[int, ...]], relevant: dict[str, list[int]],
                  root: Path, known: set[str]) -> list[_Raw]:
    """Add the rules' skips to RESULT; return a NOT_CHECKED finding for each
    file whose added ioctl code a rule could not read.  A gate must not pass
    what it could not read."""
    unchecked = []
    for s in skipped:
        rel = _relative(s.file, root, known) or s.file
        partial = s.partial
        if rel in relevant and parse_errors.get(rel):
            # spatch resumes after a parse error: a run that gave up only
            # outside the added ioctl code has still read all of it, and
            # one that gave up inside it has not, whatever it found.
            first, last = relevant[rel][0], relevant[rel][-1]
            partial = not any(first <= n <= last for n in parse_errors[rel])
        if Skipped(rel, s.reason, partial) in result.skipped:
            continue
        result.skipped.append(Skipped(rel, s.reason, partial))
        if not partial and rel in relevant:
            unchecked.append(_Raw("NOT_CHECKED", Level.WARNING,
                                  f"a rule could not check the ioctl code this patch adds: "
                                  f"{s.reason}", rel, relevant[rel][0], "", ""))
    return unchecked


def _fix(result: CheckResult, root: Path, paths: list[str], options: rules.ConversionOptions,
         request: CheckRequest) -> None:
    conversions, notes = _conversions(root, paths, options, request)
    result.fix_diff = "".join(conversions[p].diff for p in paths)
    result.notes += [f"--fix: {p} not converted: {conversions[p].failure}"
                     for p in paths if conversions[p].failure]
    result.notes += [f"--fix: {note}" for note in notes]


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
    except (InputError, spatch.SpatchMissing) as err:
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

"""The rules `check` runs on the files a patch leaves, and what they found.

The findings are the audit's (the conversion rule in report mode and the
unlocked-handler rules) plus the signature rule's, as raw values with the
absolute path of the file they are in; which of them a patch introduced is
check_judge's business.  The conversion a LEGACY_IOCTL finding shows is
convert's, and so, where convert runs on a file with the audit's options,
are the legacy entries the audit reads there (ConvertRuns).
"""

import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from ioctl_rework.convert.plan import convert
from ioctl_rework import settings
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.audit.scan import RuleRun, audit, run_batched
from ioctl_rework.ctext.spans import ANY_IOCTL_MEMBER
from ioctl_rework.cache import Cache
from ioctl_rework.check.result import Level
from ioctl_rework.convert.request import ConvertRequest, VerifyOptions
from ioctl_rework.audit.findings import Effort, Kind
from ioctl_rework.convert.summary import FileStatus, HandlerStatus

SIGNATURE_RULE = rules.RULES_DIR / "ioctl_signature_mismatch.cocci"
SIGNATURE_MISMATCH = "SIGNATURE_MISMATCH"
NOT_CHECKED = "NOT_CHECKED"


@dataclass(frozen=True)
class Raw:
    """A finding before it is judged: the audit's, the signature rule's, or
    check's own NOT_CHECKED."""
    type: str
    level: Level
    message: str
    file: str                           # absolute, or relative to the patch's tree
    line: int
    struct: str
    handler: str
    note: str = ""


@dataclass(frozen=True)
class RuleSkip:
    """A file a rule did not read, or read only in part."""
    file: Path                          # absolute
    reason: str
    partial: bool = False


@dataclass
class RuleFindings:
    raws: list[Raw] = field(default_factory=list)
    skipped: list[RuleSkip] = field(default_factory=list)
    parse_errors: dict[Path, tuple[int, ...]] = field(default_factory=dict)


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


def _absolute(file: str, tree: Path | None) -> Path:
    path = Path(file)
    return path if path.is_absolute() or tree is None else tree / path


def _run_audit(paths: list[Path], jobs: int, timeout: int,
               target: settings.Target | None = None,
               earlier: "ConvertRuns | None" = None) -> RuleFindings:
    # No cache: the files live in a temporary directory, never seen again.
    # TARGET: the check's (the scratch directory is in no tree of its own).
    result = audit(paths, jobs, timeout, cache=Cache(None), target=target, earlier=earlier)
    found = RuleFindings()
    for finding in result.findings:
        level, template = AUDIT_MESSAGES[finding.kind]
        message = template.format(struct=finding.struct or "a file_operations",
                                  handler=finding.handler)
        if finding.dead_ioctl:
            message += " (.unlocked_ioctl is set too, so .ioctl is dead code)"
        note = ""
        if finding.effort == Effort.MANUAL.value:
            note = f"the conversion rule leaves it alone: {finding.reason}"
            if not note.endswith("convert it by hand"):
                note += "; convert it by hand"
        elif finding.effort == Effort.AUTO_REMOVE.value:
            note = f"the conversion rule deletes the entry: {finding.reason}"
        if finding.compat_class:
            message += f" (compat class: {finding.compat_class})"
            note = finding.compat_detail or ""
        found.raws.append(Raw(finding.kind.name, level, message,
                              str(_absolute(finding.file, result.tree)), finding.line,
                              finding.struct, finding.handler, note))
    found.skipped = [RuleSkip(_absolute(s.file, result.tree), s.reason, s.partial)
                     for s in result.skipped]
    return found


_MISMATCH = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<fops>\w+): \.(?P<member>\w+) = "
                       r"(?P<handler>\w+): signature mismatch: (?P<reason>.*)$")


def _run_signature_rule(paths: list[Path], jobs: int, timeout: int,
                        work: Path) -> RuleFindings:
    """Findings, skips, and the lines where spatch's parser gave up, by file."""
    found = RuleFindings()
    # Batched as the audit runs its rules: one spatch start-up for many files.
    run = RuleRun("signature", SIGNATURE_RULE,
                  (*rules.rule_options(SIGNATURE_RULE), "-D", "report"), ANY_IOCTL_MEMBER)
    for result in run_batched(run, paths, jobs, timeout, work):
        if result.outcome not in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
            found.skipped.append(RuleSkip(result.file, result.reason))
            continue
        found.parse_errors[result.file] = result.parse_errors
        if result.parse_errors:
            # A rule that found nothing in a partly parsed file is an OK run.
            found.skipped.append(RuleSkip(result.file, result.reason, partial=True))
        for line in result.stdout.splitlines():
            match = _MISMATCH.match(line)
            if match:
                found.raws.append(Raw(
                    SIGNATURE_MISMATCH, Level.ERROR,
                    f"{match['handler']} does not fit .{match['member']} of "
                    f"{match['fops']}: {match['reason']}",
                    str(result.file), int(match["line"]), match["fops"], match["handler"]))
    return found


@dataclass(frozen=True)
class Conversion:
    diff: str                           # "" when nothing changes
    failure: str = ""                   # why convert could not rewrite the file


@dataclass(frozen=True)
class ConversionJob:
    """The files of one patch to convert: PATHS relative to ROOT."""
    root: Path
    paths: tuple[str, ...]
    options: settings.ConversionOptions
    verify: VerifyOptions = VerifyOptions()


class ConvertRuns:
    """The conversion rule's runs made by convert for the conversions check
    shows, standing for the audit's report run of the same rule on the same
    file (audit.scan.EarlierRuns): convert runs it in patch and report mode,
    whose report part is what report mode alone prints (the defines apart
    from `patch` must be the same, and the run must have read the file:
    outcome OK or PARSE_ERROR).  One spatch start per file fewer."""

    _USABLE = (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR)

    def __init__(self, jobs: list[ConversionJob]):
        self._expected = {(job.root / p).resolve() for job in jobs for p in job.paths}
        self._runs: dict[tuple[Path, tuple], spatch.SpatchResult] = {}
        self._ended = not jobs
        self._changed = threading.Condition()

    @staticmethod
    def _defines(args) -> tuple[Counter, tuple[str, ...]]:
        """ARGS as its -D values (in any order) and the rest (in order)."""
        defines, rest, args = Counter(), [], list(args)
        while args:
            arg = args.pop(0)
            if arg == "-D" and args:
                defines[args.pop(0)] += 1
            else:
                rest.append(arg)
        return defines, tuple(rest)

    def _key(self, args) -> tuple | None:
        """What a report-mode run and a patch-and-report run share; None for
        any other mode."""
        defines, rest = self._defines(args)
        rule_options = tuple(rules.rule_options(rules.CONVERSION_RULE))
        if defines["report"] != 1 or defines["context"] or defines["org"] or \
                defines["patch"] > 1 or rest not in ((), rule_options):
            return None
        defines["patch"] = 0
        return tuple(sorted((+defines).items()))

    def covers(self, run: RuleRun) -> bool:
        return run.rule == rules.CONVERSION_RULE and self._key(run.args) is not None and \
            bool(self._expected)

    def heard(self, root: Path):
        """convert's on_rule_run for a job rooted at ROOT."""
        def told(rel: str, args: tuple[str, ...], result: spatch.SpatchResult) -> None:
            key = self._key(args)
            if key is None or result.outcome not in self._USABLE:
                return
            path = (root / rel).resolve()
            report, _diff = spatch.split_report(result.stdout)
            with self._changed:
                self._runs.setdefault((path, key), replace(result, file=path, stdout=report))
                self._changed.notify_all()
        return told

    def ended(self) -> None:
        """convert has returned (or failed): nothing more is coming."""
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def result(self, run: RuleRun, path: Path) -> spatch.SpatchResult | None:
        key = self._key(run.args)
        if key is None or path not in self._expected:
            return None
        with self._changed:
            self._changed.wait_for(lambda: (path, key) in self._runs or self._ended)
            return self._runs.get((path, key))


def conversions(job: ConversionJob, jobs: int, timeout: int,
                heard: ConvertRuns | None = None
                ) -> tuple[dict[str, Conversion], list[str]]:
    """convert's result for each path of JOB, and its notes on handlers it
    did not convert; HEARD hears of each run of the rule."""
    if not job.paths:
        return {}, []
    result = convert(ConvertRequest(
        tuple(job.root / p for p in job.paths), job.options, job.root, jobs, timeout,
        verify=job.verify, on_rule_run=heard.heard(job.root) if heard else None))
    records = {record.file: record for record in result.summary.files}
    found = {}
    for path in job.paths:
        record = records.get(path)
        if record is not None and record.status in (FileStatus.FAILED, FileStatus.SKIPPED):
            found[path] = Conversion("", record.reason or record.status.value)
        else:
            found[path] = Conversion(record.diff if record else "")
    notes = [f"{h.file}:{h.line}: {h.handler} not converted: {h.reason}"
             for h in result.summary.handlers
             if h.status is not HandlerStatus.CONVERTED and h.reason]
    return found, notes


def run_rules(paths: list[Path], convert_first: list[ConversionJob], jobs: int,
              timeout: int, work: Path, target: settings.Target | None = None
              ) -> tuple[RuleFindings, list[dict[str, Conversion]]]:
    """The audit and the signature rule over PATHS (absolute), with the
    conversions of CONVERT_FIRST alongside: a file with a legacy member
    will most likely need its conversion shown, so convert starts at once
    rather than after the rules."""
    earlier = ConvertRuns(convert_first)
    # Asked once here: the three threads below would each run `spatch
    # --version` while none has cached the answer yet.
    spatch.version()

    def convert_all() -> list[dict[str, Conversion]]:
        try:
            return [conversions(job, jobs, timeout, earlier)[0] for job in convert_first]
        finally:
            earlier.ended()

    with ThreadPoolExecutor(max_workers=3) as pool:
        converted = pool.submit(convert_all)
        audit_run = pool.submit(_run_audit, paths, jobs, timeout, target, earlier)
        signature_run = pool.submit(_run_signature_rule, paths, jobs, timeout, work)
        found, more = audit_run.result(), signature_run.result()
        found.raws += more.raws
        found.skipped += more.skipped
        found.parse_errors.update(more.parse_errors)
        return found, converted.result()

"""The audit: find what is left to convert, and who owns it (the command line is audit.cli).

The findings come from the rules: legacy-ioctl (with its effort) from the
conversion rule's report mode, read through rules.parse_report(), and the
three unlocked-handler problems from the audit rules
(semantic-patches/unlocked_ioctl_*.cocci).  A legacy entry the rule did
not read (a spelling spatch does not match) is added from the shared
text finder (audit.text_entries), never dropped.  This module only
chooses which files the rules see, runs them fast, caches what they said,
and attaches MAINTAINERS sections.

Speed comes from three things, measured in bench/audit:
- one text prefilter over the tree instead of one per rule (a file must
  name `file_operations` and initialise an ioctl member to be worth parsing);
- the three audit rules run as one spatch program, so each file is parsed
  once for them;
- each spatch process takes a batch of files (--file-groups: every file
  still on its own, but one start-up for many), a few batches at a time.
"""

import hashlib
import re
import tempfile
import time
from dataclasses import dataclass, replace
from typing import Callable, Protocol
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.ctext import candidates as candidates_module
from ioctl_rework.ctext import fops_holders, ioctl_tokens
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext.candidates import fops_initializers, may_hold_legacy_entry
from ioctl_rework.cache import Cache, default_directory, make_key, stat_index
from ioctl_rework.audit import text_entries
from ioctl_rework.audit.findings import AuditResult, AuditStats, Finding, Kind, SkippedFile
from ioctl_rework.patches.maintainers import Maintainers, directory_subsystem
from ioctl_rework.stages import Stage, Stages, Verbosity
# What the rules print, read into findings (audit_report.py); named here too
# because bench/ and the tests read reports through the audit command.
from ioctl_rework.audit.report import (READERS as _READERS, AuditError,  # noqa: F401
                                       first_per_handler, load_json, read_legacy_report,
                                       read_unlocked_report)

AUDIT_RULES = tuple(rules.RULES_DIR / name for name in (
    "unlocked_ioctl_missing_compat.cocci",
    "unlocked_ioctl_takes_bkl.cocci",
    "unlocked_ioctl_returns_enoioctlcmd.cocci",
))
DEFAULT_TIMEOUT = 120
CACHE_FORMAT = "audit-1"        # bump when what is stored changes

# The prefilter: a candidate must have a file_operations initializer that
# sets the member a rule looks at (for the legacy entries, any spelling
# convert knows: candidates.may_hold_legacy_entry), because every rule
# starts from such an entry.  Without this the conversion rule would parse
# every file where a block or tty .ioctl sits next to some unrelated
# file_operations.
_UNLOCKED_MEMBER = re.compile(rb"unlocked_ioctl\s*[=:]")
# A call or test through a member named ioctl: the forwarding rule reads
# the file, whether or not it names file_operations.
_IOCTL_MEMBER = re.compile(rb"->\s*ioctl\b")    # RuleRun.member; selects decides


@dataclass(frozen=True)
class RuleRun:
    """One spatch program over a set of files, and how to read its output."""

    name: str
    rule: Path
    args: tuple[str, ...]
    member: re.Pattern
    # A file's text -> whether this run must see it, in place of MEMBER.
    selects: Callable[[bytes], bool] | None = None

    def wants(self, data: bytes, bodies: list[bytes]) -> bool:
        if self.selects is not None:
            return self.selects(data)
        return any(self.member.search(b) for b in bodies)


class EarlierRuns(Protocol):
    """Runs another stage of the same command made already: check's convert
    runs the conversion rule in patch and report mode on the files whose
    legacy entries the audit's report run would read, and its report part
    is what that run prints (bench/check.md).  One spatch start fewer."""

    def covers(self, run: RuleRun) -> bool:
        """Whether RUN's program and options are those of the earlier runs
        (asked up front, never waits)."""

    def result(self, run: RuleRun, path: Path) -> spatch.SpatchResult | None:
        """The earlier run of RUN on PATH (absolute), its stdout the report
        only; None when there is none, and RUN's own spatch reads PATH.  May
        wait for the stage that makes it."""


# ---------------------------------------------------------------- trees

def find_tree(path: Path) -> Path | None:
    """The top of the kernel tree PATH is in (settings.find_tree)."""
    return settings.find_tree(path).root


def _display_path(file: Path, tree: Path | None) -> str:
    if tree is not None:
        try:
            return file.resolve().relative_to(tree).as_posix()
        except ValueError:
            pass
    return file.as_posix()


def _tree_version(tree: Path | None) -> str | None:
    version = settings.tree_version(tree) if tree is not None else None
    return str(version) if version else None


# ---------------------------------------------------------------- rules

def bundle_rules(paths: tuple[Path, ...]) -> str:
    """Several rule files as one SmPL program.

    Each file's header (comments and `virtual` lines, everything before its
    first rule) is dropped and the virtual declarations are put once at
    the top; a `//` header right after a python script rule would be read
    as python.  Rule names are distinct across the audit rules by design.
    """
    virtuals, bodies = [], []
    for path in paths:
        lines = path.read_text().splitlines()
        first = next((n for n, line in enumerate(lines) if line.startswith("@")), len(lines))
        for line in lines[:first]:
            if line.startswith("virtual ") and line not in virtuals:
                virtuals.append(line)
        bodies.append("\n".join(lines[first:]))
    return "\n".join(virtuals) + "\n\n" + "\n\n".join(bodies) + "\n"


def _rule_runs(target: settings.Target, workdir: Path) -> list[RuleRun]:
    bundle = workdir / "audit_rules.cocci"
    bundle.write_text(bundle_rules(AUDIT_RULES))
    options = []
    for path in AUDIT_RULES:
        options += [o for o in rules.rule_options(path) if o not in options]
    # The entries are judged as convert would judge them for TARGET (its lock).
    conversion = settings.ConversionOptions.for_target(target)
    return [
        RuleRun("legacy", rules.CONVERSION_RULE,
                tuple(rules.rule_options(rules.CONVERSION_RULE) + conversion.spatch_args("report")),
                re.compile(rb"ioctl"), may_hold_legacy_entry),
        RuleRun("unlocked", bundle, tuple(options + ["-D", "report"]), _UNLOCKED_MEMBER),
        RuleRun("forwarding", rules.FORWARDING_RULE,
                tuple(rules.rule_options(rules.FORWARDING_RULE)
                      + conversion.forwarding_args("report")),
                _IOCTL_MEMBER, candidates_module.uses_ioctl_member),
    ]


# ---------------------------------------------------------------- running

def run_batched(run: RuleRun, files: list[Path], jobs: int, timeout: int,
                workdir: Path, done=None) -> list[spatch.SpatchResult]:
    """RUN over FILES, JOBS spatch processes at a time, results in file order;
    DONE(count) after each batch.  The fewest batches: a start-up (the
    conversion rule's parse and Python) costs more than most drivers; 6.1's
    drivers/char (22 candidates) ran in 0.6 s so against 1.3-1.8 s in 4
    batches a process.  A tree's batches are MAX_BATCH files either way."""
    return spatch.run_batched(run.rule, files, list(run.args), jobs, timeout, workdir,
                              fewest=True, done_count=done)


# ---------------------------------------------------------------- the audit

@dataclass(frozen=True)
class _Candidate:
    path: Path
    digest: str
    runs: tuple[str, ...]


PREFILTER_FORMAT = "prefilter-5"


def _classify(path: Path, runs: list[RuleRun]) -> tuple[str | None, list[str], str | None]:
    """[content digest, names of the runs that must see PATH, why it could
    not be read]."""
    try:
        data = path.read_bytes()
    except OSError as err:
        return None, [], f"cannot read it: {err.strerror}"
    # A fops embedded in a structure of a header may be the only one a
    # file has: it never names file_operations.
    if b"file_operations" not in data and not may_hold_legacy_entry(data) \
            and not candidates_module.uses_ioctl_member(data):
        return None, [], None
    bodies = fops_initializers(data)
    wanted = [run.name for run in runs if run.wants(data, bodies)]
    return (hashlib.sha256(data).hexdigest() if wanted else None), wanted, None


def _candidates(paths: list[Path], runs: list[RuleRun], cache: Cache | None = None,
                unreadable: list[tuple[Path, str]] | None = None,
                stage: Stage | None = None) -> list[_Candidate]:
    """The files worth giving to spatch, and which runs need each; the files
    that could not be read go to UNREADABLE, with why.  An unchanged file is not read
    again (cache.stat_index): on an unchanged 6.1 tree that spares ~1 GB of
    reading.  STAGE counts the files."""
    key = make_key(PREFILTER_FORMAT, *(Path(m.__file__).read_bytes() for m in (
                       candidates_module, ioctl_tokens, fops_holders, c_spans)),
                   *(run.name.encode() + run.member.pattern for run in runs),
                   *(str(p.resolve()) for p in paths))
    # The walk first (stat calls only), so that the progress line has a total.
    files = list(spatch.source_files(paths))
    if stage is not None:
        stage.add(len(files))
    verdicts = stat_index(cache, key, files, lambda path: _classify(Path(path), runs),
                          stage.tally if stage is not None else None)
    found = []
    for path, (digest, wanted, problem) in verdicts.items():
        if problem is not None:
            # Never trusted from the index: a chmod leaves the stamp as it was.
            digest, wanted, problem = _classify(Path(path), runs)
        if problem is not None and unreadable is not None:
            unreadable.append((Path(path), problem))
        elif wanted and problem is None:
            found.append(_Candidate(Path(path), digest, tuple(wanted)))
    return sorted(found, key=lambda c: c.path)


def _rule_digest(run: RuleRun) -> str:
    """What decides RUN's output besides its input: the text of its rule
    (the bundle is written, not a file of the rules), and every rule file
    with the Python they import (ioctl_rule, ctext), which a rule's text
    does not show."""
    return make_key(run.rule.read_bytes(), rules.rules_digest())


def _cache_key(run: RuleRun, candidate: _Candidate, digest: str) -> str:
    """DIGEST is _rule_digest(RUN); a change to the macro file, which every
    run reads, is in the key too."""
    return make_key(CACHE_FORMAT, digest, spatch.version(), rules.macros_digest(), run.name,
                    *run.args, str(candidate.path), candidate.digest)


_CACHEABLE = (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR)


def _attach_maintainers(findings: list[Finding], maintainers: Maintainers | None,
                        stage: Stage | None = None) -> list[Finding]:
    attached = []
    for finding in findings:
        if stage is not None:
            stage.step()
        sections = maintainers.lookup(finding.file) if maintainers else []
        if sections:
            attached.append(replace(finding, subsystem=sections[0].title,
                                    maintainers=sections[0].contacts))
        else:
            attached.append(replace(finding, subsystem=directory_subsystem(finding.file)))
    return attached


def audit(paths: list[Path], jobs: int = 2, timeout: int = DEFAULT_TIMEOUT,
          cache: Cache | None = None, compat_classes: bool = True,
          kernel: settings.KernelTree | None = None,
          target: settings.Target | None = None,
          stages: Stages | None = None, earlier: EarlierRuns | None = None) -> AuditResult:
    """Audit PATHS (files or directories of one tree, KERNEL: found from the
    first path when not given); COMPAT_CLASSES gives each missing-compat
    finding its class (ioctl_rework.compat).  The entries are judged for
    TARGET, default the tree's version (settings.DEFAULT_TARGET without one).
    STAGES shows the progress and times each stage; EARLIER, runs another
    stage makes that stand for some of the audit's own."""
    stages = stages or Stages("audit", Verbosity.QUIET)
    paths = [Path(p) for p in paths]
    for path in paths:
        if not path.exists():
            raise AuditError(f"{path}: no such file or directory")
    start = time.monotonic()
    cache = cache if cache is not None else Cache(default_directory(), "audit")
    if kernel is None:
        kernel = settings.find_tree(paths[0]) if paths else settings.KernelTree(None)
    tree = kernel.root
    target = target or kernel.version or settings.DEFAULT_TARGET
    stats = AuditStats()
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-audit-") as tmp:
        workdir = Path(tmp)
        runs = _rule_runs(target, workdir)
        unreadable: list[tuple[Path, str]] = []
        with stages.stage("prefilter") as stage:
            candidates = _candidates(paths, runs, cache, unreadable, stage)
        stats.candidates = len(candidates)
        head_start = _compat_head_start(runs, candidates, tree, jobs, timeout, cache) \
            if compat_classes else None
        results: dict[tuple[str, Path], spatch.SpatchResult] = {}
        # Each run's files counted up front: the line has its total at once.
        with stages.stage("rule runs", sum(run.name in c.runs for run in runs
                                           for c in candidates)) as stage:
            # A run another stage makes goes last: waiting for it holds up no other.
            for run in sorted(runs, key=lambda r: earlier is not None and earlier.covers(r)):
                _run_rule(run, candidates, jobs, timeout, workdir, cache, stats, results, stage,
                          earlier if earlier is not None and earlier.covers(run) else None)
    findings = []
    skipped = [SkippedFile(_display_path(path, tree), why) for path, why in unreadable]
    order = [run.name for run in runs]
    for (name, path), result in sorted(results.items(),
                                       key=lambda item: (str(item[0][1]), order.index(item[0][0]))):
        shown = _display_path(path, tree)
        if result.outcome in (spatch.Outcome.TIMEOUT, spatch.Outcome.CRASH):
            skipped.append(SkippedFile(shown, result.reason))
            continue
        # Parse errors cost spatch a region, not the file: what it found
        # elsewhere stands (a plain `spatch --dir` run reports the same),
        # and the file is listed as partly checked.
        if result.parse_errors:
            skipped.append(SkippedFile(shown, result.reason, partial=True))
        # Each result is one file's: its name is PATH, however spatch's
        # report spelled it (see spatch._run_one).
        for finding in _READERS[name](result.stdout):
            if finding.kind is Kind.FORWARDING:
                finding = replace(finding, expression=_source_line(path, finding.line))
            findings.append(replace(finding, file=shown))
    # The entries the rule did not read, in any spelling, from the text.
    merged = text_entries.merge(findings, {_display_path(c.path, tree): c.path
                                           for c in candidates if "legacy" in c.runs})
    findings, skipped = merged.findings, skipped + merged.partly
    findings = first_per_handler(findings)
    if compat_classes:
        from ioctl_rework.audit.compat_classes import classify_findings
        before = len(findings)
        findings = classify_findings(findings, tree, jobs, timeout, cache, target=target,
                                     stages=stages, head_start=head_start)
        stats.passed_by_table = before - len(findings)
        if head_start is not None:
            head_start.wait()       # when its work was not needed after all
    with stages.stage("maintainers", len(findings), unit="findings") as stage:
        findings = _attach_maintainers(findings, Maintainers.load(tree) if tree else None,
                                       stage)
    skipped = sorted(set(skipped), key=lambda s: (s.file, s.reason))
    stats.seconds = time.monotonic() - start
    stats.stage_seconds = stages.times()
    return AuditResult(findings, skipped, tree,
                       str(kernel.version) if kernel.version else None, stats)


def _compat_head_start(runs: list[RuleRun], candidates: list[_Candidate], tree: Path | None,
                       jobs: int, timeout: int, cache: Cache):
    """The compat classes begun beside the rule runs (audit.compat_head_start)
    on the candidates of the missing-compat rule, unless the cache has its
    result on each: a re-run that takes them from there takes the classes
    from there too.  Not on one core: there is nothing to run them beside."""
    unlocked = next(run for run in runs if run.name == "unlocked")
    wanted = [c for c in candidates if unlocked.name in c.runs]
    digest = _rule_digest(unlocked)
    if jobs < 2 or all(cache.get_json(_cache_key(unlocked, c, digest)) is not None
                       for c in wanted):
        return None
    from ioctl_rework.audit import compat_head_start
    return compat_head_start.start({_display_path(c.path, tree): c.path for c in wanted},
                                   tree, jobs, timeout, cache)


def _source_line(path: Path, line: int) -> str | None:
    """LINE of PATH, its spaces squeezed: the expression a finding points at."""
    try:
        lines = path.read_bytes().decode("utf-8", "surrogateescape").split("\n")
    except OSError:
        return None
    return " ".join(lines[line - 1].split()) if 0 < line <= len(lines) else None


def _run_rule(run: RuleRun, candidates: list[_Candidate], jobs: int, timeout: int,
              workdir: Path, cache: Cache, stats: AuditStats,
              results: dict[tuple[str, Path], spatch.SpatchResult], stage,
              earlier: EarlierRuns | None = None) -> None:
    """RUN over the CANDIDATES that need it, through the cache (then
    EARLIER, which covers RUN), into RESULTS."""
    digest = _rule_digest(run)
    todo = []
    wanted = [c for c in candidates if run.name in c.runs]
    for candidate in wanted:
        stored = cache.get_json(_cache_key(run, candidate, digest))
        if stored is None:
            todo.append(candidate)
            continue
        stats.cached += 1
        results[run.name, candidate.path] = spatch.SpatchResult(
            candidate.path, spatch.Outcome(stored["outcome"]), stored["stdout"], "",
            0.0, tuple(stored["parse_errors"]))
    stage.from_cache(len(wanted) - len(todo))
    if earlier is not None:
        made = {c: earlier.result(run, c.path.resolve()) for c in todo}
        todo = [c for c in todo if made[c] is None]
        for candidate, result in made.items():
            if result is not None:
                _keep(run, candidate, result, digest, cache, results)
                stage.step()
    absolute = [c.path.resolve() for c in todo]
    stats.spatch_runs += len(todo)
    for candidate, result in zip(todo, run_batched(run, absolute, jobs, timeout, workdir,
                                                   stage.step)):
        _keep(run, candidate, result, digest, cache, results)


def _keep(run: RuleRun, candidate: _Candidate, result: spatch.SpatchResult, digest: str,
          cache: Cache, results: dict[tuple[str, Path], spatch.SpatchResult]) -> None:
    # Results name the absolute path spatch was given; put the
    # caller's spelling back before anything is stored.
    result = replace(result, file=candidate.path,
                     stdout=result.stdout.replace(str(result.file) + ":",
                                                  str(candidate.path) + ":"))
    results[run.name, candidate.path] = result
    if result.outcome in _CACHEABLE:
        cache.put_json(_cache_key(run, candidate, digest), {
            "outcome": result.outcome.value, "stdout": result.stdout,
            "parse_errors": list(result.parse_errors)})



def kernel_trees(paths: list[Path]) -> dict[settings.KernelTree, list[Path]]:
    """PATHS by the kernel tree each is in (each tree and its version read once)."""
    groups: dict[settings.KernelTree, list[Path]] = {}
    for path in paths:
        if not Path(path).exists():
            raise AuditError(f"{path}: no such file or directory")
        groups.setdefault(settings.find_tree(Path(path)), []).append(Path(path))
    return groups


def audit_trees(paths: list[Path], jobs: int = 2, timeout: int = DEFAULT_TIMEOUT,
                cache: Cache | None = None, compat_classes: bool = True,
                target: settings.Target | None = None,
                trees: dict[settings.KernelTree, list[Path]] | None = None,
                verbosity: Verbosity = Verbosity.QUIET) -> list[AuditResult]:
    """One audit per kernel tree among PATHS (TREES: kernel_trees(PATHS)), oldest
    version first.  Paths inside the same tree (or in no tree) are audited
    together, each tree for its own version unless TARGET says otherwise;
    each tree's stages are timed on their own (VERBOSITY: -q/-v)."""
    groups = trees if trees is not None else kernel_trees(paths)
    results = [audit(group, jobs, timeout, cache, compat_classes, kernel, target,
                     Stages("audit", verbosity))
               for kernel, group in groups.items()]
    return sorted(results, key=_version_key)


def _version_key(result: AuditResult):
    if result.version is None:
        return (1, ())
    return (0, settings.Target.parse(result.version).version)

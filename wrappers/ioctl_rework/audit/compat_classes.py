"""The audit's missing-compat findings, each with its compat class: what a
maintainer should add (the exact line), or why nothing may be added, and
what decided what 32-bit processes get.  A handler whose every command the
tree's own compat table passes is no finding (compat.era).

The verdicts of a run are kept in the cache with every file they read
(compat.Provenance): a re-run on unchanged files takes them from there
without loading the classifier at all."""

import hashlib
from dataclasses import replace
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.cache import Cache, FileDigests, code_digest, make_key
from ioctl_rework.stages import Stages, Verbosity
from ioctl_rework.audit.findings import Finding, Kind

CLASSES_FORMAT = "audit-classes-1"
_NO_FINDING = "table-passes"        # the class of a handler the table serves


def line_to_add(classification, handler: str, target: settings.Target) -> str | None:
    """The .compat_ioctl line for a clean class, None otherwise.  Before 5.5
    a compat-ptr handler needs the NAME_compat_ioctl entry that
    semantic-patches/add_compat_ioctl.cocci writes."""
    from ioctl_rework.compat.apply import expected_line
    if not classification.compat_class.adds_compat:
        return None
    return expected_line(classification.compat_class, handler, target)


def detail(classification, handler: str, target: settings.Target) -> str:
    line = line_to_add(classification, handler, target)
    if line:
        return f"add `{line}` ({classification.reason})"
    if classification.offenders:
        return "; ".join(map(str, classification.offenders))
    return classification.reason


def _code_digest() -> str:
    """The text of the classifier and of this module: what a kept verdict
    came from, with the facts rule and spatch."""
    here = Path(__file__).resolve()
    return code_digest(here, *sorted((here.parents[1] / "compat").glob("*.py")))


def _key(tree: Path | None, missing: list[Finding], target: settings.Target) -> str:
    from ioctl_rework.paths import rules_dir
    return make_key(CLASSES_FORMAT, _code_digest(),
                    hashlib.sha256((rules_dir() / "ioctl_compat_facts.cocci").read_bytes())
                    .hexdigest(), rules.macros_digest(), spatch.version(), str(tree),
                    str(target),
                    *sorted(f"{f.file}\0{f.handler}" for f in missing))


def classified_path(file: str, tree: Path | None) -> Path:
    """The path the classifier reads for FILE, as a finding names it."""
    return tree / file if tree and not Path(file).is_absolute() else Path(file)


def _verdicts(missing: list[Finding], tree: Path | None, target: settings.Target, jobs: int,
              timeout: int, cache: Cache | None, stages: Stages,
              head_start=None) -> tuple[dict, object]:
    """(file, handler) -> [class, detail, source] of each missing-compat
    finding, and what the classifier read to decide them (HEAD_START's, an
    audit.compat_head_start.HeadStart, when it ran on these files)."""
    from ioctl_rework.compat import Classification, CompatClass, classify_files_read
    files = sorted({f.file for f in missing})
    where = {file: classified_path(file, tree) for file in files}
    started = head_start.result_for(files, stages) if head_start is not None else None
    found, provenance = started or classify_files_read([where[f] for f in files], tree, jobs,
                                                       timeout, cache, stages)
    shown = {str(path): file for file, path in where.items()}
    by_handler = {(shown.get(c.file, c.file), c.handler): c for c in found}
    verdicts = {}
    for finding in missing:
        decided = by_handler.get((finding.file, finding.handler)) or Classification(
            finding.file, finding.handler, CompatClass.UNKNOWN,
            reason=f"no definition of {finding.handler} with cmd and arg parameters was "
                   "found in this file (or spatch could not read it)")
        verdicts[finding.file, finding.handler] = [
            decided.compat_class.value, detail(decided, finding.handler, target),
            decided.source or None]
    return verdicts, provenance


def classify_findings(findings: list[Finding], tree: Path | None, jobs: int = 2,
                      timeout: int = 120, cache: Cache | None = None, *,
                      target: settings.Target, stages: Stages | None = None,
                      head_start=None) -> list[Finding]:
    """FINDINGS with compat_class, compat_detail and compat_source set on each
    missing-compat one, without those the tree's compat table passes.
    STAGES shows the progress: the stage "compat" counts the findings, and
    the classifier's own stages (compat.classify_files_read) its files.
    HEAD_START: the classifier begun before the findings were known
    (audit.compat_head_start), used when it ran on their files."""
    missing = [f for f in findings if f.kind is Kind.MISSING_COMPAT]
    if not missing:
        return findings
    stages = stages or Stages("audit", Verbosity.QUIET)
    with stages.stage("compat", len(missing), unit="findings") as stage:
        key = _key(tree, missing, target)
        stored = cache.get_json(key) if cache is not None else None
        digests = FileDigests()
        if stored is not None and digests.unchanged(stored["reads"]):
            verdicts = {(file, handler): verdict
                        for file, handler, verdict in stored["verdicts"]}
            stage.from_cache(len(missing))
        else:
            verdicts, provenance = _verdicts(missing, tree, target, jobs, timeout, cache,
                                             stages, head_start)
            if cache is not None and provenance.keepable:
                cache.put_json(key, {"reads": digests.record(provenance.reads),
                                     "verdicts": [[f, h, v] for (f, h), v in verdicts.items()]})
            stage.step(len(missing))
    result = []
    for finding in findings:
        if finding.kind is Kind.MISSING_COMPAT:
            compat_class, compat_detail, source = verdicts[finding.file, finding.handler]
            if compat_class == _NO_FINDING:
                continue
            finding = replace(finding, compat_class=compat_class, compat_detail=compat_detail,
                              compat_source=source)
        result.append(finding)
    return result

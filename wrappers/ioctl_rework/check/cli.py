"""`ioctl-rework check`: the audit, run on what a patch changes, as a gate.

The stages: check.input reads the patches (a commit, a range commit by
commit, a patch file or mbox mail by mail, the staged changes) and the
files as each leaves them, which are laid out in a scratch directory, one
per patch; the rules run there once for all of them (check.rule_runs;
spatch only on files where a patch changes ioctl code, see ctext.spans);
check.judge keeps the findings a patch introduced (where it changes code:
on an added line, or in a structure or handler it changes) and says where
a bare patch shows too little to decide; check.compiled adds the legacy
entries the preprocessor keeps that the rules did not read; check.result
prints them as checkpatch.pl would, or as json or SARIF.  With --kdir,
gcc has the last word (check.compiler): each changed .c is compiled
against KDIR with the legacy member taken out of struct file_operations.
A gate does not pass what it could not read: such code is NOT_CHECKED, an
error unless --allow-unchecked.  A signal stops every child at once
(children), and the watchdog does after SIGKILL.
"""

import argparse
import contextlib
import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ioctl_rework import children, options, safe_write, scratch, scratch_dirs, settings
from ioctl_rework.check import hook
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.ctext import include_search
from ioctl_rework.ctext.spans import LEGACY_MEMBER, ioctl_lines, unparsed_region
from ioctl_rework.check.input import (DEFAULT_MAX_PATCH_SIZE, InputError, PatchInput,
                                     SourceKind, read_inputs, unchecked_reason)
from ioctl_rework.check.compiled import legacy_entries
from ioctl_rework.check.kbuild_changes import flag_changes
from ioctl_rework.check.prototypes import STALE_PROTOTYPE
from ioctl_rework.check.judge import (FileView, anchor, cosmetic_lines, how_to_check,
                                      missing_context, unchecked_level)
from ioctl_rework.check.result import (FORMATS, CheckReport, CheckResult, Level, Problem,
                                       Skipped)
from ioctl_rework.check.rule_runs import (NOT_CHECKED, Conversion, ConversionJob, Raw,
                                      RuleFindings, conversions, run_rules)
from ioctl_rework.convert.request import VerifyOptions
from ioctl_rework.audit.findings import Kind
from ioctl_rework.names import quoted
from ioctl_rework.patches.parser import MalformedPatch
from ioctl_rework.patches.patch_set import SOURCE_SUFFIXES, FinalFile, Line, whole_file
from ioctl_rework.stages import (Stages, Verbosity, add_verbosity_arguments, times_text,
                                 verbosity_of)

if TYPE_CHECKING:     # only --kdir loads verify/ and check.compiler
    from ioctl_rework.check.compiler import Compiled
    from ioctl_rework.verify.build import KernelDir

DEFAULT_TIMEOUT = 60
# A series adding many legacy drivers shows the first few conversions;
# converting every file would cost more than the check itself (--fix does).
MAX_CONVERSIONS_SHOWN = 10


@dataclass(frozen=True)
class CheckRequest:
    source: SourceKind
    value: str | None = None            # the range for GIT, the file for DIFF ("-": stdin)
    tree: Path | None = None            # the git work tree, or the tree a DIFF applies to
    fix: bool = False
    jobs: int = 2
    timeout: int = DEFAULT_TIMEOUT
    squash: bool = False                # a range as one diff, not commit by commit
    allow_unchecked: bool = False       # NOT_CHECKED is a warning, not an error
    # Each changed .c compiled with the legacy member taken out (check.compiler);
    # with --fix, each conversion built before and after too.
    kdir: "KernelDir | None" = None
    # How the conversions shown (and --fix's) are made: for the tree's
    # version (settings.resolve); without a tree, for settings.DEFAULT_TARGET.
    conversion: settings.ConversionOptions = settings.ConversionOptions.for_target(
        settings.DEFAULT_TARGET)
    max_patch_size: int = DEFAULT_MAX_PATCH_SIZE
    compile: bool = True                # with KDIR: compile (False: --fix's builds only)
    # Outside a tree with --no-kernel-headers: what the run did not read, said after it.
    unread_headers: str | None = None


@dataclass
class _Unit:
    """One patch (or one commit of a range) laid out in its own directory."""
    patch: PatchInput
    root: Path
    result: CheckResult
    finals: dict[str, FinalFile] = field(default_factory=dict)
    views: dict[str, FileView] = field(default_factory=dict)
    # path -> the changed lines that can be part of a finding
    relevant: dict[str, list[int]] = field(default_factory=dict)
    raws: list[Raw] = field(default_factory=list)
    conversions: dict[str, Conversion] = field(default_factory=dict)
    staged: bool = False                # from the pre-commit hook, most likely
    # path -> its name in ROOT: a file judged as C that is not named so
    # (an .inc a new file includes) gets a .c name the rules read.
    scratch_names: dict[str, str] = field(default_factory=dict)

    @property
    def kbuild_root(self) -> Path:
        """Where the Makefiles above the patch's files are laid out, apart
        from ROOT, which the rules read."""
        return self.root.with_name(self.root.name + ".kbuild")

    def scratch_path(self, path: str) -> Path:
        return self.root / self.scratch_names.get(path, path)

    def convertible(self, path: str) -> bool:
        return path not in self.scratch_names

    def conversion_job(self, paths, options: settings.ConversionOptions,
                       verify: VerifyOptions = VerifyOptions()) -> ConversionJob:
        return ConversionJob(self.root, tuple(paths), options, verify)


def _lay_out(patch: PatchInput, root: Path, level: Level, staged: bool) -> _Unit:
    unit = _Unit(patch, root, CheckResult(
        patch.name, lines_checked=patch.lines_checked,
        commit=patch.commit.sha if patch.commit else None), staged=staged)
    unit.result.notes += patch.notes
    if patch.too_large:
        unit.result.problems.append(Problem(level, NOT_CHECKED, patch.too_large, "", 0, 0, ""))
        return unit
    cosmetic = cosmetic_lines(patch.patch_set)
    finals = {f.path: f for f in patch.patch_set.final_files()}
    for path, why in patch.whole.items():
        finals[path] = whole_file(path, patch.post_images[path].decode(errors="surrogateescape"),
                                  why.patch_line)
        unit.result.notes.append(f"{quoted(path)} is judged as added whole: {why.reason}")
    for f in finals.values():
        reason = unchecked_reason(f, f.path in patch.whole)
        if reason is None and f.path not in patch.post_images:
            reason = "not in the tree the patch leaves"
        if reason is None:
            unit.finals[f.path] = f
            continue
        unit.result.skipped.append(Skipped(f.path, reason))
        if f.binary and f.is_source and not f.deleted and not f.symlink:
            unit.result.problems.append(_binary_source(f, level, not patch.from_git))
    patch_lines = patch.text.split("\n")
    for unread in patch.unread:
        shown = patch_lines[unread.patch_line - 1] if 0 < unread.patch_line <= len(
            patch_lines) else ""
        unit.result.problems.append(Problem(
            level, NOT_CHECKED, unread.reason + how_to_check(not patch.from_git, staged),
            unread.path, 0, unread.patch_line, shown))
    unit.result.problems += flag_changes(patch.patch_set, level, staged)
    for stale in patch.stale:
        unit.result.problems.append(Problem(
            Level.ERROR, STALE_PROTOTYPE,
            f"{stale.header}:{stale.header_line} still declares {stale.handler} with the legacy "
            "prototype (struct inode *, struct file *, ...) the patch converts it from: "
            "change the header with it (a file that includes it does not build, or calls "
            f"{stale.handler} with the old arguments)",
            stale.path, stale.line, stale.patch_line, stale.text, handler=stale.handler))
    for path, data in patch.kbuild_files.items():
        scratch.write_inside(unit.kbuild_root, path, data)
        # The rule and convert read a file's kbuild flags beside it, as
        # convert does in the tree; not a tree's top Makefile, which would
        # make the scratch directory a tree without headers (the kernel
        # given is read where a file has no tree).
        if path not in unit.finals and not (path.rsplit("/", 1)[-1] == "Makefile" and
                                            include_search.sets_version(data[:4096])):
            scratch.write_inside(root, path, data)
    for path, f in unit.finals.items():
        if not path.endswith(SOURCE_SUFFIXES):
            unit.scratch_names[path] = path + ".ioctl-rework.c"
        scratch.write_inside(root, unit.scratch_names.get(path, path), patch.post_images[path])
        view = FileView(f, patch.post_images[path].decode(errors="surrogateescape"),
                        cosmetic, patch.reconstructed)
        unit.views[path] = view
        unit.raws += missing_context(view, level, path)
        if b"ioctl" in patch.post_images[path]:
            lines = ioctl_lines(view.text, {**view.changed_gaps, **view.changed})
            lines = sorted(set(lines) | set(view.section_ioctl_lines()))
            if lines:
                unit.relevant[path] = lines
    unit.result.files_checked = list(unit.finals)
    return unit


def _binary_source(f: FinalFile, level: Level, patch_file: bool) -> Problem:
    """A C file the patch shows as binary: a patch file does when the file
    holds a NUL; check's own git diffs only when an attribute says so."""
    why = ("the patch shows this C file as binary (a NUL byte in it?), so none of its "
           "lines can be read; check the commit with --git REV, which reads such files "
           "as text") if patch_file else (
           "git shows this C file as binary (a `binary` or `-diff` attribute in "
           ".gitattributes?), so none of its lines can be read")
    header = f"diff --git {quoted('a/' + f.path)} {quoted('b/' + f.path)}"
    return Problem(level, NOT_CHECKED, why, f.path, 0, f.patches[-1].patch_line, header)


def run_check(request: CheckRequest, stages: Stages | None = None) -> CheckReport:
    """The check REQUEST asks for, each stage timed through STAGES."""
    stages = stages or Stages("check", Verbosity.QUIET)
    level = unchecked_level(request.allow_unchecked)
    # A signal kills every child at once and unwinds the scratch directory;
    # after SIGKILL, the watchdog does both; if the watchdog dies too, the
    # next check removes the directory (scratch_dirs).
    with children.stop_on_signals(), \
            scratch_dirs.owned_directory("ioctl-rework-check.") as tmp, \
            children.removed_if_killed(tmp), scratch.temporary_files_in(Path(tmp)), \
            contextlib.ExitStack() as stack:
        work = Path(tmp)
        with stages.stage("input"):
            patches = read_inputs(request.source, request.value, request.tree, work,
                                  request.squash, request.max_patch_size)
            staged = request.source is SourceKind.STAGED
            units = [_lay_out(p, work / f"patch-{i}", level, staged)
                     for i, p in enumerate(patches)]
        # The Makefiles laid out stand for the tree's: a make variable no
        # Makefile of the tree assigns is empty here too, as convert reads it.
        tree = _context_tree(request)
        stack.enter_context(include_search.trees_copied(
            {copy: tree for u in units if tree is not None and not u.patch.reconstructed
             for copy in (u.root, u.kbuild_root)}))
        if any(u.relevant for u in units):
            with stages.stage("rule runs"):
                _run_rules(units, request, work)
        with stages.stage("judging"):
            for unit in units:
                _judge(unit, level, request.conversion.target)
        if request.kdir is not None and request.compile:
            with stages.stage("compile", len(units), "patches") as stage:
                for unit in units:
                    _compile(unit, request, level)
                    stage.step()
        with stages.stage("conversions"):
            _show_conversions(units, request)
        if request.fix:
            with stages.stage("fix", len(units), "patches") as stage:
                for unit in units:
                    _fix(unit, request)
                    stage.step()
        for unit in units:
            _to_input_lines(unit)
    name = request.value if len(units) > 1 else units[0].result.name
    return CheckReport(name or units[0].result.name, [u.result for u in units],
                       stages.times())


def _to_input_lines(unit: _Unit) -> None:
    """Patch lines counted in the file the user gave (a mail's headers come
    before its patch)."""
    offset = unit.patch.line_offset
    if offset:
        unit.result.problems = [replace(p, patch_line=p.patch_line + offset)
                                if p.patch_line else p for p in unit.result.problems]


def _run_rules(units: list[_Unit], request: CheckRequest, work: Path) -> None:
    # A file with a legacy member will most likely need its conversion
    # shown: convert starts next to the rules.  (--fix converts every
    # file afterwards.)
    first, budget = [], 0 if request.fix else MAX_CONVERSIONS_SHOWN
    for unit in units:
        likely = [p for p in unit.relevant if unit.convertible(p)
                  and LEGACY_MEMBER.search(unit.patch.post_images[p])]
        first.append(likely[:max(0, budget)])
        budget -= len(first[-1])
    jobs = [u.conversion_job(paths, request.conversion)
            for u, paths in zip(units, first) if paths]
    paths = [u.scratch_path(p) for u in units for p in u.relevant]
    found, converted = run_rules(paths, jobs, request.jobs, request.timeout, work,
                                 request.conversion.target)
    for job, result in zip(jobs, converted):
        next(u for u in units if u.root == job.root).conversions.update(result)
    for unit in units:
        _take(unit, found, unchecked_level(request.allow_unchecked))


def _owner(unit: _Unit, file: str) -> str | None:
    """The path relative to UNIT's root of FILE, a rule's file name."""
    path = Path(file)
    for rel in unit.finals:
        if path == unit.scratch_path(rel):
            return rel
    real = path.resolve()
    return next((rel for rel in unit.finals if unit.scratch_path(rel).resolve() == real), None)


def _take(unit: _Unit, found: RuleFindings, level: Level) -> None:
    """UNIT's share of the rules' findings, and NOT_CHECKED for its added
    ioctl code a rule could not read.  spatch resumes after a parse error:
    a run that gave up only outside the added ioctl code has still read
    all of it, and one that gave up inside it has not, whatever it found."""
    for raw in found.raws:
        rel = _owner(unit, raw.file)
        if rel is not None:
            unit.raws.append(replace(raw, file=rel))
    errors = {}
    for path, lines in found.parse_errors.items():
        rel = _owner(unit, str(path))
        if rel is not None:
            errors[rel] = lines
    for skip in found.skipped:
        rel = _owner(unit, str(skip.file))
        if rel is None:
            continue
        partial = skip.partial
        if rel in unit.relevant and errors.get(rel):
            text = unit.views[rel].text
            partial = not any(n in unparsed_region(text, error) for error in errors[rel]
                              for n in unit.relevant[rel])
        skipped = Skipped(rel, skip.reason, partial)
        if skipped in unit.result.skipped:
            continue
        unit.result.skipped.append(skipped)
        if not partial and rel in unit.relevant:
            unit.raws.append(Raw(NOT_CHECKED, level,
                                 "a rule could not check the ioctl code this patch adds: "
                                 f"{skip.reason}" + how_to_check(unit.patch.reconstructed,
                                                                 unit.staged),
                                 rel, unit.relevant[rel][0], "", ""))


def _anchor(raw: Raw, view: FileView) -> Line | None:
    if raw.type == NOT_CHECKED and not raw.handler:
        line = view.changed.get(raw.line) or view.changed_gaps.get(raw.line)
        return replace(line, new=raw.line) if line else None
    return anchor(raw, view)


def _judge(unit: _Unit, level: Level, target: settings.Target) -> None:
    introduced = []
    for raw in unit.raws:
        shown = _anchor(raw, unit.views[raw.file])
        if shown is not None:
            introduced.append((raw, shown))
    order = list(unit.finals)
    introduced.sort(key=lambda t: (order.index(t[0].file), t[1].new, t[0].type))
    # Code a rule could not read is no news where another error is shown.
    errors = {(raw.file, shown.new) for raw, shown in introduced
              if raw.level is Level.ERROR and raw.type != NOT_CHECKED}
    for raw, shown in introduced:
        if raw.type == NOT_CHECKED and (raw.file, shown.new) in errors:
            continue
        problem = Problem(raw.level, raw.type, raw.message, raw.file, shown.new,
                          shown.patch_line, shown.kind + shown.text, raw.struct,
                          raw.handler, note=raw.note)
        if problem not in unit.result.problems:
            unit.result.problems.append(problem)
    # What the rules did not say about legacy entries the target compiles.
    for path, view in unit.views.items():
        for placed in legacy_entries(view, path, target.version, level,
                                     unit.kbuild_root if unit.patch.kbuild_files else None):
            raw, shown = placed.raw, placed.shown
            # Said already, or the file is NOT_CHECKED: the rules could not read it.
            if any(p.file == path and (p.type == NOT_CHECKED or (
                    p.handler == raw.handler and p.type == Kind.LEGACY_IOCTL.name))
                   for p in unit.result.problems):
                continue
            unit.result.problems.append(Problem(
                raw.level, raw.type, raw.message, path, shown.new, shown.patch_line,
                shown.kind + shown.text, raw.struct, raw.handler))


def _context_tree(request: CheckRequest) -> Path | None:
    """The files around the patch's: the tree's (the scratch copy has only the patch's)."""
    return request.tree or (None if request.source is SourceKind.DIFF else Path.cwd())


def _compile(unit: _Unit, request: CheckRequest, level: Level) -> None:
    """gcc's word on UNIT's changed .c files (check.compiler), added to
    what the rules and the text said."""
    sources = [p for p in unit.finals if p.endswith(".c") and unit.convertible(p)]
    if not sources:
        return
    if unit.patch.reconstructed:
        # The command line refuses this (--kdir wants --tree); a caller of run_check is told.
        unit.result.notes.append("--kdir: nothing compiled: a bare patch's files are "
                                 "rebuilt from its lines, not whole; give --tree")
        return
    files = {p: unit.patch.post_images[p] for p in unit.finals}
    from ioctl_rework.check.compiler import compile_marked
    compiled = compile_marked(request.kdir, _context_tree(request) or unit.root, files,
                              sources, request.jobs)
    for source in sources:
        _take_compiled(unit, compiled[source], level)


def _take_compiled(unit: _Unit, compiled: "Compiled", level: Level) -> None:
    result = unit.result
    if compiled.stopped:
        view = unit.views[compiled.source]
        first = min(view.changed.items(), default=None)
        result.problems.append(Problem(
            level, NOT_CHECKED, f"--kdir: {compiled.stopped}, so the compiler did not read "
            "all of this file; make it build against KDIR, or review it by hand and pass "
            "--allow-unchecked", compiled.source,
            first[0] if first else 0, first[1].patch_line if first else 0,
            first[1].kind + first[1].text if first else ""))
    else:
        if compiled.other_errors:
            result.notes.append(f"--kdir: {quoted(compiled.source)} does not build against "
                                f"KDIR: {compiled.other_errors[0]}")
        # gcc read these files whole: what the rules could not read there
        # hides no legacy member (gcc would have said), other checks aside.
        result.problems = [replace(p, level=Level.WARNING, message=p.message + (
            "; gcc read it (--kdir) and found every use of the legacy member, so this only "
            "leaves the rules' other checks undone")) if p.type == NOT_CHECKED and
            p.level is Level.ERROR and p.file in compiled.read else p for p in result.problems]
    for use in compiled.uses:
        # Shown where the patch changes one of gcc's places, the file compiled first.
        changed = [(f, n) for f, n in reversed(use.places)
                   if f in unit.views and n in unit.views[f].changed]
        path, line = changed[0] if changed else use.places[-1]
        if any(p.type == Kind.LEGACY_IOCTL.name and p.file == path and p.line == line
               for p in result.problems):
            continue
        result.problems = [p for p in result.problems
                           if not (p.type == NOT_CHECKED and p.file == path and p.line == line)]
        shown = unit.views[path].changed[line] if changed else None
        message = (f"gcc, with the legacy ioctl member taken out of struct file_operations "
                   f"as in 2.6.36, says {use}")
        if not changed:
            message += ("; the patch changes none of these lines, so this is legacy code it "
                        "leaves compiled (or made live elsewhere)")
        result.problems.append(Problem(
            Level.ERROR if changed else Level.WARNING, Kind.LEGACY_IOCTL.name, message,
            path, line if changed else 0, shown.patch_line if shown else 0,
            shown.kind + shown.text if shown else "", "file_operations"))


def _show_conversions(units: list[_Unit], request: CheckRequest) -> None:
    """The conversion of each file with a new legacy .ioctl, at its first
    one (one diff converts them all), for the first files of the run."""
    legacy = [(u, p) for u in units for p in dict.fromkeys(
        p.file for p in u.result.problems if p.type == Kind.LEGACY_IOCTL.name)]
    shown = legacy if request.fix else legacy[:MAX_CONVERSIONS_SHOWN]
    for unit in units:
        todo = [p for u, p in shown
                if u is unit and p not in unit.conversions and unit.convertible(p)]
        if todo and not request.fix:
            unit.conversions.update(conversions(unit.conversion_job(todo, request.conversion),
                                                request.jobs, request.timeout)[0])
    if len(legacy) > len(shown):
        units[-1].result.notes.append(
            f"conversions shown for the first {len(shown)} of {len(legacy)} files with a "
            "new legacy .ioctl; `--fix` prints them all")
    for unit in units:
        problems = []
        for p in unit.result.problems:
            if p.type == Kind.LEGACY_IOCTL.name and p.file in unit.conversions:
                conversion = unit.conversions.pop(p.file)
                note = p.note
                if conversion.failure:
                    note = f"the conversion rule failed on this file: {conversion.failure}"
                p = replace(p, conversion=conversion.diff, note=note)
            problems.append(p)
        unit.result.problems = problems


def _fix(unit: _Unit, request: CheckRequest) -> None:
    paths = [p for p in unit.finals if unit.convertible(p)]
    verify = VerifyOptions(kdir=request.kdir, context_root=_context_tree(request))
    found, notes = conversions(unit.conversion_job(paths, request.conversion, verify),
                               request.jobs,
                               request.timeout)
    result = unit.result
    result.fix_diff = "".join(found[p].diff for p in paths)
    result.notes += [f"--fix: {p} not converted: {found[p].failure}"
                     for p in paths if found[p].failure]
    result.notes += [f"--fix: {note}" for note in notes]


# The command line.

EXAMPLES = """\
examples:
  ioctl-rework check --git origin/master..HEAD     each commit of a range
  ioctl-rework check --git HEAD                    one commit
  ioctl-rework check --diff 0001-foo.patch --tree ~/linux
  git diff | ioctl-rework check --diff - --kernel-headers ~/linux
      a patch with no kernel tree: the headers of the kernel it is for (or --kdir
      KDIR; --no-kernel-headers checks without them, at the risk it warns of)
  ioctl-rework check --install-hook                check --staged before every commit

exit status: 1 when a patch adds an ERROR (code it could not check counts,
unless --allow-unchecked), 0 otherwise, 2 when the input cannot be used (and
outside a kernel tree without --kernel-headers, --kdir or --no-kernel-headers).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Check a patch for legacy ioctl code it adds, as checkpatch.pl "
                          "does for style. Exit 1 when it adds an ERROR, 0 otherwise, "
                          "2 when the input cannot be used.")
    parser.epilog = EXAMPLES
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--git", metavar="REV_RANGE",
                        help="check a commit (REV), or each commit of a range (A..B, "
                             "A...B) on its own, as checkpatch.pl --git does")
    source.add_argument("--diff", metavar="FILE",
                        help="check a patch file (`-` for stdin); git or diff -u format")
    source.add_argument("--staged", action="store_true",
                        help="check the staged changes (what `git commit` would commit)")
    source.add_argument("--install-hook", action="store_true",
                        help="install a git pre-commit hook that runs `check --staged` "
                             "(with the --kernel-headers, --kdir or --no-kernel-headers given "
                             "here: outside a kernel tree it needs one)")
    parser.add_argument("--squash", action="store_true",
                        help="with --git A..B: check the range as one diff, as it leaves "
                             "the tree, instead of commit by commit")
    parser.add_argument("--tree", metavar="DIR", type=Path,
                        help="the git work tree (default: the current directory); with "
                             "--diff, the tree the patch applies to (default: none, the "
                             "patch's own lines are checked)")
    options.add_output_group(parser, OUTPUT_FORMATS, "text")
    parser.add_argument("--fix", action="store_true",
                        help="also print the conversion of every file the patch touches")
    parser.add_argument("--kdir", type=Path, metavar="KDIR",
                        help="compile each changed .c against this configured and prepared "
                             "kernel tree with the ioctl member taken out of struct "
                             "file_operations: every use gcc sees is an error, however it "
                             "is spelled; with --fix, also build each conversion before "
                             "and after, as convert --kdir does (the files around the "
                             "patch's come from --tree)")
    parser.add_argument("--allow-unchecked", action="store_true",
                        help="report ioctl code no rule could read (NOT_CHECKED) as a "
                             "warning instead of an error")
    parser.add_argument("--max-patch-size", type=_size, default=DEFAULT_MAX_PATCH_SIZE,
                        metavar="BYTES",
                        help="a patch (or a commit's diff) larger than this is NOT_CHECKED "
                             "without being read (suffixes K, M, G; default: 16M)")
    options.add_target_group(parser)
    options.add_parallel_group(parser)
    options.add_timeout_argument(parser, DEFAULT_TIMEOUT, "per file and rule")
    add_verbosity_arguments(parser)


def _size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (want e.g. 16M)")
    return int(match[1]) * 1024 ** " KMG".index((match[2] or " ").upper())


OUTPUT_FORMATS = {"text": "as checkpatch.pl prints it", "json": "one record per patch",
                  "sarif": "SARIF 2.1.0 for code-scanning views"}


def _request(args: argparse.Namespace) -> CheckRequest | None:
    """The request ARGS make, resolved once: the conversions are for the
    version of the tree the patches go to (--target overrides)."""
    for source, value in ((SourceKind.GIT, args.git), (SourceKind.DIFF, args.diff),
                          (SourceKind.STAGED, True if args.staged else None)):
        if value is not None:
            kdir = _kdir(args, source)
            # The git work tree is the current directory without --tree; a
            # patch file has a tree only when --tree names one.
            base = args.tree or (None if source is SourceKind.DIFF else Path.cwd())
            tree = settings.find_tree(base) if base else settings.KernelTree(None)
            run = settings.resolve(args, tree, outputs=options.output_paths(args))
            # Outside a tree, a macro of a header not read may forward through
            # ->ioctl unseen: refused unless a kernel is given or the risk taken.
            unread = None
            if tree.root is None and run.kernel is None:
                where = base or args.diff
                if not run.unread_headers_accepted:
                    raise settings.SettingsError(settings.unread_headers_refusal(where))
                unread = settings.unread_headers_warning(where)
            # The rule reads the headers of --kernel-headers where a file has no tree.
            include_search.use_kernel(run.kernel and run.kernel.source,
                                      run.kernel and run.kernel.build)
            return CheckRequest(source, None if source is SourceKind.STAGED else value,
                                args.tree, args.fix, run.jobs, args.timeout, args.squash,
                                args.allow_unchecked, kdir, run.conversion,
                                args.max_patch_size, unread_headers=unread)
    return None


def _kdir_errors() -> tuple:
    """verify's errors, once loaded: only --kdir loads verify/, and nothing
    else raises them."""
    build = sys.modules.get("ioctl_rework.verify.build")
    return (build.BuildError, build.KdirError) if build is not None else ()


def _kdir(args: argparse.Namespace, source: SourceKind) -> "KernelDir | None":
    if args.kdir is None:
        return None
    from ioctl_rework.verify.build import KdirError, KernelDir
    kdir = KernelDir.open(args.kdir)
    if source is SourceKind.DIFF and args.tree is None:
        raise KdirError("--kdir compiles the files a patch leaves, whole: with --diff, "
                        "give the tree it applies to (--tree DIR)")
    return kdir


def _kernel_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The options naming the kernel whose headers check reads outside a
    tree, as given (directories made absolute): a hook runs with them."""
    if args.kernel_headers is not None:
        return ("--kernel-headers", os.path.abspath(args.kernel_headers))
    if args.kdir is not None:
        return ("--kdir", os.path.abspath(args.kdir))
    return ("--no-kernel-headers",) if args.no_kernel_headers else ()


def main(args: argparse.Namespace) -> int:
    if args.install_hook:
        try:
            installed = hook.install(args.tree or Path.cwd(), _kernel_options(args))
        except hook.HookError as err:
            print(f"ioctl-rework check: {err}", file=sys.stderr)
            return 2
        print(installed.describe())
        return 0
    try:
        request = _request(args)
    except (*_kdir_errors(), settings.SettingsError) as err:
        print(f"ioctl-rework check: {err}", file=sys.stderr)
        return 2
    if request is None:
        print("ioctl-rework check: say what to check: --git REV_RANGE, --diff FILE "
              "or --staged (or --install-hook)", file=sys.stderr)
        return 2
    if args.squash and request.source is not SourceKind.GIT:
        print("ioctl-rework check: --squash goes with --git A..B", file=sys.stderr)
        return 2
    try:
        stages = Stages("check", verbosity_of(args))
        report = run_check(request, stages)
    except children.Stopped as stop:
        print(f"ioctl-rework check: stopped by {stop}; its children are killed and its "
              "scratch directory removed", file=sys.stderr)
        return stop.exit_status
    except (InputError, spatch.SpatchMissing, *_kdir_errors()) as err:
        print(f"ioctl-rework check: {err}", file=sys.stderr)
        return 2
    except scratch.UnsafePath as err:
        print(f"ioctl-rework check: {err}; nothing was checked", file=sys.stderr)
        return 2
    except MalformedPatch as err:
        print(f"ioctl-rework check: malformed patch: {err}", file=sys.stderr)
        return 2
    try:
        _write(FORMATS[args.format](report), args.output)
    except safe_write.WriteError as err:
        print(f"ioctl-rework check: {err}", file=sys.stderr)
        return 2
    if request.unread_headers:
        print(f"check: warning: {request.unread_headers}", file=sys.stderr)
    # The gate's output stays checkpatch's: the stage times with -v only.
    if stages.verbosity >= Verbosity.VERBOSE:
        print(f"check: {times_text(report.stage_seconds)}", file=sys.stderr)
    if args.format != "text":
        for result in report.results:
            for s in result.skipped:
                print(f"check: {s.describe()}", file=sys.stderr)
    return report.exit_status


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        safe_write.write_atomic(output, text.encode("utf-8", "surrogateescape"))

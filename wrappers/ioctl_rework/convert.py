"""`ioctl-rework convert`: rewrite every .ioctl handler under PATH... with the rule.

A run has two phases.  Phase 1 runs the conversion rule on each file that
declares a `.ioctl` fops entry, in report and patch mode at once: the
report lines say what the rule decided for every handler, the diff is the
rewrite.  A handler the rule left alone because it is defined in another
file is resolved in phase 2: every file of the tree that names it (its
definition, headers with its prototype, callers) is run again with the
handler listed (-D handlers=...), and the handler is kept only when all of
those files were rewritten.  Otherwise it is dropped everywhere and the
files are run again without it.

Files are grouped by the handler names they share; groups are independent,
which is what lets `--shard K/N` split a run by group and `merge` put the
pieces back together exactly.
"""

import argparse
import enum
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework import c_spans, rules, safe_write, series, shard as shard_mod, spatch, tidy
from ioctl_rework.summary import (FileRecord, FileStatus, HandlerRecord, HandlerStatus,
                                  Summary, text_report)
from ioctl_rework import summary as summary_mod
from ioctl_rework.unified import apply_hunks, git_diff

# A file that may declare a .ioctl fops entry: the rule decides whether it does.
FOPS_PATTERN = rb"\.ioctl\s*=|\bioctl\s*:"
# The handler of a .ioctl entry: a name, or a macro call such as DRM(ioctl).
_FOPS_NAME = re.compile(rb"(?:\.ioctl\s*=|\bioctl\s*:)\s*(\w+(\s*\(\s*\w+\s*\))?)\s*[,}\n]")
# Report reasons that mean "defined in another file": phase 2 resolves them.
_ELSEWHERE = ("not defined in this file", "defined in another file")
_NO_MATCH = "ioctl_rework_no_match_"
_SPATCH_SAFE_NAME = re.compile(r"[\w./+-]+")


class InputError(Exception):
    """Bad input: a path that does not exist, a target that cannot be read."""


class Output(enum.Enum):
    DIFF = "diff"
    IN_PLACE = "in-place"
    SERIES = "series"


@dataclass(frozen=True)
class ConvertRequest:
    paths: tuple[Path, ...]
    options: rules.ConversionOptions
    root: Path
    jobs: int = 2
    timeout: int = 120
    output: Output = Output.DIFF
    series_dir: Path | None = None
    split: series.Split = series.Split.FILE
    shard: shard_mod.Shard | None = None
    cache: cache_mod.Cache = field(default_factory=lambda: cache_mod.Cache(None))
    progress: bool = False


@dataclass
class ConversionResult:
    summary: Summary
    # relpath -> (old bytes, new bytes) of every file the run rewrites
    changes: dict[str, tuple[bytes, bytes]]
    recovered: list[Path] = field(default_factory=list)

    @property
    def diff(self) -> str:
        return "".join(f.diff for f in self.summary.files if f.diff)

    @property
    def failed(self) -> bool:
        return any(h.status is HandlerStatus.FAILED for h in self.summary.handlers) or \
            any(f.status is FileStatus.FAILED for f in self.summary.files)


# ------------------------------------------------------------ one spatch run

@dataclass(frozen=True)
class FileRun:
    """The rule on one file with one handler list: decisions and new content."""

    file: str
    listed: tuple[str, ...]
    decisions: tuple[rules.HandlerDecision, ...]
    old: bytes
    new: bytes | None          # None when the run failed
    reason: str | None         # why it failed, or a warning (partial parse)

    @property
    def ok(self) -> bool:
        return self.new is not None

    @property
    def changed(self) -> bool:
        return self.new is not None and self.new != self.old


class Runner:
    """Runs the rule on files under ROOT, JOBS at a time, through the cache."""

    def __init__(self, request: ConvertRequest, progress: "Progress"):
        self.request = request
        self.root = request.root
        self.cache = request.cache
        self.progress = progress
        self._rules = rules.rules_digest()
        self._version = spatch.version()
        self._contents: dict[str, bytes] = {}
        self._memo: dict[tuple[str, tuple[str, ...]], FileRun] = {}

    def content(self, rel: str) -> bytes:
        if rel not in self._contents:
            self._contents[rel] = (self.root / rel).read_bytes()
        return self._contents[rel]

    def _args(self, listed: tuple[str, ...]) -> list[str]:
        options = rules.ConversionOptions(**{**self.request.options.__dict__, "handlers": listed})
        # Report and patch at once: one spatch start gives decisions and diff.
        return options.spatch_args("patch") + ["-D", "report"]

    def _key(self, rel: str, data: bytes, args: list[str]) -> str:
        return cache_mod.make_key("convert-run/1", rel, hashlib.sha256(data).hexdigest(),
                                  self._rules, self._version, "\0".join(args))

    def run(self, tasks: list[tuple[str, tuple[str, ...]]], phase: str) -> dict:
        """(relpath, listed handlers) -> FileRun for every task."""
        results = {}
        todo = []
        for rel, listed in tasks:
            if (rel, listed) in self._memo:
                results[(rel, listed)] = self._memo[(rel, listed)]
                continue
            try:
                data = self.content(rel)
            except OSError as err:
                results[(rel, listed)] = FileRun(rel, listed, (), b"", None,
                                                 f"cannot read: {err.strerror}")
                continue
            args = self._args(listed)
            hit = self.cache.get_json(self._key(rel, data, args))
            if hit is not None:
                results[(rel, listed)] = self._parse(rel, listed, data, _from_cache(rel, hit))
            else:
                todo.append((rel, listed, data, args))
        self.progress.start(phase, len(tasks), len(tasks) - len(todo))

        def one_batch(batch):
            done = self._spatch(batch)
            for (rel, _, data, args), result in zip(batch, done):
                if result.outcome in (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR):
                    self.cache.put_json(self._key(rel, data, args), _to_cache(result))
                self.progress.step()
            return zip(batch, done)

        with ThreadPoolExecutor(max_workers=max(1, self.request.jobs)) as pool:
            for done in pool.map(one_batch, self._batches(todo)):
                for (rel, listed, data, _), result in done:
                    results[(rel, listed)] = self._parse(rel, listed, data, result)
        self.progress.done()
        self._memo.update(results)
        return results

    def _batches(self, todo: list) -> list[list]:
        """Tasks that share their spatch options, in batches of one process."""
        by_args: dict[tuple[str, ...], list] = {}
        for task in todo:
            by_args.setdefault(tuple(task[3]), []).append(task)
        size = spatch.batch_size(len(todo), self.request.jobs)
        return [batch for tasks in by_args.values()
                for batch in spatch.batches(tasks, size, name=lambda task: task[0])]

    def _spatch(self, batch: list) -> list[spatch.SpatchResult]:
        rels = [task[0] for task in batch]
        if len(batch) > 1:  # batchable names only (spatch.batches)
            return spatch.run_batch(rules.CONVERSION_RULE, [Path(r) for r in rels],
                                    batch[0][3], self.request.timeout, cwd=self.root)
        rel, _, data, args = batch[0]
        return [self._spatch_one(rel, data, args)]

    def _spatch_one(self, rel: str, data: bytes, args: list[str]) -> spatch.SpatchResult:
        if _SPATCH_SAFE_NAME.fullmatch(rel):
            return spatch.run_files(rules.CONVERSION_RULE, [Path(rel)], args, jobs=1,
                                    timeout=self.request.timeout, cwd=self.root)[0]
        # spatch hands file names to diff through a shell, unquoted: a name with
        # a space or a newline breaks it.  Run it on a copy named safely (the
        # rule names its mutex after the stem with \W replaced by _, as here).
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-") as tmp:
            name = re.sub(r"[^\w.+-]", "_", Path(rel).name)
            (Path(tmp) / name).write_bytes(data)
            return spatch.run_files(rules.CONVERSION_RULE, [Path(name)], args, jobs=1,
                                    timeout=self.request.timeout, cwd=Path(tmp))[0]

    @staticmethod
    def _parse(rel: str, listed: tuple[str, ...], data: bytes,
               result: spatch.SpatchResult) -> FileRun:
        report, diff = _split_output(result.stdout)
        # One process per file: every line is about REL, whatever its name
        # looks like after a newline in it.
        decisions = tuple(rules.HandlerDecision(**{**d.__dict__, "file": rel})
                          for d in rules.parse_report(report))
        if result.outcome is spatch.Outcome.PARSE_ERROR and not result.stdout.strip():
            # Nothing the rule could see needed a change; whether the part
            # spatch could not parse did is decided with the tree (convert()).
            return FileRun(rel, listed, decisions, data, data, _failure_reason(result))
        if result.outcome is not spatch.Outcome.OK:
            return FileRun(rel, listed, decisions, data, None, _failure_reason(result))
        try:
            new = tidy.tidy(apply_hunks(data, diff)) if diff else data
        except ValueError as err:
            return FileRun(rel, listed, decisions, data, None,
                           f"spatch's diff does not apply: {err}")
        if _NO_MATCH.encode() in new and _NO_MATCH.encode() not in data:
            return FileRun(rel, listed, decisions, data, None,
                           "the rule produced an invalid fops entry; not rewritten")
        unseen = _unseen_uses(data, result.parse_errors,
                              [d.handler for d in decisions if d.convert] + list(listed))
        if unseen:
            return FileRun(rel, listed, decisions, data, None,
                           f"{result.reason}, where {unseen} is named: a use there "
                           "would keep the old signature")
        return FileRun(rel, listed, decisions, data, new, result.reason or None)


class Diffs:
    """git_diff of a file's old and new text, through the cache: difflib is
    the largest cost of a re-run over an unchanged tree."""

    def __init__(self, cache: cache_mod.Cache):
        self.cache = cache
        self._memo: dict[str, str] = {}

    def __call__(self, rel: str, old: bytes, new: bytes) -> str:
        key = cache_mod.make_key("convert-diff/1", rel, hashlib.sha256(old).hexdigest(),
                                 hashlib.sha256(new).hexdigest())
        if key not in self._memo:
            stored = self.cache.get_bytes(key)
            if stored is None:
                diff = git_diff(rel, old, new)
                self.cache.put_bytes(key, diff.encode("utf-8", "surrogateescape"))
            else:
                diff = stored.decode("utf-8", "surrogateescape")
            self._memo[key] = diff
        return self._memo[key]


def _unseen_uses(data: bytes, parse_errors, names) -> str | None:
    """A handler being converted that is named in code spatch skipped."""
    if not parse_errors or not names:
        return None
    code = c_spans.code_only(data.decode("utf-8", "surrogateescape"))
    for line in parse_errors:
        found = c_spans.named_in(code, c_spans.toplevel_span(code, line), names)
        if found:
            return found[0]
    return None


def _failure_reason(result: spatch.SpatchResult) -> str:
    if result.outcome is spatch.Outcome.CRASH and not result.stderr.strip():
        return "spatch was killed or exited without a message"
    return result.reason or result.outcome.value


def _to_cache(result: spatch.SpatchResult) -> dict:
    return {"outcome": result.outcome.value, "stdout": result.stdout,
            "stderr": result.stderr[-4000:], "seconds": result.seconds,
            "parse_errors": list(result.parse_errors)}


def _from_cache(rel: str, value: dict) -> spatch.SpatchResult:
    return spatch.SpatchResult(Path(rel), spatch.Outcome(value["outcome"]), value["stdout"],
                               value["stderr"], value["seconds"], tuple(value["parse_errors"]))


def _split_output(stdout: str) -> tuple[str, str]:
    """Report lines come first; the diff starts at the first ---/+++ pair."""
    lines = stdout.split("\n")
    for i in range(len(lines) - 1):
        if lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
            return "\n".join(lines[:i]), "\n".join(lines[i:])
    return stdout, ""


# ------------------------------------------------------------------ progress

class Progress:
    """One line on stderr, rewritten in place; nothing unless it is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.phase, self.total, self.count = "", 0, 0

    def start(self, phase: str, total: int, done: int) -> None:
        self.phase, self.total, self.count = phase, total, done
        self._show()

    def step(self) -> None:
        self.count += 1
        self._show()

    def done(self) -> None:
        if self.enabled and self.total:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    def _show(self) -> None:
        if self.enabled and self.total:
            sys.stderr.write(f"\r\033[Kconvert: {self.phase}: {self.count}/{self.total} files")
            sys.stderr.flush()


# --------------------------------------------------------- the tree, grouped

@dataclass
class Tree:
    """The files a run looks at, and which handler names link them."""

    root: Path
    fops_files: list[str]                       # relpaths that may declare .ioctl entries
    fops_names: dict[str, list[tuple[str, int]]]  # relpath -> [(handler, line)] by text
    mentions: dict[str, set[str]]               # handler name -> relpaths naming it
    skipped: list[FileRecord]
    # relpath -> [(handler, line)] of entries whose handler is a macro call,
    # such as the DRM templates' ".ioctl = DRM(ioctl)": spatch cannot follow them.
    macro_entries: dict[str, list[tuple[str, int]]] = field(default_factory=dict)


def find_root(paths: list[Path]) -> Path:
    """The top of the kernel tree holding PATHS (its top Makefile has VERSION =),
    else the nearest git work tree, else the directory common to PATHS."""
    dirs = [p if p.is_dir() else p.parent for p in (Path(os.path.abspath(p)) for p in paths)]
    common = Path(os.path.commonpath([str(d) for d in dirs]))
    for candidate in (common, *common.parents):
        makefile = candidate / "Makefile"
        if makefile.is_file() and re.search(rb"^VERSION\s*=\s*\d", _head(makefile), re.M):
            return candidate
    for candidate in (common, *common.parents):
        if (candidate / ".git").exists():
            return candidate
    return common


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(4096)
    except OSError:
        return b""


def _relative(root: Path, path: Path) -> str:
    return os.path.relpath(os.path.abspath(path), root)


def scan(paths: list[Path], root: Path, cache: cache_mod.Cache | None = None) -> Tree:
    cache = cache or cache_mod.Cache(None)
    real_root = os.path.realpath(root)
    files, skipped = [], []
    for path in paths:
        for file in ([path] if not path.is_dir() else _walk(path)):
            if file.suffix not in spatch.SOURCE_SUFFIXES and path.is_dir():
                continue
            if file.is_symlink():
                record = _symlink_record(file, _relative(root, file), real_root)
                if record:
                    skipped.append(record)
                continue
            files.append(file)
    found = _fops_candidates(files, paths, cache)
    fops_files, fops_names, macro_entries = [], {}, {}
    for file in found:
        rel = _relative(root, file)
        try:
            data = file.read_bytes()
        except OSError as err:
            skipped.append(FileRecord(rel, FileStatus.SKIPPED, f"cannot read: {err.strerror}"))
            continue
        if b"file_operations" not in data:
            continue
        # The .ioctl of a tty_operations, proto_ops, ... is none of ours;
        # spatch tells them apart, but not in a file it cannot parse.
        code = c_spans.code_only(data.decode("latin-1"))
        names, macros = [], []
        for m in _FOPS_NAME.finditer(data):
            kind = c_spans.initializer_type(code, m.start())
            entry = (m.group(1).decode(), data.count(b"\n", 0, m.start()) + 1)
            if m.group(2) and kind == "file_operations":
                macros.append(entry)
            elif not m.group(2) and m.group(1) != b"NULL" and kind in (None, "file_operations"):
                names.append(entry)
        fops_files.append(rel)
        fops_names[rel] = names
        if macros:
            macro_entries[rel] = macros
    wanted = sorted({n for names in fops_names.values() for n, _ in names})
    mentions = _cached_mentions(root, wanted, cache)
    for rel, names in fops_names.items():
        for name, _ in names:
            mentions.setdefault(name, set()).add(rel)
    return Tree(Path(root), sorted(set(fops_files)), fops_names, mentions, skipped,
                macro_entries)


# Bump when what the indexes below store changes.
INDEX_FORMAT = "convert-index/2"


def _fops_candidates(files: list[Path], paths: list[Path], cache: cache_mod.Cache) -> list[Path]:
    """spatch.candidate_files(FILES, FOPS_PATTERN), reading only the files
    that changed since the last run (cache.stat_index)."""
    key = cache_mod.make_key(INDEX_FORMAT, FOPS_PATTERN, *(os.path.abspath(p) for p in paths))
    needle = re.compile(FOPS_PATTERN)
    stats = []
    for file in files:
        try:
            stats.append((str(file), os.stat(file)))
        except OSError:
            continue
    verdicts = cache_mod.stat_index(cache, key, stats,
                                    lambda path: spatch.contains(path, needle, b"ioctl"))
    return sorted(Path(path) for path, found in verdicts.items() if found)


def _cached_mentions(root: Path, names: list[str], cache: cache_mod.Cache
                     ) -> dict[str, set[str]]:
    if not names or not cache.enabled:
        return _mentions(root, names)
    # Kept while no file grep reads (spatch.source_files: .c/.h, no
    # symlinks, no dot directories) has changed.
    stamps = sorted(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}"
                    for path, st in spatch.source_files([root]))
    key = cache_mod.make_key(INDEX_FORMAT, "mentions", str(root.resolve()), "\n".join(names),
                             *stamps)
    stored = cache.get_json(key)
    if stored is not None:
        return {name: set(rels) for name, rels in stored.items()}
    found = _mentions(root, names)
    cache.put_json(key, {name: sorted(rels) for name, rels in found.items()})
    return found


def _symlink_record(file: Path, rel: str, real_root: str) -> FileRecord | None:
    try:
        data = file.read_bytes()
    except OSError:
        return FileRecord(rel, FileStatus.SKIPPED, "a dangling symbolic link")
    if not re.search(FOPS_PATTERN, data):
        return None
    target = os.path.realpath(file)
    if os.path.commonpath([target, real_root]) != real_root:
        return FileRecord(rel, FileStatus.SKIPPED,
                          f"a symbolic link to {target}, outside the tree; never written through")
    return FileRecord(rel, FileStatus.SKIPPED,
                      f"a symbolic link to {os.path.relpath(target, real_root)}, "
                      "which is converted in its own right")


def _walk(root: Path):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            yield Path(dirpath) / name


def _mentions(root: Path, names: list[str]) -> dict[str, set[str]]:
    """Handler name -> the .c/.h files of the tree that contain it as a word.

    grep's multi-pattern search reads a whole kernel tree in seconds, where
    Python's alternation would take minutes.
    """
    found: dict[str, set[str]] = {}
    if not names:
        return found
    proc = subprocess.run(
        ["grep", "-r", "-o", "-w", "-F", "-Z", "--include=*.c", "--include=*.h",
         "--exclude-dir=.[!.]*", "-f", "-", "--", "."],
        input="\n".join(names).encode(), capture_output=True, cwd=root,
        env={**os.environ, "LC_ALL": "C"}, check=False)
    if proc.returncode > 1:
        raise InputError(f"grep over {root} failed: {proc.stderr.decode(errors='replace').strip()}")
    out, pos = proc.stdout, 0
    while pos < len(out):
        nul = out.index(b"\0", pos)
        end = out.index(b"\n", nul)
        rel = os.path.normpath(out[pos:nul].decode(errors="surrogateescape"))
        found.setdefault(out[nul + 1:end].decode(), set()).add(rel)
        pos = end + 1
    return found


def groups(tree: Tree) -> list[list[str]]:
    """Files linked by a shared handler name, each group sorted, groups by first file."""
    parent: dict[str, str] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rel in tree.fops_files:
        find(rel)
        for name, _ in tree.fops_names.get(rel, []):
            for other in tree.mentions.get(name, ()):
                parent[find(other)] = find(rel)
    members: dict[str, list[str]] = {}
    for rel in list(parent):
        members.setdefault(find(rel), []).append(rel)
    return sorted((sorted(m) for m in members.values()), key=lambda m: m[0])


# ------------------------------------------------------------------ the run

def convert(request: ConvertRequest) -> ConversionResult:
    start = time.monotonic()
    started = series.now()
    root = request.root
    recovered = safe_write.recover(root) if request.output is Output.IN_PLACE else []
    progress = Progress(request.progress)
    tree = scan(list(request.paths), root, request.cache)
    mine = [g for g in groups(tree)
            if request.shard is None or request.shard.owns(g[0])]
    files = {rel for g in mine for rel in g}
    fops_files = [rel for rel in tree.fops_files if rel in files]

    runner = Runner(request, progress)
    diffs = Diffs(request.cache)
    first = runner.run([(rel, ()) for rel in fops_files], "phase 1")
    runs = {rel: first[(rel, ())] for rel in fops_files}
    blocked = _unwritable(request, root, fops_files)

    elsewhere: dict[str, set[str]] = {}  # handler -> fops files that need it resolved
    for run in runs.values():
        for d in run.decisions:
            if not d.convert and any(w in (d.reason or "") for w in _ELSEWHERE):
                elsewhere.setdefault(d.handler, set()).add(run.file)
    dropped: dict[str, tuple[HandlerStatus, str]] = {}
    failures = {rel: run.reason for rel, run in runs.items() if not run.ok}
    group_files = {h: sorted((tree.mentions.get(h, set()) & files) | fops)
                   for h, fops in elsewhere.items()}
    blocked.update(_unwritable(request, root, sorted({f for fs in group_files.values()
                                                      for f in fs} - set(blocked))))
    while True:
        listed_for: dict[str, tuple[str, ...]] = {}
        for h, fs in group_files.items():
            if h not in dropped:
                for f in fs:
                    listed_for[f] = tuple(sorted({*listed_for.get(f, ()), h}))
        second = runner.run(sorted(listed_for.items()), "phase 2")
        final = dict(runs)
        final.update({rel: second[(rel, listed)] for rel, listed in listed_for.items()})
        failures.update({run.file: run.reason for run in second.values() if not run.ok})
        newly = _check_cross_file(group_files, elsewhere, dropped, final, blocked, diffs,
                                  _cross_file_refusal(request.options))
        if not newly:
            break
        dropped.update(newly)

    summary = Summary(root=str(root), target=str(request.options.target),
                      options=_options_json(request.options), spatch_version=runner._version,
                      started=started, shard=str(request.shard) if request.shard else None)
    summary.handlers = _handler_records(tree, fops_files, final, group_files, dropped, blocked)
    changes = {}
    for rel in sorted(final):
        run = final[rel]
        if rel in blocked:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, blocked[rel]))
        elif not run.ok:
            summary.files.append(FileRecord(rel, FileStatus.FAILED, run.reason))
        elif run.changed:
            changes[rel] = (run.old, run.new)
            summary.files.append(FileRecord(rel, FileStatus.CONVERTED, run.reason,
                                            diffs(rel, run.old, run.new)))
        else:
            # Unchanged because spatch could not read part of it is a failure
            # when that part may hold what the run needed: a .ioctl entry of
            # a file_operations (by text), or a handler of the run.
            needed = tree.fops_names.get(rel) or any(rel in fs for fs in group_files.values())
            status = FileStatus.FAILED if run.reason and needed else FileStatus.UNCHANGED
            summary.files.append(FileRecord(rel, status, run.reason))
    # A file that failed for a handler that was then dropped is still reported.
    summary.files += [FileRecord(rel, FileStatus.FAILED, why)
                      for rel, why in failures.items() if rel not in final]
    summary.files += [r for r in tree.skipped
                      if request.shard is None or request.shard.owns(r.file)]
    summary.sort()
    summary.wall_seconds = time.monotonic() - start
    return ConversionResult(summary, changes, recovered)


def _unwritable(request: ConvertRequest, root: Path, rels: list[str]) -> dict[str, str]:
    """In place, a file we may not write is a file that cannot be rewritten."""
    if request.output is not Output.IN_PLACE:
        return {}
    blocked = {}
    for rel in rels:
        try:
            safe_write.checked_target(root / rel, root)
        except safe_write.WriteError as err:
            blocked[rel] = err.message
    return blocked


def _cross_file_refusal(options: rules.ConversionOptions) -> str | None:
    """Why no handler defined away from its fops converts under OPTIONS."""
    if options.multi_kernel or options.strategy is rules.Strategy.WRAPPER:
        return ("the wrapper (and the multi-kernel output) needs the handler in the file "
                "of its fops; --strategy pushdown converts it there")
    return None


def _check_cross_file(group_files, elsewhere, dropped, final, blocked, diffs: Diffs,
                      refusal: str | None = None) -> dict:
    """Handlers resolved in another file that cannot be converted everywhere."""
    newly = {}
    for h, fs in group_files.items():
        if h in dropped:
            continue
        bad = [(f, blocked.get(f) or final[f].reason) for f in fs
               if f in blocked or not final[f].ok
               or final[f].reason and not final[f].changed]
        if bad:
            f, why = bad[0]
            newly[h] = (HandlerStatus.FAILED,
                        f"its files cannot all be rewritten ({f}: {why}); converted nowhere")
            continue
        others = [f for f in fs if f not in elsewhere[h]]
        if not any(_mentioned_in_change(final[f], h, diffs) for f in others):
            newly[h] = (HandlerStatus.SKIPPED, refusal or
                        "no definition with the .ioctl signature was found in the tree")
    return newly


def _mentioned_in_change(run: FileRun, name: str, diffs: Diffs) -> bool:
    if not run.changed:
        return False
    word = re.compile(rf"\b{re.escape(name)}\b")
    diff = diffs(run.file, run.old, run.new)
    return any(word.search(line) for line in diff.split("\n")
               if line[:1] in "+-" and not line.startswith(("+++ ", "--- ")))


def _handler_records(tree, fops_files, final, group_files, dropped, blocked):
    records = []
    for rel in fops_files:
        run = final[rel]
        seen = set()
        for d in run.decisions:
            seen.add((d.handler, d.line))
            records.append(_record(d, run, final, group_files, dropped, blocked))
        for name, line in tree.fops_names.get(rel, []):
            if (name, line) in seen or any(n == name for n, _ in seen):
                continue
            if run.ok and not run.reason:
                # The rule saw the file whole: the text is no live entry.
                dead = c_spans.inside_if0(run.old.decode("latin-1"), line)
                if dead:
                    records.append(HandlerRecord(
                        rel, line, "?", name, HandlerStatus.SKIPPED,
                        f"inside the #if 0 at line {dead}: never compiled, left alone"))
                continue
            why = blocked.get(rel) or run.reason or "not seen by spatch"
            # Found by text only (fops "?"): it may belong to another ops structure.
            records.append(HandlerRecord(rel, line, "?", name, HandlerStatus.FAILED,
                                         f"the rule could not check this entry: {why}"))
        for name, line in tree.macro_entries.get(rel, []):
            records.append(HandlerRecord(
                rel, line, "?", name, HandlerStatus.SKIPPED,
                f"the handler is named through a macro ({name}), which spatch cannot "
                "follow: convert this entry by hand"))
    return records


def _record(d: rules.HandlerDecision, run: FileRun, final, group_files, dropped, blocked):
    base = dict(file=d.file, line=d.line, fops=d.fops, handler=d.handler,
                uses_inode=d.uses_inode, returns_enoioctlcmd=d.returns_enoioctlcmd)
    if d.handler in dropped:
        status, why = dropped[d.handler]
        if run.reason:  # the refusal may come from what spatch could not parse
            status, why = HandlerStatus.FAILED, f"{run.reason} ({why})"
        return HandlerRecord(**base, status=status, reason=why)
    if run.file in blocked:
        return HandlerRecord(**base, status=HandlerStatus.FAILED, reason=blocked[run.file])
    if not run.ok:
        return HandlerRecord(**base, status=HandlerStatus.FAILED, reason=run.reason)
    if not d.convert:
        if run.reason:
            return HandlerRecord(**base, status=HandlerStatus.FAILED,
                                 reason=f"{run.reason} (the rule: {d.reason})")
        return HandlerRecord(**base, status=HandlerStatus.SKIPPED, reason=d.reason)
    others = tuple(f for f in group_files.get(d.handler, ())
                   if f != run.file and final[f].changed)
    return HandlerRecord(**base, status=HandlerStatus.CONVERTED, strategy=d.strategy,
                         reason=None, other_files=others)


def _options_json(options: rules.ConversionOptions) -> dict:
    return {"strategy": options.strategy.value, "lock": options.lock.value,
            "target": str(options.target), "multi_kernel": options.multi_kernel,
            "compat": options.compat}


# --------------------------------------------------------------- outputs

def write_in_place(result: ConversionResult, root: Path) -> None:
    """All rewritten files, or none of them."""
    with safe_write.Transaction(root) as transaction:
        for rel, (_, new) in sorted(result.changes.items()):
            transaction.stage(root / rel, new)
        transaction.commit()


# ------------------------------------------------------------------- CLI

EXAMPLES = """\
examples:
  ioctl-rework convert drivers/char/ds1620.c          print the diff
  ioctl-rework convert --in-place drivers/char        rewrite the files
  ioctl-rework convert --series out --split maintainer --json out.json /src/linux
  ioctl-rework convert --target 2.6.20 ~/old-driver   a driver outside a tree
  ioctl-rework convert --shard 2/3 --json s2.json /src/linux   one machine of three;
      then: ioctl-rework merge --series out s1.json s2.json s3.json
  git am $(ls out/*.patch | grep -v 0000-cover-letter)   apply the series

exit status: 0 when every handler was converted or refused with a reason,
1 when a handler or file failed (the summary says why), 2 on bad input.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EXAMPLES
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="files or directories to convert (a file name starting with "
                             "'-' needs '--' before it)")
    parser.add_argument("--strategy", choices=[s.value for s in rules.Strategy], default="auto",
                        help="pushdown: lock inside the handler; wrapper: a new locked "
                             "wrapper calls it; auto: pushdown where it is safe (default)")
    parser.add_argument("--lock", choices=[m.value for m in rules.LockMode],
                        help="bkl: lock_kernel(); mutex: a per-file mutex (default: bkl, "
                             "or mutex when the target has no BKL, >= 2.6.39)")
    parser.add_argument("--target", default="auto", metavar="auto|VERSION",
                        help="kernel version the result is for; auto reads the tree's top "
                             "Makefile (use VERSION for a driver outside a tree)")
    parser.add_argument("--multi-kernel", action="store_true",
                        help="keep .ioctl under #ifndef HAVE_UNLOCKED_IOCTL for older kernels")
    parser.add_argument("--compat", action="store_true",
                        help="also set .compat_ioctl (only when the ABI is the same for "
                             "32-bit callers)")
    parser.add_argument("--jobs", "-j", type=_positive, default=2, metavar="N",
                        help="spatch processes at once (default 2)")
    parser.add_argument("--timeout", type=_positive, default=120, metavar="SECONDS",
                        help="limit per file; a file that takes longer is reported (default 120)")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--in-place", action="store_true",
                     help="rewrite the files atomically (each file old or new, never half)")
    out.add_argument("--series", type=Path, metavar="DIR",
                     help="write a git format-patch series into DIR")
    series.add_split_argument(parser)
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write the summary (every handler and file, totals, wall time)")
    parser.add_argument("--shard", type=_shard, metavar="K/N",
                        help="do part K of N of the run (split by file); combine the "
                             "parts with `ioctl-rework merge`")
    parser.add_argument("--no-cache", action="store_true",
                        help="run spatch on every file even when a cached result exists")
    parser.add_argument("--clear-cache", action="store_true",
                        help="delete the cache (then convert PATHs, if any)")
    parser.add_argument("--cache-dir", type=Path, default=None, metavar="DIR",
                        help=f"where results are cached (default {cache_mod.default_directory()})")


def _shard(text: str) -> shard_mod.Shard:
    try:
        return shard_mod.Shard.parse(text)
    except shard_mod.ShardError as err:
        raise argparse.ArgumentTypeError(str(err)) from err


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"want a positive number, not {text!r}")
    return value


def request_from_args(args) -> ConvertRequest:
    for path in args.paths:
        if not os.path.lexists(path):
            raise InputError(f"{path}: no such file or directory")
    paths = tuple(Path(os.path.abspath(p)) for p in args.paths)
    root = find_root(list(paths))
    try:
        target = rules.Target.from_makefile(root) if args.target == "auto" \
            else rules.Target.parse(args.target)
    except rules.TargetError as err:
        hint = "; outside a kernel tree, pass --target VERSION" \
            if args.target == "auto" and "--target" not in str(err) else ""
        raise InputError(f"{err}{hint}") from err
    lock = rules.LockMode(args.lock) if args.lock else \
        (rules.LockMode.BKL if target.has_bkl else rules.LockMode.MUTEX)
    options = rules.ConversionOptions(strategy=rules.Strategy(args.strategy), lock=lock,
                                      target=target, multi_kernel=args.multi_kernel,
                                      compat=args.compat)
    output = Output.IN_PLACE if args.in_place else Output.SERIES if args.series else Output.DIFF
    directory = args.cache_dir or cache_mod.default_directory()
    return ConvertRequest(paths=paths, options=options, root=root, jobs=args.jobs,
                          timeout=args.timeout, output=output, series_dir=args.series,
                          split=series.Split(args.split), shard=args.shard,
                          cache=cache_mod.Cache(None if args.no_cache else directory, "convert"),
                          progress=sys.stderr.isatty())


def clear_cache(directory: Path) -> int:
    """Remove the convert cache; returns the number of entries removed."""
    import shutil
    target = Path(directory) / "convert"
    count = sum(1 for _ in target.glob("*/*")) if target.is_dir() else 0
    shutil.rmtree(target, ignore_errors=True)
    return count


def main(args) -> int:
    if args.clear_cache:
        removed = clear_cache(args.cache_dir or cache_mod.default_directory())
        print(f"convert: cache cleared ({removed} entries)", file=sys.stderr)
        if not args.paths:
            return 0
    if not args.paths:
        print("ioctl-rework convert: error: give at least one PATH", file=sys.stderr)
        return 2
    try:
        request = request_from_args(args)
        for warning in request.options.warnings():
            print(f"convert: warning: {warning}", file=sys.stderr)
        result = convert(request)
    except (InputError, shard_mod.ShardError) as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        return 2
    except spatch.SpatchMissing as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        return 2
    for path in result.recovered:
        print(f"convert: completed the interrupted write of {path}", file=sys.stderr)
    status = 1 if result.failed else 0
    try:
        emit(result, request, args.json)
    except (safe_write.WriteError, series.SeriesError) as err:
        print(f"ioctl-rework convert: error: {err}", file=sys.stderr)
        print("convert: nothing was written", file=sys.stderr)
        return 1
    return status


def emit(result: ConversionResult, request: ConvertRequest, json_path: Path | None) -> None:
    """Write what the request asked for, then the summary on stderr."""
    summary = result.summary
    if request.output is Output.IN_PLACE:
        write_in_place(result, request.root)
    elif request.output is Output.SERIES:
        paths = series.write_for_tree(summary, request.series_dir, request.split, request.root)
        print(f"convert: series of {len(paths) - 1} patches in {request.series_dir}",
              file=sys.stderr)
    else:
        sys.stdout.buffer.write(result.diff.encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    if json_path:
        summary_mod.write(summary, json_path)
    print(text_report(summary), file=sys.stderr)

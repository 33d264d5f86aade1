"""Running spatch on candidate files, a few processes at a time.

A whole-tree `spatch --dir` run of a body-matching rule can take hours on
one pathological file; a time limit per candidate file turns that file
into a reported timeout instead of a stalled run.  Files go to spatch in
batches (--file-groups): each file keeps its own limit and its own result,
and the ~0.4 s start-up of a process (SmPL parsing, Python set-up) is paid
once per batch instead of once per file.
"""

import enum
import functools
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework import children
from ioctl_rework.spatch import rule_parts, rules
from ioctl_rework.spatch.installation import SPATCH, standard_h  # noqa: F401 (callers use runner.SPATCH)

SOURCE_SUFFIXES = (".c", ".h")


class SpatchMissing(RuntimeError):
    """spatch is not installed (run `make deps`), or the macro file every
    run gives it is not beside the rules."""


class Outcome(enum.Enum):
    OK = "ok"
    TIMEOUT = "timeout"
    PARSE_ERROR = "parse-error"
    CRASH = "crash"


# Every file of this process spatch timed out or crashed on: an answer a
# re-run may not give again, so no run that met one is kept whole
# (convert/run_memo.py).  Appended to from the pool's threads.
unsteady: list[Path] = []


@dataclass(frozen=True)
class SpatchResult:
    file: Path
    outcome: Outcome
    stdout: str
    stderr: str
    seconds: float
    # Lines where spatch's parser gave up; code around them was not seen.
    parse_errors: tuple[int, ...] = ()

    def __post_init__(self):
        if self.outcome in (Outcome.TIMEOUT, Outcome.CRASH):
            unsteady.append(self.file)

    @property
    def reason(self) -> str:
        """Why a file was not fully processed, in words for a report."""
        if self.outcome is Outcome.TIMEOUT:
            return f"spatch timed out after {self.seconds:.0f} s"
        if self.outcome is Outcome.CRASH:
            # The rule stops a file on purpose with a message of its own.
            own = _RULE_ERROR.findall(self.stderr)
            if own:
                return own[-1]
            last = self.stderr.strip().splitlines()[-1:] or ["no message"]
            return f"spatch failed: {last[0]}"
        if self.parse_errors:
            lines = ", ".join(str(n) for n in self.parse_errors[:5])
            return f"spatch could not parse the code around line {lines}"
        return ""


_RULE_ERROR = re.compile(r"^\w+Error: ioctl-rework: (.*)$", re.MULTILINE)


@functools.lru_cache(maxsize=1)
def version() -> str:
    """spatch's version; every command asks first, so a missing spatch or
    macro file stops it before any work."""
    _guarded(rules.require_macro_file)
    try:
        out = children.run([SPATCH, "--version"], capture_output=True, text=True).stdout
    except FileNotFoundError as err:
        raise SpatchMissing("spatch not found; run `make deps`") from err
    match = re.search(r"spatch version (\S+)", out)
    return match.group(1) if match else out.strip()


_SPATCH_TIMEOUT = re.compile(r"^timeout \(we abort\)|^Timeout at ", re.MULTILINE)
_PARSE_ERROR = re.compile(r'^parse error\s*\n\s*= File "(?P<file>[^"]*)", line (?P<line>\d+)',
                          re.MULTILINE)
_RESUMED = re.compile(r"^ERROR-RECOV: found sync .* at line (\d+)$", re.MULTILINE)
_SKIPPED = re.compile(r"^badcount: (\d+)$", re.MULTILINE)
_SPATCH_OUTPUT = re.compile(r"(?:^|/)cocci-output-[^/]*$")


def _guarded(function, *args):
    """FUNCTION(*ARGS), a missing macro file raised as SpatchMissing, which
    every command reports."""
    try:
        return function(*args)
    except rules.MacroFileMissing as err:
        raise SpatchMissing(str(err)) from err


def _command(rule: Path, args: list[str], timeout: int) -> list[str]:
    # The rules' Python runs in this interpreter, the one whose version and
    # packages the wrapper (and ctext.spans, which the rules import) runs
    # with; without --python, spatch searches PATH and runs ldd and
    # ldconfig for one at every start (0.5 s a process behind pyenv's shims).
    return [SPATCH, "--sp-file", str(rule_parts.sp_file(rule)), "--verbose-parsing", "--python", sys.executable,
            *_guarded(rules.spatch_options, rule), "--timeout", str(timeout), *args]


def parse_error_lines(stderr: str, file: str | None = None) -> tuple[int, ...]:
    """The lines of FILE where spatch's parser gave up, from --verbose-parsing
    output.  Errors in spatch's own re-parse of its output file repeat the
    input's at shifted lines and are not FILE's.  spatch places an error in
    the expansion of a macro of a macro file (standard.h, ours) in that
    file, at a line that means nothing in FILE; such an error stands for
    every line spatch skipped in FILE: from the line where it resumed, less
    the number of lines it skipped, to it."""
    lines, previous = set(), 0
    for match in _PARSE_ERROR.finditer(stderr):
        start, previous = previous, match.end()
        if file is None or os.path.normpath(match["file"]) == os.path.normpath(file):
            lines.add(int(match["line"]))
            continue
        if _SPATCH_OUTPUT.search(match["file"]):
            continue
        resumed = _RESUMED.findall(stderr, start, match.start())
        skipped = _SKIPPED.search(stderr, match.end())
        if resumed and skipped:
            end = int(resumed[-1])
            lines.update(range(max(1, end - int(skipped.group(1))), max(2, end)))
        else:
            lines.add(1)        # somewhere in FILE: never lose the error
    return tuple(sorted(lines))


def _run_one(rule: Path, file: Path, args: list[str], timeout: int,
             cwd: Path | None) -> SpatchResult:
    # Never let a file name be read as an option: spatch takes it last,
    # and an absolute or ./-prefixed path cannot start with '-'.
    name = str(file) if file.is_absolute() or str(file).startswith(".") else f"./{file}"
    if not BATCHABLE_NAME.fullmatch(str(file)):
        # The rules' Python reads file names as UTF-8, and a report line
        # with a newline in its name is two lines: spatch sees a plain
        # alias, which its output names (the result is FILE's alone).
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-alias.") as tmp:
            alias = Path(tmp) / ("file" + "".join(file.suffixes[-1:]))
            alias.symlink_to(Path(cwd or ".", file).absolute())
            return replace(_run_one(rule, alias, args, timeout, cwd), file=file)
    command = [*_command(rule, args, timeout), name]
    start = time.monotonic()
    try:
        proc = children.popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=cwd, env=rules.spatch_environment(rule))
    except FileNotFoundError as err:
        raise SpatchMissing("spatch not found; run `make deps`") from err
    try:
        # spatch's own --timeout bounds its matching; this bounds parsing too.
        out, err = proc.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return SpatchResult(file, Outcome.TIMEOUT, "", err.decode(errors="replace"),
                            time.monotonic() - start)
    finally:
        children.release(proc)
    seconds = time.monotonic() - start
    stdout = out.decode(errors="surrogateescape")
    stderr = err.decode(errors="replace")
    parse_errors = parse_error_lines(stderr, name)
    if proc.returncode != 0:
        outcome = Outcome.CRASH
    elif _SPATCH_TIMEOUT.search(stderr):
        outcome = Outcome.TIMEOUT
    elif parse_errors and not stdout:
        outcome = Outcome.PARSE_ERROR
    else:
        outcome = Outcome.OK
    return SpatchResult(file, outcome, stdout, stderr, seconds, parse_errors)


def run_files(rule: Path, files: list[Path], args: list[str], jobs: int = 2,
              timeout: int = 120, cwd: Path | None = None) -> list[SpatchResult]:
    """Run RULE on each file in its own spatch process, JOBS at a time.

    Results come back in the order of FILES.
    """
    version()  # fail early, once, when spatch is missing
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda f: _run_one(rule, Path(f), args, timeout, cwd), files))


# A name that can be one line of a groups file, cannot be read as an option,
# and survives the shell through which spatch hands names to diff.
BATCHABLE_NAME = re.compile(r"[\w/+][\w./+-]*")
_HANDLING = re.compile(r"^HANDLING: (.*)$", re.MULTILINE)
_EXN = re.compile(r"^EXN: (?P<what>.*) in (?P<file>.+)$", re.MULTILINE)


MAX_BATCH = 20


# With FEWEST: the files one more process must have to pay for its start-up
# on the wall clock of idle cores (in cpu it never does).  The compat facts
# rule starts in 0.15 s of cpu (quiet, bench/audit.md) to 0.48 s (load 17)
# and reads a driver of 6.1's drivers/char in about 0.07 s: a second
# process for 4 files or fewer saves no wall time and costs a start.
FILES_PER_START = 4


def batch_size(count: int, jobs: int, fewest: bool = False,
               files_per_start: int = FILES_PER_START) -> int:
    """Enough batches to keep JOBS processes busy to the end of COUNT files,
    and none so large that a re-run after a failed batch costs much.
    FEWEST: one batch per process (up to MAX_BATCH files), and a process
    for each FILES_PER_START files only, for a rule whose start-up costs
    more than a file (the compat facts rule's Python and parse)."""
    if fewest:
        processes = max(1, min(jobs, -(-count // max(1, files_per_start))))
        return max(1, min(MAX_BATCH, -(-count // processes)))
    # A few files per process even in a small run: a start of the conversion
    # rule (0.44 s of cpu, bench/make_check.md) costs more than a driver, and
    # eight files on two cores were eight starts.  Still a batch per job.
    jobs = max(1, jobs)
    least = min(FILES_PER_START, -(-count // jobs))
    return max(1, min(MAX_BATCH, max(least, -(-count // (jobs * 4)))))


def batches(files: list, size: int, name=str) -> list[list]:
    """FILES cut into batches of SIZE; a file whose NAME is not batchable
    goes alone."""
    alone = [[f] for f in files if not BATCHABLE_NAME.fullmatch(name(f))]
    grouped = [f for f in files if BATCHABLE_NAME.fullmatch(name(f))]
    return [grouped[i:i + size] for i in range(0, len(grouped), size)] + alone


def run_batch(rule: Path, files: list[Path], args: list[str], timeout: int,
              cwd: Path | None = None, done_count=None) -> list[SpatchResult]:
    """RULE on FILES (batchable names) in one spatch process, one result per
    file in order.  When the process as a whole fails, each file runs alone.
    DONE_COUNT(1), if given, as each file ends: spatch names the file it
    starts (`HANDLING:` on stderr), so one process of many files still
    moves the progress line file by file."""
    reported = 0

    def done_up_to(count: int) -> None:
        nonlocal reported
        if done_count is not None and count > reported:
            done_count(count - reported)
            reported = count
    if len(files) == 1:
        found = [_run_one(rule, Path(files[0]), args, timeout, cwd)]
        done_up_to(1)
        return found
    with tempfile.NamedTemporaryFile("w", suffix=".groups", delete=False) as groups:
        groups.write("\n\n".join(str(f) for f in files) + "\n")
    start = time.monotonic()
    try:
        # A file is done when spatch starts the next (the last, when it exits).
        ended = _run_reporting([*_command(rule, args, timeout), "--file-groups", groups.name],
                               cwd, rules.spatch_environment(rule),
                               (timeout + 30) * len(files),
                               lambda started: done_up_to(min(started - 1, len(files) - 1)))
    except FileNotFoundError as err:
        raise SpatchMissing("spatch not found; run `make deps`") from err
    finally:
        Path(groups.name).unlink(missing_ok=True)
    if ended is None or ended[0] != 0:
        results = []
        for number, file in enumerate(files):
            results.append(_run_one(rule, Path(file), args, timeout, cwd))
            done_up_to(number + 1)
        return results
    done_up_to(len(files))
    return split_batch(files, ended[1].decode(errors="surrogateescape"),
                       ended[2].decode(errors="replace"), time.monotonic() - start)


def _run_reporting(command: list[str], cwd: Path | None, env: dict, limit: float,
                   started) -> tuple[int, bytes, bytes] | None:
    """COMMAND's (exit status, stdout, stderr), or None when it ran past
    LIMIT seconds (its process group killed).  STARTED(n) as the Nth
    `HANDLING:` line arrives on its stderr, while it runs."""
    proc = children.popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                          env=env)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
    reader.start()
    late = threading.Event()

    def stop():
        late.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    timer = threading.Timer(limit, stop)
    timer.start()
    err, handled = [], 0
    try:
        for line in proc.stderr:
            err.append(line)
            if line.startswith(b"HANDLING: "):
                handled += 1
                started(handled)
        reader.join()
        proc.wait()
    finally:
        timer.cancel()
        proc.stdout.close()
        proc.stderr.close()
        children.release(proc)
    if late.is_set():
        return None
    return proc.returncode, out[0] if out else b"", b"".join(err)


def split_batch(files: list[Path], stdout: str, stderr: str,
                seconds: float) -> list[SpatchResult]:
    """One --file-groups run's output as per-file results.  spatch handles
    the files in order; a file's output starts with its first report line
    (`FILE:LINE: ...`) or its diff (`--- FILE`), its messages with
    `HANDLING: FILE`."""
    names = {str(f): i for i, f in enumerate(files)}
    out: list[list[str]] = [[] for _ in files]
    current = None
    for line in stdout.split("\n"):
        name = line[4:] if line.startswith("--- ") else line.split(":", 1)[0]
        if name in names and (line.startswith("--- ") or ":" in line):
            current = names[name]
        if current is not None:
            out[current].append(line)
    err: list[str] = ["" for _ in files]
    pieces = _HANDLING.split(stderr)
    for name, text in zip(pieces[1::2], pieces[2::2]):
        if name in names:
            err[names[name]] += f"HANDLING: {name}{text}"
    share = seconds / max(1, len(files))
    results = []
    for i, file in enumerate(files):
        text = "\n".join(out[i])
        text = text + "\n" if text and not text.endswith("\n") else text
        failure = next((m["what"] for m in _EXN.finditer(err[i])), None)
        parse_errors = parse_error_lines(err[i], str(file))
        if failure is not None:
            outcome = Outcome.TIMEOUT if "Timeout" in failure else Outcome.CRASH
            results.append(SpatchResult(file, outcome, "", err[i], share, parse_errors))
        elif parse_errors and not text.strip():
            results.append(SpatchResult(file, Outcome.PARSE_ERROR, "", err[i], share,
                                        parse_errors))
        else:
            results.append(SpatchResult(file, Outcome.OK, text, err[i], share, parse_errors))
    return results


def safe_name(rel: str) -> str:
    """The name run_on_text gives the copy of REL."""
    return re.sub(r"[^\w.+-]", "_", Path(rel).name)


def run_on_text(rule: Path, rel: str, data: bytes, args: list[str], timeout: int
                ) -> SpatchResult:
    """RULE on DATA, the text of REL, in a scratch directory.  spatch hands
    file names to diff through a shell, unquoted: a name with a space or a
    newline breaks it, so the copy is named safely (\\W as _, the way the
    rule names its mutex after the stem)."""
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-") as tmp:
        name = safe_name(rel)
        (Path(tmp) / name).write_bytes(data)
        return run_files(rule, [Path(name)], args, jobs=1, timeout=timeout, cwd=Path(tmp))[0]


def split_report(stdout: str) -> tuple[str, str]:
    """A rule's output in -D patch -D report: its report lines come first,
    the diff starts at the first ---/+++ pair."""
    lines = stdout.split("\n")
    for i in range(len(lines) - 1):
        if lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
            return "\n".join(lines[:i]), "\n".join(lines[i:])
    return stdout, ""


def run_batched(rule: Path, files: list[Path], args: list[str], jobs: int = 2,
                timeout: int = 120, cwd: Path | None = None,
                fewest: bool = False, done_count=None,
                files_per_start: int = FILES_PER_START) -> list[SpatchResult]:
    """RULE on FILES in batches (FEWEST: see batch_size, with
    FILES_PER_START), JOBS processes at a time, results in the order of
    FILES; DONE_COUNT(n), if given, as files end (the progress line of
    stages.py: file by file, in one process too)."""
    version()  # fail early, once, when spatch is missing
    planned = batches(list(range(len(files))),
                      batch_size(len(files), jobs, fewest, files_per_start),
                      name=lambda i: str(files[i]))
    results: list[SpatchResult | None] = [None] * len(files)

    def one(batch):
        return run_batch(rule, [Path(files[i]) for i in batch], args, timeout, cwd,
                         done_count=done_count)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = pool.map(one, planned)
        for batch, batch_results in zip(planned, done):
            for i, result in zip(batch, batch_results):
                results[i] = result
    return results


def contains(path, needle: re.Pattern, literal: bytes) -> bool:
    """Whether the file at PATH matches NEEDLE.  LITERAL, a string every
    match contains, is looked for first: a plain search is several times
    faster than the regular expression, and most files fail it."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return False
    return literal in data and needle.search(data) is not None


def source_files(paths: list[Path], symlinks: bool = False):
    """(path, stat) of every .c/.h file under PATHS, the one walk of a source
    tree: no dot directories, directories in name order with a directory's
    files before its subdirectories (os.walk's order).  Symbolic links are
    left out unless SYMLINKS (then with their own lstat), and never followed
    into.  Paths are strings: a Path object per file was a third of a re-run
    over an unchanged tree."""
    for root in paths:
        if root.is_file():
            if root.suffix in SOURCE_SUFFIXES and (symlinks or not root.is_symlink()):
                yield str(root), root.lstat()
            continue
        todo = [str(root)]
        while todo:
            directory = todo.pop()
            try:
                entries = sorted(os.scandir(directory), key=lambda e: e.name)
            except OSError:
                continue
            subdirectories = []
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        subdirectories.append(entry.path)
                elif entry.name.endswith(SOURCE_SUFFIXES) and (
                        entry.is_file(follow_symlinks=False)
                        or symlinks and entry.is_symlink() and not entry.is_dir()):
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue        # gone since the directory was read
                    yield entry.path, st
            todo += reversed(subdirectories)

"""Running spatch: one bounded process per file, a few at a time.

A whole-tree `spatch --dir` run of a body-matching rule can take hours on
one pathological file; one process per candidate file, each with a time
limit, turns that file into a reported timeout instead of a stalled run.
"""

import enum
import functools
import os
import re
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .rules import rule_options

SPATCH = os.environ.get("SPATCH", "spatch")
SOURCE_SUFFIXES = (".c", ".h")


class SpatchMissing(RuntimeError):
    """spatch is not installed (run `make deps`)."""


class Outcome(enum.Enum):
    OK = "ok"
    TIMEOUT = "timeout"
    PARSE_ERROR = "parse-error"
    CRASH = "crash"


@dataclass(frozen=True)
class SpatchResult:
    file: Path
    outcome: Outcome
    stdout: str
    stderr: str
    seconds: float
    # Lines where spatch's parser gave up; code around them was not seen.
    parse_errors: tuple[int, ...] = ()

    @property
    def reason(self) -> str:
        """Why a file was not fully processed, in words for a report."""
        if self.outcome is Outcome.TIMEOUT:
            return f"spatch timed out after {self.seconds:.0f} s"
        if self.outcome is Outcome.CRASH:
            last = self.stderr.strip().splitlines()[-1:] or ["no message"]
            return f"spatch failed: {last[0]}"
        if self.parse_errors:
            lines = ", ".join(str(n) for n in self.parse_errors[:5])
            return f"spatch could not parse the code around line {lines}"
        return ""


@functools.lru_cache(maxsize=1)
def version() -> str:
    try:
        out = subprocess.run([SPATCH, "--version"], capture_output=True, text=True,
                             check=False).stdout
    except FileNotFoundError as err:
        raise SpatchMissing("spatch not found; run `make deps`") from err
    match = re.search(r"spatch version (\S+)", out)
    return match.group(1) if match else out.strip()


_SPATCH_TIMEOUT = re.compile(r"^timeout \(we abort\)|^Timeout at ", re.MULTILINE)
_PARSE_ERROR = re.compile(r'^parse error\s*\n\s*= File "[^"]*", line (\d+)', re.MULTILINE)


def _run_one(rule: Path, file: Path, args: list[str], timeout: int,
             cwd: Path | None) -> SpatchResult:
    # Never let a file name be read as an option: spatch takes it last,
    # and an absolute or ./-prefixed path cannot start with '-'.
    name = str(file) if file.is_absolute() or str(file).startswith(".") else f"./{file}"
    command = [SPATCH, "--sp-file", str(rule), "--verbose-parsing", *rule_options(rule),
               "--timeout", str(timeout), *args, name]
    start = time.monotonic()
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=cwd, start_new_session=True)
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
    seconds = time.monotonic() - start
    stdout = out.decode(errors="surrogateescape")
    stderr = err.decode(errors="replace")
    parse_errors = tuple(sorted({int(n) for n in _PARSE_ERROR.findall(stderr)}))
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


def candidate_files(paths: list[Path], pattern: bytes = rb"ioctl") -> list[Path]:
    """The .c and .h files under PATHS whose text contains PATTERN, sorted.

    This is the prefilter spatch would apply itself, done once in-process
    instead of once per spatch start.
    """
    needle = re.compile(pattern)
    found = []
    for root in paths:
        root = Path(root)
        files = [root] if root.is_file() else _walk(root)
        for path in files:
            if path.suffix not in SOURCE_SUFFIXES or path.is_symlink():
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if needle.search(data):
                found.append(path)
    return sorted(found)


def _walk(root: Path):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            yield Path(dirpath) / name

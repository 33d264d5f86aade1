"""The one runner the stages of audit, convert and check report through:
a clock per stage, and while a stage runs one line on the terminal with
its count, rate and ETA (rewritten in place, as KUnit's kunit_printer
does; nothing when stderr is not a terminal).  At the end, the time each
stage took, for the text and JSON summaries.

A stage entered inside another pauses the outer one's clock, so the times
add up to the run and no second is counted twice; a stage entered again
adds to its time.  Work found in the cache counts as done at once and is
left out of the rate, so the ETA is about what is really left to run.
"""

import argparse
import enum
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass


class Verbosity(enum.IntEnum):
    QUIET = 0       # -q: results and errors only
    NORMAL = 1      # the progress line on a terminal, the stage times at the end
    VERBOSE = 2     # -v: also a line per finished stage, terminal or not


def add_verbosity_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-q", "--quiet", action="store_const", dest="verbosity",
                       const=Verbosity.QUIET,
                       help="no progress line and no stage times: results and errors only")
    group.add_argument("-v", "--verbose", action="store_const", dest="verbosity",
                       const=Verbosity.VERBOSE,
                       help="also a line per finished stage (its count and time), even "
                            "when stderr is not a terminal")
    parser.set_defaults(verbosity=Verbosity.NORMAL)


def verbosity_of(args) -> Verbosity:
    """ARGS' -q/-v (NORMAL for a subcommand without them)."""
    return getattr(args, "verbosity", Verbosity.NORMAL)


@dataclass
class StageTime:
    name: str
    seconds: float = 0.0
    count: int = 0          # items done (files, handlers, builds)
    cached: int = 0         # of them, found in the cache


class Stage:
    """The stage running now: what it counts, how far it is."""

    def __init__(self, runner: "Stages", record: StageTime, unit: str):
        self._runner = runner
        self.record = record
        self.unit = unit
        self.total = 0
        self.done = 0
        self.cached = 0
        self.started = runner.clock()

    def add(self, total: int) -> None:
        """TOTAL more items to do."""
        with self._runner.lock:
            self.total += total
        self._runner.show(self)

    def step(self, count: int = 1) -> None:
        """COUNT items done by running them."""
        with self._runner.lock:
            self.done += count
        self._runner.show(self)

    def from_cache(self, count: int) -> None:
        """COUNT items done by reading the cache."""
        with self._runner.lock:
            self.done += count
            self.cached += count
        self._runner.show(self)

    def tally(self, cached: int, ran: int) -> None:
        """CACHED items done by reading the cache and RAN by running them
        (cache.stat_index's progress)."""
        with self._runner.lock:
            self.done += cached + ran
            self.cached += cached
        self._runner.show(self)

    def line(self, now: float) -> str:
        text = f"{self._runner.command}: {self.record.name}"
        if not self.total:
            return text
        text += f": {self.done}/{self.total} {self.unit}"
        ran, elapsed = self.done - self.cached, now - self.started
        if ran > 0 and elapsed > 0:
            rate = ran / elapsed
            text += f", {rate:.1f}/s"
            if self.done < self.total:
                text += f", ETA {clock_text((self.total - self.done) / rate)}"
        return text


class Stages:
    """The stages of one run of COMMAND (audit, convert, check), in the
    order they were first entered."""

    def __init__(self, command: str, verbosity: Verbosity = Verbosity.NORMAL,
                 stream=None, terminal: bool | None = None, clock=time.monotonic):
        self.command = command
        self.verbosity = verbosity
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = (terminal if terminal is not None
                         else hasattr(self.stream, "isatty") and self.stream.isatty())
        self.clock = clock
        self.lock = threading.RLock()
        self._times: dict[str, StageTime] = {}
        self._stack: list[tuple[Stage, float]] = []    # stage, when its clock last started
        self._shown = 0.0

    @property
    def live(self) -> bool:
        """Whether a progress line is drawn."""
        return self.terminal and self.verbosity >= Verbosity.NORMAL

    @contextmanager
    def stage(self, name: str, total: int = 0, unit: str = "files"):
        """Run the stage NAME (TOTAL items of UNIT, if known) in the with block.
        Entered again inside itself, it is the same stage, with more to do."""
        if self._stack and self._stack[-1][0].record.name == name:
            current = self._stack[-1][0]
            current.add(total)
            yield current
            return
        with self.lock:
            now = self.clock()
            if self._stack:
                outer, since = self._stack[-1]
                outer.record.seconds += now - since
            record = self._times.setdefault(name, StageTime(name))
            current = Stage(self, record, unit)
            current.total = total
            self._stack.append((current, now))
        self.show(current, force=True)
        try:
            yield current
        finally:
            with self.lock:
                now = self.clock()
                _, since = self._stack.pop()
                record.seconds += now - since
                record.count += current.done
                record.cached += current.cached
                if self._stack:
                    self._stack[-1] = (self._stack[-1][0], now)
            self._clear()
            if self.verbosity >= Verbosity.VERBOSE:
                self._write(self._finished(current, now) + "\n")
            if self._stack:
                self.show(self._stack[-1][0], force=True)

    def show(self, current: Stage, force: bool = False) -> None:
        if not self.live:
            return
        with self.lock:
            now = self.clock()
            # A few redraws a second are enough for a person, and cheap.
            if not force and now - self._shown < 0.1 and current.done < current.total:
                return
            self._shown = now
            self._write("\r\033[K" + current.line(now))

    def _clear(self) -> None:
        if self.live:
            self._write("\r\033[K")

    def _finished(self, current: Stage, now: float) -> str:
        text = f"{self.command}: {current.record.name}: "
        if current.total or current.done:
            cached = f", {current.cached} cached" if current.cached else ""
            text += f"{current.done} {current.unit}{cached}, "
        return text + f"{now - current.started:.1f} s"

    def _write(self, text: str) -> None:
        with self.lock:
            self.stream.write(text)
            self.stream.flush()

    def times(self) -> dict[str, float]:
        """Stage name -> seconds, in the order the stages were entered."""
        return {name: round(t.seconds, 3) for name, t in self._times.items()}

    def records(self) -> list[StageTime]:
        return list(self._times.values())


def times_text(times: dict[str, float]) -> str:
    """The stage times of a summary, for the line a person reads."""
    return "stage times: " + ", ".join(f"{name} {seconds:.1f} s"
                                       for name, seconds in times.items())


def clock_text(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"

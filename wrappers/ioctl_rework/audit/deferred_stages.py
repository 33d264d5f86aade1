"""Stages run in a thread of their own, drawn later: the terminal has one
progress line, and it belongs to the stage the command is in.  A
DeferredStages takes the calls of stages.Stages that the work makes (a
stage entered, items added or done, the stage left) and keeps them;
replay() makes them again on the command's own Stages, in order, as they
come, and returns once the work has ended.  So each stage is drawn with its
counts and ETA as if it ran there, and its clock counts what the command
waited for it: the time it ran beside an earlier stage is that stage's."""

import threading
from contextlib import contextmanager

from ioctl_rework.stages import Stages

_ENTER, _CALL, _LEAVE = "enter", "call", "leave"


class _KeptStage:
    """The calls a stages.Stage takes, kept for the replay."""

    def __init__(self, owner: "DeferredStages"):
        self._owner = owner

    def add(self, total: int) -> None:
        self._owner._keep(_CALL, "add", total)

    def step(self, count: int = 1) -> None:
        self._owner._keep(_CALL, "step", count)

    def from_cache(self, count: int) -> None:
        self._owner._keep(_CALL, "from_cache", count)

    def tally(self, cached: int, ran: int) -> None:
        self._owner._keep(_CALL, "tally", cached, ran)


class DeferredStages:
    """What stages.Stages offers the work that runs in a thread; replay()
    draws it on the command's Stages.  One thread runs the work: its stages
    nest as they would on the command's own."""

    def __init__(self):
        self._events: list[tuple] = []
        self._ended = False
        self._changed = threading.Condition()

    @contextmanager
    def stage(self, name: str, total: int = 0, unit: str = "files"):
        self._keep(_ENTER, name, total, unit)
        try:
            yield _KeptStage(self)
        finally:
            self._keep(_LEAVE)

    def end(self) -> None:
        """The work is over (whether it ended well or not)."""
        with self._changed:
            self._ended = True
            self._changed.notify_all()

    def _keep(self, *event) -> None:
        with self._changed:
            self._events.append(event)
            self._changed.notify_all()

    def replay(self, stages: Stages) -> None:
        """Every call kept, made on STAGES as it comes, until end()."""
        seen, entered = 0, []       # (context manager, stages.Stage), innermost last
        try:
            while True:
                with self._changed:
                    while seen == len(self._events) and not self._ended:
                        self._changed.wait()
                    if seen == len(self._events):
                        return
                    event = self._events[seen]
                seen += 1
                if event[0] == _ENTER:
                    manager = stages.stage(*event[1:])
                    entered.append((manager, manager.__enter__()))
                elif event[0] == _CALL:
                    getattr(entered[-1][1], event[1])(*event[2:])
                else:
                    entered.pop()[0].__exit__(None, None, None)
        finally:
            while entered:
                entered.pop()[0].__exit__(None, None, None)

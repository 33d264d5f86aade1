"""The values the lock proof hands out: problems, the lock, refusals."""

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.lockproof.syntax import LockSpelling


@dataclass(frozen=True)
class LockProblem:
    """A path of a converted function that does not hold the lock where the
    legacy handler held it.  LINE is a line of the converted file."""

    file: str
    line: int
    function: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.function}: {self.message}"


class Unprovable(Exception):
    """Code the prover cannot analyse: never a pass, always a reason."""

    def __init__(self, file: str, function: str, reason: str, line: int = 0):
        super().__init__(f"{file}: {function}: cannot prove the lock balance: {reason}")
        self.file = file
        self.function = function
        self.reason = reason
        self.line = line


@dataclass(frozen=True)
class HandlerProof:
    """The verdict on one converted handler: its problems, or why it could
    not be analysed (then it must not count as proven)."""

    handler: str
    entry: str
    problems: tuple[LockProblem, ...]
    unprovable: Unprovable | None = None

    @property
    def proven(self) -> bool:
        return not self.problems and self.unprovable is None


@dataclass(frozen=True)
class LockCalls:
    """The lock a conversion takes: BKL mode
    LockCalls("lock_kernel", "unlock_kernel", ""), mutex mode
    LockCalls("mutex_lock", "mutex_unlock", "&NAME")."""

    acquire: str
    release: str
    argument: str

    @classmethod
    def for_options(cls, options: settings.ConversionOptions, rel: str) -> "LockCalls":
        if options.lock is settings.LockMode.MUTEX:
            return cls.mutex(mutex_name(rel))
        return cls.bkl()

    @classmethod
    def bkl(cls) -> "LockCalls":
        return cls("lock_kernel", "unlock_kernel", "")

    @classmethod
    def mutex(cls, name: str) -> "LockCalls":
        return cls("mutex_lock", "mutex_unlock", "&" + name)

    @property
    def is_bkl(self) -> bool:
        return self.acquire == "lock_kernel"

    @property
    def name(self) -> str:
        """What a message calls the lock: "the BKL", "foo_mutex"."""
        return "the BKL" if self.is_bkl else self.argument.lstrip("&")

    @property
    def acquire_call(self) -> str:
        return f"{self.acquire}({self.argument})"

    @property
    def release_call(self) -> str:
        return f"{self.release}({self.argument})"

    @property
    def spelling(self) -> LockSpelling:
        """The calls as the parser recognizes them: with CONFIG_DEBUG_LOCK_ALLOC
        the preprocessor writes mutex_lock(m) as mutex_lock_nested(m, 0)."""
        acquire = (self.acquire,) if self.is_bkl else (self.acquire, self.acquire + "_nested")
        argument = ("&", self.argument[1:]) if self.argument.startswith("&") else \
            tuple(self.argument.split())
        return LockSpelling(acquire, (self.release,), argument)


def mutex_name(rel: str, legacy: str = "") -> str:
    """The private mutex of a file, as the conversion names it: the file's
    stem, non-word characters as underscores, then _mutex; when the legacy
    text already has that word, _ioctl_mutex, then _ioctl_mutex2, 3, ..."""
    stem = re.sub(r"\W", "_", Path(rel).stem)
    taken = set(re.findall(r"\w+", legacy))
    for number in itertools.count(1):
        name = stem + ("_mutex" if number == 1 else "_ioctl_mutex" if number == 2
                       else f"_ioctl_mutex{number - 1}")
        if name not in taken:
            return name
    raise AssertionError("unreachable")


_DEFINED_MUTEX = re.compile(r"\bDEFINE_MUTEX\s*\(\s*(\w+)\s*\)")


def lock_for_text(lock: LockCalls, rel: str, legacy: str, new: str = "") -> LockCalls:
    """LOCK as the conversion of REL takes it, given its legacy text: the
    default mutex name moves on when the file already uses it, or a header
    it includes does.  The one mutex the conversion NEW defines that the
    legacy text did not is the file's private mutex, whatever its name; the
    proof then holds every path to it."""
    if lock.is_bkl or lock.name != mutex_name(rel):
        return lock
    added = set(_DEFINED_MUTEX.findall(new)) - set(_DEFINED_MUTEX.findall(legacy))
    if len(added) == 1:
        return LockCalls.mutex(added.pop())
    return LockCalls.mutex(mutex_name(rel, legacy))

"""The rule's runs on the files of a kbuild module that share one mutex
(modules.py): which file defines it, and which file stops them all.

The file that defines the mutex is the first of the module, in Makefile
order, whose run takes it (the rule wrote the extern declaration, or the
definition, where the private mutex would go).  Every other file that
takes it declares it.  Since they share one lock, the files convert
together or not at all: a file that fails, is left alone, or keeps a
handler legacy (still under the BKL, or under no lock the others take)
stops the whole module, in words that name it.
"""

import re
from dataclasses import dataclass

from ioctl_rework.convert.file_runs import FileRun
from ioctl_rework.convert.modules import ModuleMutex, ModulePlan


def takes_mutex(mutex: ModuleMutex, run: FileRun) -> bool:
    """Whether RUN wrote MUTEX's declaration or definition (a run with it as
    the home defines it; the others declare it)."""
    if run.new is None:
        return False
    new = run.new.decode("utf-8", "surrogateescape")
    old = run.old.decode("utf-8", "surrogateescape")
    written = re.compile(rf"^(?:extern\s+struct\s+mutex\s+{mutex.name}\s*;|"
                         rf"DEFINE_MUTEX\s*\(\s*{mutex.name}\s*\)\s*;)", re.MULTILINE)
    return len(written.findall(new)) > len(written.findall(old))


def home(mutex: ModuleMutex, final: dict[str, FileRun]) -> str | None:
    """The file that defines MUTEX: the first of its files whose run takes it."""
    return next((rel for rel in mutex.files if rel in final and takes_mutex(mutex, final[rel])),
                None)


def homes(in_modules: ModulePlan, final: dict[str, FileRun],
          held: dict[str, str]) -> set[str]:
    """The file that defines each module mutex of a module still converting."""
    found = set()
    for mutex in in_modules.modules():
        found_home = home(mutex, final)
        if found_home is not None and found_home not in held:
            found.add(found_home)
    return found


@dataclass(frozen=True)
class Stop:
    """Why the file FILE keeps its module from converting."""

    file: str
    why: str


def stop(mutex: ModuleMutex, final: dict[str, FileRun], failures: dict[str, str],
         blocked: dict[str, str], dropped_in: set[str]) -> Stop | None:
    """The first file of MUTEX's module (Makefile order) that does not
    convert with the others: DROPPED_IN are the files of a handler the
    cross-file follow-up converts nowhere."""
    for rel in mutex.files:
        run = final.get(rel)
        if rel in blocked:
            return Stop(rel, f"cannot be written ({blocked[rel]})")
        if run is not None and not run.ok:
            return Stop(rel, f"failed ({run.reason})")
        if rel in failures:
            return Stop(rel, f"failed ({failures[rel]})")
        if rel in dropped_in:
            return Stop(rel, "has a handler converted nowhere")
        if run is None:
            continue
        converted = {d.handler for d in run.decisions if d.convert}
        for d in run.decisions:
            if not d.convert and d.handler not in converted:
                return Stop(rel, f"keeps {d.handler} at line {d.line} legacy ({d.reason})")
    return None


def held(mutex: ModuleMutex, why: Stop) -> dict[str, str]:
    """Every file of MUTEX's module (the one that stopped it too: a handler
    of it may have converted) -> what its records say."""
    words = (f"left alone with the other files of its kbuild module {mutex.module.name} "
             f"({mutex.module.makefile}), which share one mutex and convert together or not "
             f"at all: {why.file} {why.why}")
    return {rel: words for rel in mutex.files}


def kept_back(in_modules: ModulePlan, kept: dict[str, str]) -> dict[str, str]:
    """Every file of each module one of KEPT (files the run does not write
    -> why) is in -> what its records say: the module's mutex would be
    shared by files that convert and one that does not."""
    found = {}
    for mutex in in_modules.modules():
        first = next((rel for rel in mutex.files if rel in kept), None)
        if first is not None:
            found.update(held(mutex, Stop(first, f"is not written ({kept[first]})")))
    return found


def unsettled(in_modules: ModulePlan, chosen_again: set[str]) -> dict[str, str]:
    """Every file of each module that CHOSEN_AGAIN (files the definition
    left, chosen again: the runs do not settle) has a file of -> what its
    records say."""
    found = {}
    for mutex in in_modules.modules():
        back = sorted(chosen_again & set(mutex.files))
        if back:
            found.update(held(mutex, Stop(back[0], "does not keep the definition of the "
                                          "module's mutex when it is given it")))
    return found


def stops(in_modules: ModulePlan, final: dict[str, FileRun], failures: dict[str, str],
          blocked: dict[str, str], held_now: dict[str, str],
          dropped_in: set[str]) -> dict[str, str]:
    """The files of each module not yet held (HELD_NOW) that one of its
    files stops (stop)."""
    found = {}
    for mutex in in_modules.modules():
        if any(rel in held_now for rel in mutex.files):
            continue
        why = stop(mutex, final, failures, blocked, dropped_in)
        if why is not None:
            found.update(held(mutex, why))
    return found

"""Kbuild composite modules: the objects `foo-objs`/`foo-y`/`foo-$(CONFIG_X)`
of a directory's Makefile (or Kbuild) link into one module, foo.

Under the BKL every .ioctl handler of a module excluded every other.  A
private mutex per file would not: two files of one module that share state
(a global of the module's header) would update it at once.  So in mutex
mode the files of one module that the run converts share one mutex, the
module's: a name free in every file of the module and every header they
include, defined in one file (the first in Makefile order that takes it)
and declared extern in the others.  They convert together or not at all.
A module of which the run converts one file keeps that file's private
mutex: it is the module's only one.
"""

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from ioctl_rework import settings
from ioctl_rework.ctext import include_search

# "foo-objs := a.o b.o", "foo-y += c.o", "foo-$(CONFIG_FOO_X) += d.o", with
# continuation lines.
_COMPOSITE = re.compile(r"^[ \t]*([\w.-]+?)-(?:objs|y|\$\(CONFIG_\w+\))[ \t]*[:+]?=[ \t]*"
                        r"((?:.*\\\n)*.*)$", re.MULTILINE)
# Variables of kbuild spelled like a composite object, which are none.
_NOT_MODULES = {"obj", "lib", "subdir", "ccflags", "EXTRA_CFLAGS", "asflags", "ldflags",
                "hostprogs", "always", "extra", "header", "targets", "clean", "subdir-ccflags"}
_MAKEFILES = ("Makefile", "Kbuild")


@dataclass(frozen=True)
class Module:
    """A composite module: its name, the Makefile that names its objects
    (relative to the tree) and its C sources, in the Makefile's order."""

    name: str
    makefile: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class ModuleMutex:
    """The one mutex of MODULE, which FILES (the files of the run in it,
    in Makefile order) take."""

    module: Module
    name: str
    files: tuple[str, ...]

    def declaration(self) -> str:
        """The line the rule writes where a file only declares it."""
        return f"extern struct mutex {self.name};"


@dataclass
class ModulePlan:
    """What mutex mode does with the composite modules of a run: the mutex
    of each file that shares one, and the files it must leave (why)."""

    mutexes: dict[str, ModuleMutex]
    refused: dict[str, str]

    def modules(self) -> list[ModuleMutex]:
        seen = {}
        for mutex in self.mutexes.values():
            seen.setdefault(mutex.name, mutex)
        return list(seen.values())


def members(makefile_text: str) -> dict[str, list[str]]:
    """module name -> the objects its Makefile text links into it (paths
    relative to the Makefile's directory), in order, each once."""
    text = re.sub(r"#.*", "", makefile_text)
    found: dict[str, list[str]] = {}
    for name, objects in _COMPOSITE.findall(text):
        if name in _NOT_MODULES:
            continue
        listed = found.setdefault(name, [])
        for obj in objects.replace("\\\n", " ").split():
            if obj.endswith(".o") and obj not in listed:
                listed.append(obj)
    return {name: objs for name, objs in found.items() if objs}


def module_of(root, rel: str) -> Module | None:
    """The composite module the file REL of ROOT is an object of, looked for
    in the Makefile (or Kbuild) of its directory and then of the directories
    above it (an object "sub/a.o"), or None.  A module of one object named
    after it (foo-y := foo.o) is no composite."""
    path = PurePosixPath(rel)
    if path.suffix != ".c":
        return None
    for directory in path.parents:
        obj = str(path.relative_to(directory).with_suffix(".o"))
        for makefile in _MAKEFILES:
            where = directory / makefile
            try:
                text = (root / where).read_text(errors="replace")
            except OSError:
                continue
            for name, objects in members(text).items():
                if obj not in objects or objects == [f"{name}.o"]:
                    continue
                sources = tuple(str(directory / PurePosixPath(o).with_suffix(".c"))
                                for o in objects)
                return Module(name, str(where), tuple(s.removeprefix("./") for s in sources))
    return None


def plan(root, run_files: set[str], other_files: set[str]) -> ModulePlan:
    """The module mutexes of RUN_FILES (the files this run converts), and
    the files left because the module has files in OTHER_FILES (another
    shard's) that would have to take the same mutex."""
    by_module: dict[Module, list[str]] = {}
    for rel in sorted(run_files | other_files):
        module = module_of(root, rel)
        if module is not None:
            by_module.setdefault(module, []).append(rel)
    found = ModulePlan({}, {})
    for module, files in by_module.items():
        if len(files) < 2:
            continue
        elsewhere = sorted(set(files) - run_files)
        mine = [rel for rel in module.sources if rel in run_files]
        if elsewhere:
            for rel in mine:
                found.refused[rel] = (
                    f"left alone: its module {module.name} ({module.makefile}) has files in "
                    f"another shard ({', '.join(elsewhere)}), which must take the same mutex: "
                    "convert the module in one shard")
            continue
        mine += sorted(set(files) - set(mine))     # a header of the run is no source
        shared = ModuleMutex(module, free_name(root, module), tuple(mine))
        for rel in mine:
            found.mutexes[rel] = shared
    return found


def plan_for(lock: "settings.LockMode", root, run_files: set[str],
             other_files: set[str] = frozenset()) -> ModulePlan:
    """plan() where the run takes a private mutex; the BKL is one lock for
    every file already, so no module needs one of its own."""
    if lock is not settings.LockMode.MUTEX:
        return ModulePlan({}, {})
    return plan(root, run_files, other_files)


def free_name(root, module: Module) -> str:
    """<module>_ioctl_mutex, then <module>_ioctl_mutex2, ...: the first name
    no file of MODULE and no header one of them includes has as a word."""
    taken: set[str] = set()
    for source in module.sources:
        for text in include_search.read_headers(root, source).texts.values():
            taken.update(re.findall(r"\w+", text))
    stem = re.sub(r"\W", "_", module.name) + "_ioctl_mutex"
    number = 1
    while (stem if number == 1 else f"{stem}{number}") in taken:
        number += 1
    return stem if number == 1 else f"{stem}{number}"

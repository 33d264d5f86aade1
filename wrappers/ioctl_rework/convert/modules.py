"""Kbuild composite modules: the objects `foo-objs`/`foo-y` of a directory's
Makefile (or Kbuild) link into one module, foo.

Under the BKL every .ioctl handler of a module excluded every other.  The
private mutex is one per file, so two files of one module that both have
handlers would each get their own and no longer exclude each other, while
they may share state (a global of the module's header).  Until one mutex
per module is written, mutex mode leaves such files as they are and says
why (default-deny).
"""

import re
from pathlib import Path

# "foo-objs := a.o b.o", "foo-y += c.o", "foo-$(CONFIG_FOO_X) += d.o", with
# continuation lines.
_COMPOSITE = re.compile(r"^\s*([\w.-]+?)-(?:objs|y|\$\(CONFIG_\w+\))\s*[:+]?=\s*((?:.*\\\n)*.*)$",
                        re.MULTILINE)


def members(makefile_text: str) -> dict[str, set[str]]:
    """module name -> the object stems its Makefile text links into it."""
    found: dict[str, set[str]] = {}
    for name, objects in _COMPOSITE.findall(makefile_text):
        if name in ("obj", "lib", "subdir", "ccflags", "EXTRA_CFLAGS", "asflags", "ldflags"):
            continue
        stems = {Path(o).stem for o in objects.replace("\\\n", " ").split()
                 if o.endswith(".o")}
        found.setdefault(name, set()).update(stems)
    return found


def module_of(root: Path, rel: str) -> tuple[str, str, frozenset] | None:
    """(module, its Makefile's path, the object stems of the module) of the
    file REL of ROOT when it is one object of a composite module, or None."""
    directory = Path(rel).parent
    for name in ("Makefile", "Kbuild"):
        try:
            text = (Path(root) / directory / name).read_text(errors="replace")
        except OSError:
            continue
        for module, stems in members(text).items():
            if Path(rel).stem in stems and stems != {module}:
                return module, str(directory / name), frozenset(stems)
    return None


def shared_modules(root: Path, rels: list[str]) -> dict[str, str]:
    """Of the files RELS (those with .ioctl entries), each one whose
    composite module has another of them -> why mutex mode leaves it."""
    by_module: dict[tuple[str, str], list[str]] = {}
    for rel in rels:
        found = module_of(root, rel)
        if found:
            by_module.setdefault((found[0], found[1]), []).append(rel)
    why = {}
    for (module, makefile), files in by_module.items():
        if len(files) < 2:
            continue
        for rel in files:
            others = ", ".join(sorted(f for f in files if f != rel))
            why[rel] = (f"left alone: its module {module} ({makefile}) also has .ioctl "
                        f"handlers in {others}; under the BKL they excluded each other, but "
                        "each file would get its own private mutex: convert the module's "
                        "files with --lock bkl, or by hand with one mutex for the module")
    return why

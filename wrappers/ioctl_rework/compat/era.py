"""What a 32-bit process gets from a handler in the tree's own era: the
class from the layouts (classify.py), then the tree's compat table
(table.py) for the commands it handles without a .compat_ioctl.

A command the table passes needs nothing; one it translates is
`translated`: a .compat_ioctl on the fops would bypass that translation,
so such a handler never gets the plain entry added.  The other commands
get what compat_sys_ioctl returns there.  Each result says which source
decided it.
"""

from dataclasses import replace

from ioctl_rework.compat.classify import Classification, CompatClass, Offender
from ioctl_rework.compat.probe import ItemResult, ProbeItem
from ioctl_rework.compat.table import CompatTable, TableAction, TableVerdict


def known_sizes(probed: dict[ProbeItem, ItemResult]) -> dict[str, int]:
    """x86_64 sizes the probe found: of the types it compiled and of the
    types the commands encode (the size field of their number)."""
    sizes = {}
    for item, result in probed.items():
        if result.error:
            continue
        if item.kind == "type" and "x86_64" in result.layouts:
            sizes[" ".join(item.text.split())] = result.layouts["x86_64"].size
        x86_64 = result.commands.get("x86_64")
        if x86_64 is not None and x86_64.size_type:
            sizes.setdefault(" ".join(x86_64.size_type.split()), (x86_64.value >> 16) & 0x3FFF)
    return sizes


def numbers(probed: dict[ProbeItem, ItemResult], commands) -> dict[str, int | None]:
    """Command -> the number a 32-bit caller passes (None: not probed)."""
    found = {}
    for command in commands:
        result = probed.get(ProbeItem("cmd", command))
        i386 = result.commands.get("i386") if result and not result.error else None
        found[command] = i386.value if i386 else None
    return found


def reads_numbers(table: CompatTable) -> bool:
    """Whether apply() looks the commands up in TABLE by their numbers: not
    in a tree without a compat table, where no class reads a number."""
    return bool(table.files)


def verdicts(commands, numbers_: dict[str, int | None], sizes: dict[str, int],
             table: CompatTable, file: str) -> dict[str, TableVerdict]:
    """Command -> what the table does with the number a 32-bit caller passes
    (NUMBERS_), the x86_64 SIZES known for the types of its entries."""
    return {command: table.lookup(command, numbers_.get(command), sizes.get, file)
            for command in commands}


def _listed(found: dict[str, TableVerdict], action: TableAction) -> str:
    return ", ".join(f"{c} ({v.entry.source})" for c, v in found.items() if v.action is action)


def apply(decided: Classification, found: dict[str, TableVerdict],
          table: CompatTable) -> Classification:
    """DECIDED as the tree's compat table leaves it, with its source."""
    if not reads_numbers(table):
        return replace(decided, source=table.no_entry())
    uncertain = [v.uncertain for v in found.values() if v.uncertain]
    if uncertain:
        return replace(decided, compat_class=CompatClass.UNKNOWN, offenders=(),
                       reason=f"the compat table cannot be read for it: {uncertain[0]}",
                       source="compat table (" + ", ".join(table.files) + ")")
    passed = _listed(found, TableAction.PASSED)
    translated = _listed(found, TableAction.TRANSLATED)
    rest = [c for c, v in found.items() if v.action is None]
    covered = "; ".join(part for part in (passed and "the table passes " + passed,
                                          translated and "translates " + translated) if part)
    if found and not rest:
        compat_class = CompatClass.TRANSLATED if translated else CompatClass.TABLE_PASSES
        return replace(decided, compat_class=compat_class, offenders=(),
                       reason=covered.replace("the table", "the tree's compat table", 1),
                       source=covered)
    source = f"{', '.join(rest) or 'its commands'}: {table.no_entry()}"
    if covered:
        source += f"; {covered}"
    if translated and decided.compat_class.adds_compat:
        bypassed = tuple(Offender(c, "compat table", f"translated by {v.entry.describe()}; a .compat_ioctl "
                                         "would bypass that")
                         for c, v in found.items() if v.action is TableAction.TRANSLATED)
        return replace(decided, compat_class=CompatClass.NEEDS_TRANSLATION, offenders=bypassed,
                       source=source)
    return replace(decided, source=source)

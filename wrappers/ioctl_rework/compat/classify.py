"""Decide, per handler, whether 32-bit callers may share it, from the rule's
facts and the compiled layouts.

same-handler: arg is only used as a number or not at all, and every
  command number is the same for both ABIs.
compat-ptr: arg is only used as a user pointer, and every type that
  crosses (the command's _IOC type, the pointee of each cast, each object
  copied) has the same size and member offsets for i386 and x86_64.
needs-translation: some command is not clean; the offenders are listed.
unknown: what the analysis could not see, with why.  Nothing is added.
translated, table-passes: the tree's own compat table handles every
  command (compat.era), translating some or passing all.
"""

import enum
import re
from dataclasses import dataclass

from ioctl_rework.compat.facts import HandlerFacts
from ioctl_rework.compat.probe import ItemResult, ProbeItem

# Functions a user pointer may be passed to: they move the object whose
# type the copy or the pointer's own type names, and nothing else.
COPIES = {"copy_from_user", "copy_to_user", "__copy_from_user", "__copy_to_user"}
UACCESS = COPIES | {"get_user", "put_user", "__get_user", "__put_user"}
# Functions that only print their arguments: cmd or arg handed to them
# decides nothing and moves nothing.
LOGGING = {"printk", "pr_debug", "pr_devel", "pr_info", "pr_notice", "pr_warn", "pr_err",
           "pr_debug_ratelimited", "pr_err_ratelimited", "pr_warn_ratelimited",
           "dev_dbg", "dev_info", "dev_notice", "dev_warn", "dev_err",
           "dev_dbg_ratelimited", "dev_err_ratelimited", "dev_warn_ratelimited",
           "netdev_dbg", "netdev_info", "netdev_warn", "netdev_err"}


class CompatClass(enum.Enum):
    SAME_HANDLER = "same-handler"
    COMPAT_PTR = "compat-ptr"
    NEEDS_TRANSLATION = "needs-translation"
    UNKNOWN = "unknown"
    TRANSLATED = "translated"
    TABLE_PASSES = "table-passes"

    @property
    def adds_compat(self) -> bool:
        return self in (CompatClass.SAME_HANDLER, CompatClass.COMPAT_PTR)


@dataclass(frozen=True)
class Offender:
    command: str        # the command, or "(any)" when the use is outside the cases
    type: str
    detail: str

    def __str__(self) -> str:
        return f"{self.command}: {self.type}: {self.detail}"


@dataclass(frozen=True)
class Classification:
    file: str
    handler: str
    compat_class: CompatClass
    commands: tuple[str, ...] = ()
    offenders: tuple[Offender, ...] = ()
    reason: str = ""
    # What decided what a 32-bit process gets: the tree's compat table
    # entries, or its absence and compat_sys_ioctl's error (compat.era).
    source: str = ""

    def to_json(self) -> dict:
        return {"file": self.file, "handler": self.handler, "class": self.compat_class.value,
                "commands": list(self.commands),
                "offenders": [[o.command, o.type, o.detail] for o in self.offenders],
                "reason": self.reason, "source": self.source}

    @classmethod
    def from_json(cls, value: dict) -> "Classification":
        return cls(value["file"], value["handler"], CompatClass(value["class"]),
                   tuple(value["commands"]), tuple(Offender(*o) for o in value["offenders"]),
                   value["reason"], value["source"])

    def describe(self) -> str:
        text = self.compat_class.value
        if self.offenders:
            text += ": " + "; ".join(map(str, self.offenders))
        elif self.reason:
            text += ": " + self.reason
        return text


@dataclass(frozen=True)
class _Plan:
    """What a handler needs probed, or why it cannot be decided."""

    pointer_uses: tuple            # (line, what)
    integer_uses: tuple
    types: tuple                   # (line, type text)
    unknown: str | None = None


def _pointee(type_text: str) -> str | None:
    """The type a pointer type points to, without qualifiers; None for
    a type that is not a pointer."""
    text = " ".join(type_text.replace("__user", " ").split())
    if not text.endswith("*"):
        return None
    text = re.sub(r"\b(const|volatile|__force)\b", " ", text[:-1])
    return " ".join(text.split())


def _probe_worthy(type_text: str | None) -> bool:
    return bool(type_text) and type_text not in ("void", "char", "unsigned char", "signed char")


def _deciding_cmd_calls(facts: HandlerFacts) -> dict[str, int]:
    """The functions cmd is passed to that may decide what a command does:
    not a logging function, nor _IOC_TYPE() when every use of it only
    rejects other types (cf_type_guard) before the commands are compared,
    nor _IOC_NR() when every use of it is a switch whose labels are the
    commands (their size bits then decide nothing; what arg carries does,
    and is judged as for any command)."""
    calls = {name: line for name, line in facts.cmd_calls.items() if name not in LOGGING}
    if "_IOC_TYPE" in calls and facts.type_uses and facts.type_uses <= facts.type_guards:
        del calls["_IOC_TYPE"]
    if "_IOC_NR" in calls and facts.nr_uses and facts.nr_uses <= facts.nr_switches:
        del calls["_IOC_NR"]
    return calls


def plan(facts: HandlerFacts) -> _Plan:
    if not facts.line:
        return _Plan((), (), (), "its definition is not in this file")
    cmd_calls = _deciding_cmd_calls(facts)
    if cmd_calls:
        name, line = next(iter(cmd_calls.items()))
        return _Plan((), (), (), f"{facts.cmd} is passed to {name}() at line {line}, "
                                 "whose commands are not followed")
    if not facts.commands:
        return _Plan((), (), (), f"no case label or comparison on {facts.cmd or 'cmd'} was found")
    pointer, integer, types = [], [], []
    used = facts.alias_uses - facts.alias_defined - facts.alias_sources
    # An alias is followed where it is handed to a function (cast or not)
    # or sets another alias; anywhere else (`q = (T *)p;`, `p + 1`) the
    # pointer goes where the facts do not see it.
    for position in sorted(used):
        if position not in facts.alias_calls:
            return _Plan((), (), (), f"a pointer set from {facts.arg} is used at line "
                                     f"{position[0]} in a way that is not followed")
    alias_lines = {line for line, _ in facts.alias_defined}
    for position in sorted(facts.arg_uses):
        line = position[0]
        if facts.arg_calls.get(position) in LOGGING:
            continue        # printed, which neither reads nor writes through it
        if position in facts.arg_calls:
            return _Plan((), (), (), f"{facts.arg} is passed to {facts.arg_calls[position]}() "
                                     f"at line {line}, which is not followed")
        cast = facts.casts.get(position)
        if cast is None:
            integer.append((line, f"{facts.arg} used as a number"))
            continue
        pointee = _pointee(cast)
        if pointee is None:
            integer.append((line, f"({cast}){facts.arg}"))
        elif line in alias_lines and not used:
            continue        # a pointer set up and never used passes nothing
        else:
            pointer.append((line, f"({cast}){facts.arg}"))
            if _probe_worthy(pointee):
                types.append((line, pointee))
    for position, cast in facts.casts.items():
        if position not in facts.arg_uses:      # a cast of an alias
            pointee = _pointee(cast)
            if _probe_worthy(pointee):
                types.append((position[0], pointee))
    for name, type_text in facts.aliases.items():
        if _pointee(type_text) is None:
            return _Plan((), (), (), f"{name} holds {facts.arg} as {type_text}, which is not followed")
    for position, function in facts.alias_calls.items():
        if function in LOGGING:
            continue
        if function not in UACCESS:
            return _Plan((), (), (), f"a user pointer is passed to {function}() at line "
                                     f"{position[0]}, which is not followed")
        if function in ("get_user", "put_user", "__get_user", "__put_user"):
            for type_text in facts.aliases.values():
                if _probe_worthy(_pointee(type_text)):
                    types.append((position[0], _pointee(type_text)))
    for position, function in facts.cast_calls.items():
        pointee = _pointee(facts.casts.get(position, "")) or ""
        if function not in UACCESS and not _probe_worthy(pointee):
            return _Plan((), (), (), f"({facts.casts.get(position)}){facts.arg} is passed to "
                                     f"{function}() at line {position[0]}, which is not followed")
    copy_lines = {position[0] for position in facts.copies}
    for position, function in [*facts.alias_calls.items(), *facts.cast_calls.items()]:
        if function in COPIES and position[0] not in copy_lines:
            return _Plan((), (), (), f"the {function}() at line {position[0]} was not "
                                     "understood (no copy fact)")
    uses_pointer = {facts.arg, *facts.arg_names, *facts.aliases}
    for position, (type_text, source) in facts.copies.items():
        if not set(re.findall(r"\w+", source)) & uses_pointer:
            continue
        if type_text is None:
            return _Plan((), (), (), f"the object copied at line {position[0]} has a type "
                                     "spatch could not tell")
        if _probe_worthy(type_text.replace("const ", "")):
            types.append((position[0], type_text.replace("const ", "")))
    return _Plan(tuple(pointer), tuple(integer), tuple(dict.fromkeys(types)))


def probe_items(facts: HandlerFacts, handler_plan: _Plan) -> list[ProbeItem]:
    if handler_plan.unknown:
        return []
    return [*(ProbeItem("cmd", c) for c in facts.commands),
            *(ProbeItem("type", t) for _, t in handler_plan.types)]


def _command_at(facts: HandlerFacts, line: int) -> str:
    """The case label a use at LINE is under: the last one above it."""
    above = [(at, command) for command, at in facts.commands.items() if at <= line]
    return max(above)[1] if above else "(any)"


def layout_differences(result: ItemResult) -> list[str]:
    i386, x86_64 = result.layouts["i386"], result.layouts["x86_64"]
    found = []
    if i386.size != x86_64.size:
        found.append(f"size {i386.size} (i386) vs {x86_64.size} (x86_64)")
    for a, b in zip(i386.members, x86_64.members):
        if (a.offset, a.size) != (b.offset, b.size):
            found.append(f"member {a.path}: offset {a.offset} size {a.size} (i386) vs "
                         f"offset {b.offset} size {b.size} (x86_64)")
    return found


def decide(facts: HandlerFacts, handler_plan: _Plan,
           probed: dict[ProbeItem, ItemResult]) -> Classification:
    commands = tuple(facts.commands)
    base = dict(file=facts.file, handler=facts.handler, commands=commands)
    if handler_plan.unknown:
        return Classification(compat_class=CompatClass.UNKNOWN, reason=handler_plan.unknown, **base)
    offenders = []
    for command in commands:
        result = probed[ProbeItem("cmd", command)]
        if result.error:
            return Classification(compat_class=CompatClass.UNKNOWN,
                                  reason=f"command {command} could not be probed: {result.error}",
                                  **base)
        i386, x86_64 = result.commands["i386"], result.commands["x86_64"]
        if i386.value != x86_64.value:
            offenders.append(Offender(command, i386.size_type or "?",
                                      f"the command number differs: {i386.value:#x} (i386) vs "
                                      f"{x86_64.value:#x} (x86_64)"))
        encoded = probed.get(ProbeItem("type", x86_64.size_type or ""))
        if encoded is not None and not encoded.error:
            offenders += [Offender(command, x86_64.size_type, difference)
                          for difference in layout_differences(encoded)]
    for line, type_text in handler_plan.types:
        result = probed[ProbeItem("type", type_text)]
        if result.error:
            return Classification(compat_class=CompatClass.UNKNOWN,
                                  reason=f"{type_text} (line {line}) could not be probed: "
                                         f"{result.error}", **base)
        for difference in layout_differences(result):
            offenders.append(Offender(_command_at(facts, line), type_text, difference))
    if offenders:
        return Classification(compat_class=CompatClass.NEEDS_TRANSLATION,
                              offenders=tuple(dict.fromkeys(offenders)), **base)
    pointer, integer = handler_plan.pointer_uses, handler_plan.integer_uses
    if pointer and integer:
        return Classification(
            compat_class=CompatClass.UNKNOWN,
            reason=f"{facts.arg} is a pointer (line {pointer[0][0]}) and a number "
                   f"(line {integer[0][0]}): compat_ptr() would change the number and the "
                   "same handler would not convert the pointer", **base)
    if pointer:
        return Classification(compat_class=CompatClass.COMPAT_PTR, **base,
                              reason="pointer arguments only, every layout the same")
    return Classification(compat_class=CompatClass.SAME_HANDLER, **base,
                          reason="integer or no arguments, every command number the same"
                          if integer else "no argument used, every command number the same")

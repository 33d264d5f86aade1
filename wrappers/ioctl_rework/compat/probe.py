"""The layout probe: compile what crosses the ioctl boundary for i386 and
x86_64 and read back what the compiler decided.

One probe source per driver file includes the headers the driver includes
(as userspace sees them: the uapi directories) and asks, for each command
expression, its value, and for each type, its size; gcc -S prints those
values into the assembly (the kernel's asm-offsets trick, so nothing is
ever run: a 32-bit program never executes on the host), and pahole reads
every member's offset and size from the object's DWARF.  Results are
cached per item (a command or a type) and per set of headers, so a type
is compiled once however many handlers use it; an entry is used again only
while every header gcc read for it (its -MMD list) has the same content.

A probe that does not compile is retried without what gcc blamed (an
item or a header), and what is left out is reported with gcc's words.
"""

import hashlib
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.cache import Cache, FileDigests, make_key

ABIS = {"i386": "-m32", "x86_64": "-m64"}
PROBE_FORMAT = "compat-probe-4"
ATTEMPTS = 4

# Kernel spellings of the fixed-width types (and C's, which the kernel has
# too: int32_t, bool), for cast and copy types.
_PRELUDE = """\
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include <linux/ioctl.h>
typedef __u8 u8; typedef __u16 u16; typedef __u32 u32; typedef __u64 u64;
typedef __s8 s8; typedef __s16 s16; typedef __s32 s32; typedef __s64 s64;
#define __user
#define __force
#define __iomem
#define __packed __attribute__((packed))    /* as headers_install writes it */
#ifndef __attribute_const__     /* from the C library's sys/cdefs.h, once installed */
#define __attribute_const__
#endif
#define PROBE(key, val) asm volatile("\\n.ascii \\"->" key " %0\\"" :: "i" ((unsigned long)(val)))
"""


class ProbeError(Exception):
    """gcc or pahole is missing, or failed in a way no retry can fix."""


@dataclass(frozen=True)
class Member:
    path: str       # "b", "in.y", "(anonymous).u2"
    offset: str     # "8" or "48:24" for a bit-field
    size: int


@dataclass(frozen=True)
class Layout:
    """A type as one ABI lays it out."""

    size: int
    members: tuple[Member, ...] = ()


@dataclass(frozen=True)
class CommandValue:
    """A command expression as one ABI sees it: its number, and the type
    its _IOC size field was computed from (None when it has none)."""

    value: int
    size_type: str | None


@dataclass(frozen=True)
class ProbeItem:
    kind: str       # "cmd" or "type"
    text: str       # the C expression or type name


@dataclass(frozen=True)
class ItemResult:
    item: ProbeItem
    # ABI name -> value; empty when it did not compile, with why.
    commands: dict
    layouts: dict
    error: str | None = None
    # The headers the compile read (gcc -MMD, resolved): what the result
    # depends on besides the item.
    reads: tuple[str, ...] = ()


def tools_missing() -> list[str]:
    return [tool for tool in ("gcc", "pahole") if shutil.which(tool) is None]


# The definitions a driver keeps in its .c file, written beside the probe.
LOCAL_HEADER = "local-definitions.h"


def header_key(headers: tuple[Path, ...]) -> str:
    """What a probe's result depends on besides the item: the headers' text
    (and where they are, which decides what they include; a driver's local
    definitions are written to a new place each time)."""
    parts = [PROBE_FORMAT, _PRELUDE]
    for header in headers:
        name = header.name if header.name == LOCAL_HEADER else str(header)
        try:
            parts.append(name + "\0" + hashlib.sha256(header.read_bytes()).hexdigest())
        except OSError:
            parts.append(str(header) + "\0unreadable")
    return make_key(*parts)


def probe(items: list[ProbeItem], headers: tuple[Path, ...], include_dirs: tuple[Path, ...],
          cache: Cache | None = None, asm: dict | None = None,
          digests: FileDigests | None = None) -> dict[ProbeItem, ItemResult]:
    """Every item's value or layout for both ABIs, compiling only what the
    cache holds for no header as it now is.  ASM maps an ABI to the
    directory <asm/X> means for it (a tree before uapi: include/asm-i386,
    include/asm-x86_64); DIGESTS are the run's file digests."""
    cache = cache or Cache(None)
    digests = digests or FileDigests()
    asm = asm or {}
    base = make_key(header_key(headers), *map(str, include_dirs),
                    *(f"{abi}={d}" for abi, d in sorted(asm.items())))
    results: dict[ProbeItem, ItemResult] = {}
    todo = []
    for item in dict.fromkeys(items):
        stored = cache.get_json(make_key(base, item.kind, item.text))
        if stored is None or not digests.unchanged(stored["reads"]):
            todo.append(item)
        else:
            results[item] = _from_json(item, stored)
    if todo:
        for item, result in _compile(todo, headers, include_dirs, asm).items():
            results[item] = result
            cache.put_json(make_key(base, item.kind, item.text),
                           dict(_to_json(result), reads=digests.record(result.reads)))
    return results


def _to_json(result: ItemResult) -> dict:
    return {"error": result.error,
            "commands": {abi: [v.value, v.size_type] for abi, v in result.commands.items()},
            "layouts": {abi: [l.size, [[m.path, m.offset, m.size] for m in l.members]]
                        for abi, l in result.layouts.items()},
            "read": list(result.reads)}


def _from_json(item: ProbeItem, value: dict) -> ItemResult:
    return ItemResult(
        item, {abi: CommandValue(v, t) for abi, (v, t) in value["commands"].items()},
        {abi: Layout(size, tuple(Member(*m) for m in members))
         for abi, (size, members) in value["layouts"].items()}, value["error"],
        tuple(value["read"]))


# ---------------------------------------------------------------- compiling

def _source(items: list[ProbeItem], headers: list[Path]) -> str:
    lines = [_PRELUDE, *(f'#include "{h}"' for h in headers), ""]
    for number, item in enumerate(items):
        if item.kind == "type":
            lines.append(f"{item.text} *probe_type_{number};")
    lines.append("void probe(void)\n{")
    for number, item in enumerate(items):
        key = f"{item.kind} {number}"
        value = item.text if item.kind == "cmd" else f"sizeof({item.text})"
        lines.append(f'\tPROBE("{key}", {value}); /* probe item {number} */')
    lines.append("}")
    return "\n".join(lines) + "\n"


_ERROR = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$",
                    re.MULTILINE)
_INCLUDED_FROM = re.compile(r"^In file included from (?P<file>[^:\n]+):(?P<line>\d+)", re.MULTILINE)


def _asm_link(work: Path, abi: str, directory: Path) -> Path:
    """A directory whose asm/ is DIRECTORY, for -I."""
    holder = work / f"asm-{abi}"
    holder.mkdir(exist_ok=True)
    if not (holder / "asm").exists():
        (holder / "asm").symlink_to(directory.resolve())
    return holder


def _compile(items: list[ProbeItem], headers: tuple[Path, ...],
             include_dirs: tuple[Path, ...], asm: dict) -> dict[ProbeItem, ItemResult]:
    missing = tools_missing()
    if missing:
        raise ProbeError("the layout probe needs " + " and ".join(missing)
                         + " (Debian gcc-multilib, dwarves)")
    items, headers = list(items), list(headers)
    failed: dict[ProbeItem, str] = {}
    dropped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-probe-") as tmp:
        work = Path(tmp)
        stubs = _stubs(work)
        for _ in range(ATTEMPTS + len(items)):
            source = _source(items, headers)
            (work / "probe.c").write_text(source)
            outputs, stderr = {}, ""
            for abi, flag in ABIS.items():
                own_asm = [f"-I{_asm_link(work, abi, asm[abi])}"] if abi in asm else []
                proc = subprocess.run(
                    ["gcc", flag, *_output_options(items, abi), "-w", "-save-temps=obj",
                     "-MMD", "-MF", f"{abi}.d", "probe.c", *own_asm, *(f"-I{d}" for d in include_dirs),
                     f"-I{stubs}"],
                    cwd=work, capture_output=True, text=True)
                if proc.returncode != 0:
                    stderr = proc.stderr
                    break
                outputs[abi] = abi
            if len(outputs) == len(ABIS):
                break
            blamed = _blame(stderr, source, items, headers)
            if blamed is None:
                why = _first_error(stderr)
                return {item: ItemResult(item, {}, {}, f"the probe does not compile: {why}")
                        for item in items} | _failed(failed)
            if isinstance(blamed, Path):
                headers.remove(blamed)
                dropped.append(f"{blamed.name}: {_first_error(stderr)}")
            else:
                # The other items with an error of their own go in the same
                # retry, each with its own words, as one retry each would.
                for item, why in {blamed: _first_error(stderr),
                                  **_also_blamed(stderr, source, items, blamed)}.items():
                    failed[item] = why
                    items.remove(item)
            if not items:
                break
        else:
            return {item: ItemResult(item, {}, {}, "the probe still fails after retries")
                    for item in items} | _failed(failed)
        results = _failed(failed, dropped)
        if not items:
            return results
        values = {abi: _asm_values(work / f"{abi}.s", abi) for abi in ABIS}
        expanded = _expansions((work / "x86_64.i").read_text(errors="replace"))
        reads = _reads(work)
        for number, item in enumerate(items):
            key = f"{item.kind} {number}"
            if item.kind == "cmd":
                commands = {abi: CommandValue(values[abi][key], _size_type(expanded.get(number, "")))
                            for abi in ABIS}
                results[item] = ItemResult(item, commands, {}, reads=reads)
            else:
                layouts = {abi: Layout(values[abi][key], _members(work / f"{abi}.o", item.text))
                           for abi in ABIS}
                results[item] = ItemResult(item, {}, layouts, reads=reads)
        return results


# A type pahole reads the members of (_members); other items need no object.
_AGGREGATE = re.compile(r"(?:const\s+)?(struct|union)\s+(\w+)")


def _output_options(items: list[ProbeItem], abi: str) -> list[str]:
    """What one compile makes besides the .i and .s that -save-temps keeps
    (the values are read from the .s, the expansions from the .i): an
    object with DWARF only when pahole reads one; otherwise gcc stops
    before the assembler and writes no debug information (about a tenth
    of a probe's compile, bench/audit.md).  The diagnostics are the same
    either way: -save-temps stays, so an error in a macro's expansion is
    still placed at its line of probe.c, which _blame reads."""
    if any(item.kind == "type" and _AGGREGATE.fullmatch(item.text.strip()) for item in items):
        return ["-g", "-c", "-o", f"{abi}.o"]
    return ["-S", "-o", f"{abi}.s"]


def _reads(work: Path) -> tuple[str, ...]:
    """The files both compiles read (their -MMD lists), as real paths:
    the asm/ links resolved; the probe's own files left out, and the
    driver's local definitions, whose text the cache key holds."""
    # Each name resolved once (the two lists are mostly the same headers).
    names = set()
    for abi in ABIS:
        text = (work / f"{abi}.d").read_text(errors="replace").replace("\\\n", " ")
        names.update(text.partition(":")[2].split())
    own = work.resolve()
    found = set()
    for name in names:
        path = (work / name).resolve()
        if own not in path.parents and path.name != LOCAL_HEADER:
            found.add(str(path))
    return tuple(sorted(found))


# What `make headers_install` strips from the uapi headers of a tree, which
# the probe includes as they are: 6.1's <linux/stddef.h> includes this.
_STUB_HEADERS = ("linux/compiler.h", "linux/compiler_types.h")


def _stubs(work: Path) -> Path:
    stubs = work / "stubs"
    for name in _STUB_HEADERS:
        (stubs / name).parent.mkdir(parents=True, exist_ok=True)
        (stubs / name).write_text("/* empty: stripped by headers_install */\n")
    return stubs


def _failed(failed: dict, dropped: list[str] = ()) -> dict:
    note = f" (headers left out: {'; '.join(dropped)})" if dropped else ""
    return {item: ItemResult(item, {}, {}, why + note) for item, why in failed.items()}


def _first_error(stderr: str) -> str:
    match = _ERROR.search(stderr)
    return match["msg"].strip() if match else (stderr.strip().splitlines() or ["gcc failed"])[-1]


def _blame(stderr: str, source: str, items: list[ProbeItem], headers: list[Path]):
    """The item or header the first error is in, or None."""
    match = _ERROR.search(stderr)
    if not match:
        return None
    if Path(match["file"]).name == "probe.c":
        line = source.splitlines()[int(match["line"]) - 1]
        number = re.search(r"probe_type_(\d+)|probe item (\d+)", line)
        if number:
            return items[int(number.group(1) or number.group(2))]
        included = re.match(r'#include "(.*)"', line)
        if included and Path(included[1]) in headers:
            return Path(included[1])
        return None
    # An error inside a header: blame the include line of probe.c above it.
    for found in _INCLUDED_FROM.finditer(stderr[:match.start()]):
        if Path(found["file"]).name == "probe.c":
            line = source.splitlines()[int(found["line"]) - 1]
            included = re.match(r'#include "(.*)"', line)
            if included and Path(included[1]) in headers:
                return Path(included[1])
    return None


# Errors that are an item's own, whatever else fails: a name or a type the
# headers lack (an item declares nothing another could miss).
_OWN_ERROR = re.compile(r"undeclared|incomplete type|unknown type name")


def _also_blamed(stderr: str, source: str, items: list[ProbeItem],
                 first: ProbeItem) -> dict[ProbeItem, str]:
    """The items after FIRST (the one the first error blames) that an error
    of their own names on their own line of probe.c, with its words."""
    lines = source.splitlines()
    found: dict[ProbeItem, str] = {}
    for match in _ERROR.finditer(stderr):
        if Path(match["file"]).name != "probe.c" or not _OWN_ERROR.search(match["msg"]):
            continue
        number = re.search(r"probe_type_(\d+)|probe item (\d+)", lines[int(match["line"]) - 1])
        if number:
            item = items[int(number.group(1) or number.group(2))]
            if item != first:
                found.setdefault(item, match["msg"].strip())
    return found


_ASM_VALUE = re.compile(r'\.ascii\s+"->(\w+ \d+) \$?(-?\d+)"')


def _asm_values(path: Path, abi: str) -> dict[str, int]:
    bits = 32 if abi == "i386" else 64
    return {key: int(value) & ((1 << bits) - 1)
            for key, value in _ASM_VALUE.findall(path.read_text(errors="replace"))}


def _expansions(preprocessed: str) -> dict[int, str]:
    """Item number -> the macro-expanded text of its PROBE() line."""
    code = " ".join(line for line in preprocessed.splitlines() if not line.startswith("#"))
    found = {}
    for match in re.finditer(r'"cmd (\d+)"', code):
        end = code.find('"->"', match.end())
        found[int(match[1])] = code[match.end():end if end >= 0 else len(code)]
    return found


def _size_type(expansion: str) -> str | None:
    """The type inside the sizeof() of an _IOC expansion."""
    start = expansion.find("sizeof")
    if start < 0:
        return None
    depth, begin = 0, expansion.find("(", start)
    for index in range(begin, len(expansion)):
        depth += {"(": 1, ")": -1}.get(expansion[index], 0)
        if depth == 0:
            return " ".join(expansion[begin + 1:index].split())
    return None


_MEMBER = re.compile(r"^(?P<indent>\t*)(?:/\*[^*]*\*/\s*)?(?P<decl>[^/;{}]*?)(?P<name>\w*)"
                     r"(?P<dims>(?:\[\d*\])*)(?::\d+)?;\s*/\*\s*(?P<off>[\d:]+)\s+(?P<size>\d+)\s*\*/")
_CLOSE = re.compile(r"^(?P<indent>\t*)\}\s*(?P<name>\w*)(?P<dims>(?:\[\d*\])*);"
                    r"\s*/\*\s*(?P<off>[\d:]+)\s+(?P<size>\d+)\s*\*/")


def _members(obj: Path, type_text: str) -> tuple[Member, ...]:
    """Every member of a struct or union type, nested ones expanded, with
    absolute offsets, as pahole reads them from DWARF; () for other types."""
    match = _AGGREGATE.fullmatch(type_text.strip())
    if not match:
        return ()
    proc = subprocess.run(["pahole", "-E", "-C", match[2], str(obj)],
                          capture_output=True, text=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise ProbeError(f"pahole cannot read {type_text} from the probe: "
                         f"{proc.stderr.strip() or 'no output'}")
    levels: list[list[Member]] = [[]]
    for line in proc.stdout.splitlines()[1:]:
        if line.rstrip().endswith("{"):
            levels.append([])
            continue
        close = _CLOSE.match(line)
        if close and len(levels) > 1:
            inner = levels.pop()
            name = (close["name"] or "(anonymous)") + close["dims"]
            levels[-1].append(Member(name, close["off"], int(close["size"])))
            levels[-1].extend(Member(f"{name}.{m.path}", m.offset, m.size) for m in inner)
            continue
        member = _MEMBER.match(line)
        if member:
            levels[-1].append(Member(member["name"] + member["dims"], member["off"],
                                     int(member["size"])))
    return tuple(levels[0])

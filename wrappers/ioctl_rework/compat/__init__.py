"""The compat classifier: may a 32-bit process share an ioctl handler?

facts.py reads what semantic-patches/ioctl_compat_facts.cocci finds in a
handler (commands, uses of arg), callees.py joins in the functions it hands
them to, headers.py finds the uapi headers (layout.py: where each era
keeps them), probe.py compiles the commands and types for i386 and x86_64,
classify.py decides from the layouts, and era.py from the tree's own
compat table (table.py, cexpr.py).  This module joins them per file and
runs the rule.
"""

import hashlib
import re
import tempfile
from dataclasses import replace
from pathlib import Path

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.cache import Cache, make_key
from ioctl_rework.compat import callees, classify, era, facts, probe, table
from ioctl_rework.compat.headers import asm_dirs, include_dirs, probe_headers
from ioctl_rework.compat.classify import Classification, CompatClass, Offender  # noqa: F401

_IOCTL_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+\w+[ \t]+_IO(?:R|W|WR)?[ \t]*\(.*$",
                           re.MULTILINE)
_STRUCT_START = re.compile(r"^(?:struct|union)[ \t]+\w+[ \t]*\{", re.MULTILINE)


def local_definitions(text: str) -> str:
    """The command macros and top-level structures a driver defines in its
    own .c file, for the probe: many drivers keep their ioctl ABI there."""
    code = c_spans.without_comments(text)
    found = [m.group(0) for m in _IOCTL_DEFINE.finditer(code)
             if not m.group(0).rstrip().endswith("\\")]
    for match in _STRUCT_START.finditer(code):
        end = c_spans.closing(code, match.end() - 1)
        semicolon = code.find(";", end)
        if end > 0 and semicolon > 0 and not code[end + 1:semicolon].strip():
            found.insert(0, code[match.start():semicolon + 1])
    return "\n".join(found) + "\n" if found else ""


def classify_stdout(source: Path, shown: str, stdout: str, tree: Path | None,
                    cache: Cache | None = None) -> list[Classification]:
    """Every handler the facts rule reported in STDOUT (its output on
    SOURCE), classified; SHOWN is how results name the file."""
    found = facts.parse(stdout)
    if not found:
        return []
    text = source.read_text(errors="replace")
    lines = text.splitlines()
    by_name = {handler: f for (_, handler), f in found.items()}
    handlers = {key: callees.merge(f, by_name, lines) for key, f in found.items()}
    dirs, asm = include_dirs(source, tree), asm_dirs(tree)
    plans = {key: classify.plan(f) for key, f in handlers.items()}
    named = frozenset(name for key, f in handlers.items()
                      for text_ in (*f.commands, *(t for _, t in plans[key].types))
                      for name in re.findall(r"[A-Za-z_]\w*", text_))
    headers = probe_headers(source, text, dirs, tree, named)
    # Every command is probed, even of a handler the layouts cannot decide:
    # the tree's compat table is looked up by its number.
    items = [item for key, f in handlers.items()
             for item in (classify.probe_items(f, plans[key])
                          or [probe.ProbeItem("cmd", c) for c in f.commands])]
    try:
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-local-") as tmp:
            local = local_definitions(text)
            if local:
                (Path(tmp) / probe.LOCAL_HEADER).write_text(local)
                headers = (*headers, Path(tmp) / probe.LOCAL_HEADER)
            probed = probe.probe(items, headers, dirs, cache, asm) if items else {}
            # The types the commands encode cross too: probed in a second round.
            encoded = [probe.ProbeItem("type", v.size_type) for r in probed.values()
                       for v in list(r.commands.values())[:1] if v.size_type]
            if encoded:
                probed.update(probe.probe(encoded, headers, dirs, cache, asm))
    except probe.ProbeError as err:
        return [Classification(shown, f.handler, CompatClass.UNKNOWN, tuple(f.commands),
                               reason=str(err)) for f in handlers.values()]
    compat_table = table.read(tree)
    relative = _relative(source, tree)
    results = []
    for key, handler_facts in sorted(handlers.items()):
        decided = classify.decide(handler_facts, plans[key], probed)
        decided = era.apply(decided, era.verdicts(handler_facts, probed, compat_table, relative),
                            compat_table)
        results.append(replace(decided, file=shown))
    return results


def _relative(source: Path, tree: Path | None) -> str:
    try:
        return source.resolve().relative_to(tree.resolve()).as_posix() if tree else str(source)
    except ValueError:
        return str(source)


FACTS_FORMAT = "compat-facts-2"
_HERE = "\0FILE\0"      # the file's own name in a cached rule output


def _facts_key(data: bytes, listed: tuple[str, ...]) -> str:
    return make_key(FACTS_FORMAT, facts.FACTS_RULE.read_bytes(), spatch.version(),
                    hashlib.sha256(data).hexdigest(), ",".join(listed))


def rule_outputs(files: list[Path], jobs: int, timeout: int, cache: Cache | None,
                 listed: tuple[str, ...] = ()) -> dict[Path, str | None]:
    """The facts rule's report on each file (None where spatch failed),
    through the cache: a file's facts depend only on its text (and the
    callees LISTED; with some listed, the report is on those alone)."""
    cache = cache or Cache(None)
    found: dict[Path, str | None] = {}
    todo, keys = [], {}
    for file in files:
        try:
            keys[file] = _facts_key(Path(file).read_bytes(), listed)
        except OSError:
            found[file] = None
            continue
        stored = cache.get_json(keys[file])
        if stored is None:
            todo.append(file)
        else:
            found[file] = stored.replace(_HERE, str(file))
    args = ["-D", "report"] + (["-D", "callees=" + ",".join(listed), "-D", "callees_only=1"]
                               if listed else [])
    runs = spatch.run_batched(facts.FACTS_RULE, [Path(f).resolve() for f in todo],
                              args, jobs, timeout) if todo else []
    for file, run in zip(todo, runs):
        if run.outcome is not spatch.Outcome.OK:
            found[file] = None
            continue
        own = run.stdout.replace(str(Path(file).resolve()) + ":", _HERE + ":")
        cache.put_json(keys[file], own)
        found[file] = own.replace(_HERE, str(file))
    return found


def classify_files(files: list[Path], tree: Path | None = None, jobs: int = 2,
                   timeout: int = 120, cache: Cache | None = None) -> list[Classification]:
    """Run the facts rule on FILES and classify every handler they set in a
    file_operations.  A file spatch cannot process gives no result here:
    callers that need one per handler treat a missing one as unknown."""
    results = []
    outputs = rule_outputs(list(files), jobs, timeout, cache)
    # Again, with the functions handlers pass cmd and arg to (compat.callees).
    wanted = {}
    for file in files:
        if outputs.get(file) is not None:
            lines = Path(file).read_text(errors="replace").splitlines()
            names = {name for f in facts.parse(outputs[file]).values()
                     for name in callees.wanted(f, lines)}
            if names:
                wanted[file] = tuple(sorted(names))
    listed = tuple(sorted({name for names in wanted.values() for name in names}))
    if listed:
        # The callees' facts join the handlers' (a callee spatch failed on
        # stays unfollowed).
        for file, callee_facts in rule_outputs(list(wanted), jobs, timeout, cache,
                                               listed).items():
            outputs[file] += "\n" + (callee_facts or "")
    for file in files:
        if outputs.get(file) is not None:
            results += classify_stdout(Path(file), str(file), outputs[file], tree, cache)
    return results

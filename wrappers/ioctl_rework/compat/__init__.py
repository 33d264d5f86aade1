"""The compat classifier: may a 32-bit process share an ioctl handler?

facts.py reads what semantic-patches/ioctl_compat_facts.cocci finds in a
handler (commands, uses of arg; rule_input.py gives the rule each file
without the bodies no handler can be), callees.py joins in the functions
it hands them to, headers.py finds the uapi headers (layout.py: where each era
keeps them), probe.py compiles the commands and types for i386 and x86_64,
classify.py decides from the layouts (kept per file by memo.py), and era.py
from the tree's own compat table (table.py, cexpr.py), read once a run (its
verdicts kept per file by verdict_memo.py).
This module joins them per file and runs the rule.
"""

import hashlib
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.cache import Cache, FileDigests, make_key
from ioctl_rework.stages import Stage, Stages, Verbosity
from ioctl_rework.compat import (callees, classify, encoded_types, era, facts, memo, probe,
                                  rule_input, table, verdict_memo)
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
                    cache: Cache | None = None, compat_table: table.CompatTable | None = None,
                    digests: FileDigests | None = None,
                    transient: set | None = None) -> list[Classification]:
    """Every handler the facts rule reported in STDOUT (its output on
    SOURCE), classified; SHOWN is how results name the file.  COMPAT_TABLE
    is the tree's (read here when not given); DIGESTS the run's.  SOURCE
    goes to TRANSIENT when the probe could not run (gcc missing, say)."""
    digests = digests or FileDigests()
    if compat_table is None:
        compat_table = table.read(tree, cache, digests)
    try:
        layouts = file_layouts(source, stdout, tree, cache, digests,
                               numbers_read=era.reads_numbers(compat_table))
    except probe.ProbeError as err:
        if transient is not None:
            transient.add(source)
        return [Classification(shown, f.handler, CompatClass.UNKNOWN, tuple(f.commands),
                               reason=str(err)) for f in facts.parse(stdout).values()]
    relative = _relative(source, tree)
    # The lookups cost seconds a file in a large table: kept (verdict_memo).
    kept_key = verdict_memo.key(layouts, compat_table, relative)
    classified = verdict_memo.get(cache, kept_key)
    if classified is None:
        classified = [era.apply(decided, era.verdicts(decided.commands, layouts.numbers,
                                                      layouts.sizes, compat_table, relative),
                                compat_table)
                      for decided in layouts.decided]
        verdict_memo.put(cache, kept_key, classified)
    return [replace(c, file=shown) for c in classified]


def file_layouts(source: Path, stdout: str, tree: Path | None, cache: Cache | None,
                 digests: FileDigests, numbers_read: bool = True) -> memo.FileLayouts:
    """What the layouts decide for the handlers in STDOUT, from the cache
    while the driver, its facts and every header read are unchanged
    (compat.memo); the probe runs only for the rest.  NUMBERS_READ: whether
    the tree's compat table looks commands up by number (era.reads_numbers);
    without it a handler the layouts cannot decide needs no probe at all."""
    found = facts.parse(stdout)
    if not found:
        return memo.FileLayouts((), {}, {})
    text = source.read_text(errors="replace")
    dirs, asm = include_dirs(source, tree), asm_dirs(tree)
    entry_key = memo.key(source, text, stdout, dirs, asm, numbers_read)
    stored = memo.get(cache, entry_key, digests)
    if stored is not None:
        return stored
    lines = text.splitlines()
    by_name = {handler: f for (_, handler), f in found.items()}
    handlers = {key: callees.merge(f, by_name, lines) for key, f in found.items()}
    plans = {key: classify.plan(f) for key, f in handlers.items()}
    # The commands of a handler the layouts cannot decide are probed only
    # for the table's lookup by number.
    items = [item for key, f in handlers.items()
             for item in (classify.probe_items(f, plans[key])
                          or [probe.ProbeItem("cmd", c) for c in f.commands if numbers_read])]
    # Nothing to compile: the classes follow from the facts alone, and no
    # header is read for them.
    probed, reads = _probed(source, text, handlers, plans, items, dirs, tree, asm, cache,
                            digests) if items else ({}, set())
    layouts = memo.FileLayouts(
        tuple(classify.decide(f, plans[key], probed) for key, f in sorted(handlers.items())),
        era.numbers(probed, [c for f in handlers.values() for c in f.commands]),
        era.known_sizes(probed))
    memo.put(cache, entry_key, layouts, reads, digests)
    return layouts


def _probed(source: Path, text: str, handlers: dict, plans: dict, items: list,
            dirs: tuple[Path, ...], tree: Path | None, asm: dict, cache: Cache | None,
            digests: FileDigests) -> tuple[dict, set]:
    """ITEMS of the HANDLERS of SOURCE (its TEXT) probed, and every file
    the results depend on."""
    named = frozenset(name for key, f in handlers.items()
                      for text_ in (*f.commands, *(t for _, t in plans[key].types))
                      for name in re.findall(r"[A-Za-z_]\w*", text_))
    headers, headers_read = probe_headers(source, text, dirs, tree, named)
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-local-") as tmp:
        local = local_definitions(text)
        if local:
            (Path(tmp) / probe.LOCAL_HEADER).write_text(local)
            headers = (*headers, Path(tmp) / probe.LOCAL_HEADER)
        # The types the commands encode cross too: those their #define
        # names go in the same compile, the rest in a second round.
        guessed = [probe.ProbeItem("type", t) for t in encoded_types.guess(
            [item.text for item in items if item.kind == "cmd"], headers)]
        probed = probe.probe(items + guessed, headers, dirs, cache, asm, digests)
        encoded = [probe.ProbeItem("type", v.size_type) for r in probed.values()
                   for v in list(r.commands.values())[:1] if v.size_type]
        kept = {*items, *encoded}
        probed = {item: result for item, result in probed.items() if item in kept}
        encoded = [item for item in dict.fromkeys(encoded) if item not in probed]
        if encoded:
            probed.update(probe.probe(encoded, headers, dirs, cache, asm, digests))
    reads = {*headers_read, *(h for h in headers if h.name != probe.LOCAL_HEADER),
             *(path for result in probed.values() for path in result.reads)}
    return probed, reads


def _relative(source: Path, tree: Path | None) -> str:
    try:
        return source.resolve().relative_to(tree.resolve()).as_posix() if tree else str(source)
    except ValueError:
        return str(source)


FACTS_FORMAT = "compat-facts-4"
_HERE = "\0FILE\0"      # the file's own name in a cached rule output
# What spatch reports on a file is kept when it says the same on every run
# (a parse error is in the file); a timeout or crash is tried again.
_LASTING = (spatch.Outcome.OK, spatch.Outcome.PARSE_ERROR)


def _facts_key(data: bytes, listed: tuple[str, ...]) -> str:
    return make_key(FACTS_FORMAT, facts.FACTS_RULE.read_bytes(), spatch.version(),
                    hashlib.sha256(data).hexdigest(), ",".join(listed))


def _own_facts(stdout: str, listed: tuple[str, ...]) -> str:
    """The lines of STDOUT about the functions LISTED (all without a list):
    one spatch run serves files that each asked for a few of them."""
    if not listed:
        return stdout
    wanted = set(listed)
    return "".join(line for line in stdout.splitlines(keepends=True)
                   if (found := facts.fact_handler(line)) is None or found in wanted)


def _rule_inputs(files: list[Path], listed: tuple[str, ...], directory: Path) -> list[Path]:
    """A copy of each of FILES in DIRECTORY (under its own name, one
    subdirectory a file) as the facts rule needs it (compat.rule_input),
    LISTED the callees it is asked about.  Read and written as latin-1,
    one character a byte: every byte that is not blanked stays where it
    was, and so do the lines and columns spatch reports."""
    copies = []
    for number, file in enumerate(files):
        copy = directory / str(number) / Path(file).name
        copy.parent.mkdir()
        copy.write_text(rule_input.for_rule(Path(file).read_text(encoding="latin-1"),
                                            listed), encoding="latin-1")
        copies.append(copy)
    return copies


def rule_outputs(files: list[Path], jobs: int, timeout: int, cache: Cache | None,
                 listed: dict[Path, tuple[str, ...]] | None = None,
                 transient: set | None = None,
                 stage: Stage | None = None) -> dict[Path, str | None]:
    """The facts rule's report on each file (None where spatch failed; the
    file goes to TRANSIENT too when a re-run may do better: a timeout),
    through the cache: a file's facts depend only on its text (and the
    callees LISTED for it; with some listed, the report is on those alone).
    STAGE counts the files."""
    cache = cache or Cache(None)
    listed = listed or {}
    found: dict[Path, str | None] = {}
    todo, keys = [], {}
    # One run lists every file's callees (the input keeps those bodies, the
    # rule reports on them), so a file's report is the report of a run with
    # all of NAMES: the key holds them all, not only the file's own, and
    # a kept report never comes from a run that listed other names.
    names = tuple(sorted({name for names in listed.values() for name in names}))
    for file in files:
        try:
            keys[file] = _facts_key(Path(file).read_bytes(),
                                    names if listed.get(file) else ())
        except OSError:
            found[file] = None
            continue
        stored = cache.get_json(keys[file])
        if stored is None:
            todo.append(file)
        else:
            found[file] = None if stored["stdout"] is None else \
                stored["stdout"].replace(_HERE, str(file))
    if stage is not None:
        stage.from_cache(len(files) - len(todo))
    args = ["-D", "report"] + (["-D", "callees=" + ",".join(names), "-D", "callees_only=1"]
                               if names else [])
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-facts-") as tmp:
        given = _rule_inputs(todo, names, Path(tmp).resolve())
        # A start of the rule (its parse) costs as much as four to eight
        # drivers (0.28-0.32 s of cpu, bench/audit.md): one process for up
        # to MAX_BATCH files, which draws its progress file by file.
        runs = spatch.run_batched(facts.FACTS_RULE, given, args, jobs, timeout, fewest=True,
                                  done_count=stage.step if stage is not None else None,
                                  files_per_start=spatch.MAX_BATCH) if todo else []
    for file, run, copy in zip(todo, runs, given):
        own = None
        if run.outcome is spatch.Outcome.OK:
            own = _own_facts(run.stdout, listed.get(file, ())).replace(
                str(copy) + ":", _HERE + ":")
        if run.outcome in _LASTING:
            cache.put_json(keys[file], {"stdout": own})
        elif transient is not None:
            transient.add(file)
        found[file] = None if own is None else own.replace(_HERE, str(file))
    return found


@dataclass(frozen=True)
class Provenance:
    """What a run of the classifier read (every file its results depend on,
    the rule's and spatch's versions aside) and whether the results may be
    kept as a whole: not after a timeout or without gcc, nor in a tree
    whose compat table a new file can extend (register_ioctl32_conversion,
    whose callers only a walk of the tree finds)."""

    reads: frozenset
    keepable: bool


def classify_files(files: list[Path], tree: Path | None = None, jobs: int = 2,
                   timeout: int = 120, cache: Cache | None = None) -> list[Classification]:
    """Run the facts rule on FILES and classify every handler they set in a
    file_operations.  A file spatch cannot process gives no result here:
    callers that need one per handler treat a missing one as unknown."""
    return classify_files_read(files, tree, jobs, timeout, cache)[0]


def classify_files_read(files: list[Path], tree: Path | None = None, jobs: int = 2,
                        timeout: int = 120, cache: Cache | None = None,
                        stages: Stages | None = None
                        ) -> tuple[list[Classification], Provenance]:
    """classify_files, and what it read; STAGES shows the progress of each
    step (the facts rule, its run on the callees, the layouts) in files."""
    stages = stages or Stages("compat", Verbosity.QUIET)
    transient: set = set()
    with stages.stage("compat facts", len(files)) as stage:
        outputs = rule_outputs(list(files), jobs, timeout, cache, transient=transient,
                               stage=stage)
    # Again, with the functions handlers pass cmd and arg to (compat.callees).
    wanted, texts = {}, {}
    for file in files:
        if outputs.get(file) is not None:
            texts[file] = Path(file).read_text(errors="replace")
            lines = texts[file].splitlines()
            names = {name for f in facts.parse(outputs[file]).values()
                     for name in callees.wanted(f, lines)}
            if names:
                wanted[file] = tuple(sorted(names))
    wanted = callees.worth_running(wanted, texts)
    digests = FileDigests()
    with stages.stage("compat table") as stage:
        compat_table = table.read(tree, cache, digests, stage)

    def classified(file) -> list[Classification]:
        return classify_stdout(Path(file), str(file), outputs[file], tree, cache,
                               compat_table, digests, transient)
    # The probe's time is gcc's and pahole's: JOBS files at a time.  The
    # files without callees are probed while the callees run (one spatch
    # process, most often): their facts are all in.
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        early = {file: pool.submit(classified, file) for file in files
                 if outputs.get(file) is not None and file not in wanted}
        if wanted:
            # The callees' facts join the handlers' (a callee spatch failed on
            # stays unfollowed).
            with stages.stage("compat callees", len(wanted)) as stage:
                found = rule_outputs(list(wanted), jobs, timeout, cache, wanted, transient,
                                     stage)
            for file, callee_facts in found.items():
                outputs[file] += "\n" + (callee_facts or "")
        todo = [file for file in files if outputs.get(file) is not None]
        with stages.stage("compat layouts", len(todo)) as stage:
            probed = {file: early.get(file) or pool.submit(classified, file) for file in todo}
            for _ in as_completed(probed.values()):
                stage.step()
            results = [found for file in todo for found in probed[file].result()]
    keepable = not transient and not (tree is not None and table.registering(tree))
    return results, Provenance(frozenset({*digests.known(), *map(str, files)}), keepable)

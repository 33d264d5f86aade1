"""Calls through ->ioctl that only a macro spells (ctext/macro_forwarding.py)
in the files of a run.

A header of the run (one the run reads and may write) whose every use of
the member is in such macros has them rewritten as the forwarding rule
rewrites a call in a function (macro_bodies.py), and is written with the
run.  Every other site is a refused handler record: the forwarding rule
reads no macro body, so such a call cannot follow the conversion.

The macros are those of the headers with an ioctl member under the run's
paths and of every header the run's files include, through any depth.  Each header's
macros are kept in a stat index (cache.stat_index, as the tree scan keeps
its verdicts): a re-run reads only the headers that changed."""

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert import accounting, macro_bodies
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import ChangeRecord, HandlerRecord, HandlerStatus
from ioctl_rework.convert.tree import Tree
from ioctl_rework.ctext import free_names, include_search, macro_forwarding, paste_spelling
from ioctl_rework.ctext import spans as c_spans

# Bump when what the index stores changes.
INDEX_FORMAT = "macro-sites/5"


@dataclass
class SitesMemo:
    """What refused_sites worked out in one pass of a run, kept for the next
    (a rejected pushdown's second pass asks about nearly the same files, the
    tree unchanged until the run writes): each file's headers and paste
    sites by its text, the MacroTable, and each file's macro sites while the
    headers whose macros were read are the same."""

    one_pass: include_search.Pass = field(default_factory=include_search.Pass)
    table: paste_spelling.MacroTable = field(default_factory=paste_spelling.MacroTable)
    reached: dict = field(default_factory=dict)     # (rel, text) -> include_search.Headers
    pasted: dict = field(default_factory=dict)      # (rel, text) -> [(line, name, why)]
    headers_read: tuple | None = None               # the headers (and stats) MACROS are of
    macros: list = field(default_factory=list)
    defined: object = None                          # _defined_in's answer for those headers
    sites: dict = field(default_factory=dict)       # (rel, text) -> [MacroSite] of MACROS


def refused_sites(root: Path, tree: Tree, files: set[str], sources: Sources,
                cache: cache_mod.Cache | None,
                memo: SitesMemo | None = None) -> list[HandlerRecord]:
    """The sites in FILES of a call through ->ioctl that a header's macro
    spells.  MEMO: what an earlier pass of the same run found (SitesMemo)."""
    root = Path(root)
    memo = SitesMemo() if memo is None else memo
    headers = {rel for rel in tree.member_files if rel.endswith(".h")}
    texts, reached = {}, {}
    for rel in sorted(files):
        try:
            texts[rel] = sources.read(rel).decode("utf-8", "surrogateescape")
        except OSError:
            continue
        # Every header the compiler reaches from it, not only its direct
        # includes: a forwarding macro of a header a header includes is
        # expanded in the file as well.
        if (rel, texts[rel]) not in memo.reached:
            memo.reached[rel, texts[rel]] = include_search.read_headers(
                root, rel, one_pass=memo.one_pass)
        reached[rel] = memo.reached[rel, texts[rel]]
        headers |= set(reached[rel].texts) - {rel}
    stats = []
    for rel in sorted(headers - set(texts)):
        try:
            stats.append((rel, os.stat(root / rel)))
        except OSError:
            continue
    headers_read = (tuple((rel, st.st_ino, st.st_size, st.st_mtime_ns) for rel, st in stats),
                    tuple(rel for rel in texts if rel.endswith(".h")))
    if memo.headers_read != headers_read:
        memo.headers_read, memo.sites = headers_read, {}
        memo.macros, memo.defined = _header_macros_of(root, stats, texts, cache)
    refused = []
    for rel, text in texts.items():
        if (rel, text) not in memo.sites:
            memo.sites[rel, text] = macro_forwarding.sites(text, rel, memo.macros,
                                                           memo.defined, root)
        refused += [HandlerRecord(site.file, site.line, "?", site.macro.name,
                                  HandlerStatus.FAILED, site.reason)
                    for site in memo.sites[rel, text]]
    return refused + _pasted_sites(texts, reached, {(r.file, r.line) for r in refused}, memo)


def _header_macros_of(root: Path, stats: list, texts: dict[str, str],
                      cache: cache_mod.Cache | None):
    """The forwarding macros of the headers STATS ((rel, stat)), through the
    stat index, with those that expand one of them (_users), and whether a
    name is #defined in them or in the headers among TEXTS (_defined_in)."""
    key = cache_mod.make_key(INDEX_FORMAT, str(root.resolve()),
                             *(Path(m.__file__).read_bytes() for m in (macro_forwarding, c_spans)))
    index = cache_mod.stat_index(cache, key, stats, lambda rel: header_macros(root, rel))
    macros = [macro_forwarding.ForwardingMacro(name, file, line, parameter, tuple(parameters),
                                               body, unprovable, tuple(pasted), tuple(guarded))
              for rel, _ in stats
              for name, file, line, parameter, parameters, body, unprovable, pasted, guarded
              in index[rel]]
    macros += _users(root, [rel for rel, _ in stats], macros)
    return macros, _defined_in(root, [rel for rel, _ in stats] +
                               [rel for rel in texts if rel.endswith(".h")])


def _pasted_sites(texts: dict[str, str], reached: dict, refused: set,
                  memo: SitesMemo) -> list[HandlerRecord]:
    """The uses in TEXTS of a macro that may paste a name calling through
    ->ioctl (paste_spelling.py), read with every macro of the headers each
    file reaches (REACHED: rel -> include_search.Headers); none at a line
    REFUSED (file, line) holds already.  A file's uses depend on its own
    texts alone (MacroTable): MEMO keeps them by its text."""
    found, table = [], memo.table
    # Every text first: the table's index of who names whom is built once.
    for rel, text in texts.items():
        if (rel, text) not in memo.pasted:
            for path, read in (reached[rel].texts | {rel: text}).items():
                table.add(path, read)
    for rel, text in texts.items():
        if (rel, text) not in memo.pasted:
            pastes = paste_spelling.pastes_of(reached[rel].texts | {rel: text},
                                              not reached[rel].cut, table)
            code = c_spans.code_only(text)
            memo.pasted[rel, text] = [(code.count("\n", 0, offset) + 1, name, why)
                                      for offset, name, why in pastes.sites(code)]
        for line, name, why in memo.pasted[rel, text]:
            if (rel, line) not in refused:
                refused.add((rel, line))
                found.append(HandlerRecord(rel, line, "?", name, HandlerStatus.FAILED,
                                           f"macro {name} {why}: which member it calls "
                                           "cannot be proven, and the forwarding rule cannot "
                                           "rewrite it (it reads no macro body): convert it "
                                           "by hand"))
    return found


def _users(root: Path, headers: list[str], macros: list) -> list:
    """The macros of HEADERS that expand, through any depth and across
    headers, a macro of MACROS that spells the member or cannot be proven
    (`STK_FWD(d)` -> `LOWER_IOCTL((d)->lower)` of another header): their
    own bodies name no ioctl, so no header's reading alone finds them; each
    is unprovable at its uses."""
    names = {m.name for m in macros if m.in_body}
    texts, found = {}, []
    for _ in range(8):                 # each round follows one more level
        grown = []
        for rel in headers:
            if rel not in texts:
                try:
                    texts[rel] = (root / rel).read_bytes().decode("latin-1")
                except OSError:
                    texts[rel] = ""
            if not any(name in texts[rel] for name in names):
                continue
            grown += [m for m in macro_forwarding.forwarding_macros(
                          texts[rel], rel, unprovable_names=names)
                      if m.unprovable and m.name not in names]
        if not grown:
            break
        found += grown
        names |= {m.name for m in grown}
    return found


def _defined_in(root: Path, headers: list[str]):
    """Whether a NAME is #defined in one of HEADERS: read only when a
    macro's proof asks (macro_forwarding.not_a_forward), then kept."""
    names: set[str] | None = None

    def defined(name: str) -> bool:
        nonlocal names
        if names is None:
            names = set()
            for rel in headers:
                try:
                    text = (root / rel).read_bytes().decode("latin-1")
                except OSError:
                    continue
                names |= macro_forwarding.code_defines(c_spans.code_only(text))
        return name in names
    return defined


def header_macros(root: Path, rel: str) -> list[list]:
    """The forwarding macros of the header REL, as the index keeps them
    (the fields of each ForwardingMacro)."""
    try:
        data = (root / rel).read_bytes()
    except OSError:
        return []
    return [[m.name, m.file, m.line, m.parameter, list(m.parameters), m.body, m.unprovable,
             list(m.pasted), list(m.guarded)]
            for m in macro_forwarding.header_macros(data, rel)]


@dataclass
class MacroWrites:
    """The headers of a run whose forwarding macros were rewritten, and
    the macros that could not be."""

    texts: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)  # rel -> (old, new)
    changes: list[ChangeRecord] = field(default_factory=list)
    refused: list[HandlerRecord] = field(default_factory=list)


def written_headers(root: Path, files: set[str], current: dict[str, bytes], sources: Sources,
                    legacy_target: bool, multi_kernel: bool) -> MacroWrites:
    """The headers among FILES (CURRENT: the text of those the run changed
    already) whose calls through ->ioctl are all in macros, rewritten
    (macro_bodies.py).  A header with a use outside its macros, or a macro
    that cannot be rewritten whole, is not written: the forwarding rule
    reads it as before, and the macro's refusal says why."""
    root = Path(root)
    done = MacroWrites()
    texts = {}
    for rel in sorted(files):
        try:
            texts[rel] = (sources.read(rel), current.get(rel))
        except OSError:
            continue
    candidates = {}
    for rel in sorted(r for r in texts if r.endswith(".h")):
        old, new = texts[rel]
        text = (new or old).decode("utf-8", "surrogateescape")
        macros = [m for m in macro_forwarding.forwarding_macros(text, rel) if m.in_body]
        if macros and _only_in_macros(text, macros):
            candidates[rel] = (old, text, macros)
    if not candidates:
        return done
    includers = _includers(root, {rel: (new or old).decode("utf-8", "surrogateescape")
                                  for rel, (old, new) in texts.items()})
    for rel, (old, text, macros) in candidates.items():
        # The tree's files outside the run that include it compile it too.
        used = free_names.taken(root, rel, text) | free_names.taken_by_includers(root, rel)
        for including in includers.get(rel, set()) | _neighbours(root, rel):
            if including in texts:
                data = texts[including][1] or texts[including][0]
            else:
                data = (root / including).read_bytes()
            used |= free_names.taken(root, including, data.decode("utf-8", "surrogateescape"))
        written = macro_bodies.rewrite_header(text, macros, legacy_target, multi_kernel, used)
        lines = {m.name: m.line for m in macros}
        done.refused += [HandlerRecord(rel, lines[name], "?", name, HandlerStatus.FAILED,
                                       f"macro {name} ({rel}:{lines[name]}) calls or tests "
                                       f"->ioctl, and its body cannot be rewritten ({why}): "
                                       "convert it by hand")
                         for name, why in sorted(written.refused.items())]
        if written.text is None:
            continue
        old_line = accounting.line_map(old.decode("utf-8", "surrogateescape"), text)
        done.texts[rel] = (old, written.text.encode("utf-8", "surrogateescape"))
        done.changes += [ChangeRecord(rel, old_line.get(line, line), "forwarded-call", name,
                                      name, "the macro's call through ->ioctl forwards "
                                      "through ->unlocked_ioctl" +
                                      (" or falls back to ->ioctl" if legacy_target else ""))
                         for line, name in written.sites]
    return done


def _only_in_macros(text: str, macros: list[macro_forwarding.ForwardingMacro]) -> bool:
    """Whether every use of a member named ioctl in TEXT's code (an entry,
    a call, a test) is in the body of one of MACROS."""
    code = c_spans.code_only(text)
    lines = code.split("\n")
    inside = set()
    for macro in macros:
        line = macro.line
        inside.add(line)
        while line <= len(lines) and lines[line - 1].rstrip().endswith("\\"):
            line += 1
            inside.add(line)
    return all(code.count("\n", 0, use.start()) + 1 in inside
               for use in re.finditer(r"(?:->|\.)\s*ioctl\b|\bioctl\s*:", code))


def _includers(root: Path, texts: dict[str, str]) -> dict[str, set[str]]:
    """Header -> the files of TEXTS that include it directly."""
    found: dict[str, set[str]] = {}
    searches = {}
    for rel, text in texts.items():
        directory = os.path.dirname(rel)
        if directory not in searches:
            searches[directory] = include_search.search_path(root, rel)
        for quoted, angled in include_search.INCLUDE.findall(text):
            header = include_search.find_header(root, searches[directory], rel,
                                                quoted or angled, bool(angled))
            if header is not None:
                found.setdefault(header, set()).add(rel)
    return found


def _neighbours(root: Path, rel: str) -> set[str]:
    """The C files of REL's directory that name it in an #include (a file
    of the run or not: the helper's name must be free in each)."""
    directory = os.path.dirname(rel)
    name = os.path.basename(rel).encode()
    found = set()
    for path in sorted((root / directory).iterdir()):
        if path.suffix in (".c", ".h") and path.is_file() and path.name != name.decode():
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if name in data and b"include" in data:
                found.add(os.path.join(directory, path.name))
    return found

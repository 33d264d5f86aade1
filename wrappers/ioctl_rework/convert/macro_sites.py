"""Calls through ->ioctl that only a macro spells (ctext/macro_forwarding.py)
in the files of a run, each a refused handler record: the forwarding rule
reads no macro body, so such a call cannot follow the conversion.

The macros are those of the headers with an ioctl member under the run's
paths and of the headers the run's files include directly.  Each header's
macros are kept in a stat index (cache.stat_index, as the tree scan keeps
its verdicts): a re-run reads only the headers that changed."""

import os
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.convert.tree import Tree
from ioctl_rework.ctext import include_search, macro_forwarding
from ioctl_rework.ctext import spans as c_spans

# Bump when what the index stores changes.
INDEX_FORMAT = "macro-sites/2"


def refused_sites(root: Path, tree: Tree, files: set[str], sources: Sources,
                cache: cache_mod.Cache | None) -> list[HandlerRecord]:
    """The sites in FILES of a call through ->ioctl that a header's macro spells."""
    root = Path(root)
    headers = {rel for rel in tree.member_files if rel.endswith(".h")}
    texts, searches = {}, {}
    for rel in sorted(files):
        try:
            texts[rel] = sources.read(rel).decode("utf-8", "surrogateescape")
        except OSError:
            continue
        directory = os.path.dirname(rel)
        if directory not in searches:       # one kbuild include path a directory
            searches[directory] = include_search.search_path(root, rel)
        search = searches[directory]
        for quoted, angled in include_search.INCLUDE.findall(texts[rel]):
            found = include_search.find_header(root, search, rel, quoted or angled,
                                               bool(angled))
            if found is not None:
                headers.add(found)
    stats = []
    for rel in sorted(headers - set(texts)):
        try:
            stats.append((rel, os.stat(root / rel)))
        except OSError:
            continue
    key = cache_mod.make_key(INDEX_FORMAT, str(root.resolve()),
                             *(Path(m.__file__).read_bytes() for m in (macro_forwarding, c_spans)))
    index = cache_mod.stat_index(cache, key, stats, lambda rel: header_macros(root, rel))
    macros = [macro_forwarding.ForwardingMacro(*fields) for rel, _ in stats for fields in index[rel]]
    return [HandlerRecord(site.file, site.line, "?", site.macro.name, HandlerStatus.FAILED,
                          site.reason)
            for rel, text in texts.items()
            for site in macro_forwarding.sites(text, rel, macros)]


def header_macros(root: Path, rel: str) -> list[list]:
    """The forwarding macros of the header REL, as the index keeps them
    (the fields of each ForwardingMacro)."""
    try:
        data = (root / rel).read_bytes()
    except OSError:
        return []
    return [[m.name, m.file, m.line, m.parameter]
            for m in macro_forwarding.header_macros(data, rel)]

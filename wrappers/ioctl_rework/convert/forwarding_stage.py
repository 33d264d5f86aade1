"""The forwarding stage of convert: the calls through ->ioctl in the files
the run reads follow the conversion (forwarding.py rewrites them); a call
only a macro spells is refused (macro_sites.refused_sites) or its header
rewritten (macro_sites.written_headers, macro_bodies.py), and one the rule
does not see is refused (unfollowed_calls.py).  When a call cannot follow,
nothing of the run is written (default-deny, forwarding.denied).

The stage is handed what it needs (the tree, the final runs, the texts
read, the options); it calls nothing back in the orchestrator (plan.py).
"""

from dataclasses import replace
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework import settings
from ioctl_rework.convert import forwarding, macro_users, shard as shard_mod
from ioctl_rework.convert import unfollowed_calls
from ioctl_rework.convert.file_runs import FileRun
from ioctl_rework.convert.macro_sites import MacroWrites, SitesMemo, refused_sites
from ioctl_rework.convert.macro_sites import written_headers
from ioctl_rework.convert.request import Unwritable
from ioctl_rework.convert.sources import Sources
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.convert.tree import Tree


def files_read(tree: Tree, mine: set[str], grouped: set[str],
               shard: shard_mod.Shard | None, paths: list[Path] | None = None) -> set[str]:
    """The files of this run (MINE, of its SHARD) and every other file under
    its paths that has an ioctl member; GROUPED: every file a handler name
    links, in any shard.  PATHS: the run's; a file under them naming a
    forwarding macro of a header outside them, and such a header it quotes,
    are read too (macro_users.py)."""
    read = set(mine)
    users = macro_users.find(tree.root, paths) if paths else macro_users.Users()
    for rel in sorted(tree.member_files | users.files | users.headers):
        if rel in grouped and rel not in mine:
            continue            # another shard's
        if rel not in grouped and shard is not None and not shard.owns(rel):
            continue
        read.add(rel)
    return read


def forward(tree: Tree, read: set[str], final: dict[str, FileRun], sources: Sources,
            blocked: dict[str, str], *, root: Path, options: settings.ConversionOptions,
            sharded: bool, jobs: int, timeout: int, cache: cache_mod.Cache,
            unwritable: Unwritable, sites_memo: SitesMemo | None = None) -> forwarding.Forwarded:
    """Calls through ->ioctl in READ (files_read) and FINAL follow the
    conversion; FINAL gets the rewritten texts, or, when a call cannot
    follow, BLOCKED gets every file of the run.  SHARDED: the files of the
    other shards of the run, whose refused calls deny this shard too, are
    read as well.  SITES_MEMO: what an earlier pass of the run found of the
    macro sites (refused_sites), kept for this one."""
    elsewhere = set(tree.member_files) - read if sharded else set()
    macro_sites = refused_sites(root, tree, read | set(final), sources, cache, sites_memo)
    macro_writes = _macro_writes(root, options, read | set(final), final, sources, unwritable)
    mutex = options.lock is settings.LockMode.MUTEX
    # MACRO_WRITES: headers whose every call is in a macro rewritten
    # already; the rule does not read them (it cannot parse such bodies).
    files = (read | set(final)) - set(macro_writes.texts)
    texts = _calling(files, final, sources)
    theirs = _calling(elsewhere - set(texts), {}, sources)
    calling = _texts(files, final, sources, unfollowed_calls.may_call)
    if not texts and not theirs and not macro_sites and not calling and \
            not macro_writes.texts and not macro_writes.refused:
        return forwarding.Forwarded()
    # The handlers this run may convert (a held or blocked file's too: default-deny).
    converted = {d.handler for run in final.values() for d in run.decisions if d.convert}
    legacy_target = options.forwards_to_legacy
    done = forwarding.forward(texts, options.multi_kernel, timeout,
                              cache.sibling("forwarding"), jobs, mutex,
                              converted, legacy_target, root)
    # Another shard lists its own refusals; here they only deny.
    refused_there = forwarding.forward(theirs, options.multi_kernel, timeout,
                                       cache.sibling("forwarding"), jobs,
                                       mutex, converted, legacy_target,
                                       root).refused if theirs else []
    # A call only a macro spells cannot follow: refused, as the rule's refusals are;
    # so is one the rule does not see (by value: `fops.ioctl(...)`).
    done.refused += macro_sites + macro_writes.refused
    done.refused += unfollowed_calls.unfollowed(calling, done, root)
    done.changes += macro_writes.changes
    for rel, (old, new) in macro_writes.texts.items():
        # Written with the run, or denied with it: never alone.
        final[rel] = replace(final[rel], new=new) if rel in final else \
            FileRun(rel, (), (), old, new, None)
    denied = forwarding.denied(
        replace(done, refused=done.refused + refused_there),
        sorted(set(final) | set(done.texts) | {r.file for r in done.refused}))
    if denied:
        # Default-deny: nothing of the run is written, each file says why.
        for rel, why in denied.items():
            blocked.setdefault(rel, why)
            if rel not in final:
                # Also a file only a refusal names (a header whose macro is
                # the site); SOURCES holds every text read before the run.
                old = sources.read(rel)
                final[rel] = FileRun(rel, (), (), old, old, None)
        return forwarding.Forwarded(refused=done.refused, listed=done.listed)
    for rel, new in done.texts.items():
        final[rel] = replace(final[rel], new=new) if rel in final else \
            FileRun(rel, (), (), texts[rel][0], new, None)
    return done


def _macro_writes(root: Path, options: settings.ConversionOptions, files: set[str],
                  final: dict[str, FileRun], sources: Sources,
                  unwritable: Unwritable) -> MacroWrites:
    """The headers among FILES whose forwarding macros are rewritten
    (macro_sites.written_headers); none under a private mutex, where a
    forwarded call may reach a handler holding it (the rule refuses it)."""
    if options.lock is settings.LockMode.MUTEX:
        return MacroWrites()
    done = written_headers(root, files,
                           {rel: run.new for rel, run in final.items() if run.ok}, sources,
                           options.forwards_to_legacy, options.multi_kernel)
    # A header that cannot be written leaves its macros' calls on .ioctl: they deny the run.
    for rel, why in unwritable(sorted(done.texts)).items():
        del done.texts[rel]
        done.refused += [HandlerRecord(rel, c.line, "?", c.handler, HandlerStatus.FAILED,
                                       f"the header cannot be written ({why}): the call "
                                       f"through ->ioctl of its macro {c.handler} cannot "
                                       "follow the conversion")
                         for c in done.changes if c.file == rel]
        done.changes = [c for c in done.changes if c.file != rel]
    return done


def _calling(files: set[str], final: dict[str, FileRun],
             sources: Sources) -> dict[str, tuple[bytes, bytes]]:
    """FILES that call or test a member named ioctl (forwarding.uses_member):
    (text before the run, text after the conversion in FINAL)."""
    return _texts(files, final, sources, forwarding.uses_member)


def _texts(files: set[str], final: dict[str, FileRun], sources: Sources,
           wanted) -> dict[str, tuple[bytes, bytes]]:
    """FILES whose text after the conversion in FINAL is WANTED (a test of
    bytes): (text before the run, that text)."""
    texts = {}
    for rel in sorted(files):
        run = final.get(rel)
        if run is not None and not run.ok:
            continue
        try:
            old = sources.read(rel)
        except OSError:
            continue
        current = run.new if run is not None else old
        if wanted(current):
            texts[rel] = (old, current)
    return texts

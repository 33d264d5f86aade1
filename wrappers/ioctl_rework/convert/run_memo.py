"""A whole run kept (issue 26): a re-run of the same command over files
that did not change reads the last run's result instead of running the
stages, and says so (the summary's `warm`).

The key is what the result depends on that is not a file: the request
(paths, root, conversion options, jobs, timeout, output mode, shard,
kernel, the lock proof), the Python that runs, the environment the run
reads (PATH, spatch's variable, the locale, IOCTL_REWORK_*) and the stat of each
program it runs (spatch, grep, gcc, pahole, git).  The files are not
keyed but checked, as git's index checks a work tree: every file and
directory of the trees the run may read or search -- the tree under the
run's root, whole, as its greps search it; the kernel headers given; the
project's code and rules; spatch's library -- is recorded with its stat
(size, mtime, inode; mode and owner) and the digest of its content.  A
re-run walks the same trees.  A file added or removed misses; a file
whose mode or owner differs misses; a file whose size, mtime or inode
differs is read and compared by content (a touch without a change stays
warm, its new stat kept).  A file whose mtime was within RACY_NS of the
run's start (racy, as git calls it: changed again within the same tick
it would keep its stat) is compared by content on every re-run.  A
symbolic link is its text, and a link to a file outside the watched
trees watches that file too; a link to a directory outside them turns
the memo off for the run (what is under it is not walked).

Nothing is kept of a run in which spatch timed out or crashed (a re-run
may do better: spatch.runner.unsteady), nor of one during which a watched
file changed (the trees are walked again at its end).  The memo is the
command line's (ConvertRequest.run_memo): --no-cache turns it off with
the rest of the cache, and --kdir (its builds read the build directory
and the compiler, which are not walked) and check (which needs the
rule's runs) never use it.
"""

import hashlib
import json
import os
import shutil
import stat
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import ioctl_rework
from ioctl_rework import paths
from ioctl_rework.cache import make_key
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.request import ConversionResult, ConvertRequest
from ioctl_rework.spatch import installation
from ioctl_rework.spatch import runner as spatch

FORMAT = "ioctl-rework-run-memo/1"
NAMESPACE = "convert-runs"
# A file changed this close to the run's start may change again within
# the same timestamp tick (coarse clocks, 2 s on FAT): its stat proves nothing.
RACY_NS = 2_000_000_000
# The programs a run may start; a new version of one is a new key.
PROGRAMS = (installation.PROGRAM, "grep", "gcc", "pahole", "git")
# The environment a run reads besides its request.
ENVIRONMENT = ("PATH", installation.ENVIRONMENT_VARIABLE, "PYTHONPATH", "COCCINELLE_HOME", "LANG", "LC_ALL",
               "LC_CTYPE", "LC_MESSAGES")


class NotWatchable(Exception):
    """A tree the memo cannot watch whole (a link to a directory outside it)."""


@dataclass
class Watch:
    """The trees a run may read: each root's entries, rel -> stat; the
    files outside them that links reach, absolute path -> stat."""

    roots: dict[str, dict[str, list]]
    outside: dict[str, list]
    taken_ns: int
    digests: dict[tuple[str, str], str] = field(default_factory=dict)

    def entries(self):
        for root, found in self.roots.items():
            for rel, stamp in found.items():
                yield root, rel, stamp
        for path, stamp in self.outside.items():
            yield "", path, stamp

    def digest(self, root: str, rel: str, stamp: list) -> str | None:
        if (root, rel) not in self.digests:
            self.digests[root, rel] = _content_digest(os.path.join(root, rel) if root else rel,
                                                      stamp)
        return self.digests[root, rel]

    def racy(self, stamp: list) -> bool:
        return stamp[1] >= self.taken_ns - RACY_NS


# A stamp: [size, mtime_ns, inode, mode, uid, gid] and, for a link, its text.
# The first three may change without the content (compared by digest then);
# the rest are the file's kind, its permissions and its link: compared as they are.
_CONTENT_PART = 3


def _stamp(st: os.stat_result) -> list:
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_mode, st.st_uid, st.st_gid]


def _content_digest(path: str, stamp: list) -> str | None:
    """The digest of the content PATH has while its stat is STAMP; None
    when it is not, before or after the read (it changed since the walk,
    or while read: whatever it was is no content to vouch for)."""
    if not stat.S_ISREG(stamp[3]):
        return ""               # a directory, a link (its text is in the stamp), a device
    try:
        with open(path, "rb") as handle:
            before = _stamp(os.fstat(handle.fileno()))
            data = handle.read()
            after = _stamp(os.fstat(handle.fileno()))
    except OSError as err:
        return f"unreadable: {err.errno}"
    if not before[:_CONTENT_PART] == after[:_CONTENT_PART] == stamp[:_CONTENT_PART]:
        return None
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def _walk(top: str, skip: set[str], watched: list[str], outside: dict[str, list]) -> dict:
    """rel -> stamp of every entry under TOP but dot directories,
    __pycache__ and the directories of SKIP (absolute): directories
    (their mode and owner: an in-place write makes a file beside its
    target), files, links.  A link whose target is outside WATCHED adds
    the target to OUTSIDE when it is a file, and raises NotWatchable when
    it is a directory."""
    found: dict[str, list] = {}
    todo = [top]
    prefix = len(top.rstrip(os.sep)) + 1
    while todo:
        directory = todo.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue                # gone since the directory was read
            rel = entry.path[prefix:]
            if stat.S_ISDIR(st.st_mode):
                if entry.name.startswith(".") or entry.name == "__pycache__" or \
                        entry.path in skip:
                    continue
                found[rel + "/"] = [0, 0, 0, *_stamp(st)[3:]]
                todo.append(entry.path)
            elif stat.S_ISLNK(st.st_mode):
                found[rel] = [*_stamp(st), os.readlink(entry.path)]
                _follow(entry.path, watched, outside)
            else:
                found[rel] = _stamp(st)
    return found


def _follow(link: str, watched: list[str], outside: dict[str, list]) -> None:
    target = os.path.realpath(link)
    if any(_within(target, root) for root in watched):
        return
    try:
        st = os.stat(target)
    except OSError:
        return                          # dangling: the link's text is all there is
    if stat.S_ISDIR(st.st_mode):
        raise NotWatchable(f"{link} links to the directory {target}, outside the "
                           "trees the memo walks")
    outside[target] = _stamp(st)


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class RunMemo:
    """The memo of one run of REQUEST: recall() before the stages, keep()
    after them; WHY says, for the summary, what it did."""

    def __init__(self, request: ConvertRequest):
        self.request = request
        self.why = ""
        self._watch: Watch | None = None
        self._unsteady = len(spatch.unsteady)
        self._indexed: dict[str, dict] = {}
        self._cache = request.cache.sibling(NAMESPACE)
        self._key = None
        if not request.run_memo:
            self.why = ""          # a caller of plan.convert: no word of a memo
        elif not request.cache.enabled:
            self.why = "not used: no cache"
        elif request.verify.kdir is not None:
            self.why = "not used: --kdir builds read what the memo does not walk"
        elif request.verify.context_root is not None or request.on_rule_run is not None:
            self.why = "not used: a check's run"
        else:
            self._key = _key(request)

    @property
    def used(self) -> bool:
        return self._key is not None

    def _roots(self) -> list[str]:
        request = self.request
        roots = [request.root]
        if request.kernel is not None:
            roots += [request.kernel.source, request.kernel.build]
        roots += [Path(ioctl_rework.__file__).parent, paths.rules_dir()]
        standard = installation.standard_h()
        if standard is not None:
            roots.append(standard.parent)
        real = []
        for root in sorted({os.path.realpath(r) for r in roots}):
            if not any(_within(root, other) for other in real):
                real.append(root)
        return real

    def _skipped(self) -> set[str]:
        # The cache's own directory (its entries are content-addressed, and no
        # reader of the tree reads them) and the rules' test cases.
        skip = {os.path.join(os.path.realpath(paths.rules_dir()), "tests")}
        if self._cache.root is not None:
            skip.add(os.path.realpath(self._cache.root.parent))
        return skip

    def _take(self) -> Watch:
        taken = time.time_ns()
        roots = self._roots()
        skip = self._skipped()
        outside: dict[str, list] = {}
        found = {root: _walk(root, skip, roots, outside) for root in roots}
        return Watch(found, outside, taken)

    def recall(self) -> ConversionResult | None:
        """The kept result of this request if no watched file changed, else
        None (and the trees' state, taken now, for keep())."""
        if not self.used:
            return None
        try:
            self._watch = self._take()
        except NotWatchable as err:
            self.why, self._key = f"not used: {err}", None
            return None
        self._indexed = {root: self._cache.get_json(_index_key(root)) or {}
                         for root in self._watch.roots}
        _reuse_index(self._indexed, self._watch)
        # A racy file's digest is taken now, before any stage reads it.
        for root, rel, stamp in self._watch.entries():
            if self._watch.racy(stamp):
                self._watch.digest(root, rel, stamp)
        data = self._cache.get_bytes(self._key)
        kept = None
        if data is not None:
            try:
                kept = json.loads(data)
            except ValueError:
                kept = None
        if not kept or kept.get("format") != FORMAT:
            self.why = "cold: no earlier run of this command"
            return None
        _reuse(kept, self._watch)
        changed = _changed(kept, self._watch)
        if changed is not None:
            self.why = f"cold: {changed}"
            return None
        refreshed = _refreshed(kept, self._watch)
        if refreshed and all(self._watch.digest(root, rel, stamp) is not None
                             for root, rel, stamp in self._watch.entries()):
            self._store(kept["summary"], kept["changes"])
        self.why = "warm: an earlier run over the same files"
        summary = summary_mod.from_json(kept["summary"], "run memo")
        changes = {rel: (old.encode("latin-1"), new.encode("latin-1"))
                   for rel, (old, new) in kept["changes"].items()}
        return ConversionResult(summary, changes)

    def keep(self, result: ConversionResult) -> None:
        """Keeps RESULT for the next run, if this run's files stood still
        and nothing in it may come out otherwise on a re-run."""
        if not self.used or self._watch is None:
            return
        if len(spatch.unsteady) != self._unsteady:
            self.why += "; not kept: spatch timed out or crashed on a file"
            return
        try:
            now = self._take()
        except NotWatchable as err:
            self.why += f"; not kept: {err}"
            return
        moved = _moved(self._watch, now)
        if moved is not None:
            self.why += f"; not kept: {moved} changed during the run"
            return
        # A racy file's content must be what it was before the run.
        for root, rel, stamp in self._watch.entries():
            if self._watch.racy(stamp) and \
                    now.digest(root, rel, stamp) != self._watch.digest(root, rel, stamp):
                self.why += f"; not kept: {os.path.join(root, rel)} changed during the run"
                return
        moved = next((os.path.join(root, rel) for root, rel, stamp in self._watch.entries()
                      if self._watch.digest(root, rel, stamp) is None), None)
        if moved is not None:
            self.why += f"; not kept: {moved} changed as the run ended"
            return
        summary = summary_mod.to_json(result.summary)
        changes = {rel: [old.decode("latin-1"), new.decode("latin-1")]
                   for rel, (old, new) in result.changes.items()}
        self._store(summary, changes)
        self.why += "; kept"

    def _store(self, summary: dict, changes: dict) -> None:
        watch = self._watch
        files = {root: {rel: [stamp, watch.digest(root, rel, stamp), watch.racy(stamp)]
                        for rel, stamp in found.items()}
                 for root, found in watch.roots.items()}
        outside = {path: [stamp, watch.digest("", path, stamp), watch.racy(stamp)]
                   for path, stamp in watch.outside.items()}
        self._cache.put_bytes(self._key, json.dumps(
            {"format": FORMAT, "files": files, "outside": outside, "summary": summary,
             "changes": changes}).encode())
        for root, found in files.items():
            index = {rel: [stamp, digest] for rel, (stamp, digest, racy) in found.items()
                     if digest and not racy}
            if index != self._indexed.get(root):
                self._cache.put_json(_index_key(root), index)
                self._indexed[root] = index


def _changed(kept: dict, now: Watch) -> str | None:
    """What differs between the trees KEPT recorded and NOW, in words;
    None when nothing does (digests of NOW's entries whose stat moved are
    left in NOW for _refreshed)."""
    if sorted(kept["files"]) != sorted(now.roots):
        return "other trees are read: " + ", ".join(sorted(now.roots))
    if set(kept["outside"]) != set(now.outside):
        return "a link reaches another file: " + \
            ", ".join(sorted(set(kept["outside"]) ^ set(now.outside))[:1])
    for root, found in now.roots.items():
        old = kept["files"][root]
        if old.keys() != found.keys():
            added = sorted(found.keys() - old.keys())
            removed = sorted(old.keys() - found.keys())
            if added:
                return f"{os.path.join(root, added[0])} added"
            return f"{os.path.join(root, removed[0])} removed"
    for root, rel, stamp in now.entries():
        old_stamp, digest, racy = (kept["files"][root][rel] if root
                                   else kept["outside"][rel])
        if old_stamp[_CONTENT_PART:] != stamp[_CONTENT_PART:]:
            return f"{os.path.join(root, rel)}: its kind, mode, owner or link changed"
        if old_stamp == stamp and not racy:
            continue
        if now.digest(root, rel, stamp) != digest:
            return f"{os.path.join(root, rel)} changed"
    return None


def _reuse(kept: dict, now: Watch) -> None:
    """The digests KEPT recorded, for NOW's entries whose stat is the one
    recorded and was not racy then: not read again to be kept again."""
    for root, rel, stamp in now.entries():
        old = kept["files"].get(root, {}).get(rel) if root else kept["outside"].get(rel)
        if old is not None and old[0] == stamp and not old[2]:
            now.digests[root, rel] = old[1]


def _index_key(root: str) -> str:
    """The key of ROOT's digest index: each file's digest by its stat,
    shared by every command's memo over ROOT, so that a cold run reads
    only the files no earlier run digested with the same stat."""
    return make_key(FORMAT, "digests", root)


def _reuse_index(indexed: dict[str, dict], now: Watch) -> None:
    """The digests of INDEXED (root -> rel -> [stamp, digest], never a racy
    one) for NOW's files whose stat is the one indexed."""
    for root, found in now.roots.items():
        index = indexed.get(root, {})
        for rel, stamp in found.items():
            old = index.get(rel)
            if old is not None and old[0] == stamp:
                now.digests[root, rel] = old[1]


def _refreshed(kept: dict, now: Watch) -> bool:
    """Whether a stat of NOW differs from KEPT's for a file whose content
    did not (a touch), or a racy one is no longer racy: worth storing again."""
    for root, rel, stamp in now.entries():
        old_stamp, _, racy = kept["files"][root][rel] if root else kept["outside"][rel]
        if old_stamp != stamp or racy != now.racy(stamp):
            return True
    return False


def _moved(before: Watch, after: Watch) -> str | None:
    """The first entry whose stat differs between BEFORE and AFTER (or that
    one of them lacks)."""
    if before.outside != after.outside:
        return ", ".join(sorted(set(before.outside) ^ set(after.outside))) or "a linked file"
    for root, found in before.roots.items():
        other = after.roots.get(root, {})
        if found != other:
            rel = next((r for r in sorted(found.keys() | other.keys())
                        if found.get(r) != other.get(r)))
            return os.path.join(root, rel)
    return None


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        return f"{name}: missing"
    real = os.path.realpath(found)
    return f"{name}: {real} {_stamp(os.stat(real))}"


def _key(request: ConvertRequest) -> str:
    env = {name: os.environ.get(name) for name in ENVIRONMENT}
    env.update({k: v for k, v in os.environ.items() if k.startswith("IOCTL_REWORK_")})
    return make_key(
        FORMAT, repr(request.run_paths), os.path.realpath(request.root),
        repr(request.options), str(request.jobs), str(request.timeout), request.output.value,
        str(request.shard), repr(request.kernel), repr(request.verify.prove),
        sys.version, sys.executable, json.dumps(env, sort_keys=True),
        *(_program(name) for name in PROGRAMS))

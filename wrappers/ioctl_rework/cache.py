"""A content-addressed on-disk cache: key -> bytes or JSON.

Keys are hashes of everything a result depends on (file content, rules,
spatch version, options), so entries never need invalidating; stale ones
are simply never asked for again.  Writes are atomic (temporary file then
rename), so a killed run never leaves a half-written entry.

The directory may be shared by the shards of a run on several machines
(a network filesystem such as NFS): writers of the same entry write the
same bytes, each to a temporary name of its own in the entry's directory,
renamed over the entry (atomic on the server; the last one stays); and
every entry carries a hash of its content, so a reader that meets a
truncated or torn one (a client that crashed before its data reached the
server, a rename seen before the data) takes it for a miss.
"""

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

from ioctl_rework import paths


def default_directory() -> Path:
    return paths.cache_home()


def make_key(*parts: str | bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        # A file name that is not UTF-8 arrives with surrogate escapes.
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def code_digest(*paths: Path) -> str:
    """A key of the text of PATHS, the modules a kept result was decided
    by: a change to one of them is no stale answer.  Read once a process."""
    return make_key(*(Path(path).read_bytes() for path in paths))


class Cache:
    """Entries live in DIRECTORY/NAMESPACE/ab/abcdef...; None disables caching."""

    def __init__(self, directory: Path | None, namespace: str = "default"):
        self.root = Path(directory) / namespace if directory is not None else None

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def sibling(self, namespace: str) -> "Cache":
        """The cache NAMESPACE in the same directory (disabled when this one is)."""
        return Cache(self.root.parent if self.root is not None else None, namespace)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / key

    def get_bytes(self, key: str) -> bytes | None:
        if self.root is None:
            return None
        try:
            stored = self._path(key).read_bytes()
        except OSError:
            return None
        return _opened(stored)

    def put_bytes(self, key: str, data: bytes) -> None:
        if self.root is None:
            return
        path = self._path(key)
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as out:
                out.write(_sealed(data))
            os.replace(tmp, path)
        except OSError:
            # A read-only or full cache directory only costs speed.
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)

    def get_json(self, key: str):
        data = self.get_bytes(key)
        if data is None:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def put_json(self, key: str, value) -> None:
        self.put_bytes(key, json.dumps(value, sort_keys=True).encode())


# An entry: MAGIC, the SHA-256 of the data, the data.
_MAGIC = b"ioctl-rework-cache/2\n"
_SEAL = len(_MAGIC) + 32


def _sealed(data: bytes) -> bytes:
    return _MAGIC + hashlib.sha256(data).digest() + data


def _opened(stored: bytes) -> bytes | None:
    """The data of an entry, or None when it is not whole (or of another format)."""
    data = stored[_SEAL:]
    if not stored.startswith(_MAGIC) or hashlib.sha256(data).digest() != stored[len(_MAGIC):_SEAL]:
        return None
    return data


# How many files stat_index does between two progress reports: a call per
# file would cost more than the stat walk of an unchanged tree.
PROGRESS_EVERY = 256


def stat_index(cache: "Cache | None", key: str, files, classify, progress=None) -> dict:
    """CLASSIFY(path) for each (path, stat) of FILES, through an index kept
    under KEY.  Like git's index, a file whose size, mtime and inode are
    those recorded is not read again: its verdict (any JSON value) is
    reused.  On an unchanged tree that turns reading every file into a walk
    of stat calls, which is most of what a re-run costs.  PROGRESS(reused,
    classified), if given, counts the files done since its last call."""
    old = (cache.get_json(key) if cache is not None else None) or {}
    index = {}
    reused = classified = 0
    for path, st in files:
        stamp = [st.st_size, st.st_mtime_ns, st.st_ino]
        entry = old.get(path)
        if entry and entry[0] == stamp:
            index[path] = entry
            reused += 1
        else:
            index[path] = [stamp, classify(path)]
            classified += 1
        if progress is not None and reused + classified >= PROGRESS_EVERY:
            progress(reused, classified)
            reused = classified = 0
    if progress is not None and reused + classified:
        progress(reused, classified)
    if cache is not None and index != old:
        cache.put_json(key, index)
    return {path: verdict for path, (_, verdict) in index.items()}


class FileDigests:
    """The content digest of each file, read once per instance (one run):
    a cache entry computed from several files records their digests
    (record) and is used again only while every one is unchanged
    (unchanged).  Unlike stat_index, the content decides, so a header
    rewritten within the same second is never taken for the old one."""

    def __init__(self):
        self._known: dict[str, str] = {}

    def digest(self, path: Path | str) -> str:
        name = str(path)
        if name not in self._known:
            try:
                self._known[name] = hashlib.sha256(Path(name).read_bytes()).hexdigest()
            except OSError:
                self._known[name] = "unreadable"
        return self._known[name]

    def known(self) -> list[str]:
        """Every file digested so far: all that the checked entries of a
        run depend on."""
        return sorted(self._known)

    def record(self, paths) -> dict[str, str]:
        return {str(path): self.digest(path) for path in sorted(set(map(str, paths)))}

    def unchanged(self, recorded: dict[str, str]) -> bool:
        return all(self.digest(path) == digest for path, digest in recorded.items())

"""One memory, for a whole run, of what is read from the headers files include.

Every file a run looks at includes a few hundred headers, mostly the same
ones (linux/fs.h, linux/kernel.h ...); each was read and reduced again for
every file (issue 26: member_types made the drivers/ run of 2.6.9 1041 ->
1385 s).  Here each result is kept once per process:

- text(path): a file's text, keyed by its path and its stat (device,
  inode, size, modification and change times in ns): a file changed
  during the run is read again.  A file changed less than RACY_NS ago is
  read every time and not kept (as git treats a racily clean entry): a
  second change within one tick of the file system's clock would leave
  its stat as it was;
- by_content(function): FUNCTION's result for a text, keyed by the text
  itself (not by a path): what a changed file reduces to is recomputed,
  whatever its name, and the text a run edits in memory is never confused
  with the one on disk.

Memory is bounded: the least recently used entries go when the characters
held pass LIMIT.  Nothing is shared between processes (each worker keeps
its own, filled as it reads), so no process can see another's stale entry
and no lock is needed; nothing is written to disk.  The functions cached
must be pure (their result depends on their arguments only) and their
results not changed by callers.

Imports nothing of the project, like include_search (the rule's package
imports that).
"""

import functools
import os
import time
from collections import OrderedDict

# Characters held (texts and string results, each counted by its length;
# other results by the length of the text they came from): about 100 MB
# for the ASCII of a kernel tree's headers.
LIMIT = 96 * 1024 * 1024
# How recent a change may be for its file's text not to be kept.
RACY_NS = 2_000_000_000


class _Bounded:
    """An LRU mapping whose entries carry a size; the oldest go past LIMIT."""

    def __init__(self):
        self._entries = OrderedDict()     # key -> (value, size)
        self._held = 0

    def get(self, key):
        found = self._entries.get(key)
        if found is None:
            return None
        self._entries.move_to_end(key)
        return found

    def put(self, key, value, size):
        old = self._entries.pop(key, None)
        if old is not None:
            self._held -= old[1]
        if size > LIMIT:
            return
        self._entries[key] = (value, size)
        self._held += size
        while self._held > LIMIT:
            _, (_, gone) = self._entries.popitem(last=False)
            self._held -= gone

    def clear(self):
        self._entries.clear()
        self._held = 0


_MEMORY = _Bounded()


def clear():
    """Forget everything (tests; a long-lived process between runs)."""
    _MEMORY.clear()


def text(path):
    """The text of PATH (decoded with errors replaced, newlines kept as
    written), or None when it cannot be read."""
    try:
        with open(path, errors="replace", newline="") as handle:
            info = os.fstat(handle.fileno())
            key = ("text", os.fspath(path), info.st_dev, info.st_ino, info.st_size,
                   info.st_mtime_ns, info.st_ctime_ns)
            found = _MEMORY.get(key)
            if found is not None:
                return found[0]
            read = handle.read()
    except OSError:
        return None
    if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) >= RACY_NS:
        _MEMORY.put(key, read, len(read))
    return read


def by_content(function):
    """FUNCTION(text, *rest) remembered by the text and REST (hashable)."""

    @functools.wraps(function)
    def remembered(content, *rest):
        key = (function, content, rest)
        found = _MEMORY.get(key)
        if found is not None:
            return found[0]
        result = function(content, *rest)
        size = len(content) + (len(result) if isinstance(result, str) else 0)
        _MEMORY.put(key, result, size)
        return result

    return remembered

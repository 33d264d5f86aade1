"""The diffs stage of convert: each rewritten file's git diff, through the
cache (difflib is the largest cost of a re-run over an unchanged tree)."""

import hashlib

from ioctl_rework import cache as cache_mod
from ioctl_rework.patches.unified import git_diff


class Diffs:
    """git_diff of a file's old and new text, memoized and cached."""

    def __init__(self, cache: cache_mod.Cache):
        self.cache = cache
        self._memo: dict[str, str] = {}

    def __call__(self, rel: str, old: bytes, new: bytes) -> str:
        key = cache_mod.make_key("convert-diff/1", rel, hashlib.sha256(old).hexdigest(),
                                 hashlib.sha256(new).hexdigest())
        if key not in self._memo:
            stored = self.cache.get_bytes(key)
            if stored is None:
                diff = git_diff(rel, old, new)
                self.cache.put_bytes(key, diff.encode("utf-8", "surrogateescape"))
            else:
                diff = stored.decode("utf-8", "surrogateescape")
            self._memo[key] = diff
        return self._memo[key]

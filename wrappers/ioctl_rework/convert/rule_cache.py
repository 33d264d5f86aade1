"""The cache of the conversion rule's runs: one entry per (file content,
the headers it reads, the rule, spatch's version, the arguments)."""

import hashlib
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.convert.file_runs import Pending
from ioctl_rework.ctext import include_search
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch


class RuleCache:
    """spatch's answers for the files under ROOT, kept in CACHE."""

    def __init__(self, cache: cache_mod.Cache, root: Path, spatch_version: str):
        self.cache = cache
        self.root = root
        self.spatch_version = spatch_version
        self._rules = rules.rules_digest()
        # Each pending file's key, made once: it reads the headers the file
        # includes (6 CPU s over 2.6.9's 291 candidates), and get then put
        # asked for it twice.
        self._keys: dict[Pending, str] = {}

    def _key(self, pending: Pending) -> str:
        key = self._keys.get(pending)
        if key is None:
            key = self._keys[pending] = self._make_key(pending)
        return key

    def _make_key(self, pending: Pending) -> str:
        return cache_mod.make_key("convert-run/2", pending.task.file,
                                  hashlib.sha256(pending.data).hexdigest(),
                                  headers_digest(self.root, pending.task.file, pending.data),
                                  self._rules, self.spatch_version, "\0".join(pending.args))

    def get(self, pending: Pending) -> spatch.SpatchResult | None:
        if not self.cache.enabled:      # --no-cache: no key to make
            return None
        value = self.cache.get_json(self._key(pending))
        if value is None:
            return None         # put will ask for the key again
        self._keys.pop(pending, None)
        return spatch.SpatchResult(Path(pending.task.file), spatch.Outcome(value["outcome"]),
                                   value["stdout"], value["stderr"], value["seconds"],
                                   tuple(value["parse_errors"]))

    def put(self, pending: Pending, result: spatch.SpatchResult) -> None:
        """Keeps RESULT when it is the rule's answer (not a timeout or a crash)."""
        if self.cache.enabled and result.outcome in (spatch.Outcome.OK,
                                                     spatch.Outcome.PARSE_ERROR):
            self.cache.put_json(self._key(pending), {
                "outcome": result.outcome.value, "stdout": result.stdout,
                "stderr": result.stderr[-4000:], "seconds": result.seconds,
                "parse_errors": list(result.parse_errors)})
        self._keys.pop(pending, None)


def headers_digest(root: Path, rel: str, data: bytes) -> str:
    """What the rule reads besides REL (include_search.read_headers: the
    headers found as the compiler finds them, the kbuild Makefiles that
    place them, and the names it could not find; the Makefiles whose flags
    apply to REL, include_search.kbuild_flags): a return hidden in one, or
    a -D naming what REL's code names, decides the strategy, so a change
    to one is a change to REL's run."""
    digest = hashlib.sha256()
    found = include_search.read_headers(root, rel)
    flags = include_search.kbuild_flags(root, rel)
    for path in sorted(set(found.texts) - {rel}) + list(found.search.makefiles) + \
            [m for m in flags.makefiles if m not in found.search.makefiles]:
        try:
            content = (Path(root) / path).read_bytes()
        except OSError:
            content = None
        digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(b"-" if content is None else hashlib.sha256(content).digest())
    digest.update(repr((found.missing, found.unread)).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()

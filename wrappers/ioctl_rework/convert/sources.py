"""The text of the files a convert run reads, each read once.

Every stage that reads a file (the rule runs, the cross-file groups,
forwarding, accounting) is handed this value, rather than a way back into
the stage that read the file first."""

from pathlib import Path


class Sources:
    """The bytes of files under ROOT by relative path, read on first use."""

    def __init__(self, root: Path):
        self.root = root
        self._read: dict[str, bytes] = {}

    def read(self, rel: str) -> bytes:
        """REL's content; OSError when it cannot be read."""
        if rel not in self._read:
            self._read[rel] = (self.root / rel).read_bytes()
        return self._read[rel]

"""The text of the files a convert run reads, each read once.

Every stage that reads a file (the rule runs, the cross-file groups,
forwarding, accounting) is handed this value, rather than a way back into
the stage that read the file first."""

from pathlib import Path


class Sources:
    """The bytes of files under ROOT by relative path, read on first use,
    and their text, decoded on first use."""

    def __init__(self, root: Path):
        self.root = root
        self._read: dict[str, bytes] = {}
        self._text: dict[str, str] = {}

    def read(self, rel: str) -> bytes:
        """REL's content; OSError when it cannot be read."""
        if rel not in self._read:
            self._read[rel] = (self.root / rel).read_bytes()
        return self._read[rel]

    def text(self, rel: str) -> str:
        """REL's content decoded once (undecodable bytes kept as surrogates),
        or "" when it cannot be read: the text the cross-file groups judge."""
        if rel not in self._text:
            try:
                self._text[rel] = self.read(rel).decode("utf-8", "surrogateescape")
            except OSError:
                self._text[rel] = ""
        return self._text[rel]

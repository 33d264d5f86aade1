"""Where the code the compiler sees comes from: the text, or a .i file.

An expander turns the legacy and the converted text of one file into two
source.Unit values (`units(old_text, new_text)`), whose functions the
prover reads token by token, macros expanded.
"""

import re
from pathlib import Path, PurePosixPath

from ioctl_rework.lockproof.lexer import LexError, Token, tokenize
from ioctl_rework.lockproof.headers import HeaderReader
from ioctl_rework.lockproof.noreturn import Declarations
from ioctl_rework.lockproof.source import SourceError, Unit


class TextualExpander:
    """Expands the macros of the file and of the headers it includes under
    ROOT, found as headers.py finds them (recursively)."""

    preprocessed = False

    def __init__(self, root: Path, rel: str, headers: HeaderReader | None = None):
        self.root = Path(root)
        self.rel = rel
        # One reader may serve the files of a whole run: it reads each header once.
        self._headers = headers if headers is not None else HeaderReader(self.root)

    def units(self, old_text: str, new_text: str) -> tuple[Unit, Unit]:
        return (Unit(self.rel, old_text, self._headers),
                Unit(self.rel, new_text, self._headers))


class PreprocessedExpander:
    """Reads the preprocessor's output (a .i) of the converted file (TEXT)
    and of the legacy one (OLD_TEXT).  Both are needed: the
    legacy side must be expanded the same way to be compared."""

    preprocessed = True

    def __init__(self, text: str, old_text: str | None = None):
        self.text = text
        self.old_text = old_text

    def units(self, old_text: str, new_text: str) -> tuple[Unit, Unit]:
        if self.old_text is None:
            raise SourceError("no preprocessed output of the legacy file to compare with")
        return PreprocessedUnit("", self.old_text), PreprocessedUnit("", self.text)


_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"((?:\\.|[^"\\])*)"')
# The same at the start of a line of a whole text: the file it names.
_MARKER_LINE = re.compile(r'#[ \t]*(?:line[ \t]+)?\d+[ \t]+"((?:\\.|[^"\\\n])*)"')


class PreprocessedUnit(Unit):
    """The tokens of the main file of a .i, each on its line of that file.

    The main file is the one the first line marker names; code of the
    headers it includes is left out (handlers are defined in the file)."""

    def reads(self, name: str) -> bool:
        """The preprocessor read every header and expanded every macro: a
        name left in its output is no macro, whatever it calls."""
        return True

    def __init__(self, rel: str, text: str):
        self.rel = rel
        self.groups, self.events, self.stacks = {}, {}, []
        self.tokens: list[Token] = []
        self.depths: list[int] = []
        self._declarations = Declarations()
        # Every macro is expanded already: a name left is an enumerator
        # (of the file's own enums: the headers' code is left out) or not constant.
        self._constants = None
        try:
            raw = tokenize(_main_file_only(text))
        except LexError as err:
            raise SourceError(f"preprocessed {rel}: {err}") from err
        main = None
        current, base, marker_line = None, 1, 0
        depth = 0
        for token in raw:
            if token.kind == "directive":
                marker = _MARKER.match(token.text)
                if marker:
                    current = marker.group(2)
                    if main is None:
                        main = current
                    base, marker_line = int(marker.group(1)), token.line
                continue
            if current != main and main is not None:
                continue
            line = base + token.line - marker_line - 1 if main is not None else token.line
            self.tokens.append(Token(token.kind, token.text, line))
            self.stacks.append(())
            self.depths.append(depth)
            self._declarations.token(token, depth)
            depth += token.is_("{") - token.is_("}")
        self.main = PurePosixPath(main).as_posix() if main else None


def _main_file_only(text: str) -> str:
    """TEXT without the lines of included files nor their line markers:
    the unit reads only the main file, and a .i of a kernel file is mostly
    headers (tokenizing them was most of the cost).  A line's number is
    counted from the last marker, a marker of the main file where a
    segment of it starts, so dropping whole segments keeps it."""
    first = _next_marker(text, 0)
    if first is None:
        return text
    kept = [text[:first.start()]]
    # Only the main file's markers are looked for (str.find on its quoted
    # name): a .i has thousands of header markers and a few dozen of its own.
    needle = f' "{first.group(1)}"'
    start = first.start()
    while start is not None:
        end = _next_marker(text, start + 1)
        kept.append(text[start:end.start() if end else len(text)])
        start = _next_main_marker(text, needle, end.start() if end else len(text))
    return "".join(kept)


def _next_marker(text: str, start: int) -> re.Match | None:
    """The first line marker of TEXT at or after offset START (at a line start)."""
    at = start if start == 0 or text[start - 1] == "\n" else text.find("\n", start) + 1
    while 0 < at or (at == 0 and start == 0):
        marker = _MARKER_LINE.match(text, at) if text.startswith("#", at) else None
        if marker:
            return marker
        found = text.find("\n#", at)
        if found < 0:
            return None
        at = found + 1
    return None


def _next_main_marker(text: str, needle: str, start: int) -> int | None:
    """Where the next marker naming the main file (NEEDLE, its quoted name) starts."""
    while True:
        found = text.find(needle, start)
        if found < 0:
            return None
        line = text.rfind("\n", 0, found) + 1
        marker = _MARKER_LINE.match(text, line)
        if marker and marker.end() == found + len(needle):
            return line
        start = found + len(needle)

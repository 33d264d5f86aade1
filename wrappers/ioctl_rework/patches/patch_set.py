"""A patch as typed values: files, hunks, lines, and a whole set of files
as a series of patches leaves them (patch_parser reads them from text).

Line numbers are 1-based; a file's lines are numbered as the patch
leaves it, and a series' later patches move or remove what earlier ones
showed.
"""

import enum
from dataclasses import dataclass, field, replace

SOURCE_SUFFIXES = (".c", ".h")
SYMLINK_MODE = "120000"


class Status(enum.Enum):
    MODIFIED = "modified"
    ADDED = "added"
    DELETED = "deleted"
    RENAMED = "renamed"
    COPIED = "copied"


@dataclass(frozen=True)
class Line:
    """One line of a hunk; numbers are 1-based, None where it has none."""

    kind: str                  # "+", "-" or " "
    text: str                  # without the prefix and the newline
    old: int | None            # line in the old file
    new: int | None            # line in the new file
    patch_line: int            # line in the patch text


@dataclass(frozen=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    section: str               # the text after the second @@ (a function name, often)
    lines: tuple[Line, ...]
    patch_line: int


@dataclass(frozen=True)
class FilePatch:
    """The change to one file.  Paths are relative, prefixes (a/, b/) removed."""

    old_path: str | None       # None when the file is new
    new_path: str | None       # None when the file is deleted
    status: Status
    binary: bool = False
    hunks: tuple[Hunk, ...] = ()
    patch_line: int = 0        # where this file's header starts
    new_mode: str | None = None    # git's mode after the patch ("120000": a symlink)

    @property
    def path(self) -> str:
        """The name the file has after the patch (before it, when deleted)."""
        return self.new_path or self.old_path or ""

    @property
    def is_source(self) -> bool:
        return self.path.endswith(SOURCE_SUFFIXES)

    @property
    def symlink(self) -> bool:
        return self.new_mode == SYMLINK_MODE

    def added(self) -> dict[int, Line]:
        """The added lines, by their line number in the new file."""
        return {ln.new: ln for h in self.hunks for ln in h.lines if ln.kind == "+"}

    def new_line_map(self, old_line: int) -> int | None:
        """Where line OLD_LINE of the old file is in the new one; None if removed."""
        shift = 0
        for hunk in self.hunks:
            if hunk.old_count == 0:             # inserts after line old_start
                if old_line <= hunk.old_start:
                    return old_line + shift
            elif old_line < hunk.old_start:
                return old_line + shift
            elif old_line < hunk.old_start + hunk.old_count:
                kept = [ln.new for ln in hunk.lines if ln.old == old_line and ln.kind == " "]
                return kept[0] if kept else None
            shift += hunk.new_count - hunk.old_count
        return old_line + shift


@dataclass(frozen=True)
class PatchSet:
    files: tuple[FilePatch, ...]
    total_lines: int           # lines of patch text read, as checkpatch counts them

    def final_files(self) -> list["FinalFile"]:
        """One entry per path, as the whole set leaves it.

        A series may touch a file several times; each later patch moves the
        lines an earlier one showed, or removes them.
        """
        merged: dict[str, FinalFile] = {}
        for fp in self.files:
            previous = merged.get(fp.old_path) if fp.old_path else None
            known: dict[int, Line] = {}
            gaps: dict[int, Line] = {}
            if previous is not None and fp.status is not Status.ADDED:
                for line_no, line in previous.known.items():
                    moved = fp.new_line_map(line_no)
                    if moved is not None:
                        known[moved] = replace(line, new=moved)
                for line_no, line in previous.gaps.items():
                    moved = fp.new_line_map(line_no)
                    if moved is not None:
                        gaps[moved] = line
                if fp.status is Status.RENAMED:
                    del merged[fp.old_path]
            for hunk in fp.hunks:
                for line in hunk.lines:
                    # A line an earlier patch added stays added when a later
                    # one only shows it as context.
                    if line.kind == "+" or (line.kind == " " and line.new not in known):
                        known[line.new] = line
                gaps.update(_deletion_gaps(hunk))
            patches = (previous.patches if previous else ()) + (fp,)
            merged.pop(fp.path, None)           # keep patch order: last touch wins
            merged[fp.path] = FinalFile(fp.path, patches, known,
                                        _combined_status(previous, fp), gaps)
        return list(merged.values())


def _deletion_gaps(hunk: Hunk) -> dict[int, Line]:
    gaps, pending = {}, None
    for line in hunk.lines:
        if line.kind == "-":
            pending = pending or line
        elif pending is not None:
            gaps[line.new] = pending
            pending = None
    if pending is not None:
        gaps[hunk.new_start + hunk.new_count] = pending
    return gaps


@dataclass(frozen=True)
class FinalFile:
    """A file as the whole patch set leaves it."""

    path: str
    patches: tuple[FilePatch, ...]
    known: dict[int, Line]     # every new-side line the patches show, by its final number
    status: Status
    # Where lines were deleted: the final number of the line that now
    # follows them -> the first deleted line.  A change that only deletes
    # (an .unlocked_ioctl removed from a fops) is still a change there.
    gaps: dict[int, Line] = field(default_factory=dict)

    @property
    def added(self) -> dict[int, Line]:
        return {n: ln for n, ln in self.known.items() if ln.kind == "+"}

    @property
    def deleted(self) -> bool:
        return self.status is Status.DELETED

    @property
    def binary(self) -> bool:
        return any(p.binary for p in self.patches)

    @property
    def symlink(self) -> bool:
        return self.patches[-1].symlink

    @property
    def is_source(self) -> bool:
        return self.path.endswith(SOURCE_SUFFIXES)

    def reconstruct(self) -> str:
        """The new file as far as the patches show it; lines they do not
        show are left empty so that line numbers stay right.  The text
        after a hunk's `@@ ... @@` (git's function context) is not put in:
        anyone can write anything there, so it says nothing of what the
        hunk's lines are in."""
        if not self.known:
            return ""
        text = {n: line.text for n, line in self.known.items()}
        return "".join(text.get(n, "") + "\n" for n in range(1, max(text) + 1))


def _combined_status(previous: "FinalFile | None", fp: FilePatch) -> Status:
    if fp.new_path is None:
        return Status.DELETED
    if previous is not None and previous.status is Status.ADDED:
        return Status.ADDED
    return fp.status


def whole_file(path: str, text: str, patch_line: int) -> FinalFile:
    """PATH, whose content TEXT the patch brings in without showing it as
    added lines (a rename, a copy, a file a new #include reads, the target
    of a new symbolic link), as a file the patch adds whole: every line
    added, each shown at PATCH_LINE, the line of the patch that brings it."""
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    lines = tuple(Line("+", row, None, n, patch_line) for n, row in enumerate(rows, 1))
    hunk = Hunk(0, 0, 1, len(lines), "", lines, patch_line)
    patch = FilePatch(None, path, Status.ADDED, False, (hunk,) if lines else (), patch_line)
    return FinalFile(path, (patch,), {ln.new: ln for ln in lines}, Status.ADDED)

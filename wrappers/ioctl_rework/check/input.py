"""What `check` reads: patches, and the files as each patch leaves them.

A commit, a range or the staged changes come with their files, read from
git's objects (check.git_range).  A patch file is what `git am` would
commit: a mail or an mbox is split and decoded by git itself
(patches.mail), and each of its patches is checked on its own, in order.
Each patch is applied with `git apply` (as git am does; `--unidiff-zero`
for hunks without context) to a scratch copy of the files it touches:
from --tree when given, and from what the earlier patches of the series
made whole (a file one adds is known entirely to the next).  A patch that
cannot be applied so is rebuilt from the lines it shows, at their own
line numbers (a bare patch): enough for the rules to see the fops and
handlers it adds, and judged NOT_CHECKED where that is not enough.

A file the patch brings in without showing its lines (a rename or a copy
into a .c or .h, the file a new `#include "..."` reads, the target of a new
symbolic link) is judged as added whole (see check.whole).

Every file name a patch gives is checked before anything is written or
read (scratch): one unsafe name makes the whole input unusable.
"""

import enum
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import children
from ioctl_rework import scratch
from ioctl_rework.patches import mail
from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.check.git_range import Change, Commit, GitError, Repository
from ioctl_rework.check.kbuild_macros import makefiles_above
from ioctl_rework.check.prototypes import StalePrototype, stale_prototypes
from ioctl_rework.check.whole import Unread, Whole, whole_files
from ioctl_rework.patches.parser import FinalFile, Status

DEFAULT_MAX_PATCH_SIZE = 16 * 1024 * 1024
# A bare patch's file is rebuilt with a blank line for each line it does
# not show; a hunk claiming a line beyond this is not rebuilt (no C file
# has that many lines, and the memory would follow the claim, not the patch).
MAX_BARE_LINE = 500_000


class InputError(Exception):
    """Input check cannot use: a bad revision range, a missing file, no repository."""


class SourceKind(enum.Enum):
    GIT = "git"
    DIFF = "diff"
    STAGED = "staged"


@dataclass(frozen=True)
class PatchInput:
    name: str                           # what was read, for the summary line
    text: str
    patch_set: patch_parser.PatchSet
    post_images: dict[str, bytes]       # path -> content, for the files to check
    reconstructed: bool                 # from the patch's own lines, no tree
    commit: Commit | None = None        # one commit of a range, checked on its own
    from_git: bool = False              # diffed by check itself, not a patch file
    whole: dict[str, Whole] = field(default_factory=dict)
    unread: tuple[Unread, ...] = ()
    too_large: str = ""                 # why nothing of it was read
    notes: tuple[str, ...] = ()
    line_offset: int = 0                # patch line N is line N + this of the input file
    lines_read: int | None = None       # lines of the input, when it is one patch
    # The Makefiles and Kbuild files above the files to check, as the patch
    # leaves them (their flags decide #ifdef blocks): none without a tree.
    kbuild_files: dict[str, bytes] = field(default_factory=dict)
    # Headers still declaring the legacy prototype of a handler it converts.
    stale: tuple[StalePrototype, ...] = ()

    @property
    def lines_checked(self) -> int:
        return self.lines_read if self.lines_read is not None else self.patch_set.total_lines


def unchecked_reason(f: FinalFile, whole: bool = False) -> str | None:
    """Why F is not checked, or None."""
    if f.deleted:
        return "deleted by the patch"
    if f.symlink and not whole:
        return "a symbolic link (its target is checked when it holds C code)"
    if f.binary:
        return "binary file"
    if not f.is_source and not whole:
        return "not C source"
    if not f.added and not f.gaps:
        return "no added lines"
    return None


def _parse(text: str) -> patch_parser.PatchSet:
    """TEXT read, and every file name in it checked (scratch)."""
    patch_set = patch_parser.parse(text)
    names = [n for fp in patch_set.files for n in (fp.old_path, fp.new_path) if n]
    symlinks = {fp.new_path for fp in patch_set.files if fp.symlink and fp.new_path}
    scratch.check_names(names, symlinks)
    foreign = patch_parser.foreign_part(text, patch_set)
    if foreign is not None:
        line, what = foreign
        raise patch_parser.MalformedPatch(
            line, f"{what} starts here: `patch` would apply it but `git apply` and "
                  "`git am` do not, so what this patch changes depends on the program "
                  "that applies it; send every file as a unified diff (`git diff`, "
                  "`diff -u`)")
    return patch_set


def _wanted(patch_set: patch_parser.PatchSet) -> list[FinalFile]:
    return [f for f in patch_set.final_files() if unchecked_reason(f) is None]


def _too_large(name: str, size: int, limit: int) -> PatchInput:
    why = (f"the patch is {size} bytes, over the limit of {limit} (--max-patch-size); "
           "nothing of it was read")
    return PatchInput(name, "", patch_parser.PatchSet((), 0), {}, True, too_large=why)


# A patch file.

def _read_diff_file(value: str, limit: int) -> bytes:
    try:
        if value == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(value, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as err:
        raise InputError(f"{value}: cannot read the patch: {err.strerror}") from err
    if not data.strip():
        raise InputError(f"{'stdin' if value == '-' else value}: the patch is empty; "
                         "there is nothing to check")
    return data


def _needs_unidiff_zero(patch_set: patch_parser.PatchSet) -> bool:
    """A hunk without context lines: git apply places it only with
    --unidiff-zero (without, it takes it for the end of the file)."""
    return any(not any(ln.kind == " " for ln in h.lines)
               for fp in patch_set.files for h in fp.hunks)


def _apply(patch: str, directory: Path, patch_set: patch_parser.PatchSet,
           reverse: bool = False) -> bool:
    """Apply (or with REVERSE, test un-applying) PATCH in DIRECTORY, as git am
    would; a binary file's part is left out (its data may be missing)."""
    command = ["git", "apply", "--whitespace=nowarn"]
    command += ["--unidiff-zero"] if _needs_unidiff_zero(patch_set) else []
    command += [f"--exclude={_glob_literal(fp.path)}" for fp in patch_set.files if fp.binary]
    command += ["--reverse", "--check"] if reverse else []
    directory.mkdir(parents=True, exist_ok=True)
    proc = children.run(command, input=patch.encode(errors="surrogateescape"),
                        cwd=directory, capture_output=True,
                        env={"GIT_CEILING_DIRECTORIES": str(directory.parent),
                             "PATH": "/usr/bin:/bin", "HOME": str(directory),
                             # No user configuration: a file that is not there
                             # reads as empty (and /dev/null may not be a device).
                             "GIT_CONFIG_NOSYSTEM": "1",
                             "GIT_CONFIG_GLOBAL": str(directory / ".no-gitconfig")})
    return proc.returncode == 0


def _glob_literal(path: str) -> str:
    return re.sub(r"([*?\[\\])", r"\\\1", path)


def _texts(patch: str) -> list[str]:
    # A mailer's CRLF is undone for a tree with LF files; a patch of CRLF
    # files applies as it is.
    return list(dict.fromkeys((patch_parser.without_mail_crlf(patch), patch)))


class _Series:
    """The files as each patch of a series leaves them, applied in order in
    one scratch directory, as git am makes one commit after another.  A
    path is known when the directory holds it as it is (or its absence is
    certain): copied from the tree, or made by an earlier patch."""

    def __init__(self, tree: Path | None, state: Path):
        self.tree, self.state = tree, state
        self.known: set[str] = set()
        state.mkdir(parents=True, exist_ok=True)

    def read(self, path: str) -> bytes | None:
        """PATH as the patches so far leave it; from the tree if untouched."""
        if path in self.known:
            try:
                return scratch.read_inside(self.state, path)
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                return None
        if self.tree is not None:
            try:
                return scratch.read_inside(self.tree, path, f"the tree {self.tree}")
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                return None
            except OSError as err:
                raise InputError(f"{self.tree / path}: cannot read it: {err.strerror}") from err
        return None

    def read_many(self, paths: list[str]) -> dict[str, bytes | None]:
        return {path: self.read(path) for path in paths}

    def declaring(self, name: str) -> list[str]:
        """The .h files that name NAME (a word) as the patches so far leave
        them: the tree's, and the ones the patches made or changed."""
        found = []
        for top in (self.tree, self.state):
            if top is None:
                continue
            proc = children.run(["grep", "-r", "-l", "-w", "-Z", "--include=*.h",
                                 "--exclude-dir=.[!.]*", "-e", name, "--", "."], cwd=top,
                                capture_output=True, check=False,
                                env={**os.environ, "LC_ALL": "C"})
            found += [os.path.normpath(os.fsdecode(p)) for p in proc.stdout.split(b"\0") if p]
        # A header a patch changed is read as it leaves it (read()), named or not now.
        return [p for p in dict.fromkeys(found) if self.read(p) is not None]

    def _prepare(self, patch_set: patch_parser.PatchSet) -> bool:
        for fp in patch_set.files:
            if fp.binary or fp.status is Status.ADDED or fp.old_path in self.known:
                continue
            data = self.read(fp.old_path)
            if data is None:
                return False
            scratch.write_inside(self.state, fp.old_path, data)
            self.known.add(fp.old_path)
        return True

    def _forget(self, patch_set: patch_parser.PatchSet) -> None:
        for fp in patch_set.files:
            for path in (fp.old_path, fp.new_path):
                if path and path in self.known:
                    self.known.discard(path)
                    target = self.state / path
                    if target.is_symlink() or target.is_file():
                        target.unlink()

    def apply(self, patch: str, patch_set: patch_parser.PatchSet) -> bool:
        """Whether PATCH applied; if not, what it touches is no longer known."""
        if self._prepare(patch_set) and any(_apply(text, self.state, patch_set)
                                            for text in _texts(patch)):
            for fp in patch_set.files:
                self.known.update(p for p in (fp.old_path, fp.new_path) if p)
            return True
        self._forget(patch_set)
        return False


def _already_applied(patch: str, patch_set: patch_parser.PatchSet, tree: Path,
                     work: Path) -> bool:
    """Whether TREE holds PATCH applied already (it un-applies cleanly)."""
    after = [f.path for f in patch_set.final_files()
             if not f.deleted and not f.binary and not f.symlink]
    directory = work / "after"
    for path in dict.fromkeys(after):
        try:
            data = scratch.read_inside(tree, path, f"the tree {tree}")
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return False
        except OSError as err:
            raise InputError(f"{tree / path}: cannot read it: {err.strerror}") from err
        scratch.write_inside(directory, path, data)
    return any(_apply(text, directory, patch_set, reverse=True) for text in _texts(patch))


def _rebuilt(files: list[FinalFile]) -> tuple[dict[str, bytes], list[Unread]]:
    """The files of a bare patch, from the lines it shows."""
    images, unread = {}, []
    for f in files:
        if not f.known:
            continue            # a rename or a copy without hunks: nothing shown
        claimed = max([*f.known, *(h.new_start + h.new_count for p in f.patches
                                   for h in p.hunks)], default=0)
        if claimed > MAX_BARE_LINE:
            unread.append(Unread(f.path, f.patches[-1].patch_line,
                                 f"a hunk claims line {claimed}, beyond any C file; the "
                                 "file was not rebuilt from the patch"))
            continue
        images[f.path] = f.reconstruct().encode(errors="surrogateescape")
    return images, unread


def _diff_parts(data: bytes, name: str, work: Path) -> list[tuple[str, str, int]]:
    """(name, patch text, line offset in DATA) of each patch of DATA, as git am would take them."""
    if not mail.is_mail(data):
        return [(name, data.decode(errors="surrogateescape"), 0)]
    try:
        parts = mail.split(data, work / "mail")
    except mail.MailError as err:
        raise InputError(f"{name}: {err}") from err
    if not parts:
        raise InputError(f"{name}: a mail without a patch (git am would say the patch "
                         "is empty); there is nothing to check")
    return [(part.name, part.text, part.line_offset) for part in parts]


def _count_lines(data: bytes) -> int:
    """Lines as checkpatch.pl counts them (and the patch reader does)."""
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def _from_diff_file(value: str, tree: Path | None, work: Path,
                    limit: int) -> list[PatchInput]:
    name = "stdin" if value == "-" else value
    data = _read_diff_file(value, limit)
    if len(data) > limit:
        return [_too_large(name, len(data) if value == "-" else os.path.getsize(value),
                           limit)]
    if tree is not None and not tree.is_dir():
        raise InputError(f"{tree}: no such directory")
    parts = [(label, text, _parse(text), offset)
             for label, text, offset in _diff_parts(data, name, work)]
    series = _Series(tree, work / "series")
    found = []
    for label, text, patch_set, offset in parts:
        files = _wanted(patch_set)
        notes = []
        if series.apply(text, patch_set):
            images = {f.path: series.read(f.path) for f in files}
            bare, read = False, series.read_many
        elif tree is not None and len(parts) == 1 and \
                _already_applied(text, patch_set, tree, work):
            images = {f.path: scratch.read_inside(tree, f.path, f"the tree {tree}")
                      for f in files}
            bare, read = False, series.read_many
        else:
            if tree is not None:
                notes.append(f"the patch does not apply to {tree}; checking what the patch "
                             "itself shows")
                print(f"check: {label}: the patch does not apply to {tree}; checking what "
                      "the patch itself shows", file=sys.stderr)
            images, unread = _rebuilt(files)
            shown, _ = _rebuilt([f for f in patch_set.final_files()
                                 if not f.deleted and not f.binary and not f.symlink])
            bare, read = True, (lambda paths, known=shown: {p: known.get(p) for p in paths})
        # Without a tree, what the patch does not carry cannot be read, even
        # when the patch itself applied (to files earlier mails made).
        whole, extra, more_unread = whole_files(patch_set, images, read,
                                                bare or tree is None)
        stale, unread_headers = stale_prototypes(
            patch_set.final_files(), {**images, **extra}, read, bare or tree is None,
            None if bare or tree is None else series.declaring)
        unread_all = tuple(more_unread + unread_headers + (unread if bare else []))
        # Without a tree, the Makefiles above are not all there: none is read.
        kbuild = {} if bare or tree is None else _kbuild_files(read, [*images, *extra])
        found.append(PatchInput(label if len(parts) > 1 else name, text, patch_set,
                                {**images, **extra}, bare, whole=whole, unread=unread_all,
                                notes=tuple(notes), line_offset=offset,
                                lines_read=_count_lines(data) if len(parts) == 1 else None,
                                kbuild_files=kbuild, stale=tuple(stale)))
    return found


# git.

def _from_git(changes: list[Change], repo: Repository, limit: int) -> list[PatchInput]:
    found = []
    for change in changes:
        if len(change.text) > limit:
            found.append(_too_large(change.name, len(change.text), limit))
            continue
        patch_set = _parse(change.text)
        files = _wanted(patch_set)
        blobs = repo.blobs([(change.rev, f.path) for f in files])
        images = {f.path: blobs[change.rev, f.path] for f in files
                  if (change.rev, f.path) in blobs}

        def read(paths: list[str], rev: str = change.rev) -> dict[str, bytes | None]:
            found = repo.blobs([(rev, path) for path in paths])
            return {path: found.get((rev, path)) for path in paths}

        whole, extra, unread = whole_files(patch_set, images, read, False)
        def declaring(name: str, rev: str = change.rev) -> list[str]:
            return _git_declaring(repo, rev, name)

        stale, unread_headers = stale_prototypes(patch_set.final_files(), {**images, **extra},
                                                 read, False, declaring)
        found.append(PatchInput(change.name, change.text, patch_set, {**images, **extra},
                                False, change.commit, from_git=True, whole=whole,
                                unread=tuple(unread + unread_headers),
                                kbuild_files=_kbuild_files(read, [*images, *extra]),
                                stale=tuple(stale)))
    return found


def _git_declaring(repo: Repository, rev: str, name: str) -> list[str]:
    """The .h files of REV that name NAME (a word)."""
    try:
        out = repo.git("grep", "-l", "-w", "-z", "-e", name, rev, "--", "*.h",
                       what=f"cannot search {rev} for {name}")
    except GitError:
        return []           # git grep exits 1 when nothing matches
    return [p.split(":", 1)[1] for p in out.split("\0") if ":" in p]


def _kbuild_files(read, paths: list[str]) -> dict[str, bytes]:
    """The Makefiles and Kbuild files READ finds above PATHS."""
    found = read(makefiles_above(paths))
    return {path: data for path, data in found.items() if data is not None}


def read_inputs(source: SourceKind, value: str | None, tree: Path | None, work: Path,
                squash: bool = False,
                max_patch_size: int = DEFAULT_MAX_PATCH_SIZE) -> list[PatchInput]:
    """The patches SOURCE/VALUE names, each with the files it leaves (see
    the module doc): one, one per mail of an mbox, or with --git A..B one
    per commit unless SQUASH.  WORK is a scratch directory."""
    if source is SourceKind.DIFF:
        return _from_diff_file(value, tree, work, max_patch_size)
    try:
        repo = Repository(tree or Path.cwd(), work)
        changes = [repo.staged()] if source is SourceKind.STAGED \
            else repo.changes(value, squash)
        return _from_git(changes, repo, max_patch_size)
    except GitError as err:
        raise InputError(str(err)) from err

"""What `check` reads: patches, and the files as each patch leaves them.

A commit, a range or the staged changes come with their files, read from
git's objects (check_git).  A patch file is applied to a copy of --tree
when given (or found already applied there); without a tree, each file is
rebuilt from the lines the patch shows, at their own line numbers, which
is enough for the rules to see every fops and handler the patch adds.
Every file name a patch gives is checked before anything is written or
read (scratch): one unsafe name makes the whole input unusable.
"""

import enum
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import scratch
from ioctl_rework.patches import parser as patch_parser
from ioctl_rework.check.git_range import Change, Commit, GitError, Repository
from ioctl_rework.patches.parser import FinalFile


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


def unchecked_reason(f: FinalFile) -> str | None:
    """Why F is not checked, or None."""
    if f.deleted:
        return "deleted by the patch"
    if f.symlink:
        return "a symbolic link (not followed)"
    if f.binary:
        return "binary file"
    if not f.is_source:
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
    return patch_set


def _wanted(patch_set: patch_parser.PatchSet) -> list[FinalFile]:
    return [f for f in patch_set.final_files() if unchecked_reason(f) is None]


# A patch file.

def _read_diff_file(value: str) -> str:
    if value == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(value).read_bytes()
        except OSError as err:
            raise InputError(f"{value}: cannot read the patch: {err.strerror}") from err
    if not data.strip():
        raise InputError(f"{'stdin' if value == '-' else value}: the patch is empty; "
                         "there is nothing to check")
    return data.decode(errors="surrogateescape")


def _apply(patch: str, directory: Path, reverse: bool = False) -> bool:
    """Apply (or with REVERSE, test un-applying) the source-file part of PATCH in DIRECTORY."""
    command = ["git", "apply", "--whitespace=nowarn", "--include=*.c", "--include=*.h",
               "--exclude=*"]
    command += ["--reverse", "--check"] if reverse else []
    directory.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(command, input=patch.encode(errors="surrogateescape"),
                          cwd=directory, capture_output=True, check=False,
                          env={"GIT_CEILING_DIRECTORIES": str(directory.parent),
                               "PATH": "/usr/bin:/bin", "HOME": str(directory)})
    return proc.returncode == 0


def _copy_from_tree(tree: Path, paths: list[str], dest: Path) -> bool:
    """Copy each of PATHS from TREE to DEST; False if one is missing.  A
    path that leads out of TREE through a symbolic link is refused, and
    one that cannot be read is an error, not a patch that does not apply."""
    for path in dict.fromkeys(paths):
        try:
            data = scratch.read_inside(tree, path, f"the tree {tree}")
        except (FileNotFoundError, NotADirectoryError):
            return False
        except OSError as err:
            raise InputError(f"{tree / path}: cannot read it: {err.strerror}") from err
        scratch.write_inside(dest, path, data)
    return True


def _post_images_from_tree(patch: str, patch_set: patch_parser.PatchSet,
                           files: list[FinalFile], tree: Path,
                           work: Path) -> dict[str, bytes] | None:
    """The files as PATCH leaves them, when it applies to TREE or is in it already."""
    before, produced = [], set()
    for fp in patch_set.files:
        if (fp.old_path and fp.old_path.endswith(patch_parser.SOURCE_SUFFIXES)
                and fp.old_path not in produced and not fp.binary):
            before.append(fp.old_path)
        if fp.new_path:
            produced.add(fp.new_path)
    after = [f.path for f in patch_set.final_files()
             if f.is_source and not f.deleted and not f.binary and not f.symlink]
    # A mailer's CRLF is undone for a tree with LF files; a patch of CRLF
    # files applies as it is.
    texts = list(dict.fromkeys((patch_parser.without_mail_crlf(patch), patch)))
    for directory, wanted, reverse in ((work / "before", before, False),
                                       (work / "after", after, True)):
        if not _copy_from_tree(tree, wanted, directory):
            continue
        if any(_apply(text, directory, reverse) for text in texts):
            return {f.path: scratch.read_inside(directory, f.path) for f in files}
    return None


def _from_diff_file(value: str, tree: Path | None, work: Path) -> PatchInput:
    text = _read_diff_file(value)
    patch_set = _parse(text)
    files = _wanted(patch_set)
    name = "stdin" if value == "-" else value
    if tree is not None:
        if not tree.is_dir():
            raise InputError(f"{tree}: no such directory")
        images = _post_images_from_tree(text, patch_set, files, tree, work)
        if images is not None:
            return PatchInput(name, text, patch_set, images, False)
        print(f"check: the patch does not apply to {tree}; "
              "checking what the patch itself shows", file=sys.stderr)
    images = {f.path: f.reconstruct().encode(errors="surrogateescape") for f in files}
    return PatchInput(name, text, patch_set, images, True)


# git.

def _from_git(changes: list[Change], repo: Repository) -> list[PatchInput]:
    parsed = [(change, _parse(change.text)) for change in changes]
    wanted = [(change.rev, f.path) for change, patch_set in parsed
              for f in _wanted(patch_set)]
    blobs = repo.blobs(wanted)
    return [PatchInput(change.name, change.text, patch_set,
                       {f.path: blobs[change.rev, f.path] for f in _wanted(patch_set)
                        if (change.rev, f.path) in blobs},
                       False, change.commit, from_git=True)
            for change, patch_set in parsed]


def read_inputs(source: SourceKind, value: str | None, tree: Path | None, work: Path,
                squash: bool = False) -> list[PatchInput]:
    """The patches SOURCE/VALUE names, each with the files it leaves (see
    the module doc): one, or with --git A..B one per commit unless SQUASH.
    WORK is a scratch directory."""
    if source is SourceKind.DIFF:
        return [_from_diff_file(value, tree, work)]
    try:
        repo = Repository(tree or Path.cwd(), work)
        changes = [repo.staged()] if source is SourceKind.STAGED \
            else repo.changes(value, squash)
        return _from_git(changes, repo)
    except GitError as err:
        raise InputError(str(err)) from err

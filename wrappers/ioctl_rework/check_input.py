"""What `check` reads: a patch, and the files as the patch leaves them.

A git range or the staged changes come with their files (read from git's
objects, not the work tree).  A patch file is applied to a copy of --tree
when given (or found already applied there); without a tree, each file is
rebuilt from the lines the patch shows, at their own line numbers, which
is enough for the rules to see every fops and handler the patch adds.
"""

import enum
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import patch_parser
from ioctl_rework.patch_parser import FinalFile


class InputError(Exception):
    """Input check cannot use: a bad revision range, a missing file, no repository."""


class SourceKind(enum.Enum):
    GIT = "git"
    DIFF = "diff"
    STAGED = "staged"


def _git(repo: Path, *args: str, what: str) -> str:
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                          check=False)
    if proc.returncode != 0:
        message = proc.stderr.decode(errors="replace").strip().splitlines()
        raise InputError(what + (f" ({message[0]})" if message else ""))
    return proc.stdout.decode(errors="surrogateescape")


_DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "-M",
                 "--src-prefix=a/", "--dst-prefix=b/")


def _git_toplevel(tree: Path) -> Path:
    if not tree.is_dir():
        raise InputError(f"{tree}: no such directory")
    return Path(_git(tree, "rev-parse", "--show-toplevel",
                     what=f"{tree} is not a git work tree").strip())


def _range_end(repo: Path, rev_range: str) -> tuple[str, str]:
    """The diff of REV_RANGE, and the revision whose files it ends with."""
    if rev_range.startswith("-"):
        raise InputError(f"bad revision range {rev_range!r}")
    for sep in ("...", ".."):
        if sep in rev_range:
            start, end = rev_range.split(sep, 1)
            end = end or "HEAD"
            for rev in (start or "HEAD", end):
                _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}",
                     what=f"bad revision range {rev_range!r}: {rev!r} is not a commit")
            diff = _git(repo, "diff", *_DIFF_OPTIONS, rev_range, "--",
                        what=f"bad revision range {rev_range!r}")
            return diff, end
    _git(repo, "rev-parse", "--verify", "--quiet", f"{rev_range}^{{commit}}",
         what=f"bad revision range {rev_range!r}: not a commit or a range A..B")
    # One commit: its own change, against its first parent (or nothing).
    diff = _git(repo, "diff-tree", "-r", "-p", "--root", "-m", "--first-parent",
                "--no-commit-id", *_DIFF_OPTIONS, rev_range, "--",
                what=f"bad revision {rev_range!r}")
    return diff, rev_range


def _git_blobs(repo: Path, rev: str, paths: list[str]) -> dict[str, bytes]:
    """The contents of PATHS at REV (":" prefix only: the index), in one git process."""
    spec = "".join(f"{rev}:{p}\0" for p in paths).encode(errors="surrogateescape")
    proc = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch", "-z"],
                          input=spec, capture_output=True, check=False)
    if proc.returncode != 0:
        raise InputError(f"cannot read files at {rev or 'the index'}: "
                         f"{proc.stderr.decode(errors='replace').strip()}")
    out, blobs, pos = proc.stdout, {}, 0
    for path in paths:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        pos = end + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            blobs[path] = out[pos:pos + size]
            pos += size + 1
    return blobs


def _read_diff_file(value: str) -> str:
    if value == "-":
        return sys.stdin.buffer.read().decode(errors="surrogateescape")
    try:
        return Path(value).read_bytes().decode(errors="surrogateescape")
    except OSError as err:
        raise InputError(f"{value}: cannot read the patch: {err.strerror}") from err


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
    """Copy each of PATHS from TREE to DEST; False if one is missing."""
    for path in paths:
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(tree / path, target)
        except OSError:
            return False
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
             if f.is_source and not f.deleted and not f.binary]
    for directory, wanted, reverse in ((work / "before", before, False),
                                       (work / "after", after, True)):
        if _copy_from_tree(tree, wanted, directory) and _apply(patch, directory, reverse):
            return {f.path: (directory / f.path).read_bytes() for f in files}
    return None


@dataclass(frozen=True)
class PatchInput:
    name: str                           # what was read, for the summary line
    text: str
    patch_set: patch_parser.PatchSet
    post_images: dict[str, bytes]       # path -> content, for the files to check
    reconstructed: bool                 # from the patch's own lines, no tree


def read_patch(source: SourceKind, value: str | None, tree: Path | None,
               work: Path) -> PatchInput:
    """The patch SOURCE/VALUE names, and the files it leaves (see module doc).
    WORK is a scratch directory."""
    if source is SourceKind.DIFF:
        text = _read_diff_file(value)
        patch_set = patch_parser.parse(text)
        files = [f for f in patch_set.final_files() if unchecked_reason(f) is None]
        images = None
        if tree is not None:
            if not tree.is_dir():
                raise InputError(f"{tree}: no such directory")
            images = _post_images_from_tree(text, patch_set, files, tree, work)
            if images is None:
                print(f"check: the patch does not apply to {tree}; "
                      "checking what the patch itself shows", file=sys.stderr)
        name = "stdin" if value == "-" else value
        if images is None:
            images = {f.path: f.reconstruct().encode(errors="surrogateescape") for f in files}
            return PatchInput(name, text, patch_set, images, True)
        return PatchInput(name, text, patch_set, images, False)
    repo = _git_toplevel(tree or Path.cwd())
    if source is SourceKind.STAGED:
        text = _git(repo, "diff", "--cached", *_DIFF_OPTIONS, "--",
                    what="cannot read the staged changes")
        rev, name = "", "staged changes"
    else:
        text, rev = _range_end(repo, value)
        name = value
    patch_set = patch_parser.parse(text)
    files = [f for f in patch_set.final_files() if unchecked_reason(f) is None]
    images = _git_blobs(repo, rev, [f.path for f in files])
    return PatchInput(name, text, patch_set, images, False)


def unchecked_reason(f: FinalFile) -> str | None:
    """Why F is not checked, or None."""
    if f.deleted:
        return "deleted by the patch"
    if f.binary:
        return "binary file"
    if not f.is_source:
        return "not C source"
    if not f.added and not f.gaps:
        return "no added lines"
    return None

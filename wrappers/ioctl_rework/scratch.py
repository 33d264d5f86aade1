"""File names from an untrusted patch, kept inside the directory they belong to.

check lays the files a patch leaves out in a scratch directory and runs
the rules there, and with --tree it copies files out of the user's tree.
A patch names its files itself: an absolute name, a `..` component, or a
name below a symbolic link (one the patch adds, or one in the tree) could
make a write or a read land outside.  Every name is checked before
anything touches the file system, and every file is opened only where its
real path stays inside its root; otherwise the whole input is refused.
"""

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from ioctl_rework.names import shown


class UnsafePath(Exception):
    """A file name that would lead outside the directory it belongs to."""

    def __init__(self, name: str, reason: str):
        super().__init__(f"{shown(name)}: {reason}")
        self.name = name


def check_name(name: str) -> None:
    """Refuse NAME unless it is a plain relative path."""
    if not name:
        raise UnsafePath("''", "an empty file name in the patch")
    if "\0" in name:
        raise UnsafePath(name, "a file name with a NUL byte in the patch")
    if name.startswith("/"):
        raise UnsafePath(name, "an absolute file name in the patch; "
                               "a patch names files relative to its tree")
    if ".." in name.split("/"):
        raise UnsafePath(name, "a file name in the patch that climbs out of its tree "
                               "with `..`")


def check_names(names: list[str], symlinks: set[str]) -> None:
    """Refuse the input if one of NAMES is unsafe or lies below one of
    SYMLINKS, the names the same input makes symbolic links."""
    for name in names:
        check_name(name)
    for name in names:
        parts = name.split("/")
        for depth in range(1, len(parts)):
            above = "/".join(parts[:depth])
            if above in symlinks:
                raise UnsafePath(name, f"lies below {above}, which the patch makes a "
                                       "symbolic link")


def inside(root: Path, name: str, where: str = "check's scratch directory") -> Path:
    """ROOT/NAME, refused when its real path (through any symbolic link on
    the way) is not inside ROOT's; WHERE names ROOT in the message."""
    check_name(name)
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([real_root, real]) != real_root:
        raise UnsafePath(name, f"resolves through a symbolic link to outside {where}")
    return Path(root) / name


def read_inside(root: Path, name: str, where: str = "check's scratch directory") -> bytes:
    """The bytes of ROOT/NAME, read only if it stays inside ROOT."""
    with open(inside(root, name, where), "rb") as handle:
        return handle.read()


def write_inside(root: Path, name: str, data: bytes) -> None:
    """Create ROOT/NAME with DATA.  The file must not exist yet and its
    directories must stay inside ROOT, so nothing outside is ever written."""
    target = inside(root, name)
    target.parent.mkdir(parents=True, exist_ok=True)
    inside(root, name)          # a directory made just now is still a directory
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


@contextmanager
def temporary_files_in(directory: Path):
    """Within the block, temporary files of this process (tempfile) and of
    its children (TMPDIR: spatch, git, gcc) go under DIRECTORY, which the
    caller removes: nothing is left behind elsewhere."""
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir = os.environ["TMPDIR"] = str(directory)
    try:
        yield
    finally:
        tempfile.tempdir = saved[0]
        if saved[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved[1]

"""Writing source files in place so that each is always either old or new.

A file is written to a temporary file in its own directory, flushed to
disk, and renamed over the original, so a reader (or a crash) sees the old
bytes or the new ones, never a mixture.  Several files that must change
together go through a Transaction: every new file is staged first, then a
journal line says COMMIT, then the renames happen.  A run killed before
COMMIT leaves only old files (the staged ones are removed by recover()); a
run killed after it is completed by recover() on the next run.

An output that is not a regular file (/dev/null, a FIFO, a terminal,
/dev/stdout) is written where it is, never replaced: renaming over a
device would turn it into a file, and nothing is created beside it.
"""

import errno
import fcntl
import json
import os
import re
import stat
import sys
from pathlib import Path

JOURNAL_NAME = ".ioctl-rework-journal"
TEMP_SUFFIX = ".ioctl-rework-tmp"
_COMMIT = "COMMIT"
_CHUNK = 1 << 16


class WriteError(Exception):
    """A file that was not written; the message says which and why."""

    def __init__(self, path: Path, message: str):
        super().__init__(f"{path}: {message}")
        self.path = Path(path)
        self.message = message


class ReadOnlyFile(WriteError):
    """The file (or its directory) does not allow writing."""


class SymlinkOutsideTree(WriteError):
    """A symlink whose target lies outside the tree being converted."""


class DiskFull(WriteError):
    """The device ran out of space (or quota) while the file was written."""


def checked_target(path: Path, root: Path | None) -> Path:
    """The real file that writing PATH would change, refusing to leave ROOT.

    A symlink is followed only when its target is inside ROOT; the link
    itself is kept and its target is rewritten.
    """
    path = Path(path)
    real = Path(os.path.realpath(path))
    if root is not None:
        real_root = Path(os.path.realpath(root))
        if real != real_root and real_root not in real.parents:
            kind = SymlinkOutsideTree if _any_symlink(path) else WriteError
            raise kind(path, f"resolves to {real}, outside the tree {real_root}; not written")
    # Mode bits too: root may write anything, but a read-only file says "keep out".
    if real.exists() and (not os.access(real, os.W_OK) or not real.stat().st_mode & 0o222):
        raise ReadOnlyFile(path, "the file is read-only; not written "
                                 "(make it writable or leave it out)")
    if not os.access(real.parent, os.W_OK | os.X_OK):
        raise ReadOnlyFile(path, f"its directory {real.parent} is not writable; not written")
    return real


def _any_symlink(path: Path) -> bool:
    path = Path(os.path.abspath(path))
    return any(p.is_symlink() for p in (path, *path.parents))


def _error(path: Path, err: OSError) -> WriteError:
    if err.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return DiskFull(path, f"{os.strerror(err.errno)} while writing; the file is unchanged")
    if err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ReadOnlyFile(path, f"{os.strerror(err.errno)}; the file is unchanged")
    return WriteError(path, f"{err.strerror or err}; the file is unchanged")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:_CHUNK])
        view = view[written:]


def _umask() -> int:
    """The process's umask, read without changing it (Linux 4.7+), or by
    setting and restoring it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def temp_name(target: Path) -> Path:
    """Where the next content of TARGET is staged (one per process)."""
    return target.parent / f".{target.name}.{os.getpid()}{TEMP_SUFFIX}"


def stage(path: Path, data: bytes, root: Path | None = None,
          target: Path | None = None) -> tuple[Path, Path]:
    """Write DATA next to PATH as a durable temporary file; return (temp, target).

    The temporary file has PATH's mode (and owner, when we may set it).
    TARGET, when given, is PATH already checked by checked_target().
    """
    target = target or checked_target(path, root)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    tmp = temp_name(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        try:
            fd = os.open(tmp, flags, 0o600)
        except FileExistsError:
            os.unlink(tmp)  # left by a killed process that had our pid
            fd = os.open(tmp, flags, 0o600)
    except OSError as err:
        raise _error(path, err) from err
    try:
        try:
            _write_all(fd, data)
            if st is not None:
                os.fchmod(fd, st.st_mode & 0o7777)
                try:
                    os.fchown(fd, st.st_uid, st.st_gid)
                except PermissionError:
                    pass
            else:
                # A new file gets what open(2) would give it, not the
                # temporary file's 0600.
                os.fchmod(fd, 0o666 & ~_umask())
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as err:
        _unlink_quietly(Path(tmp))
        raise _error(path, err) from err
    return Path(tmp), target


# The names of a descriptor of this process: what the shell opened for it.
_OWN_DESCRIPTOR = re.compile(r"/dev/(?:(?P<std>stdout|stderr)|fd/(?P<fd>\d+))"
                             r"|/proc/(?:self|thread-self|(?P<pid>\d+))/fd/(?P<pfd>\d+)")
_STANDARD = {"stdout": 1, "stderr": 2}


def own_descriptor(path: Path) -> int | None:
    """The descriptor PATH names (/dev/stdout, /dev/fd/3, /proc/self/fd/1), or None."""
    match = _OWN_DESCRIPTOR.fullmatch(os.path.normpath(os.path.abspath(path)))
    if not match or (match["pid"] and int(match["pid"]) != os.getpid()):
        return None
    return _STANDARD[match["std"]] if match["std"] else int(match["fd"] or match["pfd"])


def is_special(path: Path) -> bool:
    """Whether PATH names something that is written where it is, not
    replaced: a descriptor of this process, or an existing file that is
    not a regular one (a device, a FIFO, a socket)."""
    if own_descriptor(path) is not None:
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def check_output(path: Path) -> None:
    """Refuse now, before any work, an output PATH that cannot be written:
    a directory, a missing or read-only directory, a read-only file."""
    path = Path(path)
    fd = own_descriptor(path)
    if fd is not None:
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError as err:
            raise WriteError(path, f"not an open descriptor here: {err.strerror}") from err
        if flags & os.O_ACCMODE == os.O_RDONLY:
            raise ReadOnlyFile(path, "the descriptor is open for reading only")
        return
    if os.path.isdir(path):
        raise WriteError(path, "is a directory; name a file")
    if is_special(path):
        if not os.access(path, os.W_OK):
            raise ReadOnlyFile(path, "not writable")
        return
    real = Path(os.path.realpath(path))
    if not real.parent.is_dir():
        raise WriteError(path, f"no such directory: {real.parent}")
    checked_target(path, None)


def check_output_dir(path: Path) -> None:
    """Refuse now an output directory PATH (a series) that cannot be made
    or written: a file, or no writable directory where it would be made."""
    path = Path(os.path.abspath(path))
    existing = next(p for p in (path, *path.parents) if os.path.lexists(p))
    if not existing.is_dir():
        raise WriteError(path, f"{existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ReadOnlyFile(path, f"{existing} is not writable")


def _write_in_place(path: Path, data: bytes) -> None:
    """DATA into PATH, a descriptor of ours or a file that is not a regular one."""
    fd = own_descriptor(path)
    try:
        if fd is not None:
            # What was printed before goes first.
            sys.stdout.flush()
            sys.stderr.flush()
            _write_all(fd, data)
            return
        # No O_CREAT, no O_TRUNC: it exists, and a device or FIFO is never
        # truncated or made a file; a FIFO waits here for its reader.
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as err:
        raise _error(path, err) from err


def write_atomic(path: Path, data: bytes, root: Path | None = None) -> None:
    """Replace PATH's content with DATA in one step (temp file, fsync, rename).
    A PATH that is not a regular file (a device, a FIFO, /dev/stdout) is
    written where it is: a rename would replace it."""
    if is_special(path):
        if root is not None:
            checked_target(path, root)
        _write_in_place(Path(path), data)
        return
    tmp, target = stage(path, data, root)
    try:
        os.replace(tmp, target)
    except OSError as err:
        _unlink_quietly(tmp)
        raise _error(path, err) from err
    _fsync_dir(target.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Transaction:
    """Files under ROOT that change together: all of them, or none.

    Use stage() for each file, then commit().  Leaving the `with` block
    without commit() (an exception, Ctrl-C) removes what was staged.
    """

    def __init__(self, root: Path):
        self.root = Path(root)
        self.journal = self.root / JOURNAL_NAME
        self._staged: list[tuple[Path, Path]] = []
        self._fd: int | None = None

    def __enter__(self) -> "Transaction":
        recover(self.root)
        try:
            self._fd = os.open(self.journal, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        except OSError as err:
            raise _error(self.journal, err) from err
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            recover(self.root)

    def _log(self, line: str) -> None:
        try:
            _write_all(self._fd, (line + "\n").encode("utf-8", "surrogateescape"))
            os.fsync(self._fd)
        except OSError as err:
            raise _error(self.journal, err) from err

    def stage(self, path: Path, data: bytes) -> None:
        target = checked_target(path, self.root)
        # Logged before it exists, so that a crash never leaves an unlisted temp.
        self._log(json.dumps([str(temp_name(target)), str(target)]))
        self._staged.append(stage(path, data, target=target))

    def commit(self) -> None:
        """Make every staged file current.  After COMMIT is on disk, a crash is
        completed by the next recover()."""
        self._log(_COMMIT)
        _finish(self._staged, roll_forward=True)
        os.close(self._fd)
        self._fd = None
        _unlink_quietly(self.journal)


def _finish(entries: list[tuple[Path, Path]], roll_forward: bool) -> list[Path]:
    done = []
    for tmp, target in entries:
        if not os.path.lexists(tmp):
            continue  # renamed before the interruption
        if roll_forward:
            os.replace(tmp, target)
            done.append(target)
        else:
            _unlink_quietly(tmp)
    for directory in sorted({t.parent for _, t in entries}):
        _fsync_dir(directory)
    return done


def recover(root: Path) -> list[Path]:
    """Finish or undo a transaction that a killed run left under ROOT.

    Returns the files that were completed (made new).
    """
    journal = Path(root) / JOURNAL_NAME
    try:
        lines = journal.read_bytes().decode("utf-8", "surrogateescape").split("\n")
    except FileNotFoundError:
        return []
    entries, committed = [], False
    for line in lines:
        if line == _COMMIT:
            committed = True
        elif line:
            try:
                tmp, target = json.loads(line)
            except ValueError:
                continue  # a line cut short by the crash: its file was never staged fully
            entries.append((Path(tmp), Path(target)))
    done = _finish(entries, roll_forward=committed)
    _unlink_quietly(journal)
    return done

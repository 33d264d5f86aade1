"""Scratch directories that a later run removes when their run died.

A command removes its scratch directory when it ends, on SIGINT and
SIGTERM, and (through the watchdog of children.py) after SIGKILL.  When
the watchdog is killed too (the OOM killer, `kill -9` of every process of
the user), nothing is left to remove it.  So each scratch directory names
its owner, the process id and its start time (a pid alone may have been
reused), and every new one first removes those of the same prefix whose
owner is gone.  Default-deny: a directory without a readable owner record,
of another user, or whose owner still runs is left alone.
"""

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

OWNER = ".ioctl-rework-owner"


def _start_time(pid: int) -> str | None:
    """PID's start time in clock ticks since boot (field 22 of
    /proc/PID/stat), or None when no such process runs."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(") ", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19] if len(fields) > 19 and fields[0] != "Z" else None


def owner_gone(directory: Path) -> bool:
    """True only when DIRECTORY is ours and its owner record names a
    process that no longer runs."""
    try:
        if directory.is_symlink() or directory.stat().st_uid != os.getuid():
            return False
        pid_text, started = (directory / OWNER).read_text().split()
        pid = int(pid_text)
    except (OSError, ValueError):
        return False
    return _start_time(pid) != started


def sweep(prefix: str, parent: Path | None = None) -> list[Path]:
    """Remove the scratch directories PREFIX* of PARENT (the temporary
    directory) whose run died; the ones removed."""
    parent = Path(parent or tempfile.gettempdir())
    removed = []
    try:
        entries = list(parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if entry.name.startswith(prefix) and owner_gone(entry):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


@contextmanager
def owned_directory(prefix: str, parent: Path | None = None):
    """A temporary directory PREFIX* that names this process as its owner,
    removed when the block ends; stale ones of earlier runs go first."""
    sweep(prefix, parent)
    with tempfile.TemporaryDirectory(prefix=prefix, dir=parent) as tmp:
        (Path(tmp) / OWNER).write_text(f"{os.getpid()} {_start_time(os.getpid())}\n")
        yield tmp

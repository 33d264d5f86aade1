"""Child processes that stop when the command is stopped.

A check runs several spatch, git and gcc processes at once, each in its own
process group (a spatch is killed with everything it started when its time
is up).  A terminal's Ctrl-C reaches only the foreground group, so without
help an interrupted command would wait for every child, or leave them
running after SIGTERM.  Every child a command starts through popen() or
run() is registered here; under stop_on_signals(), SIGINT or SIGTERM kills
all of them at once, no new one starts, and the signal becomes a Stopped
exception in the main thread, so that the `with` blocks around it (the
scratch directory) unwind.

SIGKILL cannot be caught: a watchdog process (started with the first
child, in a session of its own) is told of every child's process group
and of the scratch directories, and when its pipe from the command
closes, the command is gone: it kills the groups still listed and
removes the directories.  A command that ends normally has released
both, so the watchdog then does nothing.
"""

import os
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_lock = threading.RLock()
_running: set[subprocess.Popen] = set()
_stopping: int | None = None
_watchdog: int | None = None            # the write end of the watchdog's pipe

# The watchdog's program: "+ PGID" / "- PGID" and "d HEX" / "u HEX" (a
# directory's name, hex) add and remove; end of input kills and removes.
_WATCHDOG = """
import os, shutil, signal
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
groups, dirs, rest = set(), set(), b""
while True:
    data = os.read(0, 65536)
    if not data:
        break
    *lines, rest = (rest + data).split(b"\\n")
    for line in lines:
        op, _, arg = line.decode().partition(" ")
        if op in "+-":
            (groups.add if op == "+" else groups.discard)(int(arg))
        else:
            (dirs.add if op == "d" else dirs.discard)(os.fsdecode(bytes.fromhex(arg)))
for group in groups:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
for directory in dirs:
    shutil.rmtree(directory, ignore_errors=True)
"""


def _tell(message: str) -> None:
    """Tell the watchdog MESSAGE, starting it first; called with _lock held."""
    global _watchdog
    if _watchdog is None:
        read, write = os.pipe()
        try:
            subprocess.Popen([sys.executable, "-I", "-S", "-c", _WATCHDOG], stdin=read,
                             stdout=subprocess.DEVNULL, start_new_session=True)
        except OSError:
            os.close(write)
            return                      # no watchdog: SIGINT and SIGTERM still work
        finally:
            os.close(read)
        _watchdog = write
    try:
        os.write(_watchdog, (message + "\n").encode())
    except OSError:
        pass


@contextmanager
def removed_if_killed(directory):
    """Within the block, DIRECTORY is removed by the watchdog if the
    command is killed (the block's own exit removes it otherwise)."""
    name = os.fsencode(os.path.abspath(directory)).hex()
    with _lock:
        _tell("d " + name)
    try:
        yield directory
    finally:
        with _lock:
            _tell("u " + name)


class Stopped(BaseException):
    """The command got SIGNUM and is stopping; not an Exception, so that no
    `except Exception` on the way takes it for a failure to carry on after."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def popen(args, **kwargs) -> subprocess.Popen:
    """subprocess.Popen(ARGS) in a process group of its own, registered.
    Signals are held while it starts, so a child is never started but not
    yet registered when the handler runs."""
    kwargs.setdefault("start_new_session", True)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        with _lock:
            if _stopping is not None:
                raise Stopped(_stopping)
            proc = subprocess.Popen(args, **kwargs)
            _running.add(proc)
            if kwargs["start_new_session"]:
                _tell(f"+ {proc.pid}")
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return proc


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def release(proc: subprocess.Popen) -> None:
    """PROC has been waited for: forget it."""
    with _lock:
        if proc in _running:
            _running.discard(proc)
            _tell(f"- {proc.pid}")


def run(args, *, input=None, capture_output=False, stdout=None, stderr=None, cwd=None,
        env=None, timeout=None, text=False, errors=None,
        check=False) -> subprocess.CompletedProcess:
    """subprocess.run() for a registered child.  On a timeout the child's
    whole process group is killed (subprocess.run kills the child alone)."""
    if capture_output:
        stdout = stderr = subprocess.PIPE
    proc = popen(args, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                 stdout=stdout, stderr=stderr, cwd=cwd, env=env,
                 text=text or errors is not None, errors=errors)
    try:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            raise
        except BaseException:
            _kill(proc)
            proc.wait()
            raise
    finally:
        release(proc)
    result = subprocess.CompletedProcess(args, proc.returncode, out, err)
    if check:
        result.check_returncode()
    return result


def kill_all() -> None:
    with _lock:
        for proc in list(_running):
            _kill(proc)


def _handler(signum, frame):
    global _stopping
    first = _stopping is None
    _stopping = signum if first else _stopping
    kill_all()
    if first:           # a second signal must not break the unwinding of the first
        raise Stopped(signum)


@contextmanager
def stop_on_signals():
    """Within the block, SIGINT and SIGTERM kill every registered child and
    raise Stopped in the main thread.  Elsewhere than in the main thread
    (a test calling a command's function) signals are left as they are."""
    global _stopping
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _handler) for s in _SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _stopping = None

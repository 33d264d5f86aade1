"""Real git repositories in temporary directories, for the check and hook tests.

No test cases here: the helpers are shared by test_check*.py and test_hook.py.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

WRAPPERS = Path(__file__).resolve().parents[1]
ENTRY = WRAPPERS / "ioctl-rework"
DATA = Path(__file__).resolve().parent / "test_data" / "check"

# Commits made by tests must not read the user's git configuration or hooks.
GIT_ENV = {
    # A file that is not there reads as an empty configuration (os.devnull
    # too, unless someone on the machine has turned it into a file).
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/nonexistent/ioctl-rework-test-gitconfig",
    "GIT_AUTHOR_NAME": "Check Test", "GIT_AUTHOR_EMAIL": "check@example.org",
    "GIT_COMMITTER_NAME": "Check Test", "GIT_COMMITTER_EMAIL": "check@example.org",
    "GIT_AUTHOR_DATE": "2005-01-16 12:00:00 +0000",
    "GIT_COMMITTER_DATE": "2005-01-16 12:00:00 +0000",
}


# The options that say which kernel's headers check reads outside a tree.
KERNEL_OPTIONS = ("--kernel-headers", "--kdir", "--no-kernel-headers")


class GitRepo:
    """A throwaway repository; `with GitRepo() as repo:` removes it afterwards."""

    def __init__(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ioctl-rework-test.")
        self.path = Path(self._tmp.name) / "tree"
        self.path.mkdir()
        self.git("init", "-q", "-b", "main")

    def __enter__(self) -> "GitRepo":
        return self

    def __exit__(self, *exc) -> None:
        self._tmp.cleanup()

    @property
    def env(self) -> dict:
        return {**os.environ, **GIT_ENV}

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=self.path, env=self.env, text=True,
                              capture_output=True, check=check)

    def write(self, relpath: str, text: str | bytes) -> Path:
        path = self.path / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        return path

    def commit(self, message: str, files: dict[str, str | bytes]) -> str:
        """Write FILES ({relpath: text}), commit everything, return the commit id."""
        for name, text in files.items():
            self.write(name, text)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").stdout.strip()

    def run_cli(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        """`ioctl-rework ARGS` in the repository, as a user would run it.  The
        repository is no kernel tree: check runs there without a kernel's
        headers (--no-kernel-headers) unless ARGS name a kernel; the tests of
        that refusal are test_kernel_headers'."""
        if args[:1] == ("check",) and not set(args) & set(KERNEL_OPTIONS):
            args = ("check", "--no-kernel-headers", *args[1:])
        return subprocess.run([sys.executable, str(ENTRY), *args], cwd=self.path,
                              env=self.env, text=True, input=stdin, capture_output=True,
                              check=False, timeout=600)


def fixture(name: str) -> str:
    return (DATA / name).read_text()

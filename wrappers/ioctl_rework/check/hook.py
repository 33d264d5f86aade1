"""`ioctl-rework check --install-hook`: a git pre-commit hook that runs
`check --staged`, so a commit that adds a legacy ioctl never gets made.

An existing hook is never overwritten.  A plain executable hook is kept,
renamed, and run first by ours (chained); anything else (a symlink into a
hook manager, a non-executable file, a previous chain) is left alone and
the user is told what to add by hand.

The hook runs the installed entry point, the way a shell finds it at
commit time: `ioctl-rework` on PATH, else `PYTHON -m ioctl_rework`; only a
clone that is installed neither way is run by the path of its script.
"""

import functools
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import paths

HOOK_NAME = "pre-commit"
CHAINED_SUFFIX = ".before-ioctl-rework"
MARKER = "# installed by: ioctl-rework check --install-hook"
COMMAND = "ioctl-rework"


@dataclass(frozen=True)
class EntryPoint:
    """The command the hook runs, and how it was chosen."""

    argv: tuple[str, ...]
    note: str = ""             # said after installing, when the choice has a cost

    def shell(self) -> str:
        return shlex.join(self.argv)


def _imports_this_package(python: str, package: Path) -> bool:
    """Whether PYTHON, started as the hook will start it, imports PACKAGE."""
    probe = "import ioctl_rework, os; print(os.path.dirname(ioctl_rework.__file__))"
    try:
        proc = subprocess.run([python, "-c", probe], capture_output=True, text=True,
                              cwd="/", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and Path(proc.stdout.strip()).resolve() == package.resolve()


def find_entry_point(layout: paths.Layout, which=shutil.which,
                     python: str = sys.executable) -> EntryPoint:
    script = layout.package.parent / COMMAND      # a clone's or make install's script
    on_path = which(COMMAND)
    if on_path and script.exists() and Path(on_path).resolve() == script.resolve():
        return EntryPoint((COMMAND,))
    if _imports_this_package(python, layout.package):
        return EntryPoint((python, "-m", "ioctl_rework"))
    if script.exists():
        note = ""
        if layout.install is paths.Install.CLONE:
            note = (f"the hook runs this clone's {script.name} script; install ioctl-rework "
                    "(make install, or pip) so that it does not depend on the clone")
        return EntryPoint((str(script),), note)
    if on_path:
        return EntryPoint((COMMAND,))
    raise HookError(f"cannot tell how to run ioctl-rework from a hook: `{COMMAND}` is not on "
                    f"PATH and {python} does not import {layout.package}")


@functools.cache
def entry_point() -> EntryPoint:
    return find_entry_point(paths.layout())


def __getattr__(name: str):
    # ENTRY_SCRIPT: the hook's command as shell text, looked up when asked for.
    if name == "ENTRY_SCRIPT":
        return entry_point().shell()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class HookError(Exception):
    """The hook cannot be installed; the message says why and what to do."""


@dataclass(frozen=True)
class Installed:
    path: Path
    chained: Path | None       # the previous hook, now run first by ours
    already: bool = False      # ours was there already; nothing changed

    def describe(self) -> str:
        if self.already:
            return f"the ioctl-rework pre-commit hook is already installed: {self.path}"
        text = f"installed the ioctl-rework pre-commit hook: {self.path}"
        if self.chained:
            text += f"\nthe previous hook was moved to {self.chained} and still runs first"
        if entry_point().note:
            text += f"\nnote: {entry_point().note}"
        return text + "\nbypass it once with `git commit --no-verify`"


def check_command(kernel: tuple[str, ...] = ()) -> str:
    """The hook's command; KERNEL, the options that name the kernel whose
    headers check reads outside a kernel tree (--kernel-headers DIR, ...)."""
    return " ".join([f"{entry_point().shell()} check --staged", *map(shlex.quote, kernel)])


def hook_text(chained: Path | None, kernel: tuple[str, ...] = ()) -> str:
    lines = ["#!/bin/sh", MARKER,
             "# Refuses a commit whose staged changes add legacy .ioctl code;",
             "# bypass once with `git commit --no-verify`."]
    if chained:
        lines += [f'{shlex.quote(str(chained))} "$@" || exit $?']
    lines += [f"exec {check_command(kernel)}", ""]
    return "\n".join(lines)


def hooks_dir(repo: Path) -> Path:
    """The repository's hooks directory, honouring core.hooksPath."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-path", "hooks"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise HookError(f"{repo} is not a git work tree: {proc.stderr.strip()}")
    path = Path(proc.stdout.strip())
    return path if path.is_absolute() else (repo / path)


def install(repo: Path, kernel: tuple[str, ...] = ()) -> Installed:
    """The hook installed in REPO, running check with the options KERNEL."""
    hooks = hooks_dir(repo)
    hook = hooks / HOOK_NAME
    chained = None
    if hook.is_symlink():
        raise HookError(f"{hook} is a symlink (a hook manager?); not touching it. "
                        f"Add this line to the hook it runs:\n  {check_command(kernel)}")
    if hook.exists():
        text = hook.read_text(errors="replace")
        if MARKER in text:
            return Installed(hook, None, already=True)
        chained = hook.with_name(HOOK_NAME + CHAINED_SUFFIX)
        if not os.access(hook, os.X_OK) or not hook.is_file():
            raise HookError(f"{hook} exists but is not an executable file; git would not "
                            f"run it, and neither would a chain. Fix it or add this line "
                            f"to it:\n  {check_command(kernel)}")
        if chained.exists() or chained.is_symlink():
            raise HookError(f"{hook} exists and {chained} too; not overwriting either. "
                            f"Add this line to {hook}:\n  {check_command(kernel)}")
    hooks.mkdir(parents=True, exist_ok=True)
    temp = hooks / f".{HOOK_NAME}.ioctl-rework.tmp"
    temp.write_text(hook_text(chained, kernel))
    temp.chmod(0o755)
    if chained:
        # Two renames: the old hook is never gone, and ours never half-written.
        os.rename(hook, chained)
    os.replace(temp, hook)
    return Installed(hook, chained)

"""`ioctl-rework check --install-hook`: a git pre-commit hook that runs
`check --staged`, so a commit that adds a legacy ioctl never gets made.

An existing hook is never overwritten.  A plain executable hook is kept,
renamed, and run first by ours (chained); anything else (a symlink into a
hook manager, a non-executable file, a previous chain) is left alone and
the user is told what to add by hand.
"""

import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

HOOK_NAME = "pre-commit"
CHAINED_SUFFIX = ".before-ioctl-rework"
MARKER = "# installed by: ioctl-rework check --install-hook"
ENTRY_SCRIPT = Path(__file__).resolve().parents[1] / "ioctl-rework"


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
        return text + "\nbypass it once with `git commit --no-verify`"


def check_command() -> str:
    return f"{shlex.quote(str(ENTRY_SCRIPT))} check --staged"


def hook_text(chained: Path | None) -> str:
    lines = ["#!/bin/sh", MARKER,
             "# Refuses a commit whose staged changes add legacy .ioctl code;",
             "# bypass once with `git commit --no-verify`."]
    if chained:
        lines += [f'{shlex.quote(str(chained))} "$@" || exit $?']
    lines += [f"exec {check_command()}", ""]
    return "\n".join(lines)


def hooks_dir(repo: Path) -> Path:
    """The repository's hooks directory, honouring core.hooksPath."""
    proc = subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-path", "hooks"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise HookError(f"{repo} is not a git work tree: {proc.stderr.strip()}")
    path = Path(proc.stdout.strip())
    return path if path.is_absolute() else (repo / path)


def install(repo: Path) -> Installed:
    hooks = hooks_dir(repo)
    hook = hooks / HOOK_NAME
    chained = None
    if hook.is_symlink():
        raise HookError(f"{hook} is a symlink (a hook manager?); not touching it. "
                        f"Add this line to the hook it runs:\n  {check_command()}")
    if hook.exists():
        text = hook.read_text(errors="replace")
        if MARKER in text:
            return Installed(hook, None, already=True)
        chained = hook.with_name(HOOK_NAME + CHAINED_SUFFIX)
        if not os.access(hook, os.X_OK) or not hook.is_file():
            raise HookError(f"{hook} exists but is not an executable file; git would not "
                            f"run it, and neither would a chain. Fix it or add this line "
                            f"to it:\n  {check_command()}")
        if chained.exists() or chained.is_symlink():
            raise HookError(f"{hook} exists and {chained} too; not overwriting either. "
                            f"Add this line to {hook}:\n  {check_command()}")
    hooks.mkdir(parents=True, exist_ok=True)
    temp = hooks / f".{HOOK_NAME}.ioctl-rework.tmp"
    temp.write_text(hook_text(chained))
    temp.chmod(0o755)
    if chained:
        # Two renames: the old hook is never gone, and ours never half-written.
        os.rename(hook, chained)
    os.replace(temp, hook)
    return Installed(hook, chained)

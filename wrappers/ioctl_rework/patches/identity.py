"""Who a series is from: the author git itself would put on a commit.

`git var GIT_AUTHOR_IDENT` reads GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL, the
tree's and the user's git config, EMAIL, and refuses as `git commit`
does when none of them says who the user is.  A series is never sent in
the name of a placeholder.
"""

import email.utils
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

# "Name <email> 1700000000 +0100"
_IDENT = re.compile(r"^(?P<name>.*?) <(?P<email>[^<>]*)> \d+ [+-]\d{4}$")


class IdentityError(Exception):
    """No identity to write the series as."""


@dataclass(frozen=True)
class Identity:
    name: str
    email: str

    def __str__(self) -> str:
        return email.utils.formataddr((self.name, self.email))


def git_identity(tree: Path | None = None) -> Identity:
    """The author `git commit` would record in TREE (or the current directory)."""
    where = tree if tree is not None and Path(tree).is_dir() else None
    try:
        proc = subprocess.run(["git", "var", "GIT_AUTHOR_IDENT"], capture_output=True,
                              text=True, cwd=where, check=False)
    except OSError as err:
        raise IdentityError(f"git is needed to write a series: {err.strerror}") from err
    match = _IDENT.match(proc.stdout.strip())
    if proc.returncode != 0 or not match or not match["name"] or not match["email"]:
        said = [line for line in proc.stderr.splitlines() if line.startswith("fatal:")]
        raise IdentityError(
            "no author for the series: set your name and email as for a commit "
            "(git config --global user.name \"Your Name\"; git config --global user.email "
            "you@example.com; or GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)"
            + (f"; git says: {said[-1][len('fatal: '):]}" if said else ""))
    return Identity(match["name"], match["email"])

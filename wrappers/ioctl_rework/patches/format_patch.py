"""A series as git itself writes it: scratch commits, then `git format-patch`.

The commits start from the converted files as the tree holds them (or as
they were, when the tree was converted in place), so every hunk header
names its function (the cpp diff driver, which the kernel's .gitattributes
asks for too), the diffstat and the cover letter's shortlog are git's, and
`git am` takes the mails on the original tree.  The user's git config is
not read in the scratch repository: format.*, diff.noprefix or
apply.whitespace would change what is written.
"""

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import scratch
from ioctl_rework.patches.identity import Identity

ATTRIBUTES = "*.c diff=cpp\n*.h diff=cpp\n"
BRANCH = "series"


class FormatPatchError(Exception):
    """The series cannot be made: the tree does not hold the converted files, or git failed."""


@dataclass(frozen=True)
class FileDiff:
    """One file's git-style diff (a/PATH b/PATH), PATH relative to the tree."""

    path: str
    diff: str


@dataclass(frozen=True)
class Commit:
    subject: str
    body: str                       # the message after the subject, trailers included
    files: tuple[FileDiff, ...]     # applied in this commit


@dataclass(frozen=True)
class Cover:
    subject: str
    blurb: str


def mails(tree: Path, commits: list[Commit], cover: Cover, author: Identity, date: str,
          signature: str) -> dict[str, str]:
    """File name -> text of every mail (0000-cover-letter.patch first), for
    COMMITS applied in order to TREE's files.  DATE is git's "@EPOCH +HHMM"."""
    if not commits:
        return {}
    with tempfile.TemporaryDirectory(prefix="ioctl-rework-series.") as tmp:
        repo = _Repo(Path(tmp) / "repo", author, date)
        repo.start(Path(tree), [r for c in commits for r in c.files])
        for commit in commits:
            repo.commit(commit)
        return repo.format_patch(cover, signature, Path(tmp) / "out")


class _Repo:
    def __init__(self, path: Path, author: Identity, date: str):
        self.path = path
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        self.env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C",
                        GIT_AUTHOR_NAME=author.name, GIT_AUTHOR_EMAIL=author.email,
                        GIT_COMMITTER_NAME=author.name, GIT_COMMITTER_EMAIL=author.email,
                        GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        self.git("init", "-q", "-b", BRANCH, str(path), cwd=path.parent)
        (path / ".git" / "info").mkdir(exist_ok=True)
        (path / ".git" / "info" / "attributes").write_text(ATTRIBUTES)
        self.base = ""

    def git(self, *args: str, cwd: Path | None = None) -> str:
        try:
            proc = subprocess.run(["git", *args], cwd=cwd or self.path, env=self.env,
                                  capture_output=True, check=False)
        except OSError as err:
            raise FormatPatchError(f"git is needed to write a series: {err.strerror}") from err
        if proc.returncode != 0:
            raise FormatPatchError(f"git {args[0]} failed: "
                                   + proc.stderr.decode(errors="replace").strip()[-500:])
        return proc.stdout.decode("utf-8", "surrogateescape")

    def _applies(self, diff: Path, *flags: str) -> bool:
        proc = subprocess.run(["git", "apply", "--check", *flags, str(diff)], cwd=self.path,
                              env=self.env, capture_output=True, check=False)
        return proc.returncode == 0

    def _diff_file(self, diffs: list[FileDiff], name: str) -> Path:
        path = self.path.parent / name
        path.write_bytes("".join(d.diff for d in diffs).encode("utf-8", "surrogateescape"))
        return path

    def start(self, tree: Path, diffs: list[FileDiff]) -> None:
        """The first commit: each file as it was before the run."""
        if not tree.is_dir():
            raise FormatPatchError(f"{tree}: no such directory; the series is made from the "
                                   "files of the tree the run converted (pass --tree DIR)")
        for one in diffs:
            if one.path.split("/")[0] == ".git":
                raise FormatPatchError(f"{one.path}: a series does not change git's own files")
            try:
                data = scratch.read_inside(tree, one.path, str(tree))
            except (OSError, scratch.UnsafePath) as err:
                raise FormatPatchError(f"{tree}: cannot read {one.path}, which the run "
                                       f"converted: {getattr(err, 'strerror', err)}") from err
            scratch.write_inside(self.path, one.path, data)
        if not self._applies(self._diff_file(diffs, "all.diff")):
            for one in diffs:
                self._put_back(tree, one)
        self.git("add", "-A")
        self.git("commit", "-q", "--no-verify", "-m", "before the conversion")
        self.base = self.git("rev-parse", "HEAD").strip()

    def _put_back(self, tree: Path, one: FileDiff) -> None:
        """ONE's file as it was before the run, from the converted one if need be."""
        diff = self._diff_file([one], "one.diff")
        if self._applies(diff):
            return
        if self._applies(diff, "-R"):
            self.git("apply", "-R", str(diff))
            return
        raise FormatPatchError(f"{tree}: {one.path} is neither the file the run read nor "
                               "the file it made; write the series from the tree the run "
                               "converted (--tree DIR)")

    def commit(self, commit: Commit) -> None:
        self.git("apply", str(self._diff_file(list(commit.files), "commit.diff")))
        self.git("add", "-A")
        message = self.path.parent / "message"
        message.write_text(f"{commit.subject}\n\n{commit.body}\n", encoding="utf-8",
                           errors="surrogateescape")
        self.git("commit", "-q", "--no-verify", "--cleanup=whitespace", "-F", str(message))

    def format_patch(self, cover: Cover, signature: str, out: Path) -> dict[str, str]:
        self.git("config", f"branch.{BRANCH}.description", f"{cover.subject}\n\n{cover.blurb}")
        self.git("format-patch", "-q", "--cover-letter", "--cover-from-description=subject",
                 "--numbered", "--zero-commit", f"--signature={signature}", "-o", str(out),
                 f"{self.base}..HEAD")
        return {p.name: p.read_bytes().decode("utf-8", "surrogateescape")
                for p in sorted(out.glob("*.patch"))}

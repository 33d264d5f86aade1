"""What `check` reads from git: a commit, a range commit by commit or as
one diff, the staged changes, and the files as each of them leaves them
(from git's objects, never the work tree).

git calls a file binary when it holds a NUL byte, and then shows none of
its lines; a C file with a stray NUL in a comment still compiles, so C
sources are always diffed as text: git's C diff driver, set for *.c and
*.h through an attributes file of our own, told never to call them binary
(it also names the function a hunk is in without taking labels for one).
"""

from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import children


class GitError(Exception):
    """A bad revision or range, a missing repository, git failing."""


DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "-M",
                "--src-prefix=a/", "--dst-prefix=b/")
# Marks the start of each commit in `git log` output: diff lines always
# start with a prefix or a header word, never with this.
_MARK = "ioctl-rework-commit "


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str
    merge: bool

    @property
    def title(self) -> str:
        """How checkpatch.pl --git names a commit."""
        return f'Commit {self.sha[:12]} ("{self.subject}")'


@dataclass(frozen=True)
class Change:
    """One diff to check, and the revision holding the files it leaves
    ("" for the index)."""

    name: str
    text: str
    rev: str
    commit: Commit | None = None


class Repository:
    def __init__(self, tree: Path, work: Path):
        if not tree.is_dir():
            raise GitError(f"{tree}: no such directory")
        # One git for three facts: the top, SHA-1 (40 hex digits) or SHA-256
        # (64; `git log` marks are read by it), and whether the clone is shallow.
        top, object_format, shallow = self._run(
            tree, "rev-parse", "--show-toplevel", "--show-object-format",
            "--is-shallow-repository", what=f"{tree} is not a git work tree").split("\n")[:3]
        self.path = Path(top)
        self.id_length = 64 if object_format == "sha256" else 40
        self._shallow = shallow == "true"
        attributes = work / "c-sources-are-text"
        attributes.write_text("*.c diff=cpp\n*.h diff=cpp\n")
        self._config = ("-c", f"core.attributesFile={attributes}",
                        "-c", "diff.cpp.binary=false", "-c", "core.quotePath=true")

    @staticmethod
    def _run(repo: Path, *args: str, what: str, config: tuple[str, ...] = (),
             stdin: bytes | None = None) -> str:
        proc = children.run(["git", *config, "-C", str(repo), *args], input=stdin,
                            capture_output=True, check=False)
        if proc.returncode != 0:
            message = proc.stderr.decode(errors="replace").strip().splitlines()
            raise GitError(what + (f" ({message[0]})" if message else ""))
        return proc.stdout.decode(errors="surrogateescape")

    def git(self, *args: str, what: str) -> str:
        return self._run(self.path, *args, what=what, config=self._config)

    def _shallow_boundary(self, commits: list[str]) -> list[str]:
        """Which of COMMITS are a shallow clone's boundary: git has them
        without their parents, and would show each as adding every file."""
        if not self._shallow:
            return []
        shallow = self.git("rev-parse", "--git-path", "shallow", what="no shallow file")
        path = Path(shallow.strip())
        path = path if path.is_absolute() else self.path / path
        try:
            cut = set(path.read_text().split())
        except OSError:
            return []
        return [c for c in commits if c in cut]

    def _refuse_shallow(self, commits: list[str], what: str) -> None:
        cut = self._shallow_boundary(commits)
        if cut:
            raise GitError(
                f"this is a shallow clone and {what} includes commit {cut[0][:12]}, whose "
                "parent is not in it: what that commit changes cannot be told (git would "
                "show it adding every file); fetch more history (`git fetch "
                "--deepen=N` or `git fetch --unshallow`) or check a range that starts "
                "after it")

    def _commit(self, rev: str, what: str) -> str:
        return self.git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}",
                        what=what).strip()

    def staged(self) -> Change:
        text = self.git("diff", "--cached", *DIFF_OPTIONS, "--",
                        what="cannot read the staged changes")
        return Change("staged changes", text, "")

    def changes(self, rev_range: str, squash: bool) -> list[Change]:
        """The diffs --git REV_RANGE checks: one for a commit or with SQUASH,
        else one per commit of the range, oldest first."""
        if rev_range.startswith("-"):
            raise GitError(f"bad revision range {rev_range!r}")
        sep = "..." if "..." in rev_range else ".." if ".." in rev_range else None
        if sep is None:
            sha = self._commit(rev_range, f"bad revision range {rev_range!r}: not a commit "
                                          "or a range A..B")
            self._refuse_shallow([sha], rev_range)
            # One commit: its own change, against its first parent (or nothing).
            text = self.git("diff-tree", "-r", "-p", "--root", "-m", "--first-parent",
                            "--no-commit-id", *DIFF_OPTIONS, rev_range, "--",
                            what=f"bad revision {rev_range!r}")
            return [Change(rev_range, text, rev_range)]
        start, end = rev_range.split(sep, 1)
        start, end = start or "HEAD", end or "HEAD"
        for rev in (start, end):
            self._commit(rev, f"bad revision range {rev_range!r}: {rev!r} is not a commit")
        commits = self.commits(f"{start}..{end}")
        if not commits:
            raise GitError(f"the range {rev_range!r} is empty: {end} has no commit "
                           f"that {start} does not have")
        self._refuse_shallow([c.sha for c in commits], f"the range {rev_range!r}")
        if squash or len(commits) == 1:
            text = self.git("diff", *DIFF_OPTIONS, f"{start}{sep}{end}", "--",
                            what=f"bad revision range {rev_range!r}")
            return [Change(rev_range, text, end)]
        texts = self.commit_diffs(f"{start}..{end}", commits)
        return [Change(c.title, texts[c.sha], c.sha, c) for c in commits]

    def commits(self, rev_range: str) -> list[Commit]:
        out = self.git("log", "--reverse", "--topo-order", "--format=%H%x00%P%x00%s",
                       rev_range, "--", what=f"bad revision range {rev_range!r}")
        commits = []
        for line in out.splitlines():
            sha, parents, subject = line.split("\0", 2)
            commits.append(Commit(sha, subject, len(parents.split()) > 1))
        return commits

    def commit_diffs(self, rev_range: str, commits: list[Commit]) -> dict[str, str]:
        """Each commit's own diff, from one git process.  A merge's is what
        the merge itself changed beyond merging its parents (git's
        --remerge-diff): the commits it merges are checked on their own."""
        # --remerge-diff makes (and removes) a temporary object directory in
        # the repository: asked for only when there is a merge to diff.
        remerge = ("--remerge-diff",) if any(c.merge for c in commits) else ()
        out = self.git("log", "--reverse", "--topo-order", "-p", *remerge,
                       f"--format={_MARK}%H", *DIFF_OPTIONS, rev_range, "--",
                       what=f"cannot read the commits of {rev_range!r}")
        texts: dict[str, list[str]] = {}
        current: list[str] = []
        for line in out.split("\n"):
            if line.startswith(_MARK) and len(line) == len(_MARK) + self.id_length:
                current = texts.setdefault(line[len(_MARK):], [])
            else:
                current.append(line)
        found = {}
        for commit in commits:
            text = "\n".join(texts.get(commit.sha, ())).strip("\n")
            found[commit.sha] = text + "\n" if text else ""
        return found

    def blobs(self, wanted: list[tuple[str, str]]) -> dict[tuple[str, str], bytes]:
        """The contents of each (REV, PATH) of WANTED (REV "": the index), in
        one git process.  A path missing at its revision is left out."""
        if not wanted:
            return {}
        spec = "".join(f"{rev}:{path}\0" for rev, path in wanted)
        proc = children.run(["git", "-C", str(self.path), "cat-file", "--batch", "-z"],
                            input=spec.encode(errors="surrogateescape"),
                            capture_output=True, check=False)
        if proc.returncode != 0:
            raise GitError(f"cannot read the files of the patch: "
                           f"{proc.stderr.decode(errors='replace').strip()}")
        out, blobs, pos = proc.stdout, {}, 0
        for key in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                blobs[key] = out[pos:pos + size]
                pos += size + 1
        return blobs

"""Writing a convert run as a `git format-patch` series a maintainer can review.

One patch per file, per directory or per MAINTAINERS section; subjects in
the kernel's prefix style (`char: ds1620: convert to unlocked_ioctl`), no
two alike; bodies that say what the BKL now protects, which strategy was
used and where -ENOIOCTLCMD behaviour changes; Signed-off-by of the user
git knows and Cc from MAINTAINERS; and a 0000-cover-letter.patch with the
statistics.  git writes the mails (format_patch.py): hunk headers name
their function, so `check --diff` can read every patch.
"""

import enum
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ioctl_rework import __version__, safe_write
from ioctl_rework.convert.summary import (FileRecord, HandlerRecord, HandlerStatus, LinkedFiles,
                                          Summary)
from ioctl_rework.patches import format_patch
from ioctl_rework.patches.identity import Identity, IdentityError, git_identity

COVER_LETTER = "0000-cover-letter.patch"
COVER_SUBJECT = "convert .ioctl handlers to unlocked_ioctl"


class SeriesError(Exception):
    """A series that cannot be written: no author, a tree without the
    converted files, a directory that is not usable."""


class Split(enum.Enum):
    FILE = "file"
    DIR = "dir"
    MAINTAINER = "maintainer"


@dataclass(frozen=True)
class Patch:
    """One mail of the series."""

    subject: str
    body: str
    cc: tuple[str, ...]
    files: tuple[FileRecord, ...]


def series_author(tree: Path | None) -> Identity:
    """Who the series is from, as `git commit` in TREE would say; SeriesError if nobody."""
    try:
        return git_identity(tree)
    except IdentityError as err:
        raise SeriesError(str(err)) from err


# Top-level directories of a kernel tree: a path that starts with one is
# read from the tree's top even where no Makefile or .git marks it.
_KERNEL_TOP_DIRS = {"arch", "block", "certs", "crypto", "drivers", "fs", "include", "init",
                    "io_uring", "ipc", "kernel", "lib", "mm", "net", "rust", "samples",
                    "scripts", "security", "sound", "tools", "usr", "virt"}


def path_prefix(relpath: str, depth: int = 2, suffix: bool = False) -> str:
    """The kernel subject prefix a path suggests: drivers/char/ds1620.c ->
    "char: ds1620", sound/oss/foo.c -> "sound: oss: foo".  DEPTH directories
    are named; SUFFIX keeps the file's extension."""
    parts = list(PurePosixPath(relpath).parts)
    if not parts:
        return "treewide"
    stem = parts[-1] if suffix or "." not in parts[-1] else PurePosixPath(parts[-1]).stem
    dirs = parts[:-1]
    if dirs and dirs[0] == "drivers":
        dirs = dirs[1:]
    if dirs[:2] == ["include", "linux"]:
        dirs = dirs[2:]
    words = dirs[:depth] + ([stem] if stem and stem not in dirs[-1:] else [])
    return ": ".join(words) if words else stem


def _path_prefixes(relpath: str, directory: bool = False) -> list[str]:
    """Prefixes for RELPATH from the usual one to one no other path shares."""
    if relpath in ("", "."):
        return ["treewide"]
    parts = PurePosixPath(relpath).parts
    depths = range(2, max(2, len(parts)) + 1)
    # A directory's name is kept whole ("foo.d" is no file "foo").
    found = [path_prefix(relpath, depth, suffix=directory) for depth in depths]
    found += [path_prefix(relpath, depths[-1], suffix=True), ": ".join(parts)]
    return list(dict.fromkeys(found))


def _section_prefix(title: str) -> str:
    """A MAINTAINERS title as a prefix: "DS1620 DRIVER" -> "ds1620"."""
    words = re.sub(r"\(.*?\)", "", title).lower().split()
    words = [w for w in words if w not in ("driver", "drivers", "support", "subsystem", "the")]
    return "-".join(words[:3]) or "treewide"


def subject_path(summary: Summary, relpath: str) -> str:
    """The path of RELPATH that names its subsystem: from the tree's top, or,
    when the run's root is a directory of its own (a copied subdirectory),
    under that directory's name."""
    first = PurePosixPath(relpath).parts[:1]
    if summary.tree_top or (first and first[0] in _KERNEL_TOP_DIRS):
        return relpath
    name = PurePosixPath(summary.root).name
    return f"{name}/{relpath}" if name else relpath


class _Grouping:
    """Which patch each changed file goes into, and the subject prefixes
    that patch may take, from the usual one to the most specific."""

    def __init__(self, split: Split, maintainers, summary: Summary):
        self.split = split
        self.maintainers = maintainers
        self.summary = summary

    def sections(self, relpath: str) -> list:
        return self.maintainers.lookup(relpath) if self.maintainers else []

    def key(self, relpath: str) -> str:
        if self.split is Split.FILE:
            return relpath
        if self.split is Split.MAINTAINER:
            found = self.sections(relpath)
            if found:
                return "section:" + found[0].title
        return "dir:" + str(PurePosixPath(relpath).parent)

    def prefixes(self, key: str, files: list[str]) -> list[str]:
        shown = [subject_path(self.summary, f) for f in files]
        if self.split is Split.FILE:
            found = _path_prefixes(shown[0])
            if self.sections(key):
                # MAINTAINERS names the subsystem; the file names the driver.
                stem = PurePosixPath(key).stem
                head = path_prefix(shown[0]).rsplit(": ", 1)[0]
                found.insert(0, f"{head}: {stem}" if head != stem else stem)
            return list(dict.fromkeys(found))
        if key.startswith("section:"):
            title = key[len("section:"):]
            common = os.path.commonpath(shown) if len(shown) > 1 else \
                str(PurePosixPath(shown[0]).parent)
            if common in ("", "."):
                return [_section_prefix(title), title.lower()]
            found = _path_prefixes(common, directory=True)
            return found + [f"{found[0]}: {_section_prefix(title)}",
                            f"{found[0]}: {title.lower()}"]
        directory = key[len("dir:"):]
        if directory == ".":
            # The root's own files: the tree's, or the copied directory's.
            directory = "" if self.summary.tree_top else PurePosixPath(self.summary.root).name
        else:
            directory = subject_path(self.summary, directory)
        return _path_prefixes(directory, directory=True)


def _unique(choices: list[list[str]]) -> list[str]:
    """One prefix per patch, each the first of its choices that no other
    patch takes: patches that would share a subject go more specific."""
    level = [0] * len(choices)
    while True:
        taken = [c[i] for c, i in zip(choices, level)]
        shared = {p for p in taken if taken.count(p) > 1}
        moved = False
        for n, prefix in enumerate(taken):
            if prefix in shared and level[n] < len(choices[n]) - 1:
                level[n] += 1
                moved = True
        if not moved:
            break
    return [f"{p} ({n})" if taken.count(p) > 1 else p for n, p in enumerate(taken, 1)]


def plan(summary: Summary, split: Split, maintainers=None) -> list[Patch]:
    """The patches of the series, in order of their first file, with subjects
    no two of them share."""
    grouping = _Grouping(split, maintainers, summary)
    groups: dict[str, list[FileRecord]] = {}
    keys = _keys_joined_by_handlers(summary, grouping)
    for record in sorted(summary.changed_files, key=lambda r: r.file):
        groups.setdefault(keys[record.file], []).append(record)
    prefixes = _unique([grouping.prefixes(key, [r.file for r in records])
                        for key, records in groups.items()])
    patches = []
    for prefix, records in zip(prefixes, groups.values()):
        names = [r.file for r in records]
        handlers = _handlers_of(summary, names)
        count = len({(h.file, h.handler) for h in handlers})
        what = "convert to unlocked_ioctl" if count <= 1 else \
            f"convert {count} ioctl handlers to unlocked_ioctl"
        cc = []
        for name in names:
            for section in grouping.sections(name):
                cc += [c for c in section.contacts if c not in cc]
        patches.append(Patch(f"{prefix}: {what}", _body(summary, handlers, names),
                             tuple(cc), tuple(records)))
    return patches


def _keys_joined_by_handlers(summary: Summary, grouping: _Grouping) -> dict[str, str]:
    """The patch key of each changed file, where the files of one handler
    (its fops, definition, prototypes, callers) share the key of the first:
    a patch that changed only some of them would not build."""
    changed = [r.file for r in summary.changed_files]
    linked = LinkedFiles(changed, summary.handlers)
    return {rel: grouping.key(linked.first(rel)) for rel in changed}


def _handlers_of(summary: Summary, files: list[str]) -> list[HandlerRecord]:
    wanted = set(files)
    return [h for h in summary.handlers if h.status is HandlerStatus.CONVERTED
            and (h.file in wanted or wanted & set(h.other_files))]


def _lock_words(summary: Summary) -> tuple[str, str]:
    if summary.options.get("lock") == "mutex":
        return ("a mutex private to the source file (mutex_lock()/mutex_unlock())",
                "The BKL is gone from this kernel, so a mutex takes its place.  It keeps "
                "the converted handlers of one source file from running at the same time, "
                "as the BKL did; it does not exclude the other code the BKL also excluded "
                "(other drivers, this driver's other file operations), and unlike the BKL "
                "it stays held while the handler sleeps.  Handlers seen to sleep until "
                "another call wakes them were left alone for that reason; a sleep in a "
                "function of another file is not seen.")
    return ("the Big Kernel Lock itself (lock_kernel()/unlock_kernel())",
            "Everything the handler did under the BKL (its command switch, the device "
            "state and hardware it touches, calls into code that relies on the BKL) "
            "still runs with the BKL held, so no locking assumption changes.")


_STRATEGY_WORDS = {
    "pushdown": "takes the lock after its declarations and drops it before every return",
    "wrapper": "keeps its body; a new *_unlocked_ioctl wrapper takes the lock around a call to it",
    "multi-kernel": "gets an unlocked wrapper while .ioctl stays for kernels without "
                    "HAVE_UNLOCKED_IOCTL",
}


def _body(summary: Summary, handlers: list[HandlerRecord], files: list[str]) -> str:
    lock, protects = _lock_words(summary)
    lines = [
        "The VFS called .ioctl with the Big Kernel Lock held; .unlocked_ioctl is called "
        "without it.  Convert the handler" + ("s" if len(handlers) != 1 else "") +
        f" to .unlocked_ioctl and take {lock} explicitly, so every path still holds the "
        "lock where the VFS held it.",
        "",
        protects,
        "",
    ]
    for h in handlers:
        how = _STRATEGY_WORDS.get(h.strategy or "", h.strategy or "converted")
        extra = ", and reaches the inode through the file" if h.uses_inode else ""
        where = f" (also in {', '.join(h.other_files)})" if h.other_files else ""
        lines.append(f"- {h.handler}() in {h.fops}{where}: {h.strategy}: it {how}{extra}.")
    exported = [h for h in handlers if h.exported]
    if exported:
        names = ", ".join(f"{h.handler}()" for h in exported)
        lines += ["", f"Note: {names} " + ("is" if len(exported) == 1 else "are") +
                  " exported (EXPORT_SYMBOL).  Its callers in the tree follow the new "
                  "signature here; callers outside the tree must follow it too: drop the "
                  "inode argument, and expect a long."]
    notes = [h for h in handlers if h.returns_enoioctlcmd]
    if notes:
        names = ", ".join(f"{h.handler}()" for h in notes)
        lines += ["", f"Note: {names} can return -ENOIOCTLCMD.  The VFS passes that to "
                  "user space as -EINVAL for .unlocked_ioctl (for .ioctl it came out as "
                  "-ENOIOCTLCMD on old kernels); callers that checked for ENOTTY or "
                  "ENOIOCTLCMD see EINVAL now."]
    lines += ["", f"Generated by ioctl-rework convert {__version__} (semantic patch "
              f"ioctl_to_unlocked_ioctl.cocci, target {summary.target}, "
              f"strategy {summary.options.get('strategy', 'auto')})."]
    return "\n".join(_wrap(line) for line in lines)


def _wrap(text: str, width: int = 72) -> str:
    if len(text) <= width:
        return text
    # A bullet's lines and an indented line's go on under its text.
    lead = " " * (len(text) - len(text.lstrip(" ")))
    indent = lead + "  " if text.startswith("- ") or lead else ""
    out, line = [], ""
    for word in text.lstrip(" ").split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else lead + word
    out.append(line)
    return "\n".join(out)


def git_date(epoch: float) -> str:
    """EPOCH as git reads a date ("@SECONDS +HHMM"), in the local time zone, as
    a commit made then would have it."""
    offset = time.localtime(epoch).tm_gmtoff // 60
    sign = "-" if offset < 0 else "+"
    return f"@{int(epoch)} {sign}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"


def render(summary: Summary, split: Split, maintainers=None, author: Identity | None = None,
           tree: Path | None = None) -> dict[str, str]:
    """File name -> content of every mail in the series (cover letter first),
    made by git from TREE's files (default: the run's root).  No mail when
    nothing was converted."""
    tree = Path(tree if tree is not None else summary.root)
    who = author or series_author(tree)
    patches = plan(summary, split, maintainers)
    commits = []
    for patch in patches:
        trailers = "\n".join([f"Signed-off-by: {who}"] + [f"Cc: {c}" for c in patch.cc])
        diffs = tuple(format_patch.FileDiff(r.file, r.diff) for r in patch.files)
        commits.append(format_patch.Commit(patch.subject, f"{patch.body}\n\n{trailers}", diffs))
    cover = format_patch.Cover(COVER_SUBJECT, _cover_blurb(summary))
    try:
        return format_patch.mails(tree, commits, cover, who, git_date(summary.started),
                                  f"ioctl-rework {__version__}")
    except format_patch.FormatPatchError as err:
        raise SeriesError(str(err)) from err


def _cover_blurb(summary: Summary) -> str:
    """The statistics; git adds the shortlog of the patches and the diffstat."""
    totals = summary.totals()
    h = totals["handlers"]
    lines = [
        f"This series converts {h['converted']} legacy .ioctl handler"
        f"{'s' if h['converted'] != 1 else ''} to .unlocked_ioctl, taking the "
        "lock explicitly so that every path still holds it where the VFS held it.",
        "",
        f"Target kernel: {summary.target}.  Options: "
        + ", ".join(f"{k}={v}" for k, v in sorted(summary.options.items()) if v not in (None, False, [], ())) + ".",
        "",
        "Statistics:",
        f"  .ioctl fops entries found: {totals['fops']}",
        f"  converted: {h['converted']}   skipped: {h['skipped']}   failed: {h['failed']}",
    ]
    if h["outside"]:
        lines.append(f"  outside the run's paths, not converted by it: {h['outside']}")
    for strategy, count in totals["strategies"].items():
        lines.append(f"  strategy {strategy}: {count}")
    for title, key in (("skipped", "skipped_by_reason"), ("failed", "failed_by_reason")):
        for reason, count in totals[key].items():
            lines.append(f"  {title} ({count}): {reason}")
    files = totals["files"]
    lines += [f"  files: {files['converted']} changed, {files['failed']} failed, "
              f"{files['skipped']} skipped",
              f"  lines: +{totals['lines_added']} -{totals['lines_removed']}"]
    return "\n".join(_wrap(line) for line in lines)


def write(summary: Summary, directory: Path, split: Split, maintainers=None,
          author: Identity | None = None, tree: Path | None = None) -> list[Path]:
    """Write the series into DIRECTORY (created; old *.patch files there are
    replaced) and return the paths, cover letter first."""
    directory = Path(directory)
    mails = render(summary, split, maintainers, author, tree)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SeriesError(f"{directory}: cannot create the series directory: {err.strerror}") from err
    for old in directory.glob("*.patch"):
        if old.name not in mails:
            old.unlink()
    paths = []
    for name, text in mails.items():
        path = directory / name
        safe_write.write_atomic(path, text.encode("utf-8", "surrogateescape"))
        paths.append(path)
    return paths


def describe(paths: list[Path], directory: Path) -> str:
    """What a run says about the series it wrote."""
    count = sum(1 for p in paths if p.name != COVER_LETTER)
    if not count:
        return f"nothing was converted: no series in {directory}"
    return f"series of {count} patch{'es' if count != 1 else ''} in {directory}"


def add_split_argument(parser) -> None:
    parser.add_argument("--split", choices=[s.value for s in Split],
                        help="with --series: one patch per file, directory or "
                             "MAINTAINERS section (default: file)")


def check_split(args) -> None:
    """--split says how to cut a series: without --series it is a mistake."""
    if getattr(args, "split", None) and not getattr(args, "series", None):
        raise SeriesError(f"--split {args.split} goes with --series DIR (it says how "
                          "the series is cut)")


def write_for_tree(summary: Summary, directory: Path, split: Split, tree: Path | None,
                   author: Identity | None = None) -> list[Path]:
    """write(), from TREE's files, with the Cc lines and subjects of TREE's
    MAINTAINERS when it has one."""
    from ioctl_rework.patches.maintainers import Maintainers
    maintainers = Maintainers.load(Path(tree)) if tree and Path(tree).is_dir() else None
    return write(summary, directory, split, maintainers, author, tree)


def now() -> float:
    """The series date: SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return float(epoch) if epoch and epoch.isdigit() else time.time()

"""Writing a convert run as a `git format-patch` series a maintainer can review.

One patch per file, per directory or per MAINTAINERS section; subjects in
the kernel's prefix style (`char: ds1620: convert to unlocked_ioctl`);
bodies that say what the BKL now protects, which strategy was used and
where -ENOIOCTLCMD behaviour changes; Signed-off-by from git config and Cc
from MAINTAINERS; and a 0000-cover-letter.patch with the statistics.
"""

import email.utils
import enum
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ioctl_rework import __version__, safe_write
from ioctl_rework.convert.summary import (FileRecord, HandlerRecord, HandlerStatus, LinkedFiles, Summary,
                                  diff_counts)

COVER_LETTER = "0000-cover-letter.patch"
PLACEHOLDER_AUTHOR = ("ioctl-rework", "ioctl-rework@localhost")


class SeriesError(Exception):
    """A series that cannot be written (the directory is not usable)."""


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


@dataclass(frozen=True)
class Identity:
    name: str
    email: str
    from_git: bool

    def __str__(self) -> str:
        return email.utils.formataddr((self.name, self.email))


def git_identity(tree: Path | None) -> Identity:
    """user.name and user.email as git sees them in TREE, else a placeholder."""
    values = []
    for key in ("user.name", "user.email"):
        try:
            out = subprocess.run(["git", "config", "--get", key], capture_output=True,
                                 text=True, cwd=tree if tree and Path(tree).is_dir() else None,
                                 check=False).stdout.strip()
        except OSError:
            out = ""
        values.append(out)
    if all(values):
        return Identity(values[0], values[1], True)
    return Identity(*PLACEHOLDER_AUTHOR, False)


def path_prefix(relpath: str) -> str:
    """The kernel subject prefix a path suggests: drivers/char/ds1620.c ->
    "char: ds1620", sound/oss/foo.c -> "sound: oss: foo"."""
    parts = list(PurePosixPath(relpath).parts)
    if not parts:
        return "treewide"
    stem = PurePosixPath(parts[-1]).stem if "." in parts[-1] else parts[-1]
    dirs = parts[:-1]
    if dirs and dirs[0] == "drivers":
        dirs = dirs[1:]
    if dirs[:2] == ["include", "linux"]:
        dirs = dirs[2:]
    words = dirs[:2] + ([stem] if stem and stem not in dirs[-1:] else [])
    return ": ".join(words) if words else stem


def _dir_prefix(directory: str) -> str:
    return path_prefix(directory.rstrip("/") + "/") if directory not in ("", ".") else "treewide"


def _section_prefix(title: str) -> str:
    """A MAINTAINERS title as a prefix: "DS1620 DRIVER" -> "ds1620"."""
    words = re.sub(r"\(.*?\)", "", title).lower().split()
    words = [w for w in words if w not in ("driver", "drivers", "support", "subsystem", "the")]
    return "-".join(words[:3]) or "treewide"


class _Grouping:
    """Which patch each changed file goes into, and that patch's subject prefix."""

    def __init__(self, split: Split, maintainers):
        self.split = split
        self.maintainers = maintainers

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

    def prefix(self, key: str, files: list[str]) -> str:
        if self.split is Split.FILE:
            found = self.sections(key)
            # MAINTAINERS names the subsystem; the file names the driver.
            if found and self.maintainers is not None:
                stem = PurePosixPath(key).stem
                head = path_prefix(key).rsplit(": ", 1)[0]
                return f"{head}: {stem}" if head != stem else stem
            return path_prefix(key)
        if key.startswith("section:"):
            common = os.path.commonpath(files) if len(files) > 1 else str(PurePosixPath(files[0]).parent)
            if common and common != ".":
                return _dir_prefix(common)
            return _section_prefix(key[len("section:"):])
        return _dir_prefix(key[len("dir:"):])


def plan(summary: Summary, split: Split, maintainers=None) -> list[Patch]:
    """The patches of the series, in order of their first file."""
    grouping = _Grouping(split, maintainers)
    groups: dict[str, list[FileRecord]] = {}
    keys = _keys_joined_by_handlers(summary, grouping)
    for record in sorted(summary.changed_files, key=lambda r: r.file):
        groups.setdefault(keys[record.file], []).append(record)
    patches = []
    for key, records in groups.items():
        names = [r.file for r in records]
        handlers = _handlers_of(summary, names)
        prefix = grouping.prefix(key, names)
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
    indent = "  " if text.startswith("- ") else ""
    out, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    out.append(line)
    return "\n".join(out)


def diffstat(records: tuple[FileRecord, ...] | list[FileRecord]) -> str:
    """The ` path | N +++--` block that git format-patch puts after ---."""
    rows = [(r.file, *diff_counts(r.diff)) for r in records]
    width = max(len(name) for name, _, _ in rows)
    digits = max(len(str(a + r)) for _, a, r in rows)
    lines = []
    for name, added, removed in rows:
        total = added + removed
        scale = min(1.0, 50 / total) if total else 1.0
        bar = "+" * round(added * scale) + "-" * round(removed * scale)
        lines.append(f" {name.ljust(width)} | {str(total).rjust(digits)} {bar}".rstrip())
    added = sum(r[1] for r in rows)
    removed = sum(r[2] for r in rows)
    plural = "s" if len(rows) != 1 else ""
    lines.append(f" {len(rows)} file{plural} changed, {added} insertion{'s' if added != 1 else ''}(+), "
                 f"{removed} deletion{'s' if removed != 1 else ''}(-)")
    return "\n".join(lines)


def _slug(subject: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_.]+", "-", subject).strip("-.")
    return slug[:52].rstrip("-.") or "patch"


def _mail(author: Identity, date: str, subject: str, body: str, tail: str) -> str:
    return (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            f"From: {author}\nDate: {date}\nSubject: {subject}\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
            f"Content-Transfer-Encoding: 8bit\n\n{body}\n{tail}"
            f"-- \nioctl-rework {__version__}\n\n")


def render(summary: Summary, split: Split, maintainers=None,
           author: Identity | None = None) -> dict[str, str]:
    """File name -> content of every mail in the series (cover letter first)."""
    author = author or git_identity(Path(summary.root))
    date = email.utils.formatdate(summary.started, localtime=False)
    patches = plan(summary, split, maintainers)
    total = len(patches)
    width = len(str(total))  # as git format-patch: [PATCH 1/9], [PATCH 01/10]
    signoff = [f"Signed-off-by: {author}"] if author.from_git else []
    out = {}
    for number, patch in enumerate(patches, 1):
        tag = f"[PATCH {str(number).zfill(width)}/{total}]"
        trailers = "\n".join(signoff + [f"Cc: {c}" for c in patch.cc])
        body = patch.body + ("\n\n" + trailers if trailers else "")
        diff = "".join(r.diff for r in patch.files)
        name = f"{str(number).zfill(4)}-{_slug(patch.subject)}.patch"
        out[name] = _mail(author, date, f"{tag} {patch.subject}", body,
                          f"---\n{diffstat(patch.files)}\n\n{diff}")
    out[COVER_LETTER] = _cover_letter(summary, patches, author, date, width)
    return dict(sorted(out.items()))


def _cover_letter(summary: Summary, patches: list[Patch], author: Identity, date: str,
                  width: int) -> str:
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
    for strategy, count in totals["strategies"].items():
        lines.append(f"  strategy {strategy}: {count}")
    for title, key in (("skipped", "skipped_by_reason"), ("failed", "failed_by_reason")):
        for reason, count in totals[key].items():
            lines.append(f"  {title} ({count}): {reason}")
    files = totals["files"]
    lines += [f"  files: {files['converted']} changed, {files['failed']} failed, "
              f"{files['skipped']} skipped",
              f"  lines: +{totals['lines_added']} -{totals['lines_removed']}",
              ""]
    if not author.from_git:
        lines += ["No git identity was configured: set user.name and user.email and "
                  "add your Signed-off-by before sending.", ""]
    lines += [f"{p.subject}" for p in patches]
    body = "\n".join(_wrap(line) for line in lines)
    tail = f"---\n{diffstat([r for p in patches for r in p.files])}\n\n" if patches else "---\n\n"
    subject = f"[PATCH {'0' * width}/{len(patches)}] convert .ioctl handlers to unlocked_ioctl"
    return _mail(author, date, subject, body, tail)


def write(summary: Summary, directory: Path, split: Split, maintainers=None,
          author: Identity | None = None) -> list[Path]:
    """Write the series into DIRECTORY (created; old *.patch files there are
    replaced) and return the paths, cover letter first."""
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SeriesError(f"{directory}: cannot create the series directory: {err.strerror}") from err
    mails = render(summary, split, maintainers, author)
    for old in directory.glob("*.patch"):
        if old.name not in mails:
            old.unlink()
    paths = []
    for name, text in mails.items():
        path = directory / name
        safe_write.write_atomic(path, text.encode("utf-8", "surrogateescape"))
        paths.append(path)
    return paths


def add_split_argument(parser) -> None:
    parser.add_argument("--split", choices=[s.value for s in Split],
                        help="with --series: one patch per file, directory or "
                             "MAINTAINERS section (default: file)")


def check_split(args) -> None:
    """--split says how to cut a series: without --series it is a mistake."""
    if getattr(args, "split", None) and not getattr(args, "series", None):
        raise SeriesError(f"--split {args.split} goes with --series DIR (it says how "
                          "the series is cut)")


def write_for_tree(summary: Summary, directory: Path, split: Split,
                   tree: Path | None) -> list[Path]:
    """write(), with the Cc lines and subjects of TREE's MAINTAINERS when it has one."""
    from ioctl_rework.patches.maintainers import Maintainers
    maintainers = Maintainers.load(Path(tree)) if tree and Path(tree).is_dir() else None
    return write(summary, directory, split, maintainers)


def now() -> float:
    """The series date: SOURCE_DATE_EPOCH when set (reproducible builds), else now."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return float(epoch) if epoch and epoch.isdigit() else time.time()

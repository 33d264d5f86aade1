"""Mails and mbox files, split and decoded as `git am` does it.

A patch file may be one mail, a `git format-patch --stdout` series, or a
mail client's MIME message (the diff in a base64 or quoted-printable part,
lines ending in CRLF).  What counts is what `git am` would commit, so the
splitting and decoding are git's own: `git mailsplit` cuts the mbox (and
drops the CR of CRLF line ends, as git am does by default), `git
mailinfo` decodes each mail and separates its message from its patch.
Each patch is then checked on its own, in order, as git am makes one
commit of each.  Text that is not a mail (a plain `git diff`) is one patch.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import children


class MailError(Exception):
    """A mail git cannot split or decode; the message says why."""


@dataclass(frozen=True)
class MailPatch:
    name: str                   # how the report names it: 'Mail 2/3 ("subject")'
    text: str                   # the decoded patch, as git apply would read it
    subject: str
    # Line N of TEXT is line N + LINE_OFFSET of the input, when the patch
    # is in it as it is (not base64 or quoted-printable); 0 otherwise.
    line_offset: int = 0


# What git am's format detection takes for a mail: an mbox "From " line or
# a header block (RFC 2822 field names) that names the author or subject.
_MBOX_FROM = re.compile(rb"From \S+")
_HEADER = re.compile(rb"[\x21-\x39\x3b-\x7e]+:[ \t]")
_NAMES_MAIL = re.compile(rb"(?im)^(?:from|subject|mime-version|content-type):[ \t]")


def is_mail(data: bytes) -> bool:
    lines = data.lstrip(b"\r\n").split(b"\n", 50)
    if not lines:
        return False
    if _MBOX_FROM.match(lines[0]):
        return True
    header = []
    for line in lines:
        if not line.strip(b"\r"):
            break
        if not (_HEADER.match(line) or line[:1] in (b" ", b"\t")):
            return False
        header.append(line)
    return bool(header) and _NAMES_MAIL.search(b"\n".join(header)) is not None


def _git(args: list[str], stdin: bytes | None, cwd: Path, what: str) -> bytes:
    proc = children.run(["git", *args], input=stdin, cwd=cwd, capture_output=True,
                        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd),
                             # No user configuration (a missing file reads as empty).
                             "GIT_CONFIG_NOSYSTEM": "1",
                             "GIT_CONFIG_GLOBAL": str(cwd / ".no-gitconfig")})
    if proc.returncode != 0:
        message = proc.stderr.decode(errors="replace").strip().splitlines()
        raise MailError(what + (f": {message[-1]}" if message else ""))
    return proc.stdout


def split(data: bytes, work: Path) -> list[MailPatch]:
    """The patches of the mails in DATA, in order; a mail without a patch
    (a cover letter) is left out.  WORK is a scratch directory."""
    mails = work / "mails"
    mails.mkdir(parents=True, exist_ok=True)
    source = work / "input.mbox"
    source.write_bytes(data)
    count = _git(["mailsplit", "-b", f"-o{mails}", str(source)], None, work,
                 "git mailsplit cannot split the mail").strip()
    found = []
    lines = data.replace(b"\r\n", b"\n").decode(errors="surrogateescape").split("\n")
    searched = 0
    names = sorted(p.name for p in mails.iterdir())
    for index, name in enumerate(names, 1):
        msg, patch = work / f"msg-{index}", work / f"patch-{index}"
        info = _git(["mailinfo", str(msg), str(patch)], (mails / name).read_bytes(), work,
                    f"git mailinfo cannot read mail {index} of {count.decode() or '?'}")
        subject = next((line[9:] for line in info.decode(errors="replace").splitlines()
                        if line.startswith("Subject: ")), "")
        text = patch.read_bytes().decode(errors="surrogateescape")
        if not text.strip():
            continue
        label = f"Mail {index}/{len(names)}" if len(names) > 1 else "Mail"
        offset, searched = _offset(lines, text.split("\n"), searched)
        found.append(MailPatch(f'{label} ("{subject}")' if subject else label, text, subject,
                               offset))
    return found



def _offset(lines: list[str], patch: list[str], start: int) -> tuple[int, int]:
    """Where PATCH (its first lines) starts in LINES, at or after START:
    (line offset, where to search for the next one); (0, START) if not there."""
    head = [line for line in patch[:4]]
    for i in range(start, len(lines) - len(head) + 1):
        if lines[i:i + len(head)] == head:
            return i, i + len(head)
    return 0, start

"""The types a driver's commands encode, guessed from their #define lines,
so that the layout probe compiles them with the commands instead of in a
second compile of its own (two of gcc's starts a driver).

A guess is only a guess: the probe still reads the type each command
encodes from gcc's expansion (compat.probe), the results of a guess no
command encodes are dropped, and an encoded type nobody guessed is
compiled afterwards as before.  A wrong or missing guess costs time,
never a result.
"""

import re
from pathlib import Path

from ioctl_rework.ctext import spans as c_spans

# `#define NAME _IOR(type, nr, TYPE)` on one line, comments blanked.
_TYPED_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+_IO(?:R|W|WR)[ \t]*"
                           r"\((.*)\)[ \t]*$", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_]\w*")


def guess(commands, headers: tuple[Path, ...]) -> list[str]:
    """The type the #define of each of COMMANDS (plain names) in HEADERS
    passes to _IOR, _IOW or _IOWR, spaces squeezed as the probe reads it;
    nothing for a command defined otherwise or not there."""
    wanted = {command for command in commands if _NAME.fullmatch(command)}
    found: dict[str, str] = {}
    for header in headers:
        if not wanted - found.keys():
            break
        try:
            text = header.read_text(errors="replace")
        except OSError:
            continue
        if not any(name in text for name in wanted - found.keys()):
            continue
        for match in _TYPED_DEFINE.finditer(c_spans.without_comments(text)):
            arguments = c_spans.split_top_level(match[2])
            if match[1] in wanted and match[1] not in found and len(arguments) == 3:
                found[match[1]] = " ".join(arguments[2].split())
    return list(dict.fromkeys(found.values()))

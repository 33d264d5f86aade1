"""File names as reports and diffs show them.

A name may hold a newline, a tab or bytes that are not UTF-8 (they arrive
as surrogate escapes).  Printed raw, a newline forges a report line and a
lone surrogate stops the print with a UnicodeEncodeError.  Such a name is
shown the way git shows it, C-quoted ("dir/a\\nb.c"); in a SARIF uri every
byte that is not allowed there is percent-encoded, as RFC 3986 asks.
"""

import re
import urllib.parse

_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
            34: '\\"', 92: "\\\\"}
_NEEDS_QUOTES = re.compile(rb'[\x00-\x1f"\\\x7f]')


def quoted(name: str, keep_utf8: bool = True) -> str:
    """NAME C-quoted as git quotes it, or NAME itself when it needs no
    quotes.  Bytes of valid UTF-8 stay as they are with KEEP_UTF8; git's
    own diff headers (core.quotePath) escape them too."""
    raw = name.encode("utf-8", "surrogateescape")
    valid = raw.decode("utf-8", "replace") == name
    if not _NEEDS_QUOTES.search(raw) and (valid if keep_utf8 else raw.isascii()):
        return name
    out = []
    for char in name:
        data = char.encode("utf-8", "surrogateescape")
        if keep_utf8 and len(data) > 1 or 32 <= data[0] < 127 and data[0] not in (34, 92):
            out.append(char)
        else:
            out.extend(_ESCAPES.get(b, f"\\{b:03o}") for b in data)
    return '"' + "".join(out) + '"'


def shown(name: str) -> str:
    """NAME as a report shows it (see the module doc)."""
    return quoted(name)


def uri(name: str) -> str:
    """NAME as a relative URI reference (SARIF artifactLocation.uri)."""
    return urllib.parse.quote(name.encode("utf-8", "surrogateescape"), safe="/")

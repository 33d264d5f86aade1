"""A name for code the conversion adds (a wrapper, the forwarding helper)
that nothing the compiler sees already uses: neither the file nor a header
it includes, found as the compiler finds it (include_search).

Imports nothing of the project but ctext: the rules' Python imports it as
well as the wrappers, so both pick the same name from the same text.
"""

import os
import re

from ioctl_rework.ctext import include_search

IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# The stem of the helper f_op_ioctl_forwarding.cocci writes where the target
# still has .ioctl (the wrappers pass it the free name: they read the tree).
FORWARD_HELPER = "forward_ioctl"


def words(text: str) -> set[str]:
    """Every identifier-like word of TEXT, comments included (a name there
    only costs a number)."""
    return set(IDENTIFIER.findall(text))


def taken(root, rel, text: str) -> set[str]:
    """The names of TEXT (REL's text as it will be written) and of every
    header REL includes, found from ROOT."""
    found = words(text)
    for path, header in include_search.read_headers(root, rel).texts.items():
        if path != rel:
            found |= words(header)
    return found


def taken_by(file: str, text: str) -> set[str]:
    """taken() for a FILE named as spatch names it: relative to the
    directory it runs in, or absolute."""
    if os.path.isabs(file):
        return taken("/", file.lstrip("/"), text)
    return taken(os.getcwd(), os.path.normpath(file), text)


def first_free(name: str, used: set[str]) -> str:
    """NAME, or the first of NAME2, NAME3, ... not in USED."""
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{name}{n}"
    return candidate

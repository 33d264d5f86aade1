"""A name for code the conversion adds (a wrapper, the forwarding helper)
that nothing the compiler sees already uses: neither the file nor a header
it includes, found as the compiler finds it (include_search).

Imports nothing of the project but ctext: the rules' Python imports it as
well as the wrappers, so both pick the same name from the same text.
"""

import os
import re
import subprocess

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


def taken_by_includers(root, rel: str) -> set[str]:
    """The names of every file of the tree under ROOT, in the run or not,
    that may include REL (an #include naming its file name: more than the
    compiler finds costs only a number), and of the headers each includes:
    a name the helper takes in REL is compiled in each of them too."""
    name = os.path.basename(rel)
    include = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"](?:[^>"\n]*/)?'
                         + re.escape(name.encode()) + rb'[>"]', re.M)
    # grep reads the tree once, outside Python (a 2.6 tree is 200 MB).
    proc = subprocess.run(["grep", "-r", "-l", "-Z", "-F", "--include=*.c", "--include=*.h",
                           "--exclude-dir=.[!.]*", "--", name, str(root)],
                          capture_output=True, env={**os.environ, "LC_ALL": "C"}, check=False)
    found = set()
    for path in (os.fsdecode(p) for p in proc.stdout.split(b"\0") if p):
        other = os.path.relpath(path, root)
        if other == rel:
            continue
        try:
            with open(path, "rb") as source:
                data = source.read()
        except OSError:
            continue
        if include.search(data):
            found |= taken(root, other, data.decode("utf-8", "surrogateescape"))
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

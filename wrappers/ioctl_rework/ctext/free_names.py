"""A name for code the conversion adds (a wrapper, the forwarding helper)
that nothing the compiler sees already uses: neither the file nor a header
it includes, found as the compiler finds it (include_search).

Imports nothing of the project but ctext: the rules' Python imports it as
well as the wrappers, so both pick the same name from the same text.
"""

import functools
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


def taken(root, rel, text: str, one_pass: include_search.Pass | None = None) -> set[str]:
    """The names of TEXT (REL's text as it will be written) and of every
    header REL includes, found from ROOT (ONE_PASS: the caller's
    include_search.Pass, when it reads several files)."""
    found = words(text)
    for path, header in include_search.read_headers(root, rel, one_pass=one_pass).texts.items():
        if path != rel:
            found |= _header_words(header)
    return found


@functools.lru_cache(maxsize=4096)
def _header_words(text: str) -> frozenset[str]:
    """words() of a header's TEXT, read once for every file that includes it."""
    return frozenset(words(text))


def taken_by_includers(root, rel: str, including: list[str] | None = None,
                       one_pass: include_search.Pass | None = None) -> set[str]:
    """The names of every file of the tree under ROOT, in the run or not,
    that may include REL (an #include naming its file name: more than the
    compiler finds costs only a number), and of the headers each includes:
    a name the helper takes in REL is compiled in each of them too.
    INCLUDING: those files (includers()'s answer for REL), when known."""
    if including is None:
        including = includers(root, [rel])[rel]
    found = set()
    for other in including:
        try:
            with open(os.path.join(root, other), "rb") as source:
                data = source.read()
        except OSError:
            continue
        found |= taken(root, other, data.decode("utf-8", "surrogateescape"), one_pass)
    return found


def includers(root, rels: list[str]) -> dict[str, list[str]]:
    """REL -> the files of the tree under ROOT, in the run or not, with an
    #include naming REL's file name, for each of RELS: one grep of the
    tree for all their names (a 2.6 tree is 200 MB)."""
    names = sorted({os.path.basename(rel) for rel in rels})
    found: dict[str, list[str]] = {rel: [] for rel in rels}
    if not names:
        return found
    proc = subprocess.run(["grep", "-r", "-l", "-Z", "-F", "--include=*.c", "--include=*.h",
                           "--exclude-dir=.[!.]*", *(f"-e{name}" for name in names), "--",
                           str(root)],
                          capture_output=True, env={**os.environ, "LC_ALL": "C"}, check=False)
    patterns = {rel: re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"](?:[^>"\n]*/)?'
                                + re.escape(os.path.basename(rel).encode()) + rb'[>"]', re.M)
                for rel in rels}
    for path in (os.fsdecode(p) for p in proc.stdout.split(b"\0") if p):
        other = os.path.relpath(path, root)
        try:
            with open(path, "rb") as source:
                data = source.read()
        except OSError:
            continue
        for rel, include in patterns.items():
            if other != rel and include.search(data):
                found[rel].append(other)
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

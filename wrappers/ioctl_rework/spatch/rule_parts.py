"""A rule kept in parts, one file per concern: the parts it includes, and
the copy of it that spatch reads.

The conversion rule names its parts as spatch includes them,
`#include "ioctl_rule/NAME.cocci"`, relative to its own directory.  spatch
1.1.1 opens an included file relative to its working directory, never to
the including file's, and the wrappers start spatch in a tree, a scratch
directory or a test's.  So spatch is given a copy of the rule whose
includes name the parts by absolute path (sp_file()), the same text
otherwise (its lines keep their numbers), made once per content in the
cache directory.  A rule that includes nothing is given as it is.

    python3 -m ioctl_rework.spatch.rule_parts RULE

prints the file to give spatch for RULE, for `make cocci`.
"""

import hashlib
import re
import sys
from functools import lru_cache
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework.spatch import generated_files

INCLUDE = re.compile(r'^#include "([^"]+)"', re.MULTILINE)
FIRST_RULE = re.compile(r"^@", re.MULTILINE)


def prolog(text: str) -> tuple[str, str]:
    """TEXT cut before its first rule: spatch takes includes only there.
    Further down, `#include "..."@p` is SmPL matching a C include (the
    forwarding rule has one), never a part."""
    first = FIRST_RULE.search(text)
    return (text, "") if first is None else (text[:first.start()], text[first.start():])


def parts(rule: Path) -> list[Path]:
    """The files RULE includes, in the order it names them."""
    rule = Path(rule)
    return [rule.parent / name for name in INCLUDE.findall(prolog(rule.read_text())[0])]


@lru_cache(maxsize=8)
def _copy(rule: Path, text: str, cache_home: Path) -> Path:
    here = rule.resolve().parent
    head, rules = prolog(text)
    content = (INCLUDE.sub(lambda m: '#include "%s"' % (here / m.group(1)), head) + rules).encode()
    name = "%s-%s.cocci" % (rule.stem, hashlib.sha256(content).hexdigest()[:16])
    return generated_files.written_once("rules", name, content, cache_home)


def sp_file(rule: Path) -> Path:
    """The file spatch is given for RULE: RULE, or the copy whose includes
    are absolute, made again when a cleaned cache lost it."""
    rule = Path(rule)
    text = rule.read_text()
    if not INCLUDE.search(prolog(text)[0]):
        return rule
    copy = _copy(rule, text, paths.cache_home())
    if not copy.is_file():
        _copy.cache_clear()
        copy = _copy(rule, text, paths.cache_home())
    return copy


if __name__ == "__main__":
    print(sp_file(Path(sys.argv[1])))

"""The tree's compat table's verdicts on one file's handlers, kept in the
cache by everything they are computed from.

era.verdicts looks each command up in the table: every entry whose value
needs a size is evaluated again for each command, seconds a file in a tree
with a large table (2.6.9's fs/compat_ioctl.c), on every run.  The result
depends only on the file's layouts (compat.memo keeps them while the
driver and every header read are unchanged), the table's content and the
file's name in the tree, so the key holds those by value and an entry
needs no check of the files: a changed driver or header changes the
layouts, a changed table file the table.
"""

import json
from pathlib import Path

from ioctl_rework.cache import Cache, code_digest, make_key
from ioctl_rework.compat.classify import Classification
from ioctl_rework.compat.memo import FileLayouts
from ioctl_rework.compat.table import CompatTable

VERDICTS_FORMAT = "compat-verdicts-1"
# The modules whose logic a kept verdict came from.
_DECIDING_MODULES = ("era.py", "table.py", "cexpr.py", "classify.py", "verdict_memo.py")


def _code_digest() -> str:
    here = Path(__file__).resolve().parent
    return code_digest(*(here / name for name in _DECIDING_MODULES))


def key(layouts: FileLayouts, table: CompatTable, relative: str) -> str:
    return make_key(VERDICTS_FORMAT, _code_digest(), table.digest, relative,
                    json.dumps(layouts.to_json(), sort_keys=True))


def get(cache: Cache | None, entry_key: str) -> list[Classification] | None:
    stored = cache.get_json(entry_key) if cache is not None else None
    return None if stored is None else [Classification.from_json(c) for c in stored]


def put(cache: Cache | None, entry_key: str, classified: list[Classification]) -> None:
    if cache is not None:
        cache.put_json(entry_key, [c.to_json() for c in classified])

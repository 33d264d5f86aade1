"""Files made for spatch from ours (the builtins of macro_builtins.py, the
copy of a rule that includes parts, rule_parts.py): each written once per
content, in the cache directory, or in the temporary one when the cache
directory cannot be written."""

import os
import tempfile
from pathlib import Path

from ioctl_rework import safe_write


def written_once(kind: str, name: str, content: bytes, cache_home: Path) -> Path:
    """CACHE_HOME/KIND/NAME holding CONTENT, written unless it already does.
    NAME should hold a digest of CONTENT: a file of another content under
    the same name is written over."""
    for directory in (cache_home / kind, Path(tempfile.gettempdir()) / f"ioctl-rework-{os.getuid()}"):
        target = directory / name
        try:
            if target.is_file() and target.read_bytes() == content:
                return target
            directory.mkdir(parents=True, exist_ok=True)
            safe_write.write_atomic(target, content)
            return target
        except (OSError, safe_write.WriteError):
            continue
    raise OSError(f"cannot write {name} in the cache directory or {tempfile.gettempdir()}")

"""Which function each converted handler is now entered through, read from
the file_operations of the two texts (not from the rule's report)."""

import re

from ioctl_rework.ctext import spans as c_spans

_LEGACY = re.compile(r"(?<![\w>])(?:\.\s*ioctl\s*=|ioctl\s*:)\s*&?\s*(\w+)")
_UNLOCKED = re.compile(r"(?<![\w>])(?:\.\s*unlocked_ioctl\s*=|unlocked_ioctl\s*:)\s*&?\s*(\w+)")
_FOPS = re.compile(r"\bstruct\s+file_operations\s+(\w+)\s*(?:\[[^\]]*\])?\s*=\s*\{")


def _initializers(text: str) -> dict[str, str]:
    code = c_spans.code_only(text)
    found = {}
    for match in _FOPS.finditer(code):
        end = c_spans.closing(code, match.end() - 1)
        found.setdefault(match.group(1), code[match.end():end])
    return found


def entry_points(old_text: str, new_text: str) -> dict[str, str]:
    """Legacy handler -> the .unlocked_ioctl that replaced it, for each
    file_operations whose `.ioctl = h` became (or gained) an `.unlocked_ioctl`."""
    old, new = _initializers(old_text), _initializers(new_text)
    entries = {}
    for fops, body in old.items():
        legacy = [m.group(1) for m in _LEGACY.finditer(body) if m.group(1) != "NULL"]
        if not legacy or _UNLOCKED.search(body) or fops not in new:
            continue
        unlocked = _UNLOCKED.search(new[fops])
        if unlocked:
            entries[legacy[0]] = unlocked.group(1)
    return entries

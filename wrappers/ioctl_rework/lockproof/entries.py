"""Which function each converted handler is now entered through, read from
the file_operations of the two texts (not from the rule's report)."""

import re

from ioctl_rework.ctext import spans as c_spans

_LEGACY = re.compile(r"(?<![\w>])(?:\.\s*ioctl\s*=|ioctl\s*:)\s*&?\s*(\w+)")
_UNLOCKED = re.compile(r"(?<![\w>])(?:\.\s*unlocked_ioctl\s*=|unlocked_ioctl\s*:)\s*&?\s*(\w+)")
_FOPS = re.compile(r"\bstruct\s+file_operations\s+(\w+)\s*(?:\[[^\]]*\])?\s*=\s*\{")


def _initializers(text: str) -> dict[str, str]:
    """Each file_operations initializer of TEXT by name; an array's by
    name[i], one per element (each element is a fops of its own: reading
    the array as one saw only its first handler)."""
    code = c_spans.code_only(text)
    found = {}
    for match in _FOPS.finditer(code):
        end = c_spans.closing(code, match.end() - 1)
        body = code[match.end():end]
        elements = _elements(body) if "[" in match.group(0) else None
        if elements:
            for i, element in enumerate(elements):
                found.setdefault(f"{match.group(1)}[{i}]", element)
        else:
            found.setdefault(match.group(1), body)
    return found


_DESIGNATOR = re.compile(r"\[[^\[\]]*\]\s*=\s*")


def _elements(body: str) -> list[str] | None:
    """The `{ ... }` elements of an array initializer BODY (each may be
    designated, `[MINOR] = { ... }`), or None when it holds anything else
    at its top level (a macro)."""
    elements, at = [], 0
    while True:
        rest = body[at:].lstrip(" \t\n,")
        if not rest:
            return elements
        at = len(body) - len(rest)
        designator = _DESIGNATOR.match(body, at)
        if designator:
            at = designator.end()
        if not body.startswith("{", at):
            return None
        end = c_spans.closing(body, at)
        elements.append(body[at + 1:end])
        at = end + 1


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

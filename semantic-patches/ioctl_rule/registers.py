"""Device registers in a busy-wait loop: not state another call sets.

A loop that waits for a status bit (`while (!(inb(STATUS) & READY))
udelay(10);`) reads the device, not memory an ioctl writes.  When the loop
never sleeps (only busy delays, register reads and writes), the BKL was
never dropped in it, so no other call ran during it under the BKL either:
the private mutex changes nothing there.  A loop that may sleep, or calls
anything else, is read as before (default-deny): under the BKL another
call could have run, and set the device, while it slept.
"""

import re

from .macros import macros_of

BUSY_WAITS = frozenset({"udelay", "ndelay", "mdelay", "cpu_relax", "barrier", "rmb", "mb",
                        "wmb"})
REGISTER_READS = frozenset("""inb inw inl inb_p inw_p inl_p readb readw readl readq
    readb_relaxed readw_relaxed readl_relaxed ioread8 ioread16 ioread32 ioread16be ioread32be
    __raw_readb __raw_readw __raw_readl""".split())
REGISTER_WRITES = frozenset("""outb outw outl outb_p outw_p outl_p writeb writew writel writeq
    iowrite8 iowrite16 iowrite32 __raw_writeb __raw_writew __raw_writel""".split())
_NOT_CALLS = frozenset({"if", "while", "for", "switch", "return", "sizeof"})
_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_MAX_EXPANSIONS = 16
# A cast of an address to a plain or __iomem pointer type: it reads nothing.
_CAST = re.compile(r"\(\s*(?:(?:const|volatile|unsigned|signed|void|char|short|int|long|u8|u16"
                   r"|u32|u64|__iomem)\s*)+\**\s*\)")


def busy_wait(file, loop):
    """Whether the text LOOP calls only busy delays and register accesses
    (directly, or through a macro of the file with one definition)."""
    text = expand(file, loop)
    if text is None:
        return False
    allowed = BUSY_WAITS | REGISTER_READS | REGISTER_WRITES | _NOT_CALLS
    return all(name in allowed for name in _CALL.findall(text))


def without_register_reads(file, expression, is_local):
    """EXPRESSION, its macros of the file expanded, with every register
    read whose address IS_LOCAL (a callable on its text) replaced by 0;
    None when a macro cannot be expanded (more than one definition)."""
    text = expand(file, expression)
    if text is None:
        return None
    out, at = [], 0
    for match in _CALL.finditer(text):
        if match.start() < at or match.group(1) not in REGISTER_READS:
            continue
        close = _closing(text, match.end() - 1)
        if close is None:
            return None
        if is_local(_CAST.sub(" ", text[match.end():close])):
            out.append(text[at:match.start()] + " 0 ")
            at = close + 1
    return "".join(out) + text[at:]


def expand(file, text):
    """TEXT with the macros of the file that are not plain constants
    expanded (each must have one definition), or None."""
    table = macros_of(file)
    for _ in range(_MAX_EXPANSIONS):
        changed = False
        for match in _NAME.finditer(text):
            name = match.group()
            texts = table.texts.get(name)
            if not texts or re.fullmatch(r"(?:\s|\d\w*|[()+\-*/%<>|&^~])*", texts[0] or ""):
                continue
            if len(texts) != 1:
                return None
            if name in table.function_like:
                replaced = _expand_call(text, match, texts[0])
                if replaced is None:
                    return None
            else:
                replaced = text[:match.start()] + "(" + texts[0] + ")" + text[match.end():]
            text, changed = replaced, True
            break
        if not changed:
            return text
    return None


def _expand_call(text, match, definition):
    """TEXT with the function-like macro use at MATCH replaced by DEFINITION
    ("(params) body") with its arguments, or None."""
    open_at = len(text[:match.end()]) + len(text[match.end():]) - len(text[match.end():].lstrip())
    if text[open_at:open_at + 1] != "(":
        return None
    close = _closing(text, open_at)
    params_end = _closing(definition, 0)
    if close is None or params_end is None:
        return None
    params = [p.strip() for p in definition[1:params_end].split(",") if p.strip()]
    args = _arguments(text[open_at + 1:close])
    if len(params) != len(args) or any(p in ("...", "__VA_ARGS__") for p in params):
        return None
    body = definition[params_end + 1:]
    for param, arg in zip(params, args):
        body = re.sub(r"\b%s\b" % re.escape(param), lambda _: "(" + arg + ")", body)
    return text[:match.start()] + "(" + body + ")" + text[close + 1:]


def _arguments(inner):
    parts, depth, start = [], 0, 0
    for i, char in enumerate(inner):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    last = inner[start:].strip()
    return parts + [last] if last or parts else []


def _closing(text, start):
    depth = 0
    for offset in range(start, len(text)):
        depth += text[offset] == "("
        depth -= text[offset] == ")"
        if depth == 0:
            return offset
    return None

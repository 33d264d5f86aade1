"""A converted handler that an entry the run left may still store.

The rule converts a handler for the entries it reads.  An entry it does
not read -- one a macro of the file writes (`#define FOPS_ENTRY(p)
.ioctl = p##_ioctl,` used as `FOPS_ENTRY(me)`, a macro declaring a whole
fops) -- stays `.ioctl`, and if it may name a handler the run converted
for another entry, the legacy member would hold the new signature: the
VFS would call it with the inode where the file is.  The accounting lists
such an entry afterwards; this check, before anything is written, puts
the handler's files back.  Default-deny: a pasted name may be any handler
its literal parts allow; a macro parameter, any name the macro's uses
pass (any converted handler at all where a use cannot be read).
"""

import re
from collections.abc import Callable

from ioctl_rework.convert import accounting
from ioctl_rework.ctext import ioctl_tokens, macro_names
from ioctl_rework.ctext import spans as c_spans

_WORD = re.compile(r"[A-Za-z_]\w*")


def check(changes: dict[str, tuple[bytes, bytes]], converted: dict[str, str],
          reject: Callable[[str, str, str], None]) -> None:
    """For each live legacy entry or assignment left in the new text of
    CHANGES that may store a handler of CONVERTED (name -> its file),
    reject(handler's file, handler, reason)."""
    if not converted:
        return
    for rel in sorted(changes):
        old, text = (t.decode("utf-8", "surrogateescape") for t in changes[rel])
        if "ioctl" not in text:
            continue
        lines = None            # new line -> old line, when one is named
        for token in _live_entries(text):
            may_store = _may_store(text, token)
            for name in sorted(converted):
                if may_store(name):
                    lines = lines or accounting.line_map(old, text)
                    where = f"{rel}:{lines.get(token.line, token.line)}"
                    shown = token.statement.strip()
                    reject(converted[name], name, (
                        f"the legacy entry at {where} (`{shown}`), which this run does not "
                        f"convert, may store {name}: converted, it would sit in .ioctl with "
                        "the new signature; convert that entry by hand, then the handler"))


def _live_entries(text: str):
    """The entries and run-time assignments of .ioctl that TEXT still
    compiles: a multi-kernel driver's legacy half (built only without the
    new member) and the member of another structure aside."""
    code = c_spans.code_only(text)
    for token in ioctl_tokens.tokens(text):
        if token.use not in (ioctl_tokens.Use.ENTRY, ioctl_tokens.Use.ASSIGNMENT):
            continue
        if c_spans.legacy_half(text, token.line) or \
                ioctl_tokens.of_file_operations(code, token) is False:
            continue
        yield token


def _may_store(text: str, token: ioctl_tokens.Token) -> Callable[[str], bool]:
    """Whether TOKEN's value may be NAME, as a predicate on NAME."""
    params = _params(text, token.macro) if token.macro else None
    value = token.value
    if params is None and token.macro is not None:
        return lambda name: True       # a #define whose parameters cannot be read
    params = params or set()
    if "##" in value:
        pieces = [p.strip(" \t()&*") for p in value.split("##")]
        regex = "".join(r"\w*" if p in params or not _WORD.fullmatch(p) else re.escape(p)
                        for p in pieces)
        return lambda name: re.fullmatch(regex, name) is not None
    words = set(_WORD.findall(value))
    passed = words & params
    if not passed:
        return lambda name: name in words
    used = _arguments(text, token.macro)
    if used is None:
        return lambda name: True       # a use whose arguments cannot be read
    return lambda name: name in words or name in used


def _params(text: str, macro: str) -> frozenset[str] | None:
    """The parameters of MACRO's #define in TEXT (none for an object-like
    macro), None when it is not found."""
    return next((d.parameters for d in macro_names.definitions(text) if d.name == macro), None)


def _arguments(text: str, macro: str) -> set[str] | None:
    """Every word passed to MACRO by its uses in TEXT's code, or None when
    a use's arguments are not on its line or a use is in another #define
    (whose own uses would pass them)."""
    code = c_spans.code_only(text)
    found: set[str] = set()
    for match in re.finditer(rf"(?<![\w.>]){re.escape(macro)}\b", code):
        start = code.rfind("\n", 0, match.start()) + 1
        while start > 1 and code[:start - 1].rstrip(" \t").endswith("\\"):
            start = code.rfind("\n", 0, start - 1) + 1      # a continued line
        directive = re.match(r"[ \t]*#[ \t]*(\w+)[ \t]*(\w*)", code[start:])
        if directive is not None:
            if directive.group(1) in ("if", "ifdef", "ifndef", "elif", "undef") or \
                    directive.group(1) == "define" and directive.group(2) == macro:
                continue        # its own #define, a test of it
            return None         # used in another macro's body
        call = re.match(r"\s*\(([^()\n]*)\)", code[match.end():])
        if call is None:
            return None
        found |= set(_WORD.findall(call.group(1)))
    return found


def beside_the_bkl(texts: dict[str, tuple[str, str]], modules: dict[str, tuple[str, ...]],
                   converted: dict[str, str],
                   reject: Callable[[str, str, str], None]) -> None:
    """Mutex mode: a handler the run leaves on .ioctl still runs under the
    BKL, which no longer excludes a handler of its module converted to the
    private mutex.  Before, the BKL made the two exclusive; now they race
    on whatever they share.  For each live legacy entry of TEXTS (rel ->
    its text before and after the run, every file of a module the run converts in),
    each converted handler of CONVERTED (name -> file) in a file of the
    same module (MODULES: rel -> the files of its module) goes back unless
    shared_state proves the two reach nothing in common (both in one
    file; any other pairing is not proven)."""
    from ioctl_rework.ctext import shared_state

    for rel in sorted(texts):
        old, text = texts[rel]
        if "ioctl" not in text:
            continue
        lines = None            # new line -> old line, when one is named
        module = set(modules.get(rel, (rel,))) | {rel}
        for token in _live_entries(text):
            value = token.value.strip(" \t()&")
            if value in ("", "NULL", "0"):
                continue        # no handler under the BKL
            left = value if _WORD.fullmatch(value) and token.macro is None else None
            for name in sorted(converted):
                where = converted[name]
                if where not in module or name == left:
                    continue
                if left is not None and where == rel and \
                        shared_state.reach(text, name, left).disjoint:
                    continue
                shown = token.statement.strip()
                lines = lines or accounting.line_map(old, text)
                reject(where, name, (
                    f"{rel}:{lines.get(token.line, token.line)} (`{shown}`) stays on .ioctl, under the BKL, which "
                    f"does not exclude {name} once it takes the private mutex: "
                    + ("the two may share state" if left is not None and where == rel
                       else "what they share is not proven nothing")
                    + "; convert both, or neither"))

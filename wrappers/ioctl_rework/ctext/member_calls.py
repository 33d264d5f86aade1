"""Where compiled code may run a .ioctl handler through a member named
ioctl: a call (`lower->f_op->ioctl(...)`, `(*ops->ioctl)(...)`,
`fops[i].ioctl(...)`) or a copy of the member that may be called later
(`fn = file->f_op->ioctl;`), of a structure the text does not declare to
be other than a file_operations (default-deny: a member whose structure
the file does not say may be one).

Under a private mutex, such a call made by a converted handler may reach
a handler that takes the same mutex: its own file's, or its kbuild
module's.  The BKL nested; the mutex deadlocks.  A test of the member
(`if (!ops->ioctl)`, `ops->ioctl != h`) runs nothing and is no such site.
The conversion rule (-D mutex) and convert's forwarding stage both read
these sites from here.
"""

import re
from dataclasses import dataclass

from ioctl_rework.ctext import ioctl_tokens, macro_forwarding, paste_spelling, spans

_MEMBER = re.compile(r"(\.|->)\s*ioctl\b")
# What may end the object a member is taken of: `a->b.c[i]`, `(&fops)`.
_OBJECT_CHAR = re.compile(r"[\w.\[\]>\-\s]")
_TEST_AFTER = re.compile(r"(&&|\|\||\?|[!=]=)")
_TEST_BEFORE = re.compile(r"(!|&&|\|\||\?|[!=]=)$")
_KEYWORDS = {"return", "case", "else", "do"}
_CONDITION_OPEN = re.compile(r"\b(?:if|while)\s*\($")


@dataclass(frozen=True)
class MemberCall:
    """A site: LINE (1-based), the function it is in (None in a macro's
    body, or outside any function), the #define it is written in, and the
    member as written (`fp_lower->ioctl`)."""

    line: int
    function: str | None
    macro: str | None
    member: str

    def where(self) -> str:
        """The site in words: `fp_lower->ioctl (line 41)`."""
        return f"{self.member} (line {self.line})"


def calls_through_member(text: str) -> list[MemberCall]:
    """The sites of TEXT's compiled code, in order; the legacy half a
    multi-kernel driver keeps for old kernels is not compiled on a target
    with a private mutex."""
    return [use for use, test in _member_uses(text) if not test]


def calls_through_macros(text: str, rel: str, headers: dict[str, str],
                         complete: bool = False) -> list[MemberCall]:
    """The uses in TEXT (the file REL) of a macro that calls or tests a
    member named ioctl where TEXT does not spell it: a macro of HEADERS
    (path -> text, those REL includes; COMPLETE: every one it reaches), or
    one whose argument names the member (`LOWER_OP(lower, ioctl, ...)`),
    or one that may paste such a name (paste_spelling.py), each at the
    line of its use."""
    macros = [macro for path, header in sorted(headers.items()) if path != rel
              for macro in macro_forwarding.forwarding_macros(header, path)]
    code = spans.code_only(text)
    found = []
    for site in macro_forwarding.sites(text, rel, macros):
        macro = site.macro
        member = (f"the macro {macro.name} of {macro.file}" if macro.file != rel else
                  f"the macro {macro.name}") + \
            (" (its argument ioctl names the member)" if macro.parameter is not None else "")
        found.append(MemberCall(site.line, ioctl_tokens.enclosing_function(code, site.line),
                                None, member))
    lines = {call.line for call in found}
    for offset, name, why in paste_spelling.pastes_of(headers | {rel: text},
                                                      complete).sites(code):
        line = code.count("\n", 0, offset) + 1
        if line not in lines:
            lines.add(line)
            found.append(MemberCall(line, ioctl_tokens.enclosing_function(code, line), None,
                                    f"the macro {name}, which {why}"))
    return found


def tests_of_member(text: str) -> list[MemberCall]:
    """The tests of the member (`if (f->f_op->ioctl)`, `!ops->ioctl`) in
    TEXT's compiled code, read as calls_through_member reads the calls."""
    return [use for use, test in _member_uses(text) if test]


def _member_uses(text: str) -> list[tuple[MemberCall, bool]]:
    """Each use of a file_operations' ioctl member in TEXT's compiled code
    other than a designator or an assignment: (the use, whether a test)."""
    code = spans.code_only(text)
    lines = code.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    found = []
    for match in _MEMBER.finditer(code):
        line = code.count("\n", 0, match.start()) + 1
        if spans.never_compiled(text, line) or spans.legacy_half(text, line):
            continue
        begin = _object_start(code, match.start())
        before = code[:begin].rstrip()
        after = code[match.end():].lstrip()
        if before.endswith(("{", ",")) and re.match(r"=(?!=)", after) or \
                before.endswith(("{", ",")) and not after.startswith(("(", ")")):
            continue            # a designator of an initializer (.ioctl = h)
        called = after.startswith("(") or re.match(r"\)\s*\(", after)
        if not called and re.match(r"=(?!=)", after):
            continue            # an assignment of the member
        test = not called and _is_test(before, after)
        macro = _macro_of(lines, line - 1)
        base = re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)?$", code[begin:match.start()])
        token = ioctl_tokens.Token(line, ioctl_tokens.Use.CALL, lines[line - 1].strip(),
                                   base=base.group(1) if base else None)
        if ioctl_tokens.member_of_file_operations(code, token) is False:
            continue            # the member of another structure (tty_operations)
        member = " ".join(code[begin:match.end()].split()).replace(" ", "")
        function = None if macro else ioctl_tokens.enclosing_function(code, line)
        found.append((MemberCall(line, function, macro, member), test))
    return found


def _object_start(code: str, end: int) -> int:
    """Where the object whose member starts at END begins: back over names,
    `.`, `->`, subscripts and one parenthesised group before an operator."""
    i = end
    while i > 0:
        char = code[i - 1]
        if char == ")":
            j = spans.opening(code, i - 1)
            called = re.search(r"(\w+)\s*$", code[:j]) if j is not None else None
            if j is None or called and called.group(1) not in _KEYWORDS:
                break           # a call's parentheses: f(x)->ioctl ends at f
            i = j
            continue
        if char == "]":
            j = spans.opening(code, i - 1)
            if j is None:
                break
            i = j               # a subscript, whatever it holds: fops[arg % 3]
            continue
        if not _OBJECT_CHAR.match(char):
            break
        if char == "-" and code[i:i + 1] != ">":
            break               # a minus, not the arrow
        if char.isspace() and re.search(r"\w\s*$", code[:i]) and \
                not re.match(r"\s*(?:->|[.\[])", code[i:]):
            break               # `return fp->ioctl`: two words are two tokens
        i -= 1
    while i < end and code[i].isspace():
        i += 1
    return i


def _is_test(before: str, after: str) -> bool:
    """Whether the member between BEFORE and AFTER is only tested or compared."""
    if _TEST_AFTER.match(after) or _TEST_BEFORE.search(before):
        return True
    return after.startswith(")") and _CONDITION_OPEN.search(before) is not None


def _macro_of(lines: list[str], index: int) -> str | None:
    """The #define whose text holds line INDEX (0-based), if any."""
    start = index
    while start and lines[start - 1].rstrip().endswith("\\"):
        start -= 1
    match = re.match(r"\s*#\s*define\s+(\w+)", lines[start])
    return match.group(1) if match else None


# `X->ioctl != h`, `(X->ioctl) == &h`, `h == X->ioctl`, `(&h) != X.ioctl`:
# the member compared with a function named in the code.
_NAME = r"\(*\s*&?\s*\(*\s*(?<![\w.>])([A-Za-z_]\w*)\b\s*\)*"
_COMPARED_WITH = re.compile(r"(?:\.|->)\s*ioctl\s*\)*\s*[!=]=\s*" + _NAME +
                            r"(?!\s*(?:\(|->|\.|\[))")
_COMPARING = re.compile(r"(?<![\w.>])" + _NAME[len(r"\(*\s*&?\s*\(*\s*(?<![\w.>])"):] +
                        r"\s*[!=]=\s*\(*\s*[\w.>\[\]()&\s-]*?(?:\.|->)\s*ioctl\b")


def compared_with(text: str, line: int) -> set[str]:
    """The functions the members named ioctl on LINE (1-based) of TEXT's
    code are compared with (`f_op->ioctl != tty_ioctl` gives {"tty_ioctl"}),
    when every such member of the line is compared with one; else the empty
    set.  NULL is no function."""
    code = spans.code_only(text).split("\n")
    if not 0 < line <= len(code):
        return set()
    found = [m.group(1) for m in _COMPARED_WITH.finditer(code[line - 1])]
    for match in _COMPARING.finditer(code[line - 1]):
        before = code[line - 1][:match.start()].rstrip()
        if not before.endswith(("->", ".")):
            found.append(match.group(1))
    if "NULL" in found or len(found) != len(_MEMBER.findall(code[line - 1])):
        return set()
    return set(found)


# The fallback f_op_ioctl_forwarding.cocci writes where the target still has
# .ioctl: a test of either member, and the helper that calls the legacy
# member under the BKL when the lower fops has no ->unlocked_ioctl.
# The object may hold parentheses: a macro's parameter, `(lf)->f_op`.
_EITHER_MEMBER = re.compile(r"(?<![\w.>\-\])])(?P<object>[\w.\[\]>\-()]+?)\s*->\s*unlocked_ioctl"
                            r"\s*\|\|\s*(?P=object)\s*->\s*ioctl\b")
_FALLBACK_HELPER = re.compile(
    r"\(\s*const\s+struct\s+file_operations\s*\*\s*(\w+)\s*,\s*struct\s+inode\s*\*\s*(\w+)\s*,"
    r"\s*struct\s+file\s*\*\s*(\w+)\s*,\s*unsigned\s+int\s+(\w+)\s*,\s*unsigned\s+long\s+(\w+)"
    r"\s*\)\s*\{\s*int\s+(\w+)\s*;\s*if\s*\(\s*\1\s*->\s*unlocked_ioctl\s*\)\s*return\s*"
    r"\(\s*int\s*\)\s*\1\s*->\s*unlocked_ioctl\s*\(\s*\3\s*,\s*\4\s*,\s*\5\s*\)\s*;\s*"
    # --multi-kernel: the legacy call only below 2.6.36, which removed .ioctl.
    r"(?P<versioned>\6\s*=\s*-\s*ENOTTY\s*;\s*\#\s*if\s+LINUX_VERSION_CODE\s*<\s*"
    r"KERNEL_VERSION\s*\(\s*2\s*,\s*6\s*,\s*36\s*\)\s*)?"
    r"lock_kernel\s*\(\s*\)\s*;\s*\6\s*=\s*\1\s*->\s*ioctl\s*\(\s*\2\s*,\s*\3\s*,\s*\4\s*,"
    r"\s*\5\s*\)\s*;\s*unlock_kernel\s*\(\s*\)\s*;\s*(?(versioned)\#\s*endif\s*)"
    r"return\s+\6\s*;\s*\}\s*$")


def falls_back(text: str, line: int) -> bool:
    """Whether every ->ioctl on LINE (1-based) of TEXT is the forwarding
    fallback: a test of either member (`f->f_op->unlocked_ioctl ||
    f->f_op->ioctl`), or the legacy call of the helper that dispatches as
    the VFS does (->unlocked_ioctl, else ->ioctl under the BKL)."""
    code = spans.code_only(text)
    lines = code.split("\n")
    if not 0 < line <= len(lines):
        return False
    members = len(re.findall(r"->\s*ioctl\b", lines[line - 1]))
    if members and len(_EITHER_MEMBER.findall(lines[line - 1])) == members:
        return True
    function = ioctl_tokens.enclosing_function(code, line)
    for found in spans.definition_spans(text, function or ""):
        if line in found:
            body = "\n".join(lines[found.start - 1:found.stop - 1])
            return members == 1 and bool(_FALLBACK_HELPER.search(body))
    return False

"""Forwarding macros of a header of the run, written as the forwarding rule
writes a call in a function (semantic-patches/f_op_ioctl_forwarding.cocci).

spatch reads no macro body it cannot parse (2.6.9's DEFINE_ALSA_IOCTL
pastes tokens into a whole function), so a call through ->f_op->ioctl
that only a macro spells stays on a member the conversion leaves NULL.
Here each such body is rewritten by text, with the rule's semantics:

- a target that still has .ioctl (2.6.11 .. 2.6.35, and the
  HAVE_UNLOCKED_IOCTL half of --multi-kernel): the call becomes the rule's
  fallback helper, HELPER(E->f_op, I, F, C, A), defined once in the header
  before the first macro that calls it (with <linux/smp_lock.h>), and a
  test of the member tests either member (with --multi-kernel only below
  2.6.36: 2.6.36 .. 2.6.38 define HAVE_UNLOCKED_IOCTL but have no .ioctl, so
  a macro with a test is written once more for them, its test of
  ->unlocked_ioctl alone, as the rule splits a statement);
- 2.6.36 on: (int)E->f_op->unlocked_ioctl(F, C, A), and a test of the
  member tests ->unlocked_ioctl;
- on every target only a call passing the inode of the file it passes.

The helper's text is the rule's own (read from the rule file), so there is
one copy of it.  Default-deny: a macro whose every use of the member this
cannot rewrite whole keeps its refusal, and so does the whole header; a
macro whose member no reading proves (ctext/macro_forwarding: the token
ioctl other than as a member, a paste that may spell it) is refused whole.
"""

import re
from dataclasses import dataclass, field

from ioctl_rework.ctext import free_names, spans
from ioctl_rework.ctext import macro_forwarding
from ioctl_rework.ctext.macro_forwarding import ForwardingMacro
from ioctl_rework.spatch import rules

# Not the rule's stem (free_names.FORWARD_HELPER): a file of the run that
# includes this header picks the rule's helper name from the header as it
# is on disk, without this one; first_free never yields this stem.
MACRO_HELPER = "forward_ioctl_in_macro"

_MEMBER = re.compile(r"(->|\.)\s*ioctl\b")
_KEYWORDS = {"return", "case", "else", "do", "goto", "sizeof", "typeof", "__typeof__"}
# Reading E twice (a test of either member) would repeat a call or a side effect.
_SIDE_EFFECT = re.compile(r"[\w)\]]\s*\(|\+\+|--|[^=!<>]=(?!=)")
_OWN_INODE = (re.compile(r"^(.*)->f_dentry->d_inode$"),
              re.compile(r"^(.*)->f_path\.dentry->d_inode$"),
              re.compile(r"^file_inode\((.*)\)$"))


class Refused(Exception):
    """A macro body this module cannot rewrite whole: why."""


@dataclass
class HeaderRewrite:
    """The forwarding macros of one header, rewritten or refused."""

    text: str | None = None                        # the new header, when all were rewritten
    sites: list[tuple[int, str]] = field(default_factory=list)   # (line, macro) rewritten
    refused: dict[str, str] = field(default_factory=dict)        # macro -> why not
    # Where TEXT holds the forwarding helper (start, end offsets), if added.
    helper: tuple[int, int] | None = None


def helper_definition(name: str, multi_kernel: bool) -> str:
    """The forwarding helper as the rule writes it (add_helper, or
    add_helper_multi for --multi-kernel), named NAME.  In a header it is
    static inline: a static function a file that includes the header does
    not call is an unused-function warning there."""
    rule = rules.FORWARDING_RULE.read_text()
    head = ("@ add_helper_multi depends on patch && legacy_ioctl && multi_kernel @"
            if multi_kernel else
            "@ add_helper depends on patch && legacy_ioctl && !multi_kernel @")
    block = rule[rule.index(head):].split("\n@@\n", 1)[1]
    added = []
    for line in block.split("\n"):
        if not line.startswith("+"):
            break
        added.append(line[1:])
    text = "\n".join(added).rstrip("\n") + "\n"
    text = re.sub(r"\bfwd_helper\b", name, text)
    return re.sub(r"^static int ", "static inline int ", text, count=1, flags=re.M)


def rewrite_header(text: str, macros: list[ForwardingMacro], legacy_target: bool,
                   multi_kernel: bool, used: set[str]) -> HeaderRewrite:
    """TEXT (a header) with every macro of MACROS (its forwarding macros)
    that spells ->ioctl rewritten, or why not.  USED: the names taken in the header, its
    includes and the files that include it (the helper's must be free)."""
    done = HeaderRewrite()
    # A macro naming the member by its argument is refused where a use
    # names ioctl (macro_forwarding.sites), not here.
    macros = [m for m in macros if m.in_body]
    unprovable = {m.name: m.unprovable for m in macros if m.unprovable}
    code = spans.code_only(text)
    helper = free_names.first_free(MACRO_HELPER, used)
    edits = []          # (start, end, new text), in order
    firsts = []         # (offset, line) of each rewritten #define
    for match in macro_forwarding.DEFINE.finditer(code):
        name = match.group(1)
        if name not in {m.name for m in macros}:
            continue
        if name in unprovable:
            done.refused[name] = unprovable[name]
            continue
        try:
            body, lines = _rewrite_body(text, code, match.start(4), match.end(4),
                                        legacy_target, helper)
        except Refused as why:
            done.refused[name] = str(why)
            continue
        line = code.count("\n", 0, match.start()) + 1
        done.sites += [(line + n, name) for n in lines]
        old = text[match.start():match.end()]
        new = text[match.start():match.start(4)] + body
        if multi_kernel and legacy_target:
            modern, _ = _rewrite_body(text, code, match.start(4), match.end(4),
                                      legacy_target, helper, either_member=False)
            if modern != body:
                # <linux/version.h>: in the helper's block, before this macro.
                new = (f"#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\n{new}\n#else\n"
                       f"{text[match.start():match.start(4)] + modern}\n#endif")
        if multi_kernel:
            new = f"#ifdef HAVE_UNLOCKED_IOCTL\n{new}\n#else\n{old}\n#endif"
        edits.append((match.start(), match.end(), new))
        firsts.append((match.start(), line))
    missing = {m.name for m in macros} - {name for _, name in done.sites} - set(done.refused)
    for name in missing:
        done.refused[name] = "its #define was not found"
    if done.refused or not edits:
        return done
    if legacy_target:
        first_at, first_line = firsts[0]
        opened = spans.open_branches(text, first_line)
        for _, line in firsts[1:]:
            if spans.open_branches(text, line)[:len(opened)] != opened:
                done.refused = {name: "the forwarding helper would go before its first "
                                "caller's #define, inside an #if that this one is not in"
                                for _, name in done.sites}
                return done
        added = helper_definition(helper, multi_kernel) + "\n"
        lock = "" if _has_lock_header(text, opened) else "#include <linux/smp_lock.h>\n\n"
        edits.insert(0, (first_at, first_at, lock + added))
        # The edits after it do not move it: it is the first.
        done.helper = (first_at + len(lock), first_at + len(lock) + len(added))
    new_text = text
    for start, end, new in reversed(edits):
        new_text = new_text[:start] + new + new_text[end:]
    done.text = new_text
    return done


def _rewrite_body(text: str, code: str, start: int, end: int, legacy_target: bool,
                  helper: str, either_member: bool = True) -> tuple[str, list[int]]:
    """The macro body TEXT[START:END] rewritten, and the lines (from the
    #define's, 0-based) of its rewritten sites; Refused when not whole.
    EITHER_MEMBER false: a test of ->unlocked_ioctl alone where calls still go
    through the helper (2.6.36 on in --multi-kernel output)."""
    uses = [m for m in _MEMBER.finditer(code, start, end)]
    edits, lines, calls, tests = [], [], 0, []
    for use in uses:
        if use.group(1) == ".":
            raise Refused("it uses the member of a structure by value (.ioctl), whose "
                          "type the macro does not show")
        receiver_at = _postfix_start(code, use.start(), start)
        receiver = code[receiver_at:use.start()]
        object_match = re.fullmatch(r"(.*\S)\s*->\s*f_op\s*", receiver, re.S)
        if not object_match:
            raise Refused("it uses ->ioctl through a pointer that is not a file's f_op, "
                          "whose type the macro does not show")
        obj = text[receiver_at:receiver_at + len(object_match.group(1))]
        if "#" in code[receiver_at:use.end()]:
            raise Refused("it pastes or strings tokens into the call")
        call = _call_after(code, receiver_at, use.end(), end)
        line = code.count("\n", start, use.start())
        if call is not None:
            span_start, span_end, args_at, args_end = call
            args = [a.strip() for a in spans.split_top_level(text[args_at:args_end])]
            if len(args) != 4 or "#" in code[args_at:args_end]:
                raise Refused("its call through ->ioctl does not pass four arguments the "
                              "macro spells")
            inode, file, cmd, arg = args
            # As the rule: only the inode of the file passed, on every target
            # (the handler below derives it from its file).
            if not _own_inode(inode, file):
                raise Refused(f"its call passes an inode ({_flat(inode)}) that is not the "
                              f"inode of the file it passes ({_flat(file)})")
            if legacy_target:
                new = f"{helper}({obj}->f_op, {inode}, {file}, {cmd}, {arg})"
            else:
                new = f"(int){obj}->f_op->unlocked_ioctl({file}, {cmd}, {arg})"
            edits.append((span_start, span_end, new))
            calls += 1
        elif re.match(r"\s*=(?!=)", code[use.end():end]):
            continue            # an assignment of the member is no test
        else:
            if legacy_target and _SIDE_EFFECT.search(code[receiver_at:receiver_at +
                                                          len(object_match.group(1))]):
                raise Refused("it tests ->ioctl through an expression with a call or a side "
                              "effect, which testing either member would run twice")
            compared = re.match(r"\s*(!=|==)\s*NULL\b", code[use.end():end])
            if not compared and (re.match(r"\s*[!=]=", code[use.end():end]) or
                                 re.search(r"[!=]=\s*$", code[start:receiver_at])):
                raise Refused("it compares ->ioctl with something other than NULL, whose "
                              "meaning a converted lower driver changes")
            span_end = use.end() + (compared.end() if compared else 0)
            either = f"({obj}->f_op->unlocked_ioctl || {obj}->f_op->ioctl)"
            if not legacy_target or not either_member:
                new = f"{obj}->f_op->unlocked_ioctl"
                if compared:
                    new += f" {compared.group(1)} NULL"
            elif compared and compared.group(1) == "==":
                new = "!" + either
            else:
                new = either
            tests.append((receiver_at, span_end, new))
        lines.append(line)
    if not calls:
        raise Refused("it tests ->ioctl with no call through it, which cannot be followed")
    if any(s <= t[0] < e for t in tests for s, e, _ in edits):
        raise Refused("it tests ->ioctl inside the arguments of its call")
    edits += tests
    body = text[start:end]
    for s, e, new in sorted(edits, reverse=True):
        body = body[:s - start] + new + body[e - start:]
    return body, sorted(set(lines))


def _postfix_start(code: str, at: int, floor: int) -> int:
    """Where the postfix expression ending at AT (before `->ioctl`) starts."""
    i = at
    while True:
        j = _skip_back(code, i, floor)
        if j > floor and code[j - 1] in ")]":
            opening = spans.opening(code, j - 1, floor)
            if opening is None:
                return i
            i = opening
            k = _skip_back(code, i, floor)
            name = re.search(r"\w+$", code[floor:k])
            if name and name.group() not in _KEYWORDS:
                i = k - len(name.group())       # a call (or an array) before it
        else:
            name = re.search(r"\w+$", code[floor:j])
            if not name or name.group() in _KEYWORDS:
                return i
            i = j - len(name.group())
        k = _skip_back(code, i, floor)
        if code[max(floor, k - 2):k] == "->":
            i = k - 2
        elif k > floor and code[k - 1] == "." and not code[max(floor, k - 2):k - 1].isdigit():
            i = k - 1
        else:
            return i


def _skip_back(code: str, i: int, floor: int) -> int:
    while i > floor and (code[i - 1].isspace() or code[i - 1] == "\\"):
        i -= 1
    return i


def _call_after(code: str, receiver_at: int, member_end: int, end: int):
    """(start, end of the call, start, end of its arguments) when the member
    at MEMBER_END is called, directly or as (*E->f_op->ioctl)(...)."""
    start = receiver_at
    rest = member_end
    pointer = re.search(r"\(\s*\*\s*$", code[:receiver_at])
    closing = re.match(r"\s*\)", code[member_end:end])
    if pointer and closing:
        start, rest = pointer.start(), member_end + closing.end()
    opened = re.match(r"\s*\(", code[rest:end])
    if not opened:
        return None
    open_at = rest + opened.end() - 1
    close = spans.closing(code, open_at, "()")
    if close >= end:
        raise Refused("its call through ->ioctl does not close inside the macro")
    return start, close + 1, open_at + 1, close


def _own_inode(inode: str, file: str) -> bool:
    """Whether INODE is the inode of FILE, as the macro spells both."""
    inode, file = _bare(_flat(inode)), _bare(_flat(file))
    for pattern in _OWN_INODE:
        found = pattern.match(inode)
        if found and _bare(found.group(1)) == file:
            return True
    return False


def _flat(text: str) -> str:
    return re.sub(r"\s+|\\\n", "", text)


def _bare(text: str) -> str:
    """TEXT without parentheses that enclose all of it."""
    while text.startswith("(") and spans.closing(text, 0, "()") == len(text) - 1:
        text = text[1:-1]
    return text


def _has_lock_header(text: str, opened: list) -> bool:
    """Whether TEXT includes <linux/smp_lock.h> where the helper compiles."""
    for number, line in enumerate(text.split("\n"), 1):
        if re.match(r"\s*#\s*include\s*<linux/smp_lock\.h>", line) and \
                spans.open_branches(text, number) == opened[:len(spans.open_branches(text,
                                                                                     number))]:
            return True
    return False


@dataclass
class FileRewrite:
    """A file's own forwarding macros rewritten (rewrite_header), for the
    forwarding rule to read the rest of the file: MASKED is the new text
    with each line of the helper and of every rewritten #define (both
    halves of a --multi-kernel one) a comment of its own (spatch parses no
    pasting body, and the helper's fallback call is not the rule's to
    rewrite); unmask() puts them back in what the rule writes."""

    text: str
    masked: str
    lines: dict[str, str]                  # the comment -> the line it stands for
    sites: list[tuple[int, str]]           # (line of the text given, macro)


def rewrite_in_file(text: str, macros: list[ForwardingMacro], legacy_target: bool,
                    multi_kernel: bool, used: set[str]) -> FileRewrite | HeaderRewrite:
    """TEXT (a .c file) with its forwarding MACROS rewritten as a header's
    are, and masked for the rule (FileRewrite); or rewrite_header's answer
    when a macro cannot be rewritten (its refusals)."""
    done = rewrite_header(text, macros, legacy_target, multi_kernel, used)
    if done.text is None:
        return done
    new = done.text
    lines = new.split("\n")
    masked = set()
    if done.helper is not None:
        first = new.count("\n", 0, done.helper[0])
        masked |= set(range(first, first + new.count("\n", *done.helper)))
    names = {name for _, name in done.sites}
    code = spans.code_only(new)
    for match in macro_forwarding.DEFINE.finditer(code):
        if match.group(1) in names:
            first = code.count("\n", 0, match.start())
            masked |= set(range(first, first + code.count("\n", match.start(),
                                                           match.end()) + 1))
    stand_in, out = {}, list(lines)
    for number in sorted(masked):
        if not lines[number].strip():
            continue            # a blank line stays one
        mark = f"/* ioctl-rework: macro line {number + 1} */"
        while mark in new:
            mark = mark[:-2] + "* */"
        stand_in[mark] = lines[number]
        out[number] = mark
    return FileRewrite(new, "\n".join(out), stand_in, done.sites)


def unmask(text: str, rewrite: FileRewrite) -> str | None:
    """TEXT (what the rule wrote of REWRITE.masked) with the masked lines
    back, or None where one is not there once, unchanged."""
    lines = text.split("\n")
    seen = 0
    for number, line in enumerate(lines):
        if line in rewrite.lines:
            lines[number] = rewrite.lines[line]
            seen += 1
    return "\n".join(lines) if seen == len(rewrite.lines) else None

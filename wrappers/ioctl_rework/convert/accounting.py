"""Nothing left silent: every `ioctl` member of the files a run read is
accounted for after the run.

The rule and the plan record what they converted, removed or refused.
This pass reads the files again, independently of them: each `.ioctl`,
`->ioctl` or GNU `ioctl:` still live in compiled code after the run (the
rewritten text, or the old one where nothing was written) must be
explained by a record of the run at its line, or be one of the uses that
are no entry of a file_operations (the member of another structure, the
legacy half a multi-kernel driver keeps).  Anything else is listed: a
shape the rule does not convert (an entry written by a macro, a run-time
assignment with a conditional) as skipped, with the reason, and any other
use (a call through a file_operations, a read of its member) as a
failure, which makes the run's exit status 1.  An entry of a file outside
the run's paths (read because it names a handler name of the run) is
listed as outside, not converted by this run, when its handler is proven
not one the run converted; else it fails.
"""

import difflib
import os
import re
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework.ctext import candidates
from ioctl_rework.ctext import include_search, ioctl_tokens, member_calls, member_types
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.ctext.ioctl_tokens import Token, Use
from ioctl_rework.convert.summary import (HandlerRecord, HandlerStatus, Summary, TokenRecord)

# Any spelling of the member, by bytes: which files to read at all.
_ANY_MEMBER = r"(\.|->)[[:space:]]*ioctl([^[:alnum:]_]|$)|(^|[^[:alnum:]_.>])ioctl[[:space:]]*:"
# A value cast to a pointer to data (2.6.9 mptctl.c: `ioc->ioctl = (MPT_IOCTL *) mem;`).
_DATA_CAST = re.compile(r"^\(\s*(?!void\b)\w[\w\s]*\*\s*\)")


@dataclass(frozen=True)
class Accounting:
    """What the pass adds to a summary."""

    records: list[HandlerRecord]      # entries listed as skipped or failed
    tokens: list[TokenRecord]         # members that are no entry, and why


# The same test on bytes read already: the prefilter reads each file once
# for both (convert.tree).  grep reads line by line: [[:space:]] there
# never crosses a line, and a newline before or after stands for ^ or $.
_ANY_MEMBER_BYTES = re.compile(rb"(\.|->)[ \t\v\f\r]*ioctl([^A-Za-z0-9_]|$)"
                               rb"|(^|[^A-Za-z0-9_.>])ioctl[ \t\v\f\r]*:", re.MULTILINE)


def has_member(data: bytes) -> bool:
    """Whether DATA has an ioctl member in any spelling (files_with_members' test)."""
    return b"ioctl" in data and _ANY_MEMBER_BYTES.search(data) is not None


def files_with_members(paths: list[Path], root: Path) -> list[str]:
    """The .c and .h files under PATHS (relative to ROOT) with an ioctl member."""
    proc = subprocess.run(
        ["grep", "-r", "-l", "-Z", "-E", "--include=*.c", "--include=*.h",
         "--exclude-dir=.[!.]*", "--", _ANY_MEMBER, *(str(p) for p in paths)],
        capture_output=True, env={**os.environ, "LC_ALL": "C"}, check=False)
    names = [n for n in proc.stdout.split(b"\0") if n]
    return sorted({os.path.relpath(os.fsdecode(n), root) for n in names})


def account(summary: Summary, files: dict[str, tuple[bytes, bytes]],
            root: Path | None = None, paths: tuple[str, ...] | None = None) -> Accounting:
    """FILES: relpath -> (text before, text after) of every file read;
    ROOT: the tree whose headers they include, which may prove a member
    another structure's (None: each file alone); PATHS: the run's paths,
    relative to ROOT (None: every file read is the run's)."""
    entries = {(h.file, h.line) for h in summary.handlers}
    changed = {(c.file, c.line) for c in summary.changes}
    converted = {h.handler for h in summary.handlers if h.status is HandlerStatus.CONVERTED}
    records, tokens = [], []
    # The headers the files include, read once for all of them.
    one_pass = include_search.Pass() if root is not None else None
    for rel, (old, new) in sorted(files.items()):
        old_text = old.decode("utf-8", "surrogateescape")
        new_text = new.decode("utf-8", "surrogateescape")
        old_line = line_map(old_text, new_text)
        code = c_spans.code_only(new_text)
        ours = ioctl_tokens.file_operations_types(code) | candidates.structs_holding_fops(code)
        declarations = _Declarations(root, rel, new_text, one_pass)
        for token in ioctl_tokens.tokens(new_text):
            line = old_line.get(token.line)
            if line is not None and ((rel, line) in entries or (rel, line) in changed):
                continue            # the run recorded what became of it
            if c_spans.legacy_half(new_text, token.line):
                tokens.append(TokenRecord(rel, line or token.line, "legacy-half",
                                          "kept for kernels without HAVE_UNLOCKED_IOCTL"))
                continue
            explained = _not_an_entry(code, token, ours, declarations)
            if explained is None and token.use in (Use.CALL, Use.READ, Use.ASSIGNMENT) and \
                    not (token.macro or token.alias or token.spliced):
                # `disk->fops->ioctl(...)`, `sock->ops->ioctl = h;`: the file
                # alone does not say, its headers do.
                proven = member_types.other_structures(declarations.get(), token.line)
                if proven:
                    explained = ("other-structure", _other_structure(token, proven))
            if explained and explained[0] == "other-structure" and \
                    _contested(token, declarations):
                # What the file says may not be what the compiler sees: no proof.
                record = _unproven(rel, code, token, line)
                if record not in records:
                    records.append(record)
                continue
            if explained:
                tokens.append(TokenRecord(rel, line or token.line, *explained))
                continue
            record = _listed(rel, code, token, line)
            if line is not None and paths is not None and not _inside(rel, paths):
                record = _outside(record, token, new_text, converted, paths)
            if record not in records:       # two members of one line: one record
                records.append(record)
    return Accounting(records, tokens)


def _contested(token: Token, declarations: "_Declarations") -> bool:
    """Whether TOKEN, a call or read the file declares of another structure,
    is contested (member_types.contested: a kbuild flag of the file, or a
    macro call that may declare its object); only with the tree's flags."""
    return token.use in (Use.CALL, Use.READ) and declarations.has_tree() and \
        member_types.contested(declarations.get(), token.line)


def _unproven(rel: str, code: str, token: Token, line: int | None) -> HandlerRecord:
    where = line or token.line
    function = ioctl_tokens.enclosing_function(code, token.line) or "?"
    return HandlerRecord(rel, where, "?", function, HandlerStatus.FAILED,
                         f"{rel}:{where}: a call or read of a member named ioctl "
                         f"(`{token.statement}`) whose structure is unproven: the file "
                         "declares its object of another structure, but a kbuild flag of "
                         "the file or a macro call that may declare the object can make it "
                         "a file_operations, which a converted driver leaves NULL: not "
                         "converted; convert it by hand")


def _other_structure(token: Token, proven: set[str]) -> str:
    """Why TOKEN, proven a member of PROVEN, is no entry of a file_operations."""
    structures = ", ".join(sorted(proven))
    if token.use is Use.ASSIGNMENT:
        return (f"a run-time assignment to the ioctl of a struct {structures} (its "
                f"declarations say so), not a file_operations (`{token.statement}`)")
    return f"a member of struct {structures} (its headers say so), not a file_operations"


def _inside(rel: str, paths: tuple[str, ...]) -> bool:
    """Whether REL is under one of the run's PATHS (relative to the root)."""
    return any(p in ("", ".") or rel == p or rel.startswith(p.rstrip("/") + "/")
               for p in paths)


def _outside(record: HandlerRecord, token: Token, text: str, converted: set[str],
             paths: tuple[str, ...]) -> HandlerRecord:
    """RECORD of a legacy entry in a file outside the run's PATHS (read
    because it names a handler name of the run: a static function of the
    same name elsewhere, net/socket.c's sock_ioctl).  The run does not
    convert it, and says so (OUTSIDE), where its handler is provably not one
    the run converted: a function its own file defines, or a name the run
    converted nowhere.  A handler the file does not define, of a name the
    run converted, may be that very function, which this legacy entry would
    call with the old arguments: FAILED, in those words."""
    if record.status is not HandlerStatus.FAILED or \
            token.use not in (Use.ENTRY, Use.ASSIGNMENT):
        return record
    what = "an .ioctl entry" if token.use is Use.ENTRY else "a run-time assignment of .ioctl"
    where = (f"{what} of a file outside this run's paths ({', '.join(paths)}), "
             f"read because it names a handler name of the run (`{token.statement}`)")
    directory = os.path.dirname(record.file) or "."
    name = record.handler
    if not re.fullmatch(r"[A-Za-z_]\w*", name or ""):
        return replace(record, reason=f"{where}: its handler is no plain name, which may "
                                      "be one this run converted: convert it by hand, or "
                                      f"run convert over {directory} with the run's paths")
    own = bool(c_spans.definition_spans(text, name)) and not re.search(
        rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}\b", text, re.M)
    if own or name not in converted:
        whose = (f"its {name} is the one this file defines" if own else
                 f"this run converted no handler named {name}")
        return replace(record, status=HandlerStatus.OUTSIDE,
                       reason=f"{where}; {whose}: not converted by this run; "
                              f"run convert over {directory} to convert it")
    return replace(record, reason=f"{where}; this file does not define {name}: it may be the "
                                  f"{name} this run converted, which this legacy entry would "
                                  "call with the old arguments; run convert over "
                                  f"{directory} together with the run's paths")


def line_map(old: str, new: str) -> dict[int, int]:
    """Line of NEW -> line of OLD: the lines the run left as they were, and
    a line it rewrote to the old line it resembles most (a call that now
    stores into a temporary is still the old call).  A line with no
    counterpart is one the run wrote."""
    a, b = old.split("\n"), new.split("\n")
    if a == b:
        return {n: n for n in range(1, len(a) + 1)}
    mapping = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b,
                                                       autojunk=False).get_opcodes():
        if tag == "equal":
            mapping.update({j1 + k + 1: i1 + k + 1 for k in range(i2 - i1)})
        elif tag == "replace":
            for j in range(j1, j2):
                scores = [(difflib.SequenceMatcher(None, a[i].split(), b[j].split()).ratio(), i)
                          for i in range(i1, i2)]
                best, i = max(scores)
                if best >= 0.6:
                    mapping[j + 1] = i + 1
    return mapping


class _Declarations:
    """A file's member_types.Corpus (it and the headers it includes),
    read when a token first needs it."""

    def __init__(self, root: Path | None, rel: str, text: str,
                 one_pass: include_search.Pass | None = None):
        self._args = (root, rel, text, one_pass)
        self._corpus: member_types.Corpus | None = None

    def has_tree(self) -> bool:
        return self._args[0] is not None

    def get(self) -> member_types.Corpus:
        if self._corpus is None:
            self._corpus = member_types.corpus(*self._args)
        return self._corpus


def _not_an_entry(code: str, token: Token, ours: set[str],
                  declarations: _Declarations) -> tuple[str, str] | None:
    """(kind, reason) when TOKEN is no entry of a file_operations."""
    if token.use is Use.ENTRY:
        if token.struct is not None and token.struct not in ours:
            return ("other-structure", f"the ioctl of a struct {token.struct}, "
                                       "not a file_operations")
        typedef = token.holder.typedef if token.holder is not None else None
        if token.struct is None and typedef is not None and typedef not in ours:
            # `static snd_pcm_ops_t ops = { .ioctl = snd_pcm_lib_ioctl }`:
            # another structure only when its typedef is read (member_types).
            structure = member_types.other_typedef_structure(declarations.get(), typedef)
            if structure is not None and structure not in ours:
                return ("other-structure", f"the ioctl of a {typedef} ({token.holder.name}), "
                                           f"a typedef of struct {structure}, "
                                           "not a file_operations")
        return None
    if token.use in (Use.CALL, Use.READ) and member_calls.falls_back(code, token.line):
        return ("forward-fallback", "the fallback of a forwarded call to a lower driver "
                                    "still on .ioctl (f_op_ioctl_forwarding.cocci, a target "
                                    f"with .ioctl): `{token.statement}`")
    if ioctl_tokens.member_of_file_operations(code, token) is False:
        types = ", ".join(sorted(ioctl_tokens.declared_types(code, token.base)))
        return ("other-structure", f"a member of {token.base} ({types}), "
                                   "not a file_operations")
    if token.use is Use.ASSIGNMENT and _DATA_CAST.match(token.value):
        return ("data", f"a member named ioctl given data (`{token.statement}`)")
    if ioctl_tokens.member_of_file_operations(code, token) is None and \
            token.use in (Use.CALL, Use.READ) and not _passes_inode(token.statement):
        # tty->driver->ioctl(tty, file, cmd, arg): the file does not say
        # which structure, and nothing passed is an inode.
        return ("unknown-structure", f"a member named ioctl of {token.base}, whose "
                                     "structure the file does not declare; no inode is "
                                     f"passed (`{token.statement}`)")
    return None


def _object_of(statement: str) -> str | None:
    """The object whose ioctl STATEMENT assigns: `tea->fops` of `tea->fops.ioctl = h;`."""
    found = re.search(r"([A-Za-z_][\w.\[\]]*(?:\s*->\s*[\w.\[\]]+)*)\s*(?:\.|->)\s*ioctl\b",
                      statement)
    return found[1] if found else None


def _passes_inode(statement: str) -> bool:
    """Whether a call through ioctl in STATEMENT passes something named an inode."""
    call = re.search(r"ioctl\s*\)?\s*\((.*)", statement)
    return bool(call and re.search(r"inode", call.group(1).split(",")[0]))


def _listed(rel: str, code: str, token: Token, line: int | None) -> HandlerRecord:
    """The record of a member the run left live and did not explain."""
    where = line or token.line
    function = ioctl_tokens.enclosing_function(code, token.line) or "?"
    value = re.sub(r"^&\s*", "", token.value)
    if line is None:
        return HandlerRecord(rel, token.line, "?", function, HandlerStatus.FAILED,
                             f"the run wrote a legacy ioctl member (`{token.statement}`)")
    if token.use is Use.ENTRY and token.macro:
        return HandlerRecord(rel, where, "?", value or "?", HandlerStatus.SKIPPED,
                             f"an .ioctl entry written by the macro {token.macro}, which "
                             "spatch does not expand: left alone; convert it by hand")
    if token.use is Use.ASSIGNMENT and "?" in value:
        return HandlerRecord(rel, where, token.base or "?", value, HandlerStatus.SKIPPED,
                             f"a run-time assignment with a conditional (`{token.statement}`), "
                             "which the rule does not convert: left alone; convert it by hand")
    if token.use is Use.CALL:
        # A call site is no entry: FUNCTION is not a handler of the fops it calls through.
        return HandlerRecord(rel, where, "?", function, HandlerStatus.FAILED,
                             f"a call through the legacy .ioctl of a file_operations "
                             f"(`{token.statement}`), which a converted driver leaves NULL: "
                             "not converted; convert it by hand")
    what = {Use.ENTRY: "an .ioctl entry", Use.ASSIGNMENT: "a run-time assignment of .ioctl",
            Use.READ: "a use of the .ioctl member"}[token.use]
    if token.use is Use.ASSIGNMENT and \
            ioctl_tokens.member_of_file_operations(code, token) is None:
        # `tea->fops.ioctl = h;`: no spelling spatch missed; the file never
        # says the object is a file_operations, so no pass took it for one.
        what += (f" (to a member of {_object_of(token.statement) or token.base}, whose "
                 "structure the file does not declare, so the run did not take it for a "
                 "file_operations)")
    elif token.use is not Use.READ:
        what += f" ({ioctl_tokens.spelling(token)})"
    return HandlerRecord(rel, where, token.base or "?", token.handler or value or function,
                         HandlerStatus.FAILED,
                         f"{what} the run neither converted nor explained "
                         f"(`{token.statement}`): convert it by hand")

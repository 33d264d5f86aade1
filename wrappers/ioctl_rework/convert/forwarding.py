"""Calls through a file's ->ioctl follow the conversion (f_op_ioctl_forwarding.cocci).

A stacking driver forwards a command to the file below it through that
file's operations.  Once the lower driver is converted, its .ioctl is
NULL; so every file of the run that calls through a file_operations'
->ioctl runs the forwarding rule on its text after the conversion: the
call goes through ->unlocked_ioctl, or the site is a failure, with its
file, line and reason (the run's exit status is then 1).

Where the target still has .ioctl (2.6.11 .. 2.6.35, and --multi-kernel's
HAVE_UNLOCKED_IOCTL half) a lower driver outside the run may still be on
it: the rule (-D legacy_ioctl) writes a static helper that dispatches as
the VFS does, ->unlocked_ioctl or else ->ioctl under the BKL, named here
with a name free in the file and every header it includes in the tree
(ctext/free_names.py; the rule sees the text alone, in a scratch copy).

A site that cannot be converted denies the whole run (denied()): the
pointer it calls through may reach the fops of any driver, so converting
any handler of the run could leave that call with a NULL .ioctl; no file
of the run is written, and each says why, naming the site.

A file the rule cannot read (spatch cannot parse it) is refused whole,
unless every call, test or copy of a member named ioctl in it is proven
to be of another structure (ctext/member_types.py: `dev->phy->ioctl(...)`
of an atmphy_ops): then it has nothing to forward.

Two kinds of site are listed and deny nothing: the VFS's own dispatch
(vfs_dispatch.py), and a comparison of the member with a named function
(`f_op->ioctl != tty_ioctl`) when the run leaves that function legacy
(the cross-file check refuses a handler a file compares so, naming the
site): only its conversion could change what the comparison says.

With a private mutex (--lock mutex) no call through a member named ioctl
converts (ctext/member_calls.py finds them, as the conversion rule does):
it may reach a handler of its own file or kbuild module, which would take
the mutex its caller holds, so the rule leaves that file's handlers alone;
the call, left on ->ioctl, denies the run as above where the target still
has the legacy .ioctl (a converted driver it reaches would have none), and
is listed where it does not (the refused file cannot build there).
"""

import difflib
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ioctl_rework.cache import Cache, make_key

from ioctl_rework.convert import accounting, macro_bodies, vfs_dispatch
from ioctl_rework.convert.summary import ChangeRecord, HandlerRecord, HandlerStatus
from ioctl_rework.ctext import candidates, free_names, include_search, member_calls
from ioctl_rework.ctext import macro_forwarding, member_types
from ioctl_rework.patches import tidy
from ioctl_rework.patches.unified import apply_hunks
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch

FORWARDING_RULE = rules.FORWARDING_RULE
MEMBER = re.compile(r"->\s*ioctl\b")


@dataclass
class Forwarded:
    """What the rule did to the files of a run."""

    texts: dict[str, bytes] = field(default_factory=dict)    # relpath -> new text
    changes: list[ChangeRecord] = field(default_factory=list)
    refused: list[HandlerRecord] = field(default_factory=list)
    # Sites left as they are that deny nothing: the VFS dispatch, and a
    # comparison with a named function the run leaves legacy.
    listed: list[HandlerRecord] = field(default_factory=list)


# A call through the member by value (`ports[n].ioctl(`, `(*fops.ioctl)(`).
_VALUE_CALL = re.compile(rb"\.\s*ioctl\s*\)?\s*\(")


def uses_member(data: bytes) -> bool:
    """Whether DATA calls or tests a member named ioctl (lower->f_op->ioctl):
    a test alone, in a function with no call, is a site too (refused); so
    is a call by value (fops[i].ioctl(...)), which the rule follows too."""
    return candidates.uses_ioctl_member(data) or \
        b"ioctl" in data and _VALUE_CALL.search(data) is not None and bool(_mutex_sites(data))


def _member_tests(data: bytes, sites) -> list[tuple[int, str]]:
    """(line, function) of each test of the member in DATA on a line with
    no call among SITES: the tests beside them."""
    calls = {site.line for site in sites}
    found: dict[int, str] = {}
    for test in member_calls.tests_of_member(data.decode("utf-8", "surrogateescape")):
        if test.line not in calls:
            found.setdefault(test.line, test.function or test.macro or "?")
    return sorted(found.items())


def _mutex_sites(data: bytes):
    return member_calls.calls_through_member(data.decode("utf-8", "surrogateescape"))


MUTEX_REFUSAL = ("may reach a handler of its own file or kbuild module (which fops the "
                 "pointer holds is not proven), which under the private mutex would take "
                 "the mutex its caller holds: refused, with the handlers of its file; "
                 "convert it by hand")
# Where the target has no legacy .ioctl the refused file cannot compile
# there: its call, left on ->ioctl, reaches nothing and denies nothing.
MUTEX_LISTED = MUTEX_REFUSAL + " (the target has no .ioctl: the file does not build until then)"


def forward(texts: dict[str, tuple[bytes, bytes]], multi_kernel: bool,
            timeout: int, cache: Cache | None = None, jobs: int = 1,
            mutex: bool = False, converted: set[str] | None = None,
            legacy_target: bool = True, root: Path | None = None) -> Forwarded:
    """TEXTS: relpath -> (text before the run, text after the conversion)
    of each file that calls through a member named ioctl.  The rule's
    output comes from CACHE when it holds it; JOBS files run at a time.
    MUTEX (a private mutex): a file with a call through the member is
    refused at each call (listed, where the target, LEGACY_TARGET false,
    has no legacy .ioctl), and the rule is not run on it.  CONVERTED: the
    handlers the run converts (None: any may be), for the sites that only
    compare the member with a named function.  LEGACY_TARGET: the target
    still has .ioctl, so calls fall back to it (the helper's name is free
    in the headers each file includes under ROOT, the tree)."""
    done = Forwarded()
    cache = cache or Cache(None)
    args = ["-D", "patch", "-D", "report"] + (["-D", "multi_kernel"] if multi_kernel else []) \
        + (["-D", "legacy_ioctl"] if legacy_target else [])
    dispatch = {rel: vfs_dispatch.functions(rel, _text(texts[rel][0])) for rel in texts}
    held = {rel: [site for site in _mutex_sites(texts[rel][0])
                  if site.function not in dispatch[rel]]
            for rel in sorted(texts)} if mutex else {}
    for rel, sites in held.items():
        if not sites:
            continue        # no call to hold the file: the rule reads it below
        status, why, into = (HandlerStatus.FAILED, MUTEX_REFUSAL, done.refused) \
            if legacy_target else (HandlerStatus.SKIPPED, MUTEX_LISTED, done.listed)
        into += [HandlerRecord(rel, site.line, "?", site.function or site.macro or "?",
                               status, f"a call through {site.member} {why}")
                 for site in sites]
        # The tests of the member beside those calls stay with them (listed:
        # the calls are what may deny the run).
        done.listed += [HandlerRecord(rel, line, "?", function, HandlerStatus.SKIPPED,
                                      f"a test of ->ioctl beside the call through it, "
                                      f"which {why}")
                        for line, function in _member_tests(texts[rel][0], sites)]
    order = sorted(rel for rel in texts if not held.get(rel))
    helpers = _helper_names(root, {rel: texts[rel][1] for rel in order}) \
        if legacy_target else {}
    # A .c file's own macros that call through ->ioctl are rewritten as a
    # header's are; the rule reads the rest of the file, those masked.
    in_macros = {}
    for rel in order:
        rewrite = _own_macros(rel, texts[rel][1], legacy_target, multi_kernel, root)
        if isinstance(rewrite, macro_bodies.FileRewrite):
            in_macros[rel] = rewrite
        elif rewrite is not None:
            done.refused += _macro_refusals(rel, texts[rel], rewrite.refused)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(lambda rel: _cached_run(
            rel, in_macros[rel].masked.encode("utf-8", "surrogateescape")
            if rel in in_macros else texts[rel][1], args + helpers.get(rel, []), timeout,
            cache), order))
    for rel, result in zip(order, results):
        old, current = texts[rel]
        if rel in in_macros:
            current = in_macros[rel].masked.encode("utf-8", "surrogateescape")
        report, diff = spatch.split_report(result.stdout)
        if result.outcome is not spatch.Outcome.OK:
            if member_types.only_other_structures(member_types.corpus(root, rel, _text(current))):
                continue        # every use is of another structure: nothing to forward
            why = result.reason or result.outcome.value
            done.refused.append(HandlerRecord(
                rel, 1, "?", "?", HandlerStatus.FAILED,
                f"the forwarding rule could not read the file ({why}): its calls "
                "through ->ioctl are not converted"))
            continue
        old_line = accounting.line_map(_text(old), _text(current))
        sites = []
        for match in map(rules.FORWARD_LINE.match, report.split("\n")):
            site = (_old_line(_text(old), _text(current), int(match["line"]), old_line),
                    match["function"], match["what"]) if match else None
            # Two sites of one line (`f->ioctl ? f->ioctl : g`) are one record.
            if site and site not in sites:
                sites.append(site)
        # The VFS dispatch is left as it is: the rest of its file is not written either.
        entry_point = [site for site in sites if site[1] in dispatch[rel] and
                       "not the inode of" not in site[2]]
        for line, function, what in sites:
            if (line, function, what) in entry_point:
                done.listed.append(HandlerRecord(
                    rel, line, "?", function, HandlerStatus.SKIPPED,
                    f"{vfs_dispatch.REASON}: its call or test of ->ioctl is left as it is "
                    "and denies nothing"))
            elif rules.forward_refused(what):
                _refused_or_compared(done, rel, _text(old), line, function,
                                     _site_words(what), converted)
            elif entry_point:
                done.refused.append(HandlerRecord(
                    rel, line, "?", function, HandlerStatus.FAILED,
                    "a call through ->ioctl in a file of the VFS dispatch, which is not "
                    "rewritten: not converted; convert it by hand"))
            else:
                done.changes.append(ChangeRecord(rel, line, "forwarded-call", function,
                                                 function, what))
        if diff and not entry_point:
            done.texts[rel] = tidy.tidy(tidy.legacy_halves(current, apply_hunks(current, diff)))
        if rel in in_macros and not entry_point:
            _unmasked(done, rel, texts[rel], in_macros[rel], legacy_target)
    return done


def _own_macros(rel: str, data: bytes, legacy_target: bool, multi_kernel: bool,
                root: Path | None):
    """The forwarding macros REL (a .c file, DATA its text) defines itself,
    whose bodies spell a call through ->ioctl, rewritten and masked
    (macro_bodies.FileRewrite), or refused (a HeaderRewrite with its
    reasons), or None: it has none.  A macro whose member no reading
    proves (a paste) is left to its uses' refusal (macro_sites)."""
    if not rel.endswith(".c"):
        return None                 # a header's: macro_sites.written_headers
    text = _text(data)
    if "define" not in text:
        return None
    macros = [m for m in macro_forwarding.forwarding_macros(text, rel)
              if m.in_body and not m.unprovable]
    if not macros:
        return None
    used = free_names.words(text) if root is None else \
        free_names.taken(root, rel, text) | free_names.taken_by_includers(root, rel)
    return macro_bodies.rewrite_in_file(text, macros, legacy_target, multi_kernel, used)


def _macro_refusals(rel: str, texts: tuple[bytes, bytes],
                    refused: dict[str, str]) -> list[HandlerRecord]:
    """The records of REL's own macros that could not be rewritten (REFUSED:
    name -> why), at their #define's line of the text before the run."""
    old, current = map(_text, texts)
    lines = {m.name: m.line for m in macro_forwarding.forwarding_macros(current, rel)}
    old_line = accounting.line_map(old, current)
    return [HandlerRecord(rel, old_line.get(lines.get(name, 1), lines.get(name, 1)), "?", name,
                          HandlerStatus.FAILED,
                          f"macro {name} ({rel}) calls or tests ->ioctl, and its body cannot "
                          f"be rewritten ({why}): convert it by hand")
            for name, why in sorted(refused.items())]


def _unmasked(done: Forwarded, rel: str, texts: tuple[bytes, bytes],
              rewrite: "macro_bodies.FileRewrite", legacy_target: bool) -> None:
    """REL's text with its own macros rewritten put back into what the rule
    wrote of the masked text, and a record for each site of theirs; a
    refusal where the rule changed a masked line."""
    old, current = map(_text, texts)
    written = done.texts.get(rel)
    new = macro_bodies.unmask(_text(written) if written is not None else rewrite.masked,
                              rewrite)
    old_line = accounting.line_map(old, current)
    if new is None:
        done.texts.pop(rel, None)
        done.refused.append(HandlerRecord(
            rel, 1, "?", "?", HandlerStatus.FAILED,
            "the forwarding rule changed a line of the file's own forwarding macros, "
            "which were rewritten apart: its calls through ->ioctl are not converted"))
        return
    done.texts[rel] = new.encode("utf-8", "surrogateescape")
    done.changes += [ChangeRecord(rel, old_line.get(line, line), "forwarded-call", name, name,
                                  "the macro's call through ->ioctl forwards through "
                                  "->unlocked_ioctl" + (" or falls back to ->ioctl"
                                                       if legacy_target else ""))
                     for line, name in rewrite.sites]


def _site_words(what: str) -> str:
    """A refused site in words: the rule says what the site does (passes an
    inode, tests or copies the member) or why its file cannot take it."""
    if what.startswith("passes"):
        return f"a call through ->ioctl {what}"
    if what.startswith(("tests", "copies")):
        return f"a use of ->ioctl that {what}"
    return f"a call or test of ->ioctl: {what}"


def _old_line(old: str, current: str, line: int, mapping: dict[int, int]) -> int:
    """The line of OLD (the text before the run) of LINE of CURRENT, which
    the rule read: LINE_MAP's, or, for a line the conversion rewrote past
    recognition (a pushed-down return), the old line most like it among
    those that use a member named ioctl, as every site does."""
    if line in mapping:
        return mapping[line]
    lines = current.split("\n")
    if not 0 < line <= len(lines):
        return line
    words = lines[line - 1].split()
    scored = [(difflib.SequenceMatcher(None, candidate.split(), words).ratio(), -number)
              for number, candidate in enumerate(old.split("\n"), 1)
              if MEMBER.search(candidate)]
    return -max(scored)[1] if scored else line


def _helper_names(root: Path | None, texts: dict[str, bytes]) -> dict[str, list[str]]:
    """REL -> -D forward_helper=NAME for each of TEXTS (REL -> its text
    after the conversion): the helper's name, free in that text, in the
    headers REL includes under ROOT, and in the tree's files that include
    REL (a .c file #included elsewhere).  One search of the tree for them
    all, each header read once."""
    if root is None:
        used = {rel: free_names.words(_text(data)) for rel, data in texts.items()}
    else:
        including = free_names.includers(root, sorted(texts))
        one_pass = include_search.Pass()
        used = {rel: free_names.taken(root, rel, _text(data), one_pass) |
                free_names.taken_by_includers(root, rel, including[rel], one_pass)
                for rel, data in texts.items()}
    return {rel: ["-D", "forward_helper=" + free_names.first_free(free_names.FORWARD_HELPER,
                                                                  names)]
            for rel, names in used.items()}


def _refused_or_compared(done: Forwarded, rel: str, old: str, line: int, function: str,
                         why: str, converted: set[str] | None) -> None:
    """A site the rule refused: where it only compares the member with
    named functions the run leaves legacy, it keeps its meaning and is
    listed; anything else is refused (denied() reads it)."""
    names = member_calls.compared_with(old, line)
    if names and converted is not None and not names & converted:
        done.listed.append(HandlerRecord(
            rel, line, "?", function, HandlerStatus.SKIPPED,
            f"compares ->ioctl with {', '.join(sorted(names))}, which the run leaves "
            "legacy: the comparison keeps its meaning; left as it is"))
    elif names:
        converted_here = sorted(names & converted) if converted is not None else sorted(names)
        done.refused.append(HandlerRecord(
            rel, line, "?", function, HandlerStatus.FAILED,
            f"{why} (it compares ->ioctl with {', '.join(converted_here)}, which the run "
            "converts: the comparison would change its meaning)"))
    else:
        done.refused.append(HandlerRecord(rel, line, "?", function, HandlerStatus.FAILED, why))


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def denied(done: Forwarded, files: Iterable[str]) -> dict[str, str]:
    """FILES of the run -> why each is left as it was, when DONE holds a
    call through ->ioctl that could not be converted; {} when it holds none.
    Which fops such a call reaches is not known, so no handler is spared."""
    if not done.refused:
        return {}
    sites = sorted(done.refused, key=lambda r: (r.file, r.line))
    first = sites[0]
    named = f"{first.file}:{first.line} ({first.handler})" + \
        (f" and {len(sites) - 1} more" if len(sites) > 1 else "")
    reasons = {}
    for rel in files:
        own = next((r for r in sites if r.file == rel), None)
        if own is not None:
            reasons[rel] = (f"the call or test through ->ioctl at {rel}:{own.line} "
                            f"({own.handler}) could not be converted ({own.reason}): the "
                            "file is left as it was, and so is every other file of the run")
        else:
            reasons[rel] = (f"left as it was: the call or test through ->ioctl at {named} "
                            f"could not be converted ({first.reason}), and it may reach the "
                            "fops of any "
                            "driver, this one's too (converted, its .ioctl would be NULL "
                            "there and every command forwarded to it would fail); no "
                            "handler of the run is converted")
    return reasons


FORMAT = "forwarding/1"
_CACHEABLE = (spatch.Outcome.OK,)


def _cached_run(rel: str, data: bytes, args: list[str], timeout: int,
                cache: Cache) -> spatch.SpatchResult:
    """The rule on DATA through CACHE: the rule sees the text alone, under a name made
    from REL's, so these decide its output (with the rule's Python: rules_digest)."""
    name = spatch.safe_name(rel)
    key = make_key(FORMAT, rules.rules_digest(), rules.macros_digest(),
                   spatch.version(), name, hashlib.sha256(data).hexdigest(), *args)
    stored = cache.get_json(key)
    if stored is not None:
        return spatch.SpatchResult(Path(name), spatch.Outcome.OK, stored, "", 0.0)
    result = spatch.run_on_text(FORWARDING_RULE, rel, data, args, timeout)
    if result.outcome in _CACHEABLE:
        cache.put_json(key, result.stdout)
    return result

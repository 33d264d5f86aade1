"""`convert --compat`: add .compat_ioctl where the classifier clears a
converted handler, and say why everywhere else.

The conversion rule converts; then each converted handler is classified
on the legacy text (where its body and commands are), and
semantic-patches/add_compat_ioctl.cocci adds the entry to the converted
text for the same-handler and compat-ptr fops only.  A line is recorded as
added only when it is in the rule's output.
"""

import hashlib
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework import settings
from ioctl_rework.cache import Cache, make_key
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.patches import tidy
from ioctl_rework.compat import Classification, CompatClass, classify_files
from ioctl_rework.patches.unified import apply_hunks
from ioctl_rework.ctext.spans import code_only

ADD_RULE = paths.rules_dir() / "add_compat_ioctl.cocci"
COMPAT_PTR_IOCTL = (5, 5, 0)        # the first kernel with compat_ptr_ioctl()
_LISTS = {CompatClass.SAME_HANDLER: "same_handler", CompatClass.COMPAT_PTR: "compat_ptr",
          CompatClass.NEEDS_TRANSLATION: "needs_translation", CompatClass.UNKNOWN: "unknown",
          CompatClass.TRANSLATED: "unknown", CompatClass.TABLE_PASSES: "unknown"}


@dataclass(frozen=True)
class CompatDecision:
    file: str
    fops: str
    handler: str
    classification: Classification
    added: str | None           # the .compat_ioctl line written, or None

    def describe(self, target: settings.Target | None = None) -> str:
        """The class, and the .compat_ioctl added, or why none and what a
        32-bit process then gets on TARGET (None: not said)."""
        text = self.classification.describe()
        if self.added:
            return f"{text}; added {self.added.rstrip(',')}"
        gets = f": {without_compat(target)}" if target is not None else ""
        if self.classification.compat_class.adds_compat:
            return f"{text}; not added: {self.classification.reason}{gets}"
        return (f"{text}; no .compat_ioctl (one is added only where 32-bit callers are "
                f"proven to share the handler){gets}")


# The first kernel whose compat_sys_ioctl keeps no table of its own (6.1's
# fs/ioctl.c: .compat_ioctl, or -ENOTTY); fs/compat_ioctl.c had one before.
_NO_COMPAT_TABLE = (6, 0, 0)


def without_compat(target: settings.Target) -> str:
    """What a 32-bit process's ioctl gets on TARGET from a file_operations
    without .compat_ioctl, for a command the VFS does not answer itself."""
    if target.version >= _NO_COMPAT_TABLE:
        return (f"on {target} a 32-bit process gets -ENOTTY for each of its commands, "
                "since compat_sys_ioctl calls only .compat_ioctl and the kernel keeps no "
                "compat table")
    return (f"on {target} a 32-bit process gets what the kernel's own compat table "
            "(fs/compat_ioctl.c, while it has one) gives: the handler for a command it lists as compatible, "
            "its translation for one it translates, an error for every other command "
            "(-EINVAL on 2.6 kernels, -ENOTTY later)")


def expected_line(compat_class: CompatClass, entry: str, target: settings.Target) -> str:
    """The .compat_ioctl line add_compat_ioctl.cocci writes for ENTRY."""
    if compat_class is CompatClass.SAME_HANDLER:
        return f".compat_ioctl = {entry},"
    if target.version >= COMPAT_PTR_IOCTL:
        return ".compat_ioctl = compat_ptr_ioctl,"
    return f".compat_ioctl = {re.sub(r'(_unlocked)?(_ioctl)?$', '', entry)}_compat_ioctl,"


def _occurrences(text: bytes, line: str) -> int:
    """How often TEXT has the entry LINE, however its `=` is aligned (tidy
    lines it up with tabs like the entries around it)."""
    member, _, value = line.partition(" = ")
    return len(re.findall(rb"%s[ \t]*=[ \t]*%s" % (re.escape(member.encode()),
                                                     re.escape(value.encode())), text))


def _copied_at(text: bytes, fops: str) -> tuple[int, str] | None:
    """(line, statement) where TEXT copies the whole of FOPS into another
    structure at run time (`x = FOPS;`, `*p = FOPS;`, memcpy(.., &FOPS, ..)),
    or None."""
    code = code_only(text.decode("utf-8", "surrogateescape"))
    name = re.escape(fops)
    found = re.search(rf"[\w\]\)]\s*=\s*\*?\s*{name}\s*;|\bmem(?:cpy|move)\s*\([^;]*?,"
                      rf"\s*&?\s*\(?\s*{name}\b", code)
    if found is None:
        return None
    line = code.count("\n", 0, found.start()) + 1
    return line, " ".join(code.split("\n")[line - 1].split())


def _entry_of(new: bytes, fops: str) -> str | None:
    """The .unlocked_ioctl of FOPS in the converted text."""
    text = new.decode(errors="replace")
    start = re.search(rf"\b{re.escape(fops)}\s*=\s*\{{", text)
    if not start:
        return None
    found = re.search(r"\.unlocked_ioctl\s*=\s*(\w+)", text[start.end():text.find("}", start.end())])
    return found.group(1) if found else None


def classify_converted(root: Path, runs: dict, options: settings.ConversionOptions, jobs: int,
                       timeout: int, cache=None) -> dict[tuple[str, str], Classification]:
    """(file, handler) -> class, for every handler the conversion converted."""
    files = [rel for rel, run in runs.items()
             if run.changed and any(d.convert for d in run.decisions)]
    found = classify_files([root / rel for rel in files], tree=root, jobs=jobs,
                           timeout=timeout, cache=cache)
    by_path = {str(root / rel): rel for rel in files}
    return {(by_path.get(c.file, c.file), c.handler): c for c in found}


def compat_cache(cache: Cache) -> Cache:
    """Where convert keeps compat results: the facts, the probes and the
    rule's additions, beside its own cache (the audit shares the first two)."""
    return cache.sibling("compat")


def add_compat(root: Path, runs: dict, options: settings.ConversionOptions, jobs: int = 2,
               timeout: int = 120, cache: Cache | None = None,
               stage=None) -> tuple[dict, list[CompatDecision]]:
    """RUNS (relpath -> FileRun) with .compat_ioctl added where it is
    proven right, and one decision per converted fops entry.  STAGE
    (stages.Stage) counts the files."""
    cache = cache or Cache(None)
    changed = [rel for rel, run in sorted(runs.items()) if run.changed]
    if stage is not None:
        stage.add(len(changed))
    classes = classify_converted(root, runs, options, jobs, timeout, cache)

    def one_file(rel: str) -> tuple[bytes, list[CompatDecision]]:
        run = runs[rel]
        wanted: dict[CompatClass, list[str]] = {}
        pending = []
        for d in (d for d in run.decisions if d.convert):
            decided = classes.get((rel, d.handler)) or Classification(
                rel, d.handler, CompatClass.UNKNOWN,
                reason=f"no definition of {d.handler} with cmd and arg parameters was found "
                       "in this file")
            copied = _copied_at(run.old, d.fops)
            if copied and decided.compat_class.adds_compat:
                decided = replace(decided, compat_class=CompatClass.UNKNOWN, reason=(
                    f"{d.fops} is copied at run time (line {copied[0]}: `{copied[1]}`): the "
                    "copy would carry the .compat_ioctl, so a 32-bit process would reach "
                    f"{d.handler} through a copy whose own handler is another, or none; "
                    "not added"))
            if options.multi_kernel and decided.compat_class.adds_compat:
                decided = replace(decided, compat_class=CompatClass.UNKNOWN,
                                  reason="--multi-kernel output: the entry exists only under "
                                         "HAVE_UNLOCKED_IOCTL, not added")
            wanted.setdefault(decided.compat_class, []).append(d.fops)
            pending.append((d, decided))
        new = _run_rule(rel, run.new, wanted, options, timeout, cache)
        found = []
        for d, decided in pending:
            entry = _entry_of(run.new, d.fops)
            line = expected_line(decided.compat_class, entry or "?", options.target)
            added = (line if decided.compat_class.adds_compat and entry
                     and _occurrences(new, line) > _occurrences(run.new, line) else None)
            if decided.compat_class.adds_compat and not added:
                decided = replace(decided, compat_class=CompatClass.UNKNOWN, reason=(
                    f"classified {decided.compat_class.value}, but add_compat_ioctl.cocci did "
                    "not add the entry (no <linux/fs.h> include to put <linux/compat.h> after, "
                    "or no .unlocked_ioctl in the fops)"))
            found.append(CompatDecision(rel, d.fops, d.handler, decided, added))
        if stage is not None:
            stage.step()
        return new, found

    # One spatch process a file, JOBS at a time: the files are independent.
    updated, decisions = dict(runs), []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for rel, (new, found) in zip(changed, pool.map(one_file, changed)):
            decisions += found
            updated[rel] = replace(runs[rel], new=new)
    return updated, decisions

ADD_FORMAT = "compat-add/1"


def _run_rule(rel: str, text: bytes, wanted: dict, options: settings.ConversionOptions,
              timeout: int, cache: Cache) -> bytes:
    if not any(c.adds_compat for c in wanted):
        return text
    args = ["-D", "patch"]
    lists: dict[str, list[str]] = {}
    for compat_class, fops in wanted.items():
        lists.setdefault(_LISTS[compat_class], []).extend(fops)
    for name, fops in lists.items():
        args += ["-D", f"{name}={','.join(fops)}"]
    if options.target.version >= COMPAT_PTR_IOCTL:
        args += ["-D", "compat_ptr_ioctl"]
    name = "source.c" if not rel.endswith(".h") else "source.h"
    # The rule sees the text alone, under NAME: nothing else decides its output.
    key = make_key(ADD_FORMAT, rules.rules_digest(), rules.macros_digest(), spatch.version(),
                   name, hashlib.sha256(text).hexdigest(), *args)
    stdout = cache.get_json(key)
    if stdout is None:
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-compat-") as tmp:
            (Path(tmp) / name).write_bytes(text)
            result = spatch.run_files(ADD_RULE, [Path(name)], args, jobs=1, timeout=timeout,
                                      cwd=Path(tmp))[0]
        if result.outcome is not spatch.Outcome.OK:
            return text
        stdout = result.stdout
        cache.put_json(key, stdout)
    if not stdout.strip():
        return text
    return tidy.tidy(apply_hunks(text, stdout))

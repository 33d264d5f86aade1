"""`ioctl-rework prove`: check a conversion's locking without trusting the rule.

Developer entry to ioctl_rework.lockproof: prove one file (legacy and
converted text) or every file of a `convert --json` summary against the
tree it was made from.  Prints one line per problem, then the counts.
"""

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from ioctl_rework import lockproof, options, safe_write
from ioctl_rework import settings
from ioctl_rework.patches import unified
from ioctl_rework.convert import modules, verification
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.lockproof.entries import entry_points
from ioctl_rework.convert.summary import SummaryError


class ProveError(Exception):
    """Bad input: a file that cannot be read, a malformed --handler."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = """\
examples:
  ioctl-rework prove drivers/char/wdt.c wdt-converted.c  legacy and converted file
  ioctl-rework prove --handler wdt_ioctl=wdt_unlocked_ioctl old.c new.c
  ioctl-rework convert --json run.json ~/linux && ioctl-rework prove --summary run.json ~/linux
  ioctl-rework prove --format json -o proof.json --summary run.json ~/linux

exit status: 0 when every converted handler is proven, 1 when one has a
lock problem or cannot be analysed, 2 on bad input.
"""
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="OLD NEW (the legacy and the converted file), or with "
                             "--summary the TREE the run converted")
    parser.add_argument("--summary", type=Path, metavar="FILE",
                        help="prove every file of this `convert --json` summary")
    options.add_target_group(parser, "lock", lock_default="the summary's, or bkl")
    parser.add_argument("--handler", action="append", default=[], metavar="H[=ENTRY]",
                        help="a converted handler and its new entry point (default: read "
                             "from the file_operations of both files; ENTRY defaults to H)")
    parser.add_argument("--rel", metavar="PATH",
                        help="the file's path in its tree, for the mutex name and its "
                             "headers (default: OLD's name, headers next to OLD)")
    parser.add_argument("--reads", action="store_true",
                        help="also count reads of shared memory as needing the lock")
    options.add_output_group(parser, FORMATS, "text")
    options.add_cache_group(parser)


FORMATS = {"text": "one line per problem or refusal",
           "json": "one record per handler: its verdict, problems and why not provable"}


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise ProveError(f"{path}: {err.strerror}") from err


def _handlers(specs: list[str]) -> dict[str, str]:
    entries = {}
    for spec in specs:
        handler, _, entry = spec.partition("=")
        if not handler.isidentifier() or (entry and not entry.isidentifier()):
            raise ProveError(f"--handler {spec!r}: want NAME or NAME=ENTRY")
        entries[handler] = entry or handler
    return entries


def _prove_pair(args) -> list[lockproof.FileProof]:
    if len(args.paths) != 2:
        raise ProveError("give OLD and NEW, or --summary FILE TREE")
    old_path, new_path = args.paths
    old, new = _read(old_path).decode("latin-1"), _read(new_path).decode("latin-1")
    rel = args.rel or old_path.name
    root = old_path.resolve().parent
    for _ in Path(rel).parent.parts:
        root = root.parent
    # Two files name no kernel: the lock is what --lock says, the BKL without it.
    conversion = settings.ConversionOptions.for_target(
        settings.DEFAULT_TARGET, lock=settings.LockMode(args.lock or "bkl"))
    lock = lockproof.lock_for_text(lockproof.LockCalls.for_options(conversion, rel), rel, old,
                                  new)
    entries = _handlers(args.handler) or entry_points(old, new)
    if not entries:
        raise ProveError(f"{new_path}: no file_operations switched from .ioctl to "
                         ".unlocked_ioctl; name the handlers with --handler")
    proofs = lockproof.prove_each(rel, old, new, entries, lock,
                                  lockproof.TextualExpander(root, rel), args.reads)
    return [lockproof.FileProof(rel, p) for p in proofs]


def _prove_summary(args) -> list[lockproof.FileProof]:
    if len(args.paths) != 1:
        raise ProveError("with --summary, give the TREE the run converted")
    tree = args.paths[0]
    if not tree.is_dir():
        raise ProveError(f"{tree}: not a directory")
    summary = summary_mod.load(args.summary)
    changes = {}
    for record in summary.changed_files:
        old = _read(tree / record.file)
        try:
            changes[record.file] = (old, unified.apply_hunks(old, record.diff).new)
        except ValueError as err:
            raise ProveError(f"{record.file}: the summary's diff does not apply to "
                             f"{tree}: {err}") from err
    try:
        target = settings.Target.parse(summary.target)
    except settings.TargetError as err:
        raise ProveError(f"{args.summary}: {err}") from err
    run = settings.resolve(args, settings.KernelTree(Path(tree), target), converts=False)
    # The lock the run took, unless --lock says otherwise.
    conversion = dataclasses.replace(
        run.conversion, lock=settings.LockMode(args.lock or summary.options.get("lock", "bkl")))
    cache = run.cache("lockproof") if run.cache_dir else None
    # Files of one kbuild module that the run rewrote share its mutex.
    in_modules = modules.plan_for(conversion.lock, tree, set(changes))
    proofs = lockproof.prove_changes(tree, changes,
                                     verification.module_lock_for(in_modules, conversion),
                                     args.reads, cache)
    return proofs + [lockproof.FileProof(p.file, lockproof.HandlerProof(p.function, "", (p,)))
                     for p in verification.module_problems(in_modules, changes)]


def _text(proofs: list[lockproof.FileProof]) -> str:
    lines = [str(problem) for problem in
             sorted((p for item in proofs for p in item.proof.problems),
                    key=lambda p: (p.file, p.line, p.message))]
    lines += [str(item.proof.unprovable) for item in proofs
              if item.proof.unprovable is not None]
    return "".join(f"{line}\n" for line in lines)


def _json(proofs: list[lockproof.FileProof]) -> str:
    def record(item: lockproof.FileProof) -> dict:
        proof = item.proof
        return {"file": item.file, "handler": proof.handler, "entry": proof.entry,
                "proven": proof.proven,
                "problems": [dataclasses.asdict(p) for p in proof.problems],
                "not_provable": proof.unprovable.reason if proof.unprovable else None}
    return json.dumps({"handlers": [record(item) for item in proofs]}, indent=2) + "\n"


def main(args) -> int:
    try:
        # An output that cannot be written is refused before the proof runs.
        settings.check_outputs(options.output_paths(args))
        proofs = _prove_summary(args) if args.summary else _prove_pair(args)
    except (ProveError, SummaryError, settings.SettingsError) as err:
        print(f"ioctl-rework prove: error: {err}", file=sys.stderr)
        return 2
    text = (_json if args.format == "json" else _text)(proofs)
    try:
        if args.output is None:
            sys.stdout.write(text)
        else:
            safe_write.write_atomic(args.output, text.encode("utf-8", "surrogateescape"))
    except safe_write.WriteError as err:
        print(f"ioctl-rework prove: error: {err}", file=sys.stderr)
        return 2
    proven = sum(p.proof.proven for p in proofs)
    problems = sum(bool(p.proof.problems) for p in proofs)
    refused = sum(p.proof.unprovable is not None for p in proofs)
    print(f"{len(proofs)} handlers: {proven} proven, {problems} with lock problems, "
          f"{refused} not provable", file=sys.stderr)
    return 0 if proven == len(proofs) else 1

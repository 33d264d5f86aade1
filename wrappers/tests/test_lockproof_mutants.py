"""lockproof catches broken conversions: mutants of correct ones.

Every correct conversion of the rule's test cases and of the fixture
drivers (pushdown, wrapper, auto, multi-kernel; BKL and mutex: each
variant's conversion as test_lockproof_conversions proves it, the same
variants: lockproof_fixture.tier_variants()) is broken four
ways, each the kind of slip a conversion makes: one unlock dropped, the
lock moved after the first statement, the lock moved after the first
return (that path now unlocks a free lock, its test runs unlocked), and
an unlock doubled.  Each mutant must be reported as a lock problem (not
merely refused).
"""

import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import lockproof
from ioctl_rework.ctext import spans as c_spans
from ioctl_rework.convert import modules, verification
from ioctl_rework.fixture import variants
from ioctl_rework.lockproof.changes import converted_handlers
from ioctl_rework.lockproof.entries import entry_points
from ioctl_rework.lockproof.purity import PURE_CALLS
from lockproof_fixture import DRIVERS, fixture_conversion, tier_variants
from test_lockproof_conversions import PROVER_REFUSES, listed_handlers, prove_case, rule_cases

_LOCK_LINE = re.compile(r"^\s*(lock_kernel\(\)|mutex_lock\(&\w+\));\s*$")
_UNLOCK_LINE = re.compile(r"^\s*(unlock_kernel\(\)|mutex_unlock\(&\w+\));\s*$")
# A call, or a statement that opens a block or governs the next one.
_STATEMENT_LINE = re.compile(r"^\s*(?:(\w+)\(.*\);|(?:if|switch|for|while)\b.*)\s*$")


def converted_lines(old: str, new: str, listed: list[str]) -> set[int]:
    """Indexes of NEW's lines inside the functions the conversion made the
    entry points (and handlers named with -D handlers=): the ones to break.
    Lock calls of other functions (a compat wrapper's own) are not the
    conversion's."""
    names = set(entry_points(old, new).values()) | set(listed)
    return {line - 1 for name in names for span in c_spans.definition_spans(new, name)
            for line in span}


def drop_unlock(lines: list[str], added: set[int]):
    for i, line in enumerate(lines):
        if i in added and _UNLOCK_LINE.match(line):
            yield f"line {i + 1} dropped", lines[:i] + lines[i + 1:]


def double_unlock(lines: list[str], added: set[int]):
    for i, line in enumerate(lines):
        if i in added and _UNLOCK_LINE.match(line):
            yield f"line {i + 1} doubled", lines[:i + 1] + [line] + lines[i + 1:]


def lock_after_first_statement(lines: list[str], added: set[int]):
    """The lock moved below the statement that follows it, when that needs
    the lock (a call) or decides whether the lock runs (if, switch, a loop)."""
    for i, line in enumerate(lines[:-1]):
        statement = _STATEMENT_LINE.match(lines[i + 1])
        if i in added and _LOCK_LINE.match(line) and statement and \
                statement.group(1) not in PURE_CALLS and not _UNLOCK_LINE.match(lines[i + 1]):
            yield f"lock at line {i + 1} moved down", \
                lines[:i] + [lines[i + 1], line] + lines[i + 2:]


def lock_after_first_return(lines: list[str], added: set[int]):
    """The lock moved below the first statement that returns after it."""
    for i, line in enumerate(lines):
        if i not in added or not _LOCK_LINE.match(line):
            continue
        for r in range(i + 1, len(lines)):
            if re.match(r"^\s*return\b", lines[r]):
                if r + 1 < len(lines) and lines[r + 1].strip() == "}":
                    r += 1
                if r + 1 < len(lines) and lines[r + 1].strip() == "}" \
                        and lines[r + 1].startswith("}"):
                    break              # the end of the function: nothing after it
                yield f"lock at line {i + 1} moved after line {r + 1}", \
                    lines[:i] + lines[i + 1:r + 1] + [line] + lines[r + 1:]
                break


MUTATIONS = (drop_unlock, double_unlock, lock_after_first_statement, lock_after_first_return)


class MutantsTest(unittest.TestCase):
    def run_mutants(self, name, old: str, new: str, prove, listed=()) -> dict[str, int]:
        counts = {m.__name__: 0 for m in MUTATIONS}
        lines = new.split("\n")
        added = converted_lines(old, new, list(listed))
        for mutation in MUTATIONS:
            for what, mutant in mutation(lines, added):
                counts[mutation.__name__] += 1
                problems, refusals = prove("\n".join(mutant))
                # A lock moved into a loop is refused as unbounded, and
                # convert rejects what the proof cannot prove: caught too.
                in_loop = [r for r in refusals if "grows without bound" in getattr(r, "reason", "")]
                with self.subTest(conversion=name, mutation=mutation.__name__, where=what):
                    self.assertTrue(problems or in_loop, f"not caught (refusals: {refusals})")
        return counts

    def test_mutants_of_the_rule_test_conversions_are_caught(self):
        totals = {m.__name__: 0 for m in MUTATIONS}
        for case, expected, options in rule_cases():
            if case.name in PROVER_REFUSES:
                continue        # refused, not proven: test_lockproof_conversions checks the words
            old = case.read_text()

            def prove(mutant, case=case, old=old, options=options):
                found = prove_case(case, old, mutant, options)
                return ([p for r in found for p in r.problems],
                        [r.unprovable for r in found if r.unprovable])

            counts = self.run_mutants(expected.name, old, expected.read_text(), prove,
                                      listed_handlers(options))
            for key, value in counts.items():
                totals[key] += value
        for key, value in totals.items():
            self.assertGreaterEqual(value, 10, f"{key}: too few mutants to mean anything")

    def test_mutants_of_the_fixture_conversions_are_caught(self):
        totals = {m.__name__: 0 for m in MUTATIONS}
        drivers = DRIVERS
        # The variants test_lockproof_conversions proves (tier_variants()),
        # from the other end, as it converts them meanwhile.
        for variant in reversed(tier_variants()):
            result = fixture_conversion(variant.options)
            texts = {rel: (old.decode("latin-1"), new.decode("latin-1"))
                     for rel, (old, new) in result.changes.items()}
            converted = converted_handlers(texts)
            for rel, entries in sorted(converted.by_file.items()):
                old, new = texts[rel]
                lock = lockproof.LockCalls.for_options(variant.options, rel)
                expander = lockproof.TextualExpander(drivers, rel)

                def prove(mutant, rel=rel, old=old, entries=entries, lock=lock,
                          expander=expander):
                    found = lockproof.prove_each(rel, old, mutant, entries, lock, expander)
                    return ([p for r in found for p in r.problems],
                            [r.unprovable for r in found if r.unprovable])

                counts = self.run_mutants(f"{variant.name}/{rel}", old, new, prove,
                                          [h for h, e in entries.items() if h == e])
                for key, value in counts.items():
                    totals[key] += value
        for key, value in totals.items():
            self.assertGreaterEqual(value, 50, f"{key}: too few mutants to mean anything")


class NegativeVariantsTest(unittest.TestCase):
    """The fixture proof's own broken conversions (kernel-fixtures/proof/negative):
    a dropped unlock is a lock problem; a wrong inode is not one, only the
    read of its derivation before the lock is."""

    def test_the_negative_fixture_variants(self):
        verdicts = {}
        for variant in variants.negative_variants():
            drivers = DRIVERS
            # What the fixture proof converts before it breaks it (variants.prepare:
            # conversion_paths, without what a mutex leaves legacy), the same
            # conversion test_lockproof_conversions proves of its base.
            changes = dict(fixture_conversion(variant.options).changes)
            with tempfile.TemporaryDirectory() as tmp:
                # A negative variant may break a driver the conversion left alone.
                shutil.copytree(drivers, tmp, dirs_exist_ok=True)
                for rel, (_, new) in changes.items():
                    (Path(tmp) / rel).write_bytes(new)
                variants.break_directory(Path(tmp), variant.broken)
                changes = {rel.name: ((drivers / rel.name).read_bytes(), rel.read_bytes())
                           for rel in Path(tmp).glob("*.c")
                           if rel.read_bytes() != (drivers / rel.name).read_bytes()}
            # The files of one kbuild module share its mutex (convert/modules.py).
            in_modules = modules.plan_for(variant.options.lock, drivers, set(changes))
            found = lockproof.prove_changes(
                drivers, changes, verification.module_lock_for(in_modules, variant.options))
            verdicts[variant.name] = sorted(str(p) for r in found for p in r.proof.problems)
        self.assertEqual(len(verdicts["negative-dropped-unlock"]), 1)
        self.assertRegex(verdicts["negative-dropped-unlock"][0],
                         r"^fx_minor.c:\d+: fx_minor_ioctl: return at line \d+ leaves the BKL held$")
        # The wrong inode itself only the boot proof sees; its derivation reads
        # the superblock's root before the lock, which early_reads.py's
        # default-deny list of what may be read there does not hold.
        self.assertEqual(len(verdicts["negative-wrong-inode"]), 1)
        self.assertRegex(verdicts["negative-wrong-inode"][0],
                         r"^fx_minor.c:\d+: fx_minor_ioctl: declaration `struct inode \*inode = "
                         r"file_inode\(file\)->i_sb->s_root->d_inode` at line \d+ is not in the "
                         r"legacy handler and now runs before lock_kernel\(\) \(it reads the "
                         r"member s_root of what file_inode\(\) returns")
        # A mutex held while its holder sleeps is balanced: only the boot
        # proof, where the waking call never gets in, can catch it.
        self.assertEqual(verdicts["negative-mutex-held-while-sleeping"], [])


if __name__ == "__main__":
    unittest.main()

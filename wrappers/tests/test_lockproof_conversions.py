"""lockproof on what the rule really writes: every correct conversion passes.

The rule's own test cases (semantic-patches/tests, NAME.c -> NAME.res in
patch mode) and the fixture drivers converted with every option set the
fixture proof boots (fixture/variants.py) must all be proven: every
distinct variant under `make test`, a representative set under `make
check` (lockproof_fixture.tier_variants()).  A handler
the prover refused or found a problem in would be reverted by convert,
so a failure here is either a rule bug or a prover limitation to fix.
"""

import importlib.machinery
import importlib.util
import os
import re
import unittest
from unittest import mock
from pathlib import Path

from ioctl_rework import lockproof
from ioctl_rework.convert import modules, verification
from ioctl_rework.fixture import variants
from ioctl_rework.spatch import rules
from ioctl_rework.lockproof.source import Unit
import lockproof_fixture
from lockproof_fixture import DRIVERS, fixture_conversion, tier_variants

CASES = rules.RULES_DIR / "tests"


def _rule_runner():
    """semantic-patches/tests/run, which knows how a case is named and run."""
    loader = importlib.machinery.SourceFileLoader("rule_case_runner", str(CASES / "run"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def rule_cases() -> list[tuple[Path, Path, tuple[str, ...]]]:
    """Patch-mode outputs of the conversion rule that change their input:
    (input, expected output, options)."""
    runner = _rule_runner()
    found = []
    for case in sorted(CASES.glob("*.c")):
        for check in runner.checks(case)[0]:
            if check.rule.name != runner.DEFAULT_RULE or check.mode != "patch":
                continue
            if check.expected.read_text() != case.read_text():
                found.append((case, check.expected, check.options))
    return found


def case_lock(case: Path, options: tuple[str, ...]) -> lockproof.LockCalls:
    # -D module_mutex=NAME: the kbuild module's mutex, not the file's.
    module = re.search(r"module_mutex=(\w+)", " ".join(options))
    if module:
        return lockproof.LockCalls.mutex(module.group(1))
    if "mutex" in options:
        return lockproof.LockCalls.mutex(lockproof.mutex_name(case.name))
    return lockproof.LockCalls.bkl()


def listed_handlers(options: tuple[str, ...]) -> list[str]:
    match = re.search(r"handlers=(\S+)", " ".join(options))
    return match.group(1).split(",") if match else []


def prove_case(case: Path, old: str, new: str,
               options: tuple[str, ...]) -> list[lockproof.HandlerProof]:
    """The proofs of the handlers case CASE converts (OLD -> NEW) with OPTIONS."""
    lock = case_lock(case, options)
    results = lockproof.prove_changes(CASES, {case.name: (old.encode(), new.encode())},
                                      lambda rel: lock)
    # A handler named with -D handlers= has its fops in another file, or
    # its definition (not part of the case).
    listed = [h for h in listed_handlers(options) if Unit(case.name, old).definitions(h)]
    elsewhere = set(listed_handlers(options)) - set(listed)
    more = lockproof.prove_each(case.name, old, new, {h: h for h in listed},
                                lock, lockproof.TextualExpander(CASES, case.name))
    return [r.proof for r in results if r.proof.handler not in elsewhere] + more


# Conversions the prover refuses, and the words it must say: a local or
# parameter named like the lock function, which the rule wraps, reads to
# the prover as a use of the lock it cannot follow.  Convert then leaves
# the handler alone, a refusal with a reason.
PROVER_REFUSES = {"lock_kernel_local.c": "lock_kernel is used other than called",
                  "unlock_kernel_parameter.c": "unlock_kernel is used other than called"}


class RuleCasesTest(unittest.TestCase):
    def test_every_conversion_of_the_rule_tests_is_proven(self):
        proven = 0
        for case, expected, options in rule_cases():
            old, new = case.read_text(), expected.read_text()
            for proof in prove_case(case, old, new, options):
                with self.subTest(case=expected.name, handler=proof.handler):
                    if case.name in PROVER_REFUSES:
                        self.assertIn(PROVER_REFUSES[case.name], str(proof.unprovable or ""))
                        continue
                    self.assertEqual(list(map(str, proof.problems)), [])
                    self.assertIsNone(proof.unprovable)
                    proven += 1
        self.assertGreaterEqual(proven, 35)     # the cases above are not vacuous


class FixtureConversionsTest(unittest.TestCase):
    def test_the_fast_tier_has_every_strategy_and_lock_and_shape(self):
        every = {v.name: v.options for v in lockproof_fixture.distinct_variants()}
        chosen = [every[name] for name in lockproof_fixture.REPRESENTATIVE]   # a name gone: KeyError
        self.assertEqual({(o.strategy, o.lock) for o in chosen},
                         {(o.strategy, o.lock) for o in every.values()})
        self.assertEqual({(o.lock, o.target.inode_style) for o in chosen},
                         {(o.lock, o.target.inode_style) for o in every.values()})
        self.assertTrue(any(o.multi_kernel for o in chosen))
        # The negative variants break conversions the fast tier makes anyway.
        self.assertLessEqual({v.based_on for v in variants.negative_variants()},
                             set(lockproof_fixture.REPRESENTATIVE))
        with mock.patch.dict(os.environ, {lockproof_fixture.FULL_TIER_ENV: "1"}):
            self.assertEqual(len(tier_variants()), len(every))
        with mock.patch.dict(os.environ, {lockproof_fixture.FULL_TIER_ENV: ""}):
            self.assertEqual(len(tier_variants()), len(lockproof_fixture.REPRESENTATIVE))

    def test_every_fixture_conversion_is_proven(self):
        drivers = DRIVERS
        for variant in tier_variants():
            result = fixture_conversion(variant.options)
            # The files of one kbuild module share its mutex (convert/modules.py).
            in_modules = modules.plan_for(variant.options.lock, drivers, set(result.changes))
            results = lockproof.prove_changes(
                drivers, result.changes,
                verification.module_lock_for(in_modules, variant.options))
            converted = {h.handler for h in result.summary.handlers
                         if h.status.value == "converted"}
            with self.subTest(variant=variant.name):
                self.assertEqual({r.proof.handler for r in results}, converted)
                for r in results:
                    self.assertEqual(list(map(str, r.proof.problems)), [], r.proof.handler)
                    self.assertIsNone(r.proof.unprovable, r.proof.handler)
                self.assertGreaterEqual(len(results), 9)


if __name__ == "__main__":
    unittest.main()

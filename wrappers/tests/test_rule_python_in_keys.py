"""A rule's cached output is kept under a key that holds the Python the
rule imports (ioctl_rule, ctext: spatch.rules.rules_digest), not the
rule's text alone: a change to that Python is never answered from a run
made with the old one.  The conversion rule's cache already had it; the
forwarding rule, add_compat_ioctl and the audit's rule runs keyed only
their rule file's text."""

import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.audit import scan
from ioctl_rework.compat import apply
from ioctl_rework.convert import forwarding
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch


class KeysSeen:
    """A cache that holds nothing and notes every key asked for."""

    enabled = True

    def __init__(self):
        self.keys = []

    def get_json(self, key):
        self.keys.append(key)
        return "kept"

    def put_json(self, key, value):
        pass


class KeyTest(unittest.TestCase):
    def keys_under(self, digest: str, ask) -> list[str]:
        cache = KeysSeen()
        with mock.patch.object(rules, "rules_digest", return_value=digest):
            ask(cache)
        return cache.keys

    def assert_python_in_key(self, ask):
        first, again, other = (self.keys_under(d, ask) for d in ("one", "one", "two"))
        self.assertTrue(first)
        self.assertEqual(first, again)
        self.assertNotEqual(first, other)

    def test_forwarding_rule(self):
        self.assert_python_in_key(
            lambda cache: forwarding._cached_run("drivers/a.c", b"int x;\n", ["-D", "report"],
                                                 10, cache))

    def test_add_compat_rule(self):
        wanted = {apply.CompatClass.SAME_HANDLER: ["a_fops"]}
        options = mock.Mock()
        options.target.version = (2, 6, 11)
        with mock.patch.object(apply, "COMPAT_PTR_IOCTL", (5, 4, 0)):
            self.assert_python_in_key(
                lambda cache: apply._run_rule("drivers/a.c", b"int x;\n", wanted, options, 10,
                                              cache))

    def test_audit_rule_runs(self):
        for rule in (rules.CONVERSION_RULE, rules.FORWARDING_RULE):
            with self.subTest(rule.name):
                run = scan.RuleRun("legacy", rule, ("-D", "report"), None, None)
                candidate = mock.Mock(path=Path("drivers/a.c"), digest="d")
                self.assert_python_in_key(
                    lambda cache: cache.get_json(scan._cache_key(run, candidate,
                                                                 scan._rule_digest(run))))


if __name__ == "__main__":
    unittest.main()

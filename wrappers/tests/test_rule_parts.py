"""A rule kept in parts (rule_parts.py): the parts it includes, the copy
spatch is given so that it finds them from any working directory, the
digests that must change with a part, and the order spatch 1.1.1 runs
included rules in, which the conversion rule's list of parts relies on."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.spatch import rule_parts, rules
from ioctl_rework.spatch import runner as spatch

# Each part prints its name, once per file, in report mode.
PART = """virtual report

@script:python depends on report@
@@
import sys
sys.stdout.write("%s\\n")
"""

MAIN = """// SPDX-License-Identifier: GPL-2.0-only
virtual report

#include "parts/second.cocci"
#include "parts/first.cocci"

@script:python depends on report@
@@
import sys
sys.stdout.write("main\\n")
"""


class RulePartsTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        patcher = mock.patch.dict(os.environ, {"XDG_CACHE_HOME": str(self.dir / "cache")})
        patcher.start()
        self.addCleanup(patcher.stop)
        rule_parts._copy.cache_clear()
        self.rules = self.dir / "rules"
        (self.rules / "parts").mkdir(parents=True)
        for name in ("first", "second"):
            (self.rules / "parts" / f"{name}.cocci").write_text(PART % name)
        self.rule = self.rules / "main.cocci"
        self.rule.write_text(MAIN)
        self.elsewhere = self.dir / "tree"
        self.elsewhere.mkdir()
        (self.elsewhere / "a.c").write_text("int a;\n")

    def run_spatch(self, sp_file: Path) -> subprocess.CompletedProcess:
        return subprocess.run([spatch.SPATCH, "--sp-file", str(sp_file), "-D", "report",
                               "--very-quiet", "--python", sys.executable, "a.c"],
                              cwd=self.elsewhere, capture_output=True, text=True, timeout=120)

    def test_parts_are_the_includes_in_the_order_written(self):
        self.assertEqual(rule_parts.parts(self.rule),
                         [self.rules / "parts/second.cocci", self.rules / "parts/first.cocci"])

    def test_a_rule_without_parts_is_given_as_it_is(self):
        alone = self.rules / "alone.cocci"
        alone.write_text("virtual report\n@@\n@@\nint a;\n")
        self.assertEqual(rule_parts.sp_file(alone), alone)

    def test_an_include_matched_by_a_rule_is_no_part(self):
        # `#include "..."@p` below the first rule is SmPL: the copy keeps it
        # as written, and a rule with only such lines is given as it is.
        matching = '@ quoted @\nposition p;\n@@\n#include "..."@p\n'
        self.rule.write_text(MAIN + matching)
        self.assertEqual(len(rule_parts.parts(self.rule)), 2)
        self.assertTrue(rule_parts.sp_file(self.rule).read_text().endswith(matching))
        alone = self.rules / "alone.cocci"
        alone.write_text("virtual report\n" + matching)
        self.assertEqual(rule_parts.parts(alone), [])
        self.assertEqual(rule_parts.sp_file(alone), alone)
        self.assertEqual(rule_parts.sp_file(rules.FORWARDING_RULE), rules.FORWARDING_RULE)

    def test_the_copy_names_the_parts_by_absolute_path_on_the_same_lines(self):
        copy = rule_parts.sp_file(self.rule)
        self.assertNotEqual(copy, self.rule)
        old, new = MAIN.split("\n"), copy.read_text().split("\n")
        self.assertEqual(len(old), len(new))
        for before, after in zip(old, new):
            if before.startswith("#include"):
                part = self.rules.resolve() / before.split('"')[1]
                self.assertEqual(after, f'#include "{part}"')
            else:
                self.assertEqual(after, before)

    def test_spatch_finds_the_parts_from_any_directory_only_through_the_copy(self):
        alone = self.run_spatch(self.rule)
        self.assertNotEqual(alone.returncode, 0)
        self.assertIn("does not exist", alone.stdout + alone.stderr)
        copied = self.run_spatch(rule_parts.sp_file(self.rule))
        self.assertEqual(copied.returncode, 0, copied.stderr)

    def test_spatch_runs_the_last_include_first_then_the_including_file(self):
        # The conversion rule lists its parts from the last stage to the first.
        ran = self.run_spatch(rule_parts.sp_file(self.rule))
        self.assertEqual(ran.stdout.split(), ["first", "second", "main"], ran.stderr)

    def test_a_cleaned_cache_gets_the_copy_again(self):
        copy = rule_parts.sp_file(self.rule)
        copy.unlink()
        self.assertEqual(rule_parts.sp_file(self.rule), copy)
        self.assertTrue(copy.is_file())

    def test_make_cocci_gets_the_same_file(self):
        out = subprocess.run([sys.executable, "-m", "ioctl_rework.spatch.rule_parts", str(self.rule)],
                             capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONPATH": str(Path(rules.__file__).parents[2])})
        self.assertEqual(out.stdout.strip(), str(rule_parts.sp_file(self.rule)))

    def test_the_digest_changes_with_a_part(self):
        package = self.rules / "parts"
        (package / "__init__.py").write_text("")
        (self.rules / "macros.h").write_text("")
        before = rules.rules_digest(self.rules)
        (package / "first.cocci").write_text(PART % "changed")
        rules.rules_digest.cache_clear()        # read once a process
        self.assertNotEqual(rules.rules_digest(self.rules), before)

    def test_the_conversion_rule_and_its_parts(self):
        found = rule_parts.parts(rules.CONVERSION_RULE)
        self.assertGreater(len(found), 1)
        for part in found:
            self.assertEqual(part.parent, rules.RULES_DIR / "ioctl_rule", part)
            self.assertTrue(part.is_file(), part)


if __name__ == "__main__":
    unittest.main()

"""Tests for semantic-patches/macros.h, the hints every spatch run gets.

Each family of the file has a rule case, semantic-patches/tests/macro_NAME.c,
that spatch parses whole with the file and only in part without any one of
the family's #defines: every entry is needed by the file shape it names.
And every command that runs spatch (audit, convert, check) passes the file,
while prove runs no spatch at all.
"""

import json
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.spatch import rule_parts, rules
from ioctl_rework.spatch import runner as spatch
from test_check_repo import GitRepo, fixture

TESTS = rules.RULES_DIR / "tests"
FAMILY = re.compile(r"/\* Family: ([\w-]+)\.")
RULE_HEADER = re.compile(r"^// rule: (\S+)$", re.MULTILINE)


def _have_spatch() -> bool:
    return shutil.which(spatch.SPATCH) is not None


def families(text: str) -> dict[str, list[str]]:
    """The #defines of TEXT (each with its continuation lines) by the
    family named in the comment before them; None collects the orphans."""
    found: dict[str | None, list[str]] = {}
    current, lines, i = None, text.split("\n"), 0
    while i < len(lines):
        match = FAMILY.search(lines[i])
        if match:
            current = match.group(1)
        if lines[i].startswith("#define"):
            start = i
            while lines[i].endswith("\\"):
                i += 1
            found.setdefault(current, []).append("\n".join(lines[start:i + 1]))
        i += 1
    return found


def parse_errors(case: Path, macro_file: Path) -> tuple[int, ...]:
    """The lines of CASE spatch cannot parse when running the case's rule
    in report mode, as the wrappers run it, with MACRO_FILE."""
    rule = rules.RULES_DIR / RULE_HEADER.search(case.read_text()).group(1)
    proc = subprocess.run(
        [spatch.SPATCH, "--sp-file", str(rule_parts.sp_file(rule)), "--verbose-parsing", "-D", "report",
         *rules.spatch_options(rule, macro_file), case.name],
        cwd=case.parent, env=rules.spatch_environment(rule), capture_output=True, text=True,
        timeout=300, check=False)
    return spatch.parse_error_lines(proc.stderr)


class FamiliesTest(unittest.TestCase):
    def setUp(self):
        self.families = families(rules.MACRO_FILE.read_text())

    def test_every_define_belongs_to_a_family(self):
        self.assertNotIn(None, self.families, "a #define before any 'Family:' comment")
        self.assertGreaterEqual(len(self.families), 6)

    def test_every_family_has_its_case_and_every_case_its_family(self):
        cases = {p.stem.removeprefix("macro_") for p in TESTS.glob("macro_*.c")}
        self.assertEqual(cases, set(self.families))
        for name in cases:
            case = TESTS / f"macro_{name}.c"
            self.assertTrue(list(TESTS.glob(f"macro_{name}.*res")),
                            f"{case.name} has no expected output")
            self.assertRegex(case.read_text(), RULE_HEADER, f"{case.name} names no rule")

    def test_the_reader_of_families_keeps_continuations(self):
        text = ("/* Family: one. why */\n#define A(x) \\\n\tx;\n"
                "/* Family: two. why */\n#define B YACFE_ITERATOR\n#define C\n")
        self.assertEqual(families(text), {"one": ["#define A(x) \\\n\tx;"],
                                          "two": ["#define B YACFE_ITERATOR", "#define C"]})


@unittest.skipUnless(_have_spatch(), "spatch is not installed")
class FamilyUnlocksItsCaseTest(unittest.TestCase):
    """With the file the case parses whole; without any one #define of its
    family it does not.  (The case's .res, run by semantic-patches/tests/run,
    shows that the rule also sees the code the hint unlocked.)"""

    def test_each_family(self):
        text = rules.MACRO_FILE.read_text()
        with tempfile.TemporaryDirectory() as tmp:
            for name, defines in families(text).items():
                case = TESTS / f"macro_{name}.c"
                with self.subTest(family=name):
                    self.assertEqual(parse_errors(case, rules.MACRO_FILE), (),
                                     f"{case.name} does not parse whole with the macro file")
                for define in defines:
                    without = Path(tmp, "macros.h")
                    without.write_text(text.replace(define + "\n", ""))
                    with self.subTest(family=name, without=define.split("\n")[0]):
                        self.assertNotEqual(parse_errors(case, without), (),
                                            f"{case.name} parses without: {define}")


class MissingMacroFileTest(unittest.TestCase):
    """spatch only warns about a missing --macro-file and parses less: no
    run may start without it."""

    def test_no_command_line_without_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            missing = Path(tmp, "macros.h")
            with self.assertRaises(rules.MacroFileMissing):
                rules.spatch_options(rules.CONVERSION_RULE, missing)
            saved, rules.MACRO_FILE = rules.MACRO_FILE, missing
            try:
                with self.assertRaisesRegex(spatch.SpatchMissing, "macro file is missing"):
                    spatch.run_files(rules.CONVERSION_RULE, [Path(tmp, "a.c")], [])
            finally:
                rules.MACRO_FILE = saved

    def test_a_changed_macro_file_changes_the_cache_keys(self):
        with tempfile.TemporaryDirectory() as tmp:
            rules_dir = Path(tmp)
            (rules_dir / "r.cocci").write_text("@@\n@@\n")
            (rules_dir / "macros.h").write_text("#define A YACFE_ITERATOR\n")
            before = rules.rules_digest(rules_dir), rules.macros_digest(rules_dir / "macros.h")
            (rules_dir / "macros.h").write_text("#define B YACFE_ITERATOR\n")
            rules.rules_digest.cache_clear()    # read once a process: the next run's
            after = rules.rules_digest(rules_dir), rules.macros_digest(rules_dir / "macros.h")
        self.assertNotEqual(before[0], after[0])
        self.assertNotEqual(before[1], after[1])


UNLOCKED = """#include <linux/fs.h>

static long lamp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return -ENOIOCTLCMD;
}

static const struct file_operations lamp_fops = {
	.unlocked_ioctl	= lamp_ioctl,
};
"""


@unittest.skipUnless(_have_spatch(), "spatch is not installed")
class EveryCommandPassesItTest(unittest.TestCase):
    """Each command as a user runs it, with a spatch that records its command
    line and runs the real one."""

    def setUp(self):
        self.repo = GitRepo()
        self.addCleanup(self.repo.__exit__)
        self.log = self.repo.path.parent / "spatch.log"
        recorder = self.repo.path.parent / "spatch"
        recorder.write_text("#!/bin/sh\n"
                            f"for a; do printf '%s\\037' \"$a\" >> {self.log}; done\n"
                            f"printf '\\n' >> {self.log}\n"
                            f"exec {shutil.which(spatch.SPATCH)} \"$@\"\n")
        recorder.chmod(recorder.stat().st_mode | stat.S_IXUSR)
        self.env = {**self.repo.env, "SPATCH": str(recorder),
                    "XDG_CACHE_HOME": str(self.repo.path.parent / "cache")}
        self.repo.commit("two drivers", {"drivers/misc/thermo.c": fixture("legacy_driver.c"),
                                         "drivers/misc/lamp.c": UNLOCKED})

    def run_cli(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(Path(__file__).parents[1] / "ioctl-rework"),
                               *args], cwd=self.repo.path, env=self.env, text=True,
                              capture_output=True, timeout=600, check=False)

    def commands(self) -> list[list[str]]:
        """The spatch command lines run since the last call, but --version."""
        if not self.log.exists():
            return []
        lines = self.log.read_text().splitlines()
        self.log.unlink()
        return [c for c in (line.split("\x1f")[:-1] for line in lines) if c != ["--version"]]

    def assert_all_pass_the_macro_file(self, command: str) -> None:
        ran = self.commands()
        self.assertTrue(ran, f"{command} ran no spatch")
        for argv in ran:
            self.assertEqual(argv.count("--macro-file"), 1, argv)
            self.assertEqual(argv[argv.index("--macro-file") + 1], str(rules.MACRO_FILE), argv)

    def test_audit_convert_check_pass_it_and_prove_runs_no_spatch(self):
        out = self.run_cli("audit", "--no-cache", "--format", "json", ".")
        self.assertEqual(out.returncode, 0, out.stderr)
        kinds = {f["kind"] for t in json.loads(out.stdout)["trees"] for f in t["findings"]}
        self.assertEqual(kinds, {"legacy-ioctl", "missing-compat", "enoioctlcmd-unlocked"})
        self.assert_all_pass_the_macro_file("audit")

        summary = self.repo.path.parent / "summary.json"
        out = self.run_cli("convert", "--no-cache", "--target", "2.6.20", "--in-place",
                           "--no-kernel-headers", "--json", str(summary), ".")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assert_all_pass_the_macro_file("convert")

        out = self.run_cli("prove", "--no-cache", "--summary", str(summary), ".")
        self.assertEqual(self.commands(), [], "prove must not run spatch")

        self.repo.git("checkout", "-q", "--", ".")
        out = self.run_cli("check", "--no-kernel-headers", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assert_all_pass_the_macro_file("check")

    def test_only_the_spatch_module_starts_spatch(self):
        package = Path(rules.__file__).parents[1]
        starters = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                          if re.search(r"\bSPATCH\b|[\[(]\s*['\"]spatch['\"]", p.read_text()))
        self.assertEqual(starters, ["spatch/installation.py", "spatch/runner.py"])


if __name__ == "__main__":
    unittest.main()

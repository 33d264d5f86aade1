"""`check --git A..B` checks each commit on its own, as `checkpatch.pl --git`
does; `--squash` checks the range as one diff."""

import json
import re

from test_check import RepoTestCase, types
from test_check_repo import fixture

LEGACY = fixture("legacy_driver.c")
CLEAN = fixture("clean_driver.c")


def without_conversions(stdout: str) -> list[str]:
    """The report's lines, without the conversion diffs it shows."""
    return [line for line in stdout.splitlines()
            if not re.match(r"[-+ @]|diff --git|the conversion ", line) or
            re.match(r"-{20,}$", line)]


class ByCommitTest(RepoTestCase):
    def setUp(self):
        super().setUp()
        self.base = self.repo.git("rev-parse", "HEAD").stdout.strip()

    def commit(self, message: str, files: dict) -> str:
        return self.repo.commit(message, files)[:12]

    def test_a_legacy_driver_converted_later_in_the_range_is_still_an_error(self):
        first = self.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        second = self.commit("convert thermo by hand", {"drivers/misc/thermo.c": CLEAN})
        out = self.check("--git", f"{self.base}..HEAD")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        first_title = f'Commit {first} ("add thermo")'
        second_title = f'Commit {second} ("convert thermo by hand")'
        lines_first = len(self.repo.git("show", "--format=", first).stdout.splitlines())
        lines_second = len(self.repo.git("show", "--format=", second).stdout.splitlines())
        self.assertEqual(without_conversions(out.stdout), [
            "-" * len(first_title), first_title, "-" * len(first_title),
            "ERROR:LEGACY_IOCTL: thermo_fops sets the legacy .ioctl (thermo_ioctl), which "
            "runs under the BKL and was removed in 2.6.36; use .unlocked_ioctl and "
            ".compat_ioctl",
            "#39: FILE: drivers/misc/thermo.c:33:",
            "",
            f"total: 1 errors, 0 warnings, {lines_first} lines checked",
            "",
            f"{first_title} has legacy ioctl problems, please review.",
            "",
            "-" * len(second_title), second_title, "-" * len(second_title),
            f"total: 0 errors, 0 warnings, {lines_second} lines checked",
            "",
            f"{second_title} has no obvious legacy ioctl problems.",
            "",
            f"total: 1 errors, 0 warnings, {lines_first + lines_second} lines checked",
            "",
            f"{self.base}..HEAD has legacy ioctl problems, please review.",
        ])
        # The conversion shown is that of the file as the first commit left it.
        self.assertIn("+\t.unlocked_ioctl = thermo_ioctl,", out.stdout)

    def test_the_total_sums_the_commits(self):
        self.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        self.commit("add hygro", {"drivers/misc/hygro.c": fixture("warning_driver.c")})
        self.commit("add thermo2", {"drivers/misc/thermo2.c": LEGACY})
        out = self.check("--git", f"{self.base}..HEAD", "--format", "json")
        self.assertEqual(out.returncode, 1, out.stderr)
        doc = json.loads(out.stdout)
        shas = self.repo.git("rev-list", "--reverse", f"{self.base}..HEAD").stdout.split()
        self.assertEqual([c["commit"] for c in doc["commits"]], shas)
        self.assertEqual([(c["total"]["errors"], c["total"]["warnings"]) for c in doc["commits"]],
                         [(1, 0), (0, 3), (1, 0)])
        self.assertEqual((doc["total"]["errors"], doc["total"]["warnings"]), (2, 3))
        self.assertEqual(doc["total"]["lines_checked"],
                         sum(c["total"]["lines_checked"] for c in doc["commits"]))
        self.assertEqual(sorted((p["commit"], p["file"]) for p in doc["problems"]
                                if p["type"] == "LEGACY_IOCTL"),
                         sorted([(shas[0], "drivers/misc/thermo.c"),
                                 (shas[2], "drivers/misc/thermo2.c")]))
        sarif = json.loads(self.check("--git", f"{self.base}..HEAD", "--format", "sarif").stdout)
        self.assertEqual(sorted(r["properties"]["commit"] for r in sarif["runs"][0]["results"]),
                         sorted([shas[0], shas[1], shas[1], shas[1], shas[2]]))

    def test_squash_checks_the_range_as_one_diff(self):
        self.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        self.commit("convert thermo by hand", {"drivers/misc/thermo.c": CLEAN})
        out = self.check("--git", f"{self.base}..HEAD", "--squash")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertNotIn("Commit ", out.stdout)
        self.assertIn(f"{self.base}..HEAD has no obvious legacy ioctl problems.", out.stdout)

    def test_a_range_of_one_commit_reads_like_one_commit(self):
        self.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        ranged = self.check("--git", f"{self.base}..HEAD")
        single = self.check("--git", "HEAD")
        self.assertEqual(ranged.returncode, 1)
        self.assertNotIn("Commit ", ranged.stdout)
        self.assertEqual(ranged.stdout.replace(f"{self.base}..HEAD", "HEAD"), single.stdout)

    def test_a_merge_is_judged_by_what_it_adds_itself(self):
        self.repo.git("checkout", "-q", "-b", "side")
        self.commit("add baro", {"drivers/misc/baro.c": CLEAN})
        self.repo.git("checkout", "-q", "main")
        self.commit("add readme line", {"README": "a tree\nmore\n"})
        # An evil merge: the resolution adds a legacy driver no parent has.
        self.repo.git("merge", "-q", "--no-commit", "side")
        self.repo.write("drivers/misc/thermo.c", LEGACY)
        self.repo.git("add", "-A")
        self.repo.git("commit", "-q", "-m", "merge side")
        merge = self.repo.git("rev-parse", "--short=12", "HEAD").stdout.strip()
        out = self.check("--git", f"{self.base}..HEAD")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:LEGACY_IOCTL"])
        sections = out.stdout.split(f'Commit {merge} ("merge side")')
        self.assertEqual(len(sections), 3)             # its heading, and its verdict
        self.assertIn("ERROR:LEGACY_IOCTL", sections[1])
        self.assertIn("FILE: drivers/misc/thermo.c:33:", sections[1])
        self.assertIn('("add baro") has no obvious legacy ioctl problems.', sections[0])

    def test_an_empty_range_is_an_error(self):
        for rev_range in ("HEAD..HEAD", ".."):
            with self.subTest(rev_range):
                out = self.check("--git", rev_range)
                self.assertEqual(out.returncode, 2)
                self.assertEqual(out.stdout, "")
                self.assertEqual(out.stderr,
                                 f"ioctl-rework check: the range {rev_range!r} is empty: "
                                 "HEAD has no commit that HEAD does not have\n")

    def test_squash_needs_a_range(self):
        out = self.check("--diff", "-", "--squash", stdin="")
        self.assertEqual(out.returncode, 2)
        self.assertIn("--squash goes with --git A..B", out.stderr)

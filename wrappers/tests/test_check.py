"""Tests for `ioctl-rework check`, on real git repositories built in temp dirs.

Each test commits drivers from test_data/check/ (written for these tests)
and runs the command as a user or a hook would, then reads its output.
"""

import json
import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.check import hook
from test_check_repo import GitRepo, fixture

LEGACY = fixture("legacy_driver.c")
CLEAN = fixture("clean_driver.c")
WARNINGS = fixture("warning_driver.c")
MISMATCH = fixture("mismatch_driver.c")

TOTAL = re.compile(r"^total: (\d+) errors, (\d+) warnings, (\d+) lines checked$", re.M)


def totals(stdout: str) -> tuple[int, int]:
    match = TOTAL.search(stdout)
    assert match, f"no summary line in:\n{stdout}"
    return int(match[1]), int(match[2])


def types(stdout: str) -> list[str]:
    """The ERROR:/WARNING: tags of a text report, in order."""
    return re.findall(r"^((?:ERROR|WARNING):\w+):", stdout, re.M)


class RepoTestCase(unittest.TestCase):
    """A repository whose first commit holds an unrelated README."""

    def setUp(self):
        self.repo = GitRepo()
        self.addCleanup(self.repo.__exit__)
        self.repo.commit("base", {"README": "a tree\n"})

    def check(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return self.repo.run_cli("check", *args, stdin=stdin)


class NewDriverTest(RepoTestCase):
    def test_new_legacy_driver_is_an_error_with_its_conversion(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:LEGACY_IOCTL"])
        self.assertIn("thermo_fops sets the legacy .ioctl (thermo_ioctl)", out.stdout)
        # Shown where the patch adds the member, with the + line.
        self.assertRegex(out.stdout, r"#\d+: FILE: drivers/misc/thermo.c:33:\n\+\t\.ioctl\t= thermo_ioctl,")
        # The conversion the rule would make, as a diff of that file.
        self.assertIn("--- a/drivers/misc/thermo.c\n+++ b/drivers/misc/thermo.c\n", out.stdout)
        self.assertIn("-\t.ioctl\t= thermo_ioctl,\n+\t.unlocked_ioctl = thermo_ioctl,", out.stdout)
        self.assertEqual(totals(out.stdout), (1, 0))
        self.assertIn("HEAD has legacy ioctl problems, please review.", out.stdout)

    def test_clean_driver_passes(self):
        self.repo.commit("add baro", {"drivers/misc/baro.c": CLEAN})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [])
        self.assertEqual(totals(out.stdout), (0, 0))
        self.assertIn("has no obvious legacy ioctl problems", out.stdout)

    def test_half_converted_driver_gives_the_three_warnings_and_exit_0(self):
        self.repo.commit("add hygro", {"drivers/misc/hygro.c": WARNINGS})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(sorted(types(out.stdout)),
                         ["WARNING:BKL_IN_UNLOCKED", "WARNING:ENOIOCTLCMD_UNLOCKED",
                          "WARNING:MISSING_COMPAT"])
        self.assertEqual(totals(out.stdout), (0, 3))

    def test_ioctl_code_spatch_cannot_parse_is_an_error_unless_allowed(self):
        # A gate does not pass what it could not read (it was a warning).
        broken = ("static struct file_operations broken_fops = {\n"
                  "\t.ioctl = broken_ioctl,\n\tif (x) {{{ ;\n};\n")
        self.repo.commit("add broken", {"drivers/misc/broken.c": broken})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        # The legacy entry is one by its text (the shared finder), whatever
        # spatch could read around it.
        self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])
        self.assertIn("NOTE: drivers/misc/broken.c not checked: spatch could not parse",
                      out.stdout)
        self.assertIn("--allow-unchecked", out.stdout)
        allowed = self.check("--git", "HEAD", "--allow-unchecked")
        self.assertEqual(allowed.returncode, 1, allowed.stderr)
        self.assertEqual(types(allowed.stdout), ["WARNING:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])
        # Unreadable code without a legacy entry is what --allow-unchecked passes.
        self.repo.commit("fix broken", {"drivers/misc/broken.c": broken.replace(
            ".ioctl", ".unlocked_ioctl")})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED"])
        allowed = self.check("--git", "HEAD", "--allow-unchecked")
        self.assertEqual(allowed.returncode, 0, allowed.stderr)
        self.assertEqual(types(allowed.stdout), ["WARNING:NOT_CHECKED"])

    def test_handler_with_the_wrong_signature_is_an_error(self):
        self.repo.commit("add anemo", {"drivers/misc/anemo.c": MISMATCH})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:SIGNATURE_MISMATCH"])
        self.assertIn("anemo_ioctl does not fit .unlocked_ioctl of anemo_fops: takes a "
                      "struct inode * first", out.stdout)
        self.assertRegex(out.stdout, r"FILE: drivers/misc/anemo.c:19:\n\+\t\.unlocked_ioctl\t= anemo_ioctl,")


class OldLegacyFileTest(RepoTestCase):
    """thermo.c is already legacy before the patch; only the patch is judged."""

    def setUp(self):
        super().setUp()
        self.repo.commit("legacy thermo from long ago", {"drivers/misc/thermo.c": LEGACY})

    def test_change_elsewhere_in_the_file_reports_nothing_new(self):
        changed = LEGACY.replace("\treturn misc_register(&thermo_dev);",
                                 '\tpr_info("thermo: registering\\n");\n'
                                 "\treturn misc_register(&thermo_dev);")
        self.repo.commit("thermo: say hello", {"drivers/misc/thermo.c": changed})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [])

    def test_change_inside_the_legacy_handler_is_reported_there(self):
        changed = LEGACY.replace("\tdefault:\n\t\treturn -ENOTTY;",
                                 "\tdefault:\n\t\tpr_debug(\"thermo: %u\\n\", cmd);\n"
                                 "\t\treturn -ENOTTY;")
        self.repo.commit("thermo: trace unknown commands", {"drivers/misc/thermo.c": changed})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1)
        self.assertEqual(types(out.stdout), ["ERROR:LEGACY_IOCTL"])
        # Anchored at the added line inside the handler, not the untouched fops.
        self.assertRegex(out.stdout, r"FILE: drivers/misc/thermo.c:27:\n\+\t\tpr_debug")

    def test_rename_without_change_reports_nothing(self):
        (self.repo.path / "drivers/hwmon").mkdir()
        self.repo.git("mv", "drivers/misc/thermo.c", "drivers/hwmon/thermo.c")
        self.repo.git("commit", "-q", "-m", "move thermo")
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [])
        self.assertIn("drivers/hwmon/thermo.c not checked: no added lines", out.stdout)

    def test_rename_that_edits_the_fops_is_reported_under_the_new_name(self):
        self.repo.git("rm", "-q", "drivers/misc/thermo.c")
        self.repo.commit("move thermo and make it unseekable",
                         {"drivers/hwmon/thermo.c": LEGACY.replace(
                             "\t.owner\t= THIS_MODULE,\n", "\t.owner\t= THIS_MODULE,\n"
                             "\t.llseek\t= no_llseek,\n")})
        diff = self.repo.git("show", "-M", "--format=", "HEAD").stdout
        self.assertIn("rename from drivers/misc/thermo.c", diff)
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1)
        self.assertRegex(out.stdout, r"FILE: drivers/hwmon/thermo.c:33:\n\+\t\.llseek")

    def test_a_change_that_only_deletes_lines_of_the_fops_is_judged(self):
        # Two commits: thermo gains .unlocked_ioctl next to .ioctl (the
        # .ioctl is then dead), and a later patch only deletes that line,
        # which makes the legacy .ioctl live again.
        both = LEGACY.replace("\t.ioctl\t= thermo_ioctl,\n",
                              "\t.ioctl\t= thermo_ioctl,\n\t.unlocked_ioctl\t= thermo_unlocked,\n")
        self.assertNotEqual(both, LEGACY)
        self.repo.commit("thermo: unlocked entry", {"drivers/misc/thermo.c": both})
        self.repo.commit("thermo: drop the unlocked entry", {"drivers/misc/thermo.c": LEGACY})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:LEGACY_IOCTL"])
        self.assertRegex(out.stdout, r"FILE: drivers/misc/thermo.c:\d+:\n-\t\.unlocked_ioctl")

    def test_deleting_lines_elsewhere_in_a_legacy_file_reports_nothing_new(self):
        shorter = LEGACY.replace("\treturn misc_register(&thermo_dev);",
                                 "\treturn misc_register(&thermo_dev);\n\t/* spare */")
        self.repo.commit("thermo: a comment", {"drivers/misc/thermo.c": shorter})
        self.repo.commit("thermo: no comment", {"drivers/misc/thermo.c": LEGACY})
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), [])

    def test_deletion_reports_nothing(self):
        self.repo.git("rm", "-q", "drivers/misc/thermo.c")
        self.repo.git("commit", "-q", "-m", "remove thermo")
        out = self.check("--git", "HEAD")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("drivers/misc/thermo.c not checked: deleted by the patch", out.stdout)

    def test_binary_file_is_skipped_and_said_so(self):
        self.repo.write("firmware/thermo.bin", b"\x00\x7fELF ioctl\x00\x01")
        self.repo.write("drivers/misc/baro.c", CLEAN)
        self.repo.git("add", "-A")
        self.repo.git("commit", "-q", "-m", "firmware and baro")
        out = self.check("--git", "HEAD", "--format", "json")
        self.assertEqual(out.returncode, 0, out.stderr)
        doc = json.loads(out.stdout)
        self.assertIn({"file": "firmware/thermo.bin", "reason": "binary file", "partial": False},
                      doc["skipped"])
        self.assertEqual(doc["files_checked"], ["drivers/misc/baro.c"])


class PatchShapesTest(RepoTestCase):
    def test_two_files_in_one_patch(self):
        self.repo.write("drivers/misc/thermo.c", LEGACY)
        self.repo.write("drivers/misc/hygro.c", WARNINGS)
        self.repo.git("add", "-A")
        self.repo.git("commit", "-q", "-m", "two sensors")
        out = self.check("--git", "HEAD~1..HEAD", "--format", "json")
        self.assertEqual(out.returncode, 1)
        doc = json.loads(out.stdout)
        found = sorted((p["file"], p["type"], p["level"]) for p in doc["problems"])
        self.assertEqual(found, [
            ("drivers/misc/hygro.c", "BKL_IN_UNLOCKED", "warning"),
            ("drivers/misc/hygro.c", "ENOIOCTLCMD_UNLOCKED", "warning"),
            ("drivers/misc/hygro.c", "MISSING_COMPAT", "warning"),
            ("drivers/misc/thermo.c", "LEGACY_IOCTL", "error"),
        ])
        self.assertEqual(doc["total"]["errors"], 1)
        self.assertEqual(doc["total"]["warnings"], 3)

    def test_range_of_two_commits_is_judged_as_a_whole_with_squash(self):
        # Commit by commit (the default) the first commit is an ERROR; see
        # test_check_range.  --squash judges the diff the range leaves.
        start = self.repo.git("rev-parse", "HEAD").stdout.strip()
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        self.repo.commit("convert thermo by hand", {"drivers/misc/thermo.c": CLEAN})
        out = self.check("--git", f"{start}..HEAD", "--squash")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_mailed_series_on_stdin_is_judged_mail_by_mail(self):
        # As git am makes one commit of each mail: the first adds the
        # legacy fops, the second only a comment.
        start = self.repo.git("rev-parse", "HEAD").stdout.strip()
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        self.repo.commit("thermo: a comment",
                         {"drivers/misc/thermo.c": LEGACY.replace(
                             "static int thermo_value;", "/* last value set */\n"
                             "static int thermo_value;")})
        series = self.repo.git("format-patch", "--stdout", f"{start}..HEAD").stdout
        out = self.check("--diff", "-", "--format", "json", stdin=series)
        self.assertEqual(out.returncode, 1, out.stderr)
        (problem,) = json.loads(out.stdout)["problems"]
        self.assertEqual((problem["type"], problem["line"]), ("LEGACY_IOCTL", 33))
        # Counted in the mbox as given, as checkpatch.pl counts.
        self.assertEqual(problem["patch_line"],
                         series.splitlines().index("+\t.ioctl\t= thermo_ioctl,") + 1)
        text = self.check("--diff", "-", stdin=series).stdout
        self.assertIn('Mail 1/2 ("add thermo") has legacy ioctl problems', text)
        self.assertIn('Mail 2/2 ("thermo: a comment") has no obvious legacy ioctl problems',
                      text)

        # A later mail that converts the driver does not make the first one pass.
        self.repo.commit("thermo: convert by hand", {"drivers/misc/thermo.c": CLEAN})
        series = self.repo.git("format-patch", "--stdout", f"{start}..HEAD").stdout
        out = self.check("--diff", "-", stdin=series)
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn('Mail 1/3 ("add thermo") has legacy ioctl problems', out.stdout)
        self.assertIn('Mail 3/3 ("thermo: convert by hand") has no obvious legacy ioctl',
                      out.stdout)

    def test_malformed_patch_exits_2_with_a_message(self):
        patch = self.repo.path / "broken.patch"
        patch.write_text("--- a/f.c\n+++ b/f.c\n@@ -1,3 +1,4 @@\n a\n+b\n")
        out = self.check("--diff", str(patch))
        self.assertEqual(out.returncode, 2)
        self.assertIn("malformed patch: line 6: hunk at line 3 ends early", out.stderr)
        self.assertEqual(out.stdout, "")

    def test_bad_revision_range_exits_2(self):
        out = self.check("--git", "no-such-branch..HEAD")
        self.assertEqual(out.returncode, 2)
        self.assertIn("bad revision range 'no-such-branch..HEAD'", out.stderr)

    def test_no_source_given_is_a_usage_error(self):
        out = self.check()
        self.assertEqual(out.returncode, 2)
        self.assertIn("--git REV_RANGE, --diff FILE or --staged", out.stderr)

    def test_missing_patch_file_exits_2(self):
        out = self.check("--diff", "nowhere.patch")
        self.assertEqual(out.returncode, 2)
        self.assertIn("nowhere.patch: cannot read the patch", out.stderr)


class BarePatchTest(unittest.TestCase):
    """A patch file with no tree: check works from the patch's own lines."""

    def make_patch(self, base: dict, change: dict) -> str:
        with GitRepo() as repo:
            repo.commit("base", {"README": "x\n", **base})
            repo.commit("change", change)
            return repo.git("format-patch", "-1", "--stdout").stdout

    def run_bare(self, patch: str, *args: str) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "0001-change.patch"
            path.write_text(patch)
            proc = subprocess.run([str(hook.ENTRY_SCRIPT), "check", "--no-kernel-headers",
                                   "--diff", str(path), *args],
                                  cwd=tmp, capture_output=True, text=True, check=False)
        return proc

    def test_new_legacy_file_from_a_patch_alone(self):
        patch = self.make_patch({}, {"drivers/misc/thermo.c": LEGACY})
        out = self.run_bare(patch)
        self.assertEqual(out.returncode, 1, out.stderr)
        line = patch.splitlines().index("+\t.ioctl\t= thermo_ioctl,") + 1
        self.assertIn(f"#{line}: FILE: drivers/misc/thermo.c:33:\n+\t.ioctl\t= thermo_ioctl,",
                      out.stdout)
        self.assertRegex(out.stdout, rf"total: 1 errors, 0 warnings, "
                                     rf"{len(patch.splitlines())} lines checked")

    def test_hunks_of_a_changed_file_are_checked_in_place(self):
        # A second, legacy fops added to a clean driver: only the hunk is known.
        second = CLEAN.replace(
            "static struct miscdevice baro_dev = {",
            "static int baro_old_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t\t  unsigned int cmd, unsigned long arg)\n{\n"
            "\treturn baro_ioctl(file, cmd, arg);\n}\n\n"
            "static const struct file_operations baro_old_fops = {\n"
            "\t.ioctl\t= baro_old_ioctl,\n};\n\n"
            "static struct miscdevice baro_dev = {")
        patch = self.make_patch({"drivers/misc/baro.c": CLEAN},
                                {"drivers/misc/baro.c": second})
        out = self.run_bare(patch, "--format", "json")
        self.assertEqual(out.returncode, 1, out.stderr)
        doc = json.loads(out.stdout)
        self.assertEqual([(p["type"], p["line"], p["text"]) for p in doc["problems"]],
                         [("LEGACY_IOCTL", 48, "+\t.ioctl\t= baro_old_ioctl,")])

    def test_same_patch_with_its_tree_uses_the_whole_files(self):
        with GitRepo() as repo:
            repo.commit("base", {"drivers/misc/thermo.c": LEGACY})
            changed = LEGACY.replace("\treturn misc_register(&thermo_dev);",
                                     '\tpr_info("thermo\\n");\n'
                                     "\treturn misc_register(&thermo_dev);")
            repo.commit("change", {"drivers/misc/thermo.c": changed})
            patch = repo.git("format-patch", "-1", "--stdout").stdout
            path = repo.path.parent / "change.patch"
            path.write_text(patch)
            # Checked against the tree before the patch and after it.
            for rev in ("HEAD~1", "HEAD"):
                repo.git("checkout", "-q", rev)
                out = repo.run_cli("check", "--diff", str(path), "--tree", str(repo.path))
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                self.assertNotIn("does not apply", out.stderr)


class FormatsTest(RepoTestCase):
    def setUp(self):
        super().setUp()
        self.repo.commit("add thermo and hygro", {"drivers/misc/thermo.c": LEGACY,
                                                  "drivers/misc/hygro.c": WARNINGS})

    def test_json(self):
        out = self.check("--git", "HEAD", "--format", "json")
        self.assertEqual(out.returncode, 1)
        doc = json.loads(out.stdout)
        legacy = [p for p in doc["problems"] if p["type"] == "LEGACY_IOCTL"]
        self.assertEqual(len(legacy), 1)
        self.assertEqual(legacy[0]["file"], "drivers/misc/thermo.c")
        self.assertEqual(legacy[0]["line"], 33)
        self.assertEqual(legacy[0]["struct"], "thermo_fops")
        self.assertEqual(legacy[0]["handler"], "thermo_ioctl")
        self.assertIn("+\t.unlocked_ioctl = thermo_ioctl,", legacy[0]["conversion"])
        self.assertEqual(doc["total"]["lines_checked"],
                         len(self.repo.git("diff-tree", "-p", "-M", "--root", "--no-commit-id",
                                           "HEAD").stdout.splitlines()))

    def test_sarif(self):
        out = self.check("--git", "HEAD", "--format", "sarif")
        self.assertEqual(out.returncode, 1)
        doc = json.loads(out.stdout)
        self.assertEqual(doc["version"], "2.1.0")
        (run,) = doc["runs"]
        rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
        self.assertEqual(sorted(rules), ["BKL_IN_UNLOCKED", "ENOIOCTLCMD_UNLOCKED",
                                         "LEGACY_IOCTL", "MISSING_COMPAT"])
        levels = sorted((r["ruleId"], r["level"]) for r in run["results"])
        self.assertIn(("LEGACY_IOCTL", "error"), levels)
        for result in run["results"]:
            self.assertEqual(rules[result["ruleIndex"]], result["ruleId"])
            location = result["locations"][0]["physicalLocation"]
            self.assertTrue(location["artifactLocation"]["uri"].startswith("drivers/misc/"))
            self.assertGreater(location["region"]["startLine"], 0)
            self.assertRegex(result["partialFingerprints"]["ioctlReworkCheck/v1"],
                             r"^[0-9a-f]{64}$")
        fingerprints = [r["partialFingerprints"]["ioctlReworkCheck/v1"] for r in run["results"]]
        self.assertEqual(len(set(fingerprints)), len(fingerprints))

    def test_fix_prints_a_diff_that_applies(self):
        out = self.check("--git", "HEAD", "--fix")
        self.assertEqual(out.returncode, 1)
        diff = out.stdout[out.stdout.index("--- a/"):]
        self.assertIn("+\t.unlocked_ioctl = thermo_ioctl,", diff)
        self.repo.write("fix.patch", diff)
        applied = self.repo.git("apply", "--check", "fix.patch", check=False)
        self.assertEqual(applied.returncode, 0, applied.stderr)


class HookCommitTest(unittest.TestCase):
    """`--staged` as git runs it: from the installed pre-commit hook."""

    def test_hook_rejects_a_legacy_driver_and_accepts_a_clean_one(self):
        with GitRepo() as repo:
            repo.commit("base", {"README": "x\n"})
            installed = repo.run_cli("check", "--install-hook")
            self.assertEqual(installed.returncode, 0, installed.stderr)
            head = repo.git("rev-parse", "HEAD").stdout

            repo.write("drivers/misc/thermo.c", LEGACY)
            repo.git("add", "drivers/misc/thermo.c")
            rejected = repo.git("commit", "-q", "-m", "add thermo", check=False)
            self.assertNotEqual(rejected.returncode, 0)
            self.assertIn("ERROR:LEGACY_IOCTL", rejected.stdout + rejected.stderr)
            self.assertEqual(repo.git("rev-parse", "HEAD").stdout, head)

            repo.git("rm", "-q", "--cached", "drivers/misc/thermo.c")
            repo.write("drivers/misc/baro.c", CLEAN)
            repo.git("add", "drivers/misc/baro.c")
            accepted = repo.git("commit", "-q", "-m", "add baro", check=False)
            self.assertEqual(accepted.returncode, 0, accepted.stdout + accepted.stderr)
            self.assertNotEqual(repo.git("rev-parse", "HEAD").stdout, head)

    def test_staged_checks_the_index_not_the_work_tree(self):
        with GitRepo() as repo:
            repo.commit("base", {"README": "x\n"})
            repo.write("drivers/misc/thermo.c", CLEAN)
            repo.git("add", "drivers/misc/thermo.c")
            repo.write("drivers/misc/thermo.c", LEGACY)     # not staged
            out = repo.run_cli("check", "--staged")
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_nothing_staged_is_clean(self):
        with GitRepo() as repo:
            repo.commit("base", {"README": "x\n"})
            out = repo.run_cli("check", "--staged")
            self.assertEqual(out.returncode, 0)
            self.assertIn("total: 0 errors, 0 warnings, 0 lines checked", out.stdout)


if __name__ == "__main__":
    unittest.main()

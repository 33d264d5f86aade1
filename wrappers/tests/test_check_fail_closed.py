"""check fails closed: what it could not read is an error, what it can read
it reads (CRLF, a stray NUL, names and text that are not UTF-8), and bad
input is one line and exit 2, never a traceback."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import scratch
from ioctl_rework.audit import scan as audit
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.cache import Cache
from test_check import RepoTestCase, totals, types
from test_cli import run_main
from test_check_repo import ENTRY, GitRepo, fixture

LEGACY = fixture("legacy_driver.c")
# The fops entry of legacy_driver.c, as the patch shows it.
ENTRY_LINE = "+\t.ioctl\t= thermo_ioctl,"


def fake_spatch(directory: Path, stderr: str, status: int) -> Path:
    """A spatch that says its version and otherwise prints STDERR and exits STATUS."""
    fake = directory / "spatch"
    fake.write_text("#!/bin/sh\ncase \"$*\" in *--version*) "
                    "echo 'spatch version 1.1.1'; exit 0;; esac\n"
                    f"echo '{stderr}' >&2\nexit {status}\n")
    fake.chmod(0o755)
    return fake


class FailClosedTestCase(RepoTestCase):
    def check_head_as_a_patch(self, expected=("ERROR:NOT_CHECKED",)
                              ) -> subprocess.CompletedProcess:
        """check --diff of HEAD's format-patch, which must be NOT_CHECKED
        (and what else EXPECTED says)."""
        patch = self.repo.git("format-patch", "-1", "--stdout").stdout
        out = self.check("--diff", "-", stdin=patch)
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), list(expected))
        return out


class UncheckedIsAnErrorTest(FailClosedTestCase):
    def run_with(self, fake: Path, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                               *args], cwd=self.repo.path,
                              env={**self.repo.env, "SPATCH": str(fake)}, text=True,
                              capture_output=True, check=False, timeout=300)

    def test_a_spatch_crash_is_an_error_that_says_how_to_get_it_checked(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        with tempfile.TemporaryDirectory() as tmp:
            fake = fake_spatch(Path(tmp), "Fatal error: exception Stack_overflow", 2)
            out = self.run_with(fake, "--git", "HEAD")
            allowed = self.run_with(fake, "--git", "HEAD", "--allow-unchecked")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        # The legacy entry is one by its text (the shared finder), whatever
        # became of spatch: --allow-unchecked passes the unread code, not it.
        self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])
        self.assertIn("a rule could not check the ioctl code this patch adds: spatch failed: "
                      "Fatal error: exception Stack_overflow; fix the code spatch cannot read "
                      "or raise --timeout, or review it by hand and pass --allow-unchecked",
                      out.stdout)
        # Shown at the first ioctl code the patch adds (not a comment): the handler.
        self.assertRegex(out.stdout, r"FILE: drivers/misc/thermo.c:16:\n\+static int thermo_ioctl")
        self.assertEqual(totals(out.stdout), (2, 0))
        self.assertEqual(allowed.returncode, 1, allowed.stdout + allowed.stderr)
        self.assertEqual(types(allowed.stdout), ["WARNING:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])

    def test_a_spatch_timeout_is_an_error(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        with tempfile.TemporaryDirectory() as tmp:
            out = self.run_with(fake_spatch(Path(tmp), "Timeout at main loop", 0),
                                "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])
        self.assertIn("spatch timed out after", out.stdout)

    def test_from_the_hook_it_says_how_to_commit_anyway(self):
        broken = ("static struct file_operations broken_fops = {\n"
                  "\t.ioctl = broken_ioctl,\n\tif (x) {{{ ;\n};\n")
        self.repo.write("drivers/misc/broken.c", broken)
        self.repo.git("add", "drivers/misc/broken.c")
        out = self.check("--staged")
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"])
        self.assertIn("; fix the code spatch cannot read, or review it by hand and commit "
                      "with `git commit --no-verify`", out.stdout)

    def test_a_bare_patch_spatch_cannot_parse_points_at_tree_and_git(self):
        # A change to a file the patch does not carry whole: rebuilt from its lines.
        self.repo.commit("add broken", {"drivers/misc/broken.c": "/* broken */\n" * 9})
        broken = ("/* broken */\n" * 9 + "static struct file_operations broken_fops = {\n"
                  "\t.ioctl = broken_ioctl,\n\tif (x) {{{ ;\n};\n")
        self.repo.commit("break it", {"drivers/misc/broken.c": broken})
        out = self.check_head_as_a_patch(("ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"))
        self.assertIn("; give the tree the patch applies to (--tree DIR) or check the commit "
                      "(--git REV) so that the whole file is read", out.stdout)


class ReadNotSkippedTest(FailClosedTestCase):
    """Inputs that used to be skipped ("not C source", "binary file") or crashed."""

    def assert_legacy_entry(self, out: subprocess.CompletedProcess, file: str, line: int = 33):
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertEqual(types(out.stdout), ["ERROR:LEGACY_IOCTL"])
        self.assertIn(f"FILE: {file}:{line}:\n{ENTRY_LINE}", out.stdout.replace("\r", ""))

    def test_a_patch_turned_to_crlf_by_a_mailer(self):
        base = self.repo.git("rev-parse", "HEAD").stdout.strip()
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
        patch = self.repo.git("format-patch", "-1", "--stdout").stdout.replace("\n", "\r\n")
        self.assert_legacy_entry(self.check("--diff", "-", stdin=patch),
                                 "drivers/misc/thermo.c")
        # The same mail against the tree it applies to (LF files).
        self.repo.git("checkout", "-q", base)
        out = self.check("--diff", "-", "--tree", ".", stdin=patch)
        self.assert_legacy_entry(out, "drivers/misc/thermo.c")
        self.assertNotIn("does not apply", out.stderr)

    def test_a_patch_of_a_file_with_crlf_line_ends(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c":
                                        LEGACY.replace("\n", "\r\n").encode()})
        self.assert_legacy_entry(self.check("--git", "HEAD"), "drivers/misc/thermo.c")
        patch = self.repo.git("format-patch", "-1", "--stdout").stdout
        self.assertIn("+++ b/drivers/misc/thermo.c\n", patch)
        self.assert_legacy_entry(self.check("--diff", "-", stdin=patch),
                                 "drivers/misc/thermo.c")

    NUL_DRIVER = LEGACY.replace("static int thermo_value;",
                                "/* a stray \0 here */ static int thermo_value;").encode()

    def test_c_source_with_a_nul_that_git_calls_binary(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": self.NUL_DRIVER})
        self.assertIn("Binary files", self.repo.git("show", "--format=", "HEAD").stdout)
        self.assert_legacy_entry(self.check("--git", "HEAD"), "drivers/misc/thermo.c")

    def test_staged_c_source_with_a_nul(self):
        self.repo.write("drivers/misc/thermo.c", self.NUL_DRIVER)
        self.repo.git("add", "drivers/misc/thermo.c")
        self.assert_legacy_entry(self.check("--staged"), "drivers/misc/thermo.c")

    def test_a_patch_that_shows_c_source_as_binary_is_not_checked(self):
        self.repo.commit("add thermo", {"drivers/misc/thermo.c": self.NUL_DRIVER})
        out = self.check_head_as_a_patch()
        self.assertIn("the patch shows this C file as binary (a NUL byte in it?), so none of "
                      "its lines can be read; check the commit with --git REV", out.stdout)
        self.assertIn("FILE: drivers/misc/thermo.c\n", out.stdout)
        # The same patch written with --text has the lines.
        text = self.repo.git("format-patch", "--text", "-1", "--stdout").stdout
        self.assert_legacy_entry(self.check("--diff", "-", stdin=text),
                                 "drivers/misc/thermo.c")

    def test_a_name_and_text_that_are_not_utf8(self):
        name = os.fsdecode(b"drivers/misc/th\xe9rmo.c")
        text = LEGACY.replace("written the 2.6.9 way", "by J\xf6rg").encode("latin-1")
        self.repo.commit("add thermo", {name: text})
        self.assert_legacy_entry(self.check("--git", "HEAD"), '"drivers/misc/th\\351rmo.c"')
        doc = json.loads(self.check("--git", "HEAD", "--format", "json").stdout)
        self.assertEqual(doc["problems"][0]["file"], name)
        sarif = json.loads(self.check("--git", "HEAD", "--format", "sarif").stdout)
        location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
        self.assertEqual(location["artifactLocation"]["uri"], "drivers/misc/th%E9rmo.c")
        patch = subprocess.run(["git", "format-patch", "-1", "--stdout"], cwd=self.repo.path,
                               env=self.repo.env, capture_output=True, check=True).stdout
        self.assertIn(b"J\xf6rg", patch)
        self.repo.write("../thermo.patch", patch)
        self.assert_legacy_entry(self.check("--diff", "../thermo.patch"),
                                 '"drivers/misc/th\\351rmo.c"')

    def test_a_newline_in_a_name_is_shown_escaped(self):
        self.repo.commit("add thermo", {"drivers/misc/two\nlines.c": LEGACY})
        out = self.check("--git", "HEAD")
        self.assert_legacy_entry(out, '"drivers/misc/two\\nlines.c"')
        self.assertNotIn("\nlines.c", out.stdout)

    def test_audit_of_a_tree_with_a_name_that_is_not_utf8(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            (tree / "drivers").mkdir(parents=True)
            (tree / os.fsdecode(b"drivers/th\xe9rmo.c")).write_text(LEGACY)
            (tree / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
            env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
            for run in ("cold", "cached"):
                with self.subTest(run):
                    out = subprocess.run([sys.executable, str(ENTRY), "audit", str(tree)],
                                         env=env, capture_output=True, text=True, check=False)
                    self.assertEqual(out.returncode, 0, out.stderr)
                    self.assertIn('"drivers/th\\351rmo.c":33: legacy-ioctl: thermo_fops: '
                                  '.ioctl = thermo_ioctl', out.stdout)


class EmptyInputTest(unittest.TestCase):
    def test_an_empty_patch_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            for text in ("", "\n\n  \n"):
                with self.subTest(repr(text)):
                    path = Path(tmp) / "empty.patch"
                    path.write_text(text)
                    status, out, err = run_main(["check", "--no-kernel-headers",
                                                 "--diff", str(path)])
                    self.assertEqual((status, out), (2, ""))
                    self.assertEqual(err, f"ioctl-rework check: {path}: the patch is empty; "
                                          "there is nothing to check\n")

    def test_empty_stdin_is_an_error(self):
        proc = subprocess.run([sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                               "--diff", "-"], input="",
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("stdin: the patch is empty", proc.stderr)


class NoTracebackTest(unittest.TestCase):
    """Each failure is one line on stderr and exit 2."""

    def assertOneLine(self, status: int, out: str, err: str, *words: str):
        self.assertEqual(status, 2, out + err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertNotIn("Traceback", err)
        for word in words:
            self.assertIn(word, err)

    def test_a_directory_given_as_the_patch(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertOneLine(*run_main(["check", "--no-kernel-headers",
                                          "--diff", tmp]), "cannot read the patch")

    def test_a_tree_file_that_cannot_be_read(self):
        with GitRepo() as repo:
            repo.commit("base", {"drivers/misc/thermo.c": LEGACY})
            repo.commit("change", {"drivers/misc/thermo.c": LEGACY.replace(
                "default:", "default:\n\t\tpr_debug(\"thermo\\n\");")})
            patch = repo.path.parent / "change.patch"
            patch.write_text(repo.git("format-patch", "-1", "--stdout").stdout)
            real = scratch.read_inside

            def unreadable(root, name, where="check's scratch directory"):
                if Path(root) == repo.path:
                    raise PermissionError(13, "Permission denied")
                return real(root, name, where)
            with mock.patch.object(scratch, "read_inside", unreadable):
                result = run_main(["check", "--no-kernel-headers",
                                   "--diff", str(patch), "--tree", str(repo.path)])
        self.assertOneLine(*result, "drivers/misc/thermo.c: cannot read it: Permission denied")

    def test_a_symlinked_c_file_in_the_tree(self):
        with GitRepo() as repo:
            repo.commit("base", {"real/thermo.c": LEGACY, "README": "x\n"})
            (repo.path / "drivers/misc").mkdir(parents=True)
            (repo.path / "drivers/misc/thermo.c").symlink_to("../../real/thermo.c")
            patch = repo.path.parent / "change.patch"
            changed = LEGACY.replace("default:", "default:\n\t\tpr_debug(\"thermo\\n\");")
            old, new = repo.path.parent / "old.c", repo.path.parent / "new.c"
            old.write_text(LEGACY)
            new.write_text(changed)
            diff = subprocess.run(["diff", "-u", "--label", "a/drivers/misc/thermo.c",
                                   "--label", "b/drivers/misc/thermo.c", str(old), str(new)],
                                  capture_output=True, text=True, check=False).stdout
            patch.write_text(diff)
            status, out, err = run_main(["check", "--no-kernel-headers",
                                         "--diff", str(patch), "--tree", str(repo.path)])
        self.assertEqual(status, 1, out + err)
        self.assertEqual(types(out), ["ERROR:LEGACY_IOCTL"])
        self.assertIn("FILE: drivers/misc/thermo.c:27:\n+\t\tpr_debug", out)

    def test_audit_of_files_that_vanish_or_cannot_be_read(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            for name in ("gone.c", "locked.c", "thermo.c"):
                (tree / name).write_text(LEGACY)
            walk, read = spatch.source_files, Path.read_bytes

            def vanishing(paths):
                for path, st in walk(paths):
                    if path.endswith("gone.c"):
                        os.unlink(path)
                    yield path, st

            def locked(path):
                if path.name == "locked.c":
                    raise PermissionError(13, "Permission denied", str(path))
                return read(path)
            with mock.patch.object(spatch, "source_files", vanishing), \
                    mock.patch.object(Path, "read_bytes", locked):
                result = audit.audit([tree], cache=Cache(None))
        self.assertEqual([f.file for f in result.findings], [str(tree / "thermo.c")])
        self.assertEqual(sorted((s.file, s.reason) for s in result.skipped), [
            (str(tree / "gone.c"), "cannot read it: No such file or directory"),
            (str(tree / "locked.c"), "cannot read it: Permission denied")])

    def test_the_last_line_of_defence_is_one_line(self):
        with mock.patch("ioctl_rework.check.cli.run_check", side_effect=KeyError("surprise")):
            status, out, err = run_main(["check", "--no-kernel-headers", "--git", "HEAD"])
        self.assertOneLine(status, out, err, "ioctl-rework check: error: KeyError: 'surprise'",
                           "IOCTL_REWORK_DEBUG=1")


if __name__ == "__main__":
    unittest.main()

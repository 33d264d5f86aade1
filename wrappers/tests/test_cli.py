"""Tests for the command line: dispatch, help, exit statuses."""

import contextlib
import io
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import cli

WRAPPERS = Path(__file__).resolve().parents[1]
ENTRY = WRAPPERS / "ioctl-rework"


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exit_:
            status = exit_.code
    return status, out.getvalue(), err.getvalue()


class CliTest(unittest.TestCase):
    def test_help_lists_every_subcommand_and_examples(self):
        status, out, _ = run_main(["--help"])
        self.assertEqual(status, 0)
        for name in ("audit", "convert", "merge", "check", "fixture"):
            self.assertRegex(out, rf"\n    {name} ")
        self.assertIn("examples:", out)

    def test_no_subcommand_is_a_usage_error(self):
        status, _, err = run_main([])
        self.assertEqual(status, 2)
        self.assertIn("usage:", err)

    def test_unknown_subcommand(self):
        status, _, err = run_main(["frobnicate"])
        self.assertEqual(status, 2)
        self.assertIn("invalid choice", err)

    def test_only_the_selected_module_is_imported(self):
        sys.modules.pop("ioctl_rework.audit.scan", None)
        parser, module = cli.build_parser(["--version"])
        self.assertIsNone(module)
        self.assertNotIn("ioctl_rework.audit.scan", sys.modules)

    def test_audit_help(self):
        status, out, _ = run_main(["audit", "--help"])
        self.assertEqual(status, 0)
        self.assertIn("--format {text,json,csv,markdown,html,sarif}", out)
        self.assertIn("exit status", out)

    def test_audit_missing_path(self):
        status, _, err = run_main(["audit", "/no/such/tree"])
        self.assertEqual(status, 2)
        self.assertIn("/no/such/tree: no such file or directory", err)

    def test_audit_needs_a_path_or_json(self):
        status, _, err = run_main(["audit"])
        self.assertEqual(status, 2)
        self.assertIn("--from-json", err)

    def test_audit_bad_format(self):
        status, _, err = run_main(["audit", "--format", "pdf", "."])
        self.assertEqual(status, 2)
        self.assertIn("invalid choice: 'pdf'", err)

    def test_audit_bad_jobs(self):
        status, _, err = run_main(["audit", "--jobs", "0", "."])
        self.assertEqual(status, 2)

    def test_audit_unwritable_output(self):
        with tempfile.TemporaryDirectory() as tmp:
            empty = Path(tmp) / "empty"
            empty.mkdir()
            status, _, err = run_main(["audit", "--no-cache", "-o",
                                       str(Path(tmp) / "no" / "dir" / "r.txt"), str(empty)])
        self.assertEqual(status, 2)
        self.assertIn("r.txt", err)

    def test_entry_script_works_from_a_clone(self):
        with tempfile.TemporaryDirectory() as tmp:
            empty = Path(tmp)
            proc = subprocess.run([sys.executable, str(ENTRY), "audit", "--no-cache",
                                   "--format", "json", str(empty)],
                                  capture_output=True, text=True, cwd=tmp, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('"findings": []', proc.stdout)

    def test_make_install(self):
        with tempfile.TemporaryDirectory() as prefix:
            proc = subprocess.run(["make", "-s", "install", f"PREFIX={prefix}"],
                                  cwd=WRAPPERS.parent, capture_output=True, text=True,
                                  check=False)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            installed = Path(prefix) / "bin" / "ioctl-rework"
            rule = (Path(prefix) / "share" / "ioctl-rework" / "semantic-patches"
                    / "unlocked_ioctl_missing_compat.cocci")
            self.assertTrue(rule.is_file())
            proc = subprocess.run([str(installed), "audit", "--help"], capture_output=True,
                                  text=True, check=False)
            self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_python_dash_m(self):
        proc = subprocess.run([sys.executable, "-m", "ioctl_rework", "--version"],
                              capture_output=True, text=True, cwd=WRAPPERS, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"^ioctl-rework \d+\.\d+")


if __name__ == "__main__":
    unittest.main()

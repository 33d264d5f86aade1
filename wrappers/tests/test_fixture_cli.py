"""Tests for `ioctl-rework fixture` as a user runs it (no kernel is built)."""

import subprocess
import sys
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "ioctl-rework"


def fixture(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "fixture", *args],
                          capture_output=True, text=True)


class CliTest(unittest.TestCase):
    def test_list_names_every_variant_once(self):
        result = fixture("list")
        self.assertEqual(result.returncode, 0, result.stderr)
        names = [line.split()[0] for line in result.stdout.splitlines()]
        self.assertEqual(names[0], "legacy")
        self.assertIn("auto-bkl-2.6.11-multi-pre2.6.11", names)
        self.assertIn("negative-dropped-unlock", names)
        self.assertEqual(len(names), len(set(names)))

    def test_unknown_variant_is_a_usage_error(self):
        result = fixture("boot", "--variant", "pushdown-bkl-9.9")
        self.assertEqual(result.returncode, 2)
        self.assertIn("unknown variant(s): pushdown-bkl-9.9", result.stderr)

    def test_drivers_must_be_a_directory(self):
        result = fixture("build", "--drivers", "/nonexistent/drivers")
        self.assertEqual(result.returncode, 2)
        self.assertIn("/nonexistent/drivers: not a directory", result.stderr)

    def test_unknown_action(self):
        self.assertEqual(fixture("flash").returncode, 2)


if __name__ == "__main__":
    unittest.main()

"""convert: what changes for userspace reaches stderr in every output mode."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus, Summary

WRAPPERS = Path(__file__).resolve().parents[1]
CLI = WRAPPERS / "ioctl-rework"
# A mixer whose handler returns -ENOIOCTLCMD for unknown commands.
DRIVER = WRAPPERS.parent / "semantic-patches" / "tests" / "enoioctlcmd_keep.c"
NOTE = ("warning: mixer.c:23: mixer_fops: .ioctl = mixer_ioctl: the handler returns "
        "-ENOIOCTLCMD: after conversion "
        "the VFS turns it into EINVAL; userspace saw errno 515 before")
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None


def summary_with(status: HandlerStatus, returns_enoioctlcmd: bool) -> Summary:
    summary = Summary(root="/nonexistent", target="6.1", options={}, spatch_version="1.1.1",
                      started=0.0)
    summary.handlers.append(HandlerRecord("mixer.c", 23, "mixer_fops", "mixer_ioctl", status,
                                          returns_enoioctlcmd=returns_enoioctlcmd))
    return summary


class TextReportTest(unittest.TestCase):
    def test_a_converted_handler_returning_enoioctlcmd_is_named(self):
        text = summary_mod.text_report(summary_with(HandlerStatus.CONVERTED, True))
        self.assertIn(NOTE, text.splitlines())

    def test_nothing_is_said_when_nothing_changes_for_userspace(self):
        for status, returns in ((HandlerStatus.CONVERTED, False), (HandlerStatus.SKIPPED, True)):
            with self.subTest(status=status, returns=returns):
                self.assertNotIn("ENOIOCTLCMD",
                                 summary_mod.text_report(summary_with(status, returns)))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class OutputModeTest(unittest.TestCase):
    def setUp(self):
        self.tree = Path(tempfile.mkdtemp(prefix="convert-notes-"))
        self.addCleanup(shutil.rmtree, self.tree)
        shutil.copy(DRIVER, self.tree / "mixer.c")

    def convert(self, *argv: str) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--no-cache",
                               "--target", "2.6.20", *argv, "mixer.c"],
                              cwd=self.tree, capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc

    def test_diff_mode_says_it_on_stderr_and_keeps_the_diff_clean(self):
        proc = self.convert()
        self.assertIn(NOTE, proc.stderr.splitlines())
        self.assertNotIn("warning", proc.stdout)
        self.assertIn("+static long mixer_ioctl(", proc.stdout)

    def test_in_place_says_it_on_stderr(self):
        proc = self.convert("--in-place")
        self.assertIn(NOTE, proc.stderr.splitlines())
        self.assertIn(b"static long mixer_ioctl(", (self.tree / "mixer.c").read_bytes())


if __name__ == "__main__":
    unittest.main()

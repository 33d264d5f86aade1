"""convert: what changes for userspace reaches stderr in every output mode."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.spatch import rules
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus, Summary

WRAPPERS = Path(__file__).resolve().parents[1]
CLI = WRAPPERS / "ioctl-rework"
# A mixer whose handler returns -ENOIOCTLCMD for unknown commands.
DRIVER = WRAPPERS.parent / "semantic-patches" / "tests" / "enoioctlcmd_keep.c"
NOTE = ("warning: mixer.c:24: mixer_fops: .ioctl = mixer_ioctl: the handler returns "
        "-ENOIOCTLCMD: after conversion "
        "the VFS turns it into EINVAL; userspace saw errno 515 before")
# Three handlers, two returning -ENOIOCTLCMD through a helper of the file.
HELPER_DRIVER = WRAPPERS.parent / "semantic-patches" / "tests" / "enoioctlcmd_helper_report.c"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None


def summary_with(status: HandlerStatus, returns_enoioctlcmd: bool) -> Summary:
    summary = Summary(root="/nonexistent", target="6.1", options={}, spatch_version="1.1.1",
                      started=0.0)
    summary.handlers.append(HandlerRecord("mixer.c", 24, "mixer_fops", "mixer_ioctl", status,
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


class ReportLineTest(unittest.TestCase):
    """A detail of a report line may name a function in parentheses; the
    line was not read at all, and its converted handler was recorded as
    "a spelling spatch did not match" (issue 22, adv_enoioctl)."""

    def decision(self, rest: str) -> rules.HandlerDecision:
        found = rules.parse_report(f"en.c:27: en_fops: .ioctl = en_ioctl: {rest}\n")
        self.assertEqual(len(found), 1, rest)
        return found[0]

    def test_a_helper_returning_enoioctlcmd_is_read_and_flagged(self):
        for rest, strategy in (
                ("convert (pushdown, returns -ENOIOCTLCMD through en_unknown())", "pushdown"),
                ("convert (wrapper, uses inode, returns -ENOIOCTLCMD through en_do()): "
                 "the proof rejected its pushdown (-D wrapper_for)", "wrapper"),
                ("convert (multi-kernel, returns -ENOIOCTLCMD through en_a_b())",
                 "multi-kernel"),
                ("convert (pushdown, returns -ENOIOCTLCMD)", "pushdown")):
            with self.subTest(rest=rest):
                d = self.decision(rest)
                self.assertEqual((d.convert, d.strategy, d.returns_enoioctlcmd),
                                 (True, strategy, True))

    def test_other_details_are_not_a_flag(self):
        for rest in ("convert (pushdown)", "convert (wrapper, uses inode)",
                     "convert (pushdown): the initializer of x at line 3 runs under the lock: "
                     "it calls f()"):
            with self.subTest(rest=rest):
                d = self.decision(rest)
                self.assertEqual((d.convert, d.returns_enoioctlcmd), (True, False))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class HelperRunTest(unittest.TestCase):
    def test_handlers_returning_through_a_helper_are_converted_and_named(self):
        tree = Path(tempfile.mkdtemp(prefix="convert-notes-"))
        self.addCleanup(shutil.rmtree, tree)
        shutil.copy(HELPER_DRIVER, tree / "helper.c")
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--no-cache",
                               "--target", "2.6.20", "--no-kernel-headers", "helper.c"],
                              cwd=tree, capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("3 .ioctl fops entries: 3 converted, 0 skipped, 0 failed", proc.stderr)
        notes = [line for line in proc.stderr.splitlines() if "-ENOIOCTLCMD" in line]
        self.assertEqual([n.split(": ")[2] for n in notes], ["ha_fops", "hb_fops"], notes)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class OutputModeTest(unittest.TestCase):
    def setUp(self):
        self.tree = Path(tempfile.mkdtemp(prefix="convert-notes-"))
        self.addCleanup(shutil.rmtree, self.tree)
        shutil.copy(DRIVER, self.tree / "mixer.c")

    def convert(self, *argv: str) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--no-cache",
                               "--target", "2.6.20", "--no-kernel-headers", *argv, "mixer.c"],
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

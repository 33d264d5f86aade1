"""series: the git format-patch series of a convert run, without spatch."""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import series
from ioctl_rework.patches.maintainers import Maintainers, Section
from ioctl_rework.convert.summary import FileRecord, FileStatus, HandlerRecord, HandlerStatus, Summary
from ioctl_rework.patches.unified import git_diff

ME = series.Identity("Jane Hacker", "jane@example.org", True)

OLD = b"""static int foo_ioctl(struct inode *inode, struct file *f,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn 0;
}
"""
NEW = b"""static long foo_ioctl(struct file *f,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn 0;
}
"""


class FakeMaintainers:
    """lookup() by directory prefix, like F: patterns."""

    def __init__(self, sections: dict[str, Section]):
        self.sections = sections

    def lookup(self, relpath: str):
        return [s for prefix, s in self.sections.items() if relpath.startswith(prefix)]


def summary_for(changes: dict[str, tuple[bytes, bytes]], **handler_fields) -> Summary:
    summary = Summary(root="/nonexistent", target="2.6.9",
                      options={"strategy": "auto", "lock": "bkl"}, spatch_version="1.1.1",
                      started=1700000000.0)
    for rel, (old, new) in sorted(changes.items()):
        summary.files.append(FileRecord(rel, FileStatus.CONVERTED, None, git_diff(rel, old, new)))
        stem = Path(rel).stem.replace(" ", "_").lstrip("-")
        summary.handlers.append(HandlerRecord(
            rel, 10, f"{stem}_fops", f"{stem}_ioctl", HandlerStatus.CONVERTED,
            strategy="pushdown", **handler_fields))
    summary.handlers.append(HandlerRecord("drivers/char/other.c", 5, "o_fops", "o_ioctl",
                                          HandlerStatus.SKIPPED,
                                          reason="the inode parameter is written at line 3"))
    return summary


class PrefixTest(unittest.TestCase):
    def test_subject_prefixes_follow_the_path(self):
        cases = {
            "drivers/char/ds1620.c": "char: ds1620",
            "drivers/media/video/bttv-driver.c": "media: video: bttv-driver",
            "sound/oss/msnd.c": "sound: oss: msnd",
            "fs/ext2/ioctl.c": "fs: ext2: ioctl",
            "drivers/char/watchdog/wdt.c": "char: watchdog: wdt",
            "include/linux/nwflash.h": "nwflash",
        }
        for path, prefix in cases.items():
            with self.subTest(path=path):
                self.assertEqual(series.path_prefix(path), prefix)


class RenderTest(unittest.TestCase):
    def test_one_patch_per_file_with_signoff_cc_and_notes(self):
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW),
                               "drivers/misc/widget.c": (OLD, NEW)},
                              uses_inode=True, returns_enoioctlcmd=True)
        maint = FakeMaintainers({"drivers/char/": Section(
            "CHAR DRIVERS", maintainers=("Char M <c@example.org>",), lists=("l@example.org",))})
        mails = series.render(summary, series.Split.FILE, maint, ME)
        self.assertEqual(list(mails), [series.COVER_LETTER,
                                       "0001-char-ds1620-convert-to-unlocked_ioctl.patch",
                                       "0002-misc-widget-convert-to-unlocked_ioctl.patch"])
        first = mails["0001-char-ds1620-convert-to-unlocked_ioctl.patch"]
        self.assertIn("Subject: [PATCH 1/2] char: ds1620: convert to unlocked_ioctl\n", first)
        self.assertIn("From: Jane Hacker <jane@example.org>\n", first)
        self.assertIn("\nSigned-off-by: Jane Hacker <jane@example.org>\n"
                      "Cc: Char M <c@example.org>\nCc: l@example.org\n---\n", first)
        self.assertIn("lock_kernel()", first)                  # what the BKL now protects
        self.assertIn("ds1620_ioctl() in ds1620_fops", first)    # which handler, which strategy
        self.assertIn("pushdown", first)
        self.assertIn("-ENOIOCTLCMD", first)
        self.assertIn(" drivers/char/ds1620.c | 2 +-\n 1 file changed, 1 insertion(+), "
                      "1 deletion(-)\n", first)
        second = mails["0002-misc-widget-convert-to-unlocked_ioctl.patch"]
        self.assertNotIn("Cc:", second)

    def test_mutex_body_claims_only_what_the_mutex_keeps(self):
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)})
        summary.options["lock"] = "mutex"
        body = series.render(summary, series.Split.FILE, None, ME)[
            "0001-char-ds1620-convert-to-unlocked_ioctl.patch"]
        text = " ".join(body.split())  # the body is wrapped
        self.assertIn("mutex_lock()", text)
        # What the BKL gave and the mutex does not: exclusion of other
        # code, and being dropped while the holder sleeps.
        self.assertIn("it does not exclude the other code the BKL also excluded", text)
        self.assertIn("unlike the BKL it stays held while the handler sleeps", text)
        self.assertIn("a sleep in a function of another file is not seen", text)
        self.assertNotIn("what the BKL gave it", text)
        self.assertNotIn("no locking assumption changes", text)

    def test_cover_letter_has_the_statistics(self):
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)})
        cover = series.render(summary, series.Split.FILE, None, ME)[series.COVER_LETTER]
        self.assertIn("Subject: [PATCH 0/1] convert .ioctl handlers to unlocked_ioctl", cover)
        self.assertIn(".ioctl fops entries found: 2", cover)
        self.assertIn("converted: 1   skipped: 1   failed: 0", cover)
        self.assertIn("skipped (1): the inode parameter is written at line N", cover)
        self.assertIn("strategy pushdown: 1", cover)
        self.assertIn("char: ds1620: convert to unlocked_ioctl", cover)

    def test_split_by_directory_and_by_maintainer(self):
        changes = {"drivers/char/a.c": (OLD, NEW), "drivers/char/b.c": (OLD, NEW),
                   "drivers/misc/c.c": (OLD, NEW)}
        by_dir = series.plan(summary_for(changes), series.Split.DIR)
        self.assertEqual([(p.subject, len(p.files)) for p in by_dir],
                         [("char: convert 2 ioctl handlers to unlocked_ioctl", 2),
                          ("misc: convert to unlocked_ioctl", 1)])
        maint = FakeMaintainers({"drivers/": Section("ALL DRIVERS", maintainers=("x@y",))})
        by_section = series.plan(summary_for(changes), series.Split.MAINTAINER, maint)
        self.assertEqual(len(by_section), 1)
        self.assertEqual(by_section[0].cc, ("x@y",))
        self.assertEqual(by_section[0].subject,
                         "treewide: convert 3 ioctl handlers to unlocked_ioctl"
                         if by_section[0].subject.startswith("treewide") else
                         "drivers: convert 3 ioctl handlers to unlocked_ioctl")

    def test_without_a_git_identity_there_is_no_signoff(self):
        anonymous = series.Identity(*series.PLACEHOLDER_AUTHOR, False)
        mails = series.render(summary_for({"drivers/char/a.c": (OLD, NEW)}),
                              series.Split.FILE, None, anonymous)
        self.assertNotIn("\nSigned-off-by: ", "".join(mails.values()))
        self.assertIn("your Signed-off-by before sending", mails[series.COVER_LETTER])


@unittest.skipUnless(shutil.which("git"), "git is not installed")
class GitAmTest(unittest.TestCase):
    """The series applies with git am to a git copy of the input."""

    def test_git_am_applies_the_series(self):
        tmp = Path(tempfile.mkdtemp(prefix="series-am-"))
        self.addCleanup(shutil.rmtree, tmp)
        repo = tmp / "repo"
        awkward = {
            "drivers/char/ds1620.c": (OLD, NEW),
            "drivers/char/with space.c": (OLD, NEW),
            "drivers/char/-dash.c": (OLD, NEW),
            "drivers/char/new\nline.c": (OLD, NEW),
            "drivers/char/latin1.c": (b"/* caf\xe9 */\r\n" + OLD.replace(b"\n", b"\r\n"),
                                      b"/* caf\xe9 */\r\n" + NEW.replace(b"\n", b"\r\n")),
        }
        for rel, (old, _) in awkward.items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / rel).write_bytes(old)
        git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.org"]
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "input"], check=True)
        out = tmp / "series"
        paths = series.write(summary_for(awkward), out, series.Split.FILE, None, ME)
        patches = [str(p) for p in paths if p.name != series.COVER_LETTER]
        am = subprocess.run(git + ["am", "--keep-cr", *patches], capture_output=True, text=True)
        self.assertEqual(am.returncode, 0, am.stdout + am.stderr)
        for rel, (_, new) in awkward.items():
            self.assertEqual((repo / rel).read_bytes(), new, rel)
        log = subprocess.run(git + ["log", "--format=%s", "-1"], capture_output=True,
                             text=True).stdout
        self.assertTrue(log.strip().endswith("convert to unlocked_ioctl"), log)


if __name__ == "__main__":
    unittest.main()

"""series: the git format-patch series of a convert run, from hand-made
summaries (no spatch), and once from a real run over the fixture drivers."""

import os
import re
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import series
from ioctl_rework.patches.identity import Identity
from ioctl_rework.patches.maintainers import Section
from ioctl_rework.convert.summary import FileRecord, FileStatus, HandlerRecord, HandlerStatus, Summary
from ioctl_rework.patches.unified import git_diff
from tiers import full_tier

ME = Identity("Jane Hacker", "jane@example.org")
REPO = Path(__file__).resolve().parents[2]
HAVE_GIT = shutil.which("git") is not None

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
# A change deep in a handler: its hunk starts below the handler's first line.
DEEP_OLD = b"""/* A driver of the 2.6 era. */
#include <linux/fs.h>

static int bar_value;

static int bar_ioctl(struct inode *inode, struct file *f,
\t\t     unsigned int cmd, unsigned long arg)
{
\tint ret = 0;

\tswitch (cmd) {
\tcase 1:
\t\tret = bar_value;
\t\tbreak;
\tcase 2:
\t\tbar_value = arg;
\t\tbreak;
\tdefault:
\t\tret = -ENOTTY;
\t}
\treturn ret;
}
"""
DEEP_NEW = DEEP_OLD.replace(b"\t\tret = -ENOTTY;", b"\t\tret = -EINVAL;")


class FakeMaintainers:
    """lookup() by path prefix, like F: patterns."""

    def __init__(self, sections: dict[str, Section]):
        self.sections = sections

    def lookup(self, relpath: str):
        return [s for prefix, s in self.sections.items() if relpath.startswith(prefix)]


def summary_for(changes: dict[str, tuple[bytes, bytes]], root: Path | str = "/nonexistent",
                tree_top: bool = True, **handler_fields) -> Summary:
    """A run that converted CHANGES; ROOT, when it is a directory, gets the old files."""
    summary = Summary(root=str(root), target="2.6.9",
                      options={"strategy": "auto", "lock": "bkl"}, spatch_version="1.1.1",
                      started=1700000000.0, tree_top=tree_top)
    for rel, (old, new) in sorted(changes.items()):
        if Path(root).is_dir():
            (Path(root) / rel).parent.mkdir(parents=True, exist_ok=True)
            (Path(root) / rel).write_bytes(old)
        summary.files.append(FileRecord(rel, FileStatus.CONVERTED, None, git_diff(rel, old, new)))
        stem = Path(rel).stem.replace(" ", "_").lstrip("-")
        summary.handlers.append(HandlerRecord(
            rel, 10, f"{stem}_fops", f"{stem}_ioctl", HandlerStatus.CONVERTED,
            strategy="pushdown", **handler_fields))
    summary.handlers.append(HandlerRecord("drivers/char/other.c", 5, "o_fops", "o_ioctl",
                                          HandlerStatus.SKIPPED,
                                          reason="the inode parameter is written at line 3"))
    return summary


def subjects(patches) -> list[str]:
    return [p.subject for p in patches]


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


class UniqueSubjectTest(unittest.TestCase):
    """No two patches of a series share a subject, whatever the split."""

    def test_two_sections_in_one_directory_are_named_by_their_sections(self):
        changes = {"drivers/char/ds1620.c": (OLD, NEW), "drivers/char/nwflash.c": (OLD, NEW),
                   "drivers/misc/widget.c": (OLD, NEW)}
        maint = FakeMaintainers({
            "drivers/char/ds1620": Section("DS1620 DRIVER", maintainers=("d@example.org",)),
            "drivers/char/nwflash": Section("NWFLASH DRIVER (ARM)", maintainers=("n@example.org",)),
            "drivers/misc/": Section("MISC DRIVERS", maintainers=("m@example.org",))})
        patches = series.plan(summary_for(changes), series.Split.MAINTAINER, maint)
        self.assertEqual(subjects(patches), ["char: ds1620: convert to unlocked_ioctl",
                                             "char: nwflash: convert to unlocked_ioctl",
                                             "misc: convert to unlocked_ioctl"])
        self.assertEqual([p.cc for p in patches],
                         [("d@example.org",), ("n@example.org",), ("m@example.org",)])

    def test_same_file_names_in_deeper_directories_go_one_level_down(self):
        changes = {"drivers/media/video/a/foo.c": (OLD, NEW),
                   "drivers/media/video/b/foo.c": (OLD, NEW),
                   "drivers/char/bar.c": (OLD, NEW), "drivers/char/bar.h": (OLD, NEW)}
        patches = series.plan(summary_for(changes), series.Split.FILE)
        self.assertEqual(sorted(subjects(patches)),
                         ["char: bar.c: convert to unlocked_ioctl",
                          "char: bar.h: convert to unlocked_ioctl",
                          "media: video: a: foo: convert to unlocked_ioctl",
                          "media: video: b: foo: convert to unlocked_ioctl"])

    def test_every_split_of_a_crowded_tree_has_unique_subjects(self):
        names = ["drivers/char/foo.c", "drivers/char/foo.h", "drivers/char/x/foo.c",
                 "drivers/char/y/foo.c", "char/foo.c", "drivers/char.d/foo.c",
                 "sound/oss/foo.c", "sound/oss/x/foo.c", "top.c", "include/linux/foo.h"]
        changes = {n: (OLD, NEW) for n in names}
        maint = FakeMaintainers({"drivers/char/": Section("CHAR"),
                                 "drivers/char/x/": Section("CHAR X"),
                                 "sound/": Section("SOUND"), "sound/oss/x": Section("THE SOUND")})
        for split in series.Split:
            with self.subTest(split=split):
                found = subjects(series.plan(summary_for(changes), split, maint))
                self.assertEqual(len(found), len(set(found)), found)
        self.assertEqual(len(series.plan(summary_for(changes), series.Split.FILE)), len(names))

    def test_a_split_by_directory_names_each_directory(self):
        changes = {"drivers/char/a.c": (OLD, NEW), "drivers/char/b.c": (OLD, NEW),
                   "drivers/misc/c.c": (OLD, NEW)}
        self.assertEqual([(p.subject, len(p.files)) for p in
                          series.plan(summary_for(changes), series.Split.DIR)],
                         [("char: convert 2 ioctl handlers to unlocked_ioctl", 2),
                          ("misc: convert to unlocked_ioctl", 1)])
        maint = FakeMaintainers({"drivers/": Section("ALL DRIVERS", maintainers=("x@y",))})
        (one,) = series.plan(summary_for(changes), series.Split.MAINTAINER, maint)
        self.assertEqual((one.subject, one.cc),
                         ("drivers: convert 3 ioctl handlers to unlocked_ioctl", ("x@y",)))


class SubdirectoryTest(unittest.TestCase):
    """A run whose root is a directory of its own keeps the subsystem: its name."""

    def test_a_copied_subdirectory_is_named_in_every_split(self):
        summary = summary_for({"ds1620.c": (OLD, NEW), "nwflash.c": (OLD, NEW)},
                              root="/home/me/copies/char", tree_top=False)
        self.assertEqual(subjects(series.plan(summary, series.Split.FILE)),
                         ["char: ds1620: convert to unlocked_ioctl",
                          "char: nwflash: convert to unlocked_ioctl"])
        for split in (series.Split.DIR, series.Split.MAINTAINER):
            self.assertEqual(subjects(series.plan(summary, split)),
                             ["char: convert 2 ioctl handlers to unlocked_ioctl"])

    def test_paths_from_a_tree_top_are_read_as_they_are(self):
        summary = summary_for({"ds1620.c": (OLD, NEW)}, root="/src/char", tree_top=True)
        self.assertEqual(subjects(series.plan(summary, series.Split.FILE)),
                         ["ds1620: convert to unlocked_ioctl"])
        # A copy of a tree's top without its Makefile: the paths say the subsystem.
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, root="/tmp/copy",
                              tree_top=False)
        self.assertEqual(subjects(series.plan(summary, series.Split.FILE)),
                         ["char: ds1620: convert to unlocked_ioctl"])


class MailCase(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="series-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        self.tree.mkdir()


@unittest.skipUnless(HAVE_GIT, "git is not installed")
class RenderTest(MailCase):
    def test_one_patch_per_file_with_signoff_cc_and_notes(self):
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW),
                               "drivers/misc/widget.c": (OLD, NEW)}, self.tree,
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
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
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

    def test_cover_letter_has_the_statistics_and_the_shortlog(self):
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
        cover = series.render(summary, series.Split.FILE, None, ME)[series.COVER_LETTER]
        self.assertIn("Subject: [PATCH 0/1] convert .ioctl handlers to unlocked_ioctl\n", cover)
        self.assertIn("\n  .ioctl fops entries found: 2\n", cover)
        self.assertIn("\n  converted: 1   skipped: 1   failed: 0\n", cover)
        self.assertIn("\n  skipped (1): the inode parameter is written at line N\n", cover)
        self.assertIn("\n  strategy pushdown: 1\n", cover)
        self.assertIn("\nJane Hacker (1):\n  char: ds1620: convert to unlocked_ioctl\n", cover)
        self.assertIn("\n drivers/char/ds1620.c | 2 +-\n 1 file changed", cover)

    def test_hunks_name_their_function(self):
        summary = summary_for({"drivers/char/bar.c": (DEEP_OLD, DEEP_NEW)}, self.tree)
        mail = series.render(summary, series.Split.FILE, None, ME)[
            "0001-char-bar-convert-to-unlocked_ioctl.patch"]
        self.assertIn("\n@@ -16,7 +16,7 @@ static int bar_ioctl(struct inode *inode, "
                      "struct file *f,\n", mail)

    def test_the_date_is_the_runs_in_the_local_time_zone(self):
        self.enterContext(mock.patch.dict(os.environ, {"TZ": "IST-5:30"}))
        time.tzset()
        self.addCleanup(time.tzset)
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
        mails = series.render(summary, series.Split.FILE, None, ME)
        for name, mail in mails.items():
            self.assertIn("\nDate: Wed, 15 Nov 2023 03:43:20 +0530\n", mail, name)

    def test_the_tree_may_hold_the_converted_files(self):
        """As after convert --in-place --json: the series starts from before it."""
        summary = summary_for({"drivers/char/bar.c": (DEEP_OLD, DEEP_NEW)}, self.tree)
        (self.tree / "drivers/char/bar.c").write_bytes(DEEP_NEW)
        mail = series.render(summary, series.Split.FILE, None, ME)[
            "0001-char-bar-convert-to-unlocked_ioctl.patch"]
        self.assertIn("\n-\t\tret = -ENOTTY;\n+\t\tret = -EINVAL;\n", mail)

    def test_a_tree_without_the_runs_files_is_refused(self):
        summary = summary_for({"drivers/char/bar.c": (DEEP_OLD, DEEP_NEW)}, self.tree)
        (self.tree / "drivers/char/bar.c").write_bytes(DEEP_OLD.replace(b"bar_value", b"baz"))
        with self.assertRaisesRegex(series.SeriesError, "drivers/char/bar.c is neither the file "
                                    "the run read nor the file it made"):
            series.render(summary, series.Split.FILE, None, ME)
        (self.tree / "drivers/char/bar.c").unlink()
        with self.assertRaisesRegex(series.SeriesError, "cannot read drivers/char/bar.c"):
            series.render(summary, series.Split.FILE, None, ME)
        with self.assertRaisesRegex(series.SeriesError, "no such directory"):
            series.render(summary, series.Split.FILE, None, ME, self.tmp / "none")

    def test_nothing_converted_writes_no_mail_and_says_so(self):
        summary = summary_for({}, self.tree)
        out = self.tmp / "out"
        out.mkdir()
        (out / "0001-old.patch").write_text("stale")
        paths = series.write(summary, out, series.Split.FILE, None, ME)
        self.assertEqual((paths, list(out.iterdir())), ([], []))
        self.assertEqual(series.describe(paths, out), f"nothing was converted: no series in {out}")

    def test_the_users_git_config_does_not_change_the_mails(self):
        config = self.tmp / "gitconfig"
        config.write_text("[diff]\n\tnoprefix = true\n[format]\n\tsubjectPrefix = RFC\n"
                          "\tsignOff = true\n\tnumbered = false\n")
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
        plain = series.render(summary, series.Split.FILE, None, ME)
        self.enterContext(mock.patch.dict(os.environ, {"GIT_CONFIG_GLOBAL": str(config)}))
        self.assertEqual(series.render(summary, series.Split.FILE, None, ME), plain)


@unittest.skipUnless(HAVE_GIT, "git is not installed")
class IdentityTest(MailCase):
    """The author is found as git finds it, or the series is refused."""

    def git_env(self, config: str, **extra) -> None:
        (self.tmp / "gitconfig").write_text(config)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "EMAIL"}
        env.update(HOME=str(self.tmp), GIT_CONFIG_NOSYSTEM="1",
                   GIT_CONFIG_GLOBAL=str(self.tmp / "gitconfig"), **extra)
        self.enterContext(mock.patch.dict(os.environ, env, clear=True))

    def test_from_the_git_config(self):
        self.git_env("[user]\n\tname = Conf Person\n\temail = conf@example.org\n")
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
        mail = series.render(summary, series.Split.FILE)["0001-char-ds1620-convert-to-unlocked_ioctl.patch"]
        self.assertIn("\nFrom: Conf Person <conf@example.org>\n", mail)
        self.assertIn("\nSigned-off-by: Conf Person <conf@example.org>\n", mail)

    def test_the_environment_wins_as_for_git_commit(self):
        self.git_env("[user]\n\tname = Conf Person\n\temail = conf@example.org\n",
                     GIT_AUTHOR_NAME="Env Person", GIT_AUTHOR_EMAIL="env@example.org")
        self.assertEqual(series.series_author(self.tree),
                         Identity("Env Person", "env@example.org"))

    def test_nobody_is_a_clear_error(self):
        # useConfigOnly: git guesses nothing from the machine's name.
        self.git_env("[user]\n\tuseConfigOnly = true\n")
        with self.assertRaisesRegex(series.SeriesError,
                                    r"no author for the series: .*user\.name.*GIT_AUTHOR_NAME"):
            series.series_author(self.tree)
        summary = summary_for({"drivers/char/ds1620.c": (OLD, NEW)}, self.tree)
        with self.assertRaises(series.SeriesError):
            series.write(summary, self.tmp / "out", series.Split.FILE)
        self.assertFalse((self.tmp / "out").exists())

    def test_convert_asks_before_the_run(self):
        from ioctl_rework.convert import cli as convert_cli
        from ioctl_rework.convert.request import InputError
        import argparse
        parser = argparse.ArgumentParser()
        convert_cli.add_arguments(parser)
        args = parser.parse_args(["--target", "2.6.11", "--no-kernel-headers",
                                  "--series", str(self.tmp / "out"), str(self.tree)])
        self.git_env("[user]\n\tuseConfigOnly = true\n")
        with self.assertRaisesRegex(InputError, "no author for the series"):
            convert_cli.request_from_args(args)
        self.git_env("[user]\n\tname = Conf Person\n\temail = conf@example.org\n")
        self.assertEqual(convert_cli.request_from_args(args).author,
                         Identity("Conf Person", "conf@example.org"))


@unittest.skipUnless(HAVE_GIT, "git is not installed")
class GitAmTest(MailCase):
    """The series applies with git am to a git copy of the input."""

    def test_git_am_applies_the_series(self):
        repo = self.tree
        awkward = {
            "drivers/char/ds1620.c": (OLD, NEW),
            "drivers/char/bar.c": (DEEP_OLD, DEEP_NEW),
            "drivers/char/with space.c": (OLD, NEW),
            "drivers/char/-dash.c": (OLD, NEW),
            "drivers/char/new\nline.c": (OLD, NEW),
            "drivers/char/latin1.c": (b"/* caf\xe9 */\r\n" + OLD.replace(b"\n", b"\r\n"),
                                      b"/* caf\xe9 */\r\n" + NEW.replace(b"\n", b"\r\n")),
        }
        summary = summary_for(awkward, repo)
        git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.org"]
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "input"], check=True)
        paths = series.write(summary, self.tmp / "series", series.Split.FILE, None, ME)
        patches = [str(p) for p in paths if p.name != series.COVER_LETTER]
        self.assertEqual(len(patches), len(awkward))
        am = subprocess.run(git + ["am", "--keep-cr", *patches], capture_output=True, text=True)
        self.assertEqual(am.returncode, 0, am.stdout + am.stderr)
        for rel, (_, new) in awkward.items():
            self.assertEqual((repo / rel).read_bytes(), new, rel)
        log = subprocess.run(git + ["log", "--format=%an <%ae>|%s", "-1"], capture_output=True,
                             text=True).stdout
        self.assertRegex(log.strip(), r"^Jane Hacker <jane@example.org>\|.*convert to unlocked_ioctl$")


HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None


@unittest.skipUnless(HAVE_GIT and HAVE_SPATCH, "git or spatch is not installed")
class FixtureSeriesTest(unittest.TestCase):
    """The series of the fixture drivers: check --diff PATCH --tree TREE
    passes every patch (no NOT_CHECKED, no ERROR); read bare, no hunk lacks
    its function; and git am applies them all."""

    def test_every_patch_passes_check_and_the_series_applies(self):
        from ioctl_rework.check.cli import CheckRequest, run_check
        from ioctl_rework.check.input import SourceKind
        from ioctl_rework.check.result import Level
        tmp = Path(tempfile.mkdtemp(prefix="series-fixture-"))
        self.addCleanup(shutil.rmtree, tmp)
        drivers = tmp / "drivers"
        shutil.copytree(REPO / "kernel-fixtures" / "drivers", drivers)
        env = {**os.environ, "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org"}
        # The series, not the headers (make demo converts with them): without.
        out = subprocess.run([str(REPO / "wrappers" / "ioctl-rework"), "convert", "--target",
                              "6.1", "--no-kernel-headers", "--cache-dir", str(tmp / "cache"),
                              "--series",
                              str(tmp / "series"), str(drivers)],
                             capture_output=True, text=True, env=env)
        self.assertEqual(out.returncode, 0, out.stderr)
        patches = sorted(p for p in (tmp / "series").glob("*.patch")
                         if p.name != series.COVER_LETTER)
        self.assertGreaterEqual(len(patches), 15, out.stderr)
        names = [re.search(r"^Subject: (.*)$", p.read_text(), re.M)[1] for p in patches]
        self.assertEqual(len(names), len(set(names)), names)
        # make test checks each patch alone, as a maintainer reads one mail;
        # make check the series as one mbox in one run (check reads each of
        # its mails on its own, in order, and runs the rules once over them
        # all: 2 runs where there were two a patch, the fast tier's budget).
        inputs = patches
        if not full_tier():
            inputs = [tmp / "series.mbox"]
            inputs[0].write_text("".join(p.read_text() for p in patches))
        for patch in inputs:
            # Read bare, each hunk says which function or structure it
            # changes (the cpp diff driver's function context).
            bare = run_check(CheckRequest(SourceKind.DIFF, str(patch)))
            self.assertEqual(len(bare.results), len(patches) if patch not in patches else 1)
            self.assertEqual([p.message for r in bare.results for p in r.problems
                              if "does not say which function" in p.message], [], patch.name)
            with self.subTest(patch=patch.name):
                # Every file is in one patch only: each applies to the original tree.
                report = run_check(CheckRequest(SourceKind.DIFF, str(patch), tree=drivers))
                bad = [(r.name, p) for r in report.results for p in r.problems
                       if p.type == "NOT_CHECKED" or p.level is Level.ERROR]
                self.assertEqual(bad, [])
        git = ["git", "-C", str(drivers), "-c", "user.name=T", "-c", "user.email=t@example.org"]
        subprocess.run(["git", "init", "-q", str(drivers)], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "fixture drivers"], check=True)
        am = subprocess.run(git + ["am", *map(str, patches)], capture_output=True, text=True)
        self.assertEqual(am.returncode, 0, am.stdout + am.stderr)
        applied = subprocess.run(git + ["rev-list", "--count", "HEAD~1..HEAD", "--",
                                        "."], capture_output=True, text=True)
        count = subprocess.run(git + ["rev-list", "--count", "HEAD"], capture_output=True,
                               text=True).stdout.strip()
        self.assertEqual((applied.returncode, int(count)), (0, len(patches) + 1))


if __name__ == "__main__":
    unittest.main()

"""settings: one resolution per run, refused up front when it cannot be right.

Versions no kernel had, conversions for kernels without .unlocked_ioctl,
--split without --series and outputs that cannot be written are usage
errors (status 2) found before any work; the conversion options have no
default that contradicts their target.
"""

import argparse
import dataclasses
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import settings
from ioctl_rework.convert import cli as convert
from test_cli import run_main
from test_safe_write import null_device

DATA = Path(__file__).resolve().parent / "test_data" / "convert"
ENTRY = Path(__file__).resolve().parents[1] / "ioctl-rework"


class VersionTest(unittest.TestCase):
    def refused(self, text: str, **kw) -> str:
        with self.assertRaises(settings.TargetError) as caught:
            settings.resolve_target(text, settings.KernelTree(None), **kw)
        return str(caught.exception)

    def test_versions_no_kernel_had_are_refused(self):
        for text in ("2.7", "99.1", "4.99", "2.6.40", "3.20", "4.21", "5.20", "6.21", "7.0",
                     "0.1", "2.6.99-rc1"):
            with self.subTest(text):
                self.assertIn("is not a Linux version", self.refused(text))
                # Whatever the output: no kernel to build it for.
                self.assertIn("is not a Linux version", self.refused(text, multi_kernel=True))
                self.assertIn("is not a Linux version", self.refused(text, converts=False))

    def test_every_series_is_known_to_its_last_release(self):
        for text in ("2.6.11", "2.6.20", "2.6.39", "3.0", "3.19", "4.0", "4.20", "4.4.302",
                     "5.0", "5.19", "6.0", "6.1", "6.1.0-13-amd64", "6.12", "6.1-rc3",
                     f"6.{settings.LAST_6X}"):
            with self.subTest(text):
                target, source = settings.resolve_target(text, settings.KernelTree(None))
                self.assertEqual((target, source), (settings.Target.parse(text), "--target"))

    def test_a_conversion_for_a_kernel_without_unlocked_ioctl_is_refused(self):
        for text in ("2.6.5", "2.6.9", "2.6.10", "2.4.20", "1.2"):
            with self.subTest(text):
                message = self.refused(text)
                self.assertIn("has no .unlocked_ioctl", message)
                self.assertIn("--target 2.6.11 or later, or --multi-kernel", message)
                # Kept as .ioctl for it by --multi-kernel; audit converts nothing.
                self.assertEqual(settings.resolve_target(text, settings.KernelTree(None),
                                                         multi_kernel=True)[0],
                                 settings.Target.parse(text))
                self.assertEqual(settings.resolve_target(text, settings.KernelTree(None),
                                                         converts=False)[0],
                                 settings.Target.parse(text))

    def test_the_tree_version_is_validated_as_a_given_one(self):
        tree = settings.KernelTree(Path("/src/linux"), settings.Target.parse("2.6.9"))
        with self.assertRaisesRegex(settings.TargetError,
                                    r"^/src/linux/Makefile: 2\.6\.9 has no \.unlocked_ioctl"):
            settings.resolve_target("auto", tree)
        odd = settings.KernelTree(Path("/src/odd"), settings.Target.parse("2.7"))
        with self.assertRaisesRegex(settings.TargetError, r"/src/odd/Makefile: 2\.7\.0 is not"):
            settings.resolve_target("auto", odd, converts=False)

    def test_where_the_target_comes_from(self):
        tree = settings.KernelTree(Path("/src/linux"), settings.Target.parse("5.10"))
        self.assertEqual(settings.resolve_target("auto", tree),
                         (settings.Target.parse("5.10"), "/src/linux/Makefile"))
        self.assertEqual(settings.resolve_target("6.1", tree),
                         (settings.Target.parse("6.1"), "--target"))
        self.assertEqual(settings.resolve_target("auto", settings.KernelTree(None)),
                         (settings.DEFAULT_TARGET, "the default target"))
        with self.assertRaisesRegex(settings.TargetError, "pass --target VERSION"):
            settings.resolve_target(None, settings.KernelTree(None), fallback=None)


class ConversionOptionsTest(unittest.TestCase):
    def test_nothing_the_target_decides_has_a_default(self):
        target = settings.Target.parse("6.1")
        for fields in ({}, {"target": target}, {"target": target, "compat": True},
                       {"lock": settings.LockMode.BKL, "compat": False}):
            with self.subTest(fields=fields), self.assertRaises(TypeError):
                settings.ConversionOptions(**fields)

    def test_for_target_takes_the_lock_and_compat_from_the_target(self):
        for text, lock, compat in (("2.6.11", "bkl", False), ("2.6.38", "bkl", True),
                                   ("2.6.39", "mutex", True), ("6.1", "mutex", True)):
            with self.subTest(text):
                options = settings.ConversionOptions.for_target(settings.Target.parse(text))
                self.assertEqual((options.lock.value, options.compat), (lock, compat))
        default = settings.ConversionOptions.for_target(settings.DEFAULT_TARGET)
        self.assertEqual(default.spatch_args("patch"), ["-D", "patch", "-D", "mutex", "-D", "no_bkl"])

    def test_settings_are_frozen(self):
        run = settings.resolve(argparse.Namespace(target="6.1", no_cache=True, jobs=3),
                               settings.KernelTree(None))
        self.assertEqual((run.jobs, run.cache_dir, run.conversion.lock.value), (3, None, "mutex"))
        with self.assertRaises(dataclasses.FrozenInstanceError):
            run.jobs = 4
        self.assertFalse(run.cache("convert").enabled)


class TreeTest(unittest.TestCase):
    def test_the_tree_and_its_version_are_read_together(self):
        tree = settings.find_tree(DATA / "tree" / "drivers" / "char")
        self.assertEqual(tree, settings.KernelTree(DATA / "tree", settings.Target.parse("2.6.11")))
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(settings.find_tree(Path(tmp)).version, None)


class CommandLineTest(unittest.TestCase):
    """Refusals through the CLI: status 2, a reason, and no work done."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="settings-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.driver = self.tmp / "drv.c"
        self.driver.write_text("int x;\n")
        # Any work started would call these: none may be.
        for target in ("ioctl_rework.convert.cli.convert", "ioctl_rework.audit.cli.audit_trees",
                       "ioctl_rework.check.cli.run_check", "ioctl_rework.convert.merge.merge"):
            patcher = mock.patch(target, side_effect=AssertionError(f"{target} ran"))
            patcher.start()
            self.addCleanup(patcher.stop)

    def refused(self, *argv: str) -> str:
        status, out, err = run_main(list(argv))
        self.assertEqual((status, out), (2, ""), err)
        return err

    def test_bad_targets_are_usage_errors(self):
        for words, said in ((["--target", "2.7"], "2.7.0 is not a Linux version"),
                            (["--target", "99.1"], "99.1.0 is not a Linux version"),
                            (["--target", "4.99"], "4.99.0 is not a Linux version"),
                            (["--target", "2.6.5"], "2.6.5 has no .unlocked_ioctl")):
            for command in ("convert", "check"):
                with self.subTest(command, words=words):
                    source = [str(self.driver)] if command == "convert" else \
                        ["--diff", str(self.driver)]
                    self.assertIn(said, self.refused(command, *words, *source))
        self.assertIn("2.7.0 is not a Linux version",
                      self.refused("audit", "--target", "2.7", str(self.driver)))

    def test_an_old_tree_is_refused_unless_multi_kernel(self):
        (self.tmp / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        err = self.refused("convert", str(self.driver))
        self.assertIn(f"{self.tmp}/Makefile: 2.6.9 has no .unlocked_ioctl", err)
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        request = convert.request_from_args(parser.parse_args(["--multi-kernel", "--no-cache",
                                                               str(self.driver)]))
        self.assertEqual((str(request.options.target), request.options.multi_kernel),
                         ("2.6.9", True))

    def test_split_goes_with_series(self):
        for command, source in (("convert", ["--target", "6.1", str(self.driver)]),
                                ("merge", ["s.json"])):
            for split in ("file", "dir", "maintainer"):
                with self.subTest(command, split=split):
                    self.assertIn(f"--split {split} goes with --series DIR",
                                  self.refused(command, "--split", split, *source))

    def test_unwritable_outputs_are_refused_before_any_work(self):
        missing = self.tmp / "no-such-dir" / "out.json"
        read_only = self.tmp / "ro.json"
        read_only.write_text("{}\n")
        read_only.chmod(0o444)
        for output, said in ((missing, f"no such directory: {missing.parent}"),
                             (self.tmp, "is a directory"),
                             (read_only, "read-only")):
            for argv in (["convert", "--target", "6.1", "--json", str(output), str(self.driver)],
                         ["convert", "--target", "6.1", "-o", str(output), str(self.driver)],
                         ["audit", "-o", str(output), str(self.driver)],
                         ["check", "--diff", str(self.driver), "-o", str(output)],
                         ["merge", "--json", str(output), "s.json"]):
                with self.subTest(argv[0], output=output.name, option=argv[-3]):
                    self.assertIn(said, self.refused(*argv))
        self.assertEqual(read_only.read_text(), "{}\n")
        self.assertFalse(missing.parent.exists())

    def test_a_series_directory_that_cannot_be_made_is_refused_first(self):
        blocker = self.tmp / "file"
        blocker.write_text("")
        for argv in (["convert", "--target", "6.1", "--series", str(blocker / "out"),
                      str(self.driver)],
                     ["merge", "--series", str(blocker / "out"), "s.json"]):
            with self.subTest(argv[0]):
                self.assertIn("is not a directory", self.refused(*argv))


class SpecialOutputCommandTest(unittest.TestCase):
    """-o, --json: a device or a FIFO the user names is written, never
    replaced, by every subcommand that writes (a tree without ioctl code:
    no spatch run needed)."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="settings-out-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.out = self.tmp / "out"
        self.out.mkdir()
        self.driver = self.tmp / "drv.c"
        self.driver.write_text("int x;\n")
        self.cache = ["--cache-dir", str(self.tmp / "cache")]

    def run_ok(self, *argv: str) -> str:
        # The scratch directory is no kernel tree; these tests are about outputs.
        argv = (argv[0], "--no-kernel-headers", *argv[1:]) if argv[0] in ("convert", "check") \
            else argv
        done = subprocess.run([sys.executable, str(ENTRY), *argv], capture_output=True,
                              text=True, check=False, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_a_device_stays_a_device(self):
        device = null_device(self, self.out)
        summary = self.tmp / "s.json"
        self.run_ok("convert", "--target", "6.1", *self.cache, "--json", str(summary),
                    str(self.driver))
        for argv in (["convert", "--target", "6.1", *self.cache, "--json", str(device),
                      str(self.driver)],
                     ["convert", "--target", "6.1", *self.cache, "-o", str(device),
                      "--format", "json", str(self.driver)],
                     ["audit", *self.cache, "-o", str(device), str(self.driver)],
                     ["merge", "--json", str(device), str(summary)],
                     ["merge", "-o", str(device), str(summary)]):
            with self.subTest(argv[0], option=argv[argv.index(str(device)) - 1]):
                self.run_ok(*argv)
                self.assertTrue(stat.S_ISCHR(os.stat(device).st_mode))
                self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["null"])

    def test_a_fifo_gets_the_report(self):
        fifo = self.out / "pipe"
        os.mkfifo(fifo)
        for argv, start in ((["audit", *self.cache, "--format", "json", "-o", str(fifo),
                              str(self.driver)], b"{"),
                            (["convert", "--target", "6.1", *self.cache, "--json", str(fifo),
                              str(self.driver)], b"{")):
            with self.subTest(argv[0]):
                got: list[bytes] = []
                reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()),
                                          daemon=True)
                reader.start()
                self.run_ok(*argv)
                reader.join(30)
                self.assertTrue(got and got[0].startswith(start), got)
                self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
                self.assertEqual(sorted(p.name for p in self.out.iterdir()), ["pipe"])

    def test_json_is_the_alias_of_format_json_to_a_file(self):
        by_alias, by_format = self.tmp / "a.json", self.tmp / "f.json"
        self.run_ok("convert", "--target", "6.1", *self.cache, "--json", str(by_alias),
                    str(self.driver))
        out = self.run_ok("convert", "--target", "6.1", *self.cache, "--format", "json",
                          "-o", str(by_format), str(self.driver))
        self.assertEqual(out, "")
        strip = [json.loads(p.read_text()) for p in (by_alias, by_format)]
        for value in strip:
            # The times of a run and what its run memo did differ between
            # two runs (the second is warm); everything else may not.
            value.pop("started"), value.pop("wall_seconds"), value.pop("stage_seconds")
            value.pop("warm"), value.pop("memo")
        self.assertEqual(strip[0], strip[1])


if __name__ == "__main__":
    unittest.main()

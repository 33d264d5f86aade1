"""`ioctl-rework prove`: one file pair or a whole convert summary."""

import json
import os
import stat
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.patches import unified
from ioctl_rework.convert.summary import FileRecord, FileStatus, Summary
from test_cli import run_main
from test_lockproof import LEGACY, PUSHDOWN
from test_safe_write import null_device

BROKEN = PUSHDOWN.replace("\t\tunlock_kernel();\n\t\treturn -ENOTTY;", "\t\treturn -ENOTTY;")


class ProveCliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        (self.dir / "wdt.c").write_text(LEGACY)

    def pair(self, new: str, *options: str):
        (self.dir / "new.c").write_text(new)
        return run_main(["prove", *options, str(self.dir / "wdt.c"), str(self.dir / "new.c")])

    def test_a_proven_pair_exits_0_with_the_counts(self):
        status, out, err = self.pair(PUSHDOWN)
        self.assertEqual((status, out), (0, ""))
        self.assertEqual(err, "1 handlers: 1 proven, 0 with lock problems, 0 not provable\n")

    def test_a_problem_is_one_line_and_exit_1(self):
        status, out, err = self.pair(BROKEN)
        line = BROKEN[:BROKEN.index("return -ENOTTY")].count("\n") + 1
        self.assertEqual(status, 1)
        self.assertEqual(out, f"wdt.c:{line}: wdt_ioctl: return at line {line} leaves the BKL "
                              "held\n")
        self.assertIn("1 with lock problems", err)

    def test_handlers_can_be_named(self):
        status, out, _ = self.pair(PUSHDOWN, "--handler", "wdt_ioctl=wdt_ioctl")
        self.assertEqual((status, out), (0, ""))
        status, out, _ = self.pair(PUSHDOWN, "--handler", "wdt_ioctl=wdt_unlocked_ioctl")
        self.assertEqual(status, 1)
        self.assertIn("defines wdt_unlocked_ioctl 0 times", out)

    def test_bad_input_is_one_line_and_exit_2(self):
        for argv, message in (
                (["prove", str(self.dir / "nosuch.c"), str(self.dir / "wdt.c")], "nosuch.c: "),
                (["prove", "--handler", "a-b", str(self.dir / "wdt.c"), str(self.dir / "wdt.c")],
                 "--handler 'a-b': want NAME or NAME=ENTRY"),
                (["prove", str(self.dir / "wdt.c")], "give OLD and NEW"),
                (["prove", str(self.dir / "wdt.c"), str(self.dir / "wdt.c")],
                 "no file_operations switched")):
            with self.subTest(argv=argv):
                status, _, err = run_main(argv)
                self.assertEqual(status, 2)
                self.assertEqual(err.count("\n"), 1)
                self.assertIn(message, err)

    def test_a_summary_is_proven_against_its_tree(self):
        tree = self.dir / "tree"
        (tree / "drivers/char").mkdir(parents=True)
        (tree / "drivers/char/wdt.c").write_text(LEGACY)
        summary = Summary(root=str(tree), target="2.6.9", options={"lock": "bkl"},
                          spatch_version="1.1.1", started=0.0)
        summary.files = [FileRecord("drivers/char/wdt.c", FileStatus.CONVERTED, None,
                                    unified.git_diff("drivers/char/wdt.c", LEGACY.encode(),
                                                     BROKEN.encode()))]
        summary_mod.write(summary, self.dir / "run.json")
        status, out, err = run_main(["prove", "--summary", str(self.dir / "run.json"),
                                     "--cache-dir", str(self.dir / "cache"), str(tree)])
        self.assertEqual(status, 1)
        self.assertRegex(out, r"^drivers/char/wdt.c:\d+: wdt_ioctl: return at line \d+ leaves "
                              r"the BKL held\n$")
        status, _, err = run_main(["prove", "--summary", str(self.dir / "run.json"),
                                   str(self.dir / "wdt.c")])
        self.assertEqual((status, err.count("\n")), (2, 1))


class ProveOutputTest(unittest.TestCase):
    """-o FILE and --format, as on every subcommand: the report goes to the
    file named, the counts stay on stderr."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        (self.dir / "wdt.c").write_text(LEGACY)

    def prove(self, new: str, *options: str):
        (self.dir / "new.c").write_text(new)
        return run_main(["prove", *options, str(self.dir / "wdt.c"), str(self.dir / "new.c")])

    def test_text_to_a_file_is_what_stdout_shows(self):
        _, shown, _ = self.prove(BROKEN)
        for spelling in ("-o", "--output"):
            with self.subTest(spelling=spelling):
                out = self.dir / f"report{spelling}.txt"
                status, stdout, err = self.prove(BROKEN, spelling, str(out))
                self.assertEqual((status, stdout), (1, ""))
                self.assertEqual(out.read_text(), shown)
                self.assertIn("1 with lock problems", err)

    def test_json_has_one_record_per_handler(self):
        line = BROKEN[:BROKEN.index("return -ENOTTY")].count("\n") + 1
        for new, proven, problems in ((PUSHDOWN, True, []),
                                      (BROKEN, False, [{
                                          "file": "wdt.c", "line": line,
                                          "function": "wdt_ioctl",
                                          "message": f"return at line {line} leaves the BKL "
                                                     "held"}])):
            with self.subTest(proven=proven):
                out = self.dir / "proof.json"
                status, stdout, _ = self.prove(new, "--format", "json", "-o", str(out))
                self.assertEqual((status, stdout), (0 if proven else 1, ""))
                self.assertEqual(json.loads(out.read_text()), {"handlers": [{
                    "file": "wdt.c", "handler": "wdt_ioctl", "entry": "wdt_ioctl",
                    "proven": proven, "problems": problems, "not_provable": None}]})
        status, stdout, _ = self.prove(PUSHDOWN, "--format", "json")
        self.assertEqual(json.loads(stdout)["handlers"][0]["proven"], True)

    def test_a_character_device_is_written_in_place(self):
        (self.dir / "dev").mkdir()
        device = null_device(self, self.dir / "dev")
        before = os.stat(device)
        for fmt in ("text", "json"):
            status, stdout, _ = self.prove(BROKEN, "--format", fmt, "-o", str(device))
            self.assertEqual((status, stdout), (1, ""))
            after = os.stat(device)
            self.assertTrue(stat.S_ISCHR(after.st_mode))
            self.assertEqual((after.st_ino, after.st_rdev), (before.st_ino, before.st_rdev))
            self.assertEqual(sorted(p.name for p in device.parent.iterdir()), ["null"])

    def test_an_unwritable_output_is_refused_before_the_proof(self):
        (self.dir / "new.c").write_text(BROKEN)
        for output, message in ((self.dir, "is a directory"),
                                (self.dir / "nosuch" / "out.txt", "no such directory")):
            with self.subTest(output=output):
                # OLD is missing too: the output is what is refused, first.
                status, stdout, err = run_main(["prove", "-o", str(output),
                                                str(self.dir / "missing.c"),
                                                str(self.dir / "new.c")])
                self.assertEqual((status, stdout), (2, ""))
                self.assertEqual(err.count("\n"), 1)
                self.assertIn(message, err)
        self.assertFalse((self.dir / "nosuch").exists())


if __name__ == "__main__":
    unittest.main()

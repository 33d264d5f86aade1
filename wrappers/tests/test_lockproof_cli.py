"""`ioctl-rework prove`: one file pair or a whole convert summary."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.patches import unified
from ioctl_rework.convert.summary import FileRecord, FileStatus, Summary
from test_cli import run_main
from test_lockproof import LEGACY, PUSHDOWN

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


if __name__ == "__main__":
    unittest.main()

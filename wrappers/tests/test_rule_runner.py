"""semantic-patches/tests/run: one input, several expected outputs named for
their mode and options; and no input copied to be run another way."""

import importlib.machinery
import importlib.util
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.spatch import rules

CASES = rules.RULES_DIR / "tests"
HAVE_SPATCH = shutil.which("spatch") is not None

SOURCE = """// options: -D pushdown
// variant mutex: -D mutex -D no_bkl
/*
 * A legacy handler that returns at once.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>

static int lamp_ioctl(struct inode *inode, struct file *file,
\t\t      unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static const struct file_operations lamp_fops = {
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= lamp_ioctl,
};
"""


def load_runner():
    loader = importlib.machinery.SourceFileLoader("rule_case_runner", str(CASES / "run"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


RUNNER = load_runner()


class NamingTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="rule-runner-"))
        self.addCleanup(shutil.rmtree, self.dir)
        self.source = self.dir / "lamp.c"
        self.source.write_text(SOURCE)

    def outputs(self, *names: str):
        for name in names:
            (self.dir / name).write_text("")
        return RUNNER.checks(self.source)

    def test_each_output_says_its_mode_and_variant(self):
        found, problems = self.outputs("lamp.res", "lamp.report.res", "lamp.org.res",
                                       "lamp.context.res", "lamp.mutex.res",
                                       "lamp.mutex.report.res", "lampshade.res")
        self.assertEqual(problems, [])
        self.assertEqual(sorted((c.name, c.mode, c.options) for c in found), [
            ("lamp", "patch", ("-D", "pushdown")),
            ("lamp.context", "context", ("-D", "pushdown")),
            ("lamp.mutex", "patch", ("-D", "pushdown", "-D", "mutex", "-D", "no_bkl")),
            ("lamp.mutex.report", "report", ("-D", "pushdown", "-D", "mutex", "-D", "no_bkl")),
            ("lamp.org", "org", ("-D", "pushdown")),
            ("lamp.report", "report", ("-D", "pushdown")),
        ])
        self.assertTrue(all(c.rule == rules.RULES_DIR / RUNNER.DEFAULT_RULE for c in found))

    def test_an_output_of_no_declared_variant_fails(self):
        for name in ("lamp.wrapper.res", "lamp.mutex.wrapper.res", "lamp.mutex.report.org.res"):
            with self.subTest(name=name):
                found, problems = self.outputs(name)
                self.assertEqual(found, [])
                self.assertEqual(len(problems), 1)
                self.assertIn(f"{name}: ", problems[0])
                self.assertIn("is not a variant that lamp.c declares", problems[0])
                (self.dir / name).unlink()

    def test_an_input_without_output_fails(self):
        found, problems = self.outputs()
        self.assertEqual(found, [])
        self.assertEqual(problems, ["lamp.c has no expected output (lamp.res, "
                                    "lamp.report.res, ...)"])

    @unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
    def test_every_output_is_checked_against_its_own_run(self):
        converted = SOURCE.replace("static int lamp_ioctl(struct inode *inode, struct file *file,",
                                   "static long lamp_ioctl(struct file *file,").replace(
            "\t.ioctl\t\t= lamp_ioctl,", "\t.unlocked_ioctl\t= lamp_ioctl,")
        (self.dir / "lamp.report.res").write_text(
            "lamp.c:17: lamp_fops: .ioctl = lamp_ioctl: convert (pushdown)\n")
        (self.dir / "lamp.mutex.report.res").write_text(
            "lamp.c:17: lamp_fops: .ioctl = lamp_ioctl: convert (pushdown)\n")
        found, _ = RUNNER.checks(self.source)
        results = {name: ok for c in found for ok, name, _ in RUNNER.run_check(c)}
        self.assertEqual(results, {"lamp.report": True, "lamp.mutex.report": True})
        # A wrong expectation fails, in the mode its name says.
        (self.dir / "lamp.report.res").write_text(converted)
        found, _ = RUNNER.checks(self.source)
        report = next(c for c in found if c.name == "lamp.report")
        [(ok, _, why)] = RUNNER.run_check(report)
        self.assertFalse(ok)
        self.assertIn("line 1: expected", why)


class NoCopiedInputTest(unittest.TestCase):
    """An input is not copied to run it in another mode or with other options."""

    def test_no_two_inputs_differ_only_in_their_header(self):
        seen = {}
        for case in sorted(CASES.glob("*.c")):
            body = re.sub(r"\A(// [^\n]*\n)*", "", case.read_text(errors="replace"))
            self.assertNotIn(body, seen, f"{case.name} is a copy of {seen.get(body)}")
            seen[body] = case.name

    def test_no_header_says_a_mode(self):
        for case in sorted(CASES.glob("*.c")):
            head = case.read_text(errors="replace").splitlines()[:4]
            self.assertFalse([line for line in head if line.startswith("// mode:")], case.name)


if __name__ == "__main__":
    unittest.main()

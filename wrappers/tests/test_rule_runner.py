"""semantic-patches/tests/run: one input, several expected outputs named for
their mode and options; and no input copied to be run another way."""

import importlib.machinery
import importlib.util
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

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


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class BatchTest(unittest.TestCase):
    """Checks of one rule, mode and options share a spatch process; each is
    still judged, and reported, alone."""

    # Cases of the default rule without options, their expected outputs
    # as the repository keeps them.
    NAMES = ("ioctl_null", "goto_unwind", "ret_two_handlers")

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="rule-runner-"))
        self.addCleanup(shutil.rmtree, self.dir)
        for name in self.NAMES:
            shutil.copy(CASES / f"{name}.c", self.dir)
            shutil.copy(CASES / f"{name}.res", self.dir)

    def run_all(self):
        """{description: (passed, diagnostic)}, and the spatch commands run."""
        commands, real = [], subprocess.run

        def spy(command, *args, **kwargs):
            commands.append(command)
            return real(command, *args, **kwargs)

        found = [c for name in self.NAMES for c in RUNNER.checks(self.dir / f"{name}.c")[0]]
        results = {}
        with mock.patch.object(RUNNER.subprocess, "run", spy):
            for batch in RUNNER.batches(found):
                for outcome in RUNNER.run_batch(batch).values():
                    results.update({name: (ok, why) for ok, name, why in outcome})
        return results, commands

    def test_the_inputs_share_one_process_and_their_expected_outputs_another(self):
        results, commands = self.run_all()
        self.assertEqual(results, {f"{n}{what}": (True, "") for n in self.NAMES
                                   for what in ("", " idempotent")})
        self.assertEqual(len(commands), 2)
        self.assertTrue(all("--file-groups" in command for command in commands))

    def test_a_wrong_expectation_fails_alone_with_its_first_difference(self):
        with open(self.dir / "goto_unwind.res", "a") as res:
            res.write("/* not what the rule writes */\n")
        results, _ = self.run_all()
        ok, why = results["goto_unwind"]
        self.assertFalse(ok)
        self.assertIn("lengths differ", why)
        self.assertNotIn("passes alone", why)
        self.assertEqual({name for name, (ok, _) in results.items() if not ok}, {"goto_unwind"})

    def test_a_check_that_passes_alone_but_not_in_its_batch_fails(self):
        # What a rule that keeps one file's state for the next would print.
        real = RUNNER.run_batched

        def leaking(rule, mode, options, texts, beside):
            outputs = real(rule, mode, options, texts, beside)
            outputs["ret_two_handlers.c"] += "/* the file before it */\n"
            return outputs

        with mock.patch.object(RUNNER, "run_batched", leaking):
            results, _ = self.run_all()
        failed = {name: why for name, (ok, why) in results.items() if not ok}
        self.assertEqual(set(failed), {"ret_two_handlers", "ret_two_handlers idempotent"})
        self.assertIn("passes alone, not in one spatch process", failed["ret_two_handlers"])
        self.assertIn("ioctl_null.c", failed["ret_two_handlers"])

    def test_a_batch_whose_rule_failed_on_a_file_runs_each_check_alone(self):
        # spatch goes on after a rule's failure on one file and exits 0.
        failed = subprocess.CompletedProcess([], 0, "", 'EXN: Failure("Python failure") in x.c\n')
        real_run, real_batched, said = subprocess.run, RUNNER.run_batched, []

        def run(command, *args, **kwargs):
            return failed if "--file-groups" in command else real_run(command, *args, **kwargs)

        def batched(*args, **kwargs):
            said.append(real_batched(*args, **kwargs))
            return said[-1]

        with mock.patch.object(RUNNER, "run_batched", batched), \
                mock.patch.object(RUNNER.subprocess, "run", run):
            results, _ = self.run_all()
        self.assertEqual(said, [None, None])
        self.assertEqual(results, {f"{n}{what}": (True, "") for n in self.NAMES
                                   for what in ("", " idempotent")})

    def test_report_lines_go_to_the_file_they_name(self):
        bulb = SOURCE.replace("lamp", "bulb")
        outputs = RUNNER.run_batched(RUNNER.RULES / RUNNER.DEFAULT_RULE, "report",
                                     ("-D", "pushdown"), {"lamp.c": SOURCE, "bulb.c": bulb},
                                     beside=False)
        self.assertEqual(outputs, {
            "lamp.c": "lamp.c:17: lamp_fops: .ioctl = lamp_ioctl: convert (pushdown)\n",
            "bulb.c": "bulb.c:17: bulb_fops: .ioctl = bulb_ioctl: convert (pushdown)\n"})

    def test_batches_keep_rule_mode_and_options_apart_and_stay_small(self):
        rule = RUNNER.RULES / RUNNER.DEFAULT_RULE
        source = self.dir / "ioctl_null.c"
        make = lambda mode, options, n: [RUNNER.Check(source, source, rule, mode, options,
                                                      f"{mode}{options}{i}") for i in range(n)]
        todo = (make("patch", (), RUNNER.BATCH_SIZE + 1) + make("patch", ("-D", "mutex"), 2)
                + make("report", (), 2) + make("context", (), 2))
        cut = RUNNER.batches(todo)
        self.assertEqual(sorted(len(b) for b in cut), [1, 1, 1, 2, 2, RUNNER.BATCH_SIZE])
        for batch in cut:
            self.assertEqual(len({(c.rule, c.mode, c.options) for c in batch}), 1)
        self.assertEqual(sorted(c.name for b in cut for c in b), sorted(c.name for c in todo))


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

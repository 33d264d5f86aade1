"""convert: a pushdown the verify stage rejects reruns the rule only where
the wrapper changes something.

The fallback (plan.py) runs the stages again with -D wrapper_for=HANDLER;
that option changes the rule's answer only for a file that names the
handler (its fops, its definition, its callers: its group).  Every other
file keeps its first-pass run, in memory (--no-cache still reads no
cache).  Each test rejects the pushdown of some drivers of a tree and
counts the rule's runs per file: the rejected ones run twice, the others
once, and the result is the wrapper for the rejected and the pushdown for
the others, as when every file ran twice.
"""

import os
import shutil
import tempfile
import unittest
from collections import Counter
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import rule_spatch, verification
from ioctl_rework.ctext import macro_forwarding, paste_spelling
from ioctl_rework.convert.summary import HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

# A self-contained 2.6-era driver whose handler the rule pushes down.
DRIVER = """#include <linux/fs.h>

struct {name}_dev {{
\tint level;
}};

static int {name}_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
\tstruct {name}_dev *dev = file->private_data;

\tdev->level = 2;
\treturn dev->level;
}}

static struct file_operations {name}_fops = {{
\t.ioctl = {name}_ioctl,
}};
"""
# A file that only names HANDLER in a comment: a word of its text, so it
# is run again (the rule's answer is not read to decide what it names).
MENTION = "/* {handler} is the legacy entry of the board driver. */\nint board_level;\n"


def rejecting_first_pass(rejected: set[str], passes: list):
    """verification.verify, but rejecting, on the first pass, the pushdown of
    every handler in REJECTED; each pass appends to PASSES."""
    real_verify = verification.verify

    def verify(request, result, stages=None, in_modules=None):
        passes.append(1)
        found = real_verify(request, result, stages, in_modules)
        if len(passes) == 1:
            for h in result.summary.handlers:
                if h.handler in rejected and h.strategy == "pushdown":
                    found.rejected[h.file] = verification.Rejection(
                        h.file, "the lock proof", "a test's rejection", h.handler)
        return found
    return verify


@unittest.skipUnless(HAVE_SPATCH, "spatch not installed")
class FallbackRerunsOnlyItsGroupTest(unittest.TestCase):

    def convert(self, files: dict[str, str], rejected: set[str], *options: str):
        """A run of FILES (with OPTIONS) whose verify stage rejects, on its
        first pass, the pushdown of every handler in REJECTED; (result, rule
        runs per file)."""
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        real_run_all = rule_spatch.run_all
        passes, runs = [], Counter()

        def counted(todo, *args, **kwargs):
            runs.update(pending.task.file for pending in todo)
            return real_run_all(todo, *args, **kwargs)

        verify = rejecting_first_pass(rejected, passes)
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(verification, "verify", verify), \
                mock.patch.object(rule_spatch, "run_all", counted):
            for name, text in files.items():
                (Path(tmp) / name).write_text(text)
            args = parse_args(["--no-cache", "--target", "2.6.20", "--no-kernel-headers",
                               *options, "--", tmp])
            result = convert.convert(convert.request_from_args(args))
        self.assertEqual(len(passes), 2)
        return result, dict(runs)

    def strategies(self, result) -> dict[str, tuple]:
        return {h.handler: (h.status, h.strategy) for h in result.summary.handlers}

    def test_one_rejected_driver_of_three_runs_again_alone(self):
        files = {f"{n}.c": DRIVER.format(name=n) for n in ("bd", "ok", "fine")}
        result, runs = self.convert(files, {"bd_ioctl"})
        self.assertEqual(runs, {"bd.c": 2, "ok.c": 1, "fine.c": 1})
        self.assertEqual(self.strategies(result), {
            "bd_ioctl": (HandlerStatus.CONVERTED, "wrapper"),
            "ok_ioctl": (HandlerStatus.CONVERTED, "pushdown"),
            "fine_ioctl": (HandlerStatus.CONVERTED, "pushdown")})

    def test_two_rejected_drivers_run_again_and_the_third_does_not(self):
        files = {f"{n}.c": DRIVER.format(name=n) for n in ("bd", "ok", "fine")}
        result, runs = self.convert(files, {"bd_ioctl", "fine_ioctl"})
        self.assertEqual(runs, {"bd.c": 2, "ok.c": 1, "fine.c": 2})
        self.assertEqual(self.strategies(result), {
            "bd_ioctl": (HandlerStatus.CONVERTED, "wrapper"),
            "ok_ioctl": (HandlerStatus.CONVERTED, "pushdown"),
            "fine_ioctl": (HandlerStatus.CONVERTED, "wrapper")})

    def test_a_file_naming_the_rejected_handler_runs_again(self):
        # ok.c names bd_ioctl only in a comment: run again all the same.
        files = {"bd.c": DRIVER.format(name="bd"),
                 "ok.c": DRIVER.format(name="ok") + MENTION.format(handler="bd_ioctl"),
                 "fine.c": DRIVER.format(name="fine") + MENTION.format(handler="bd_ioctl_x")}
        result, runs = self.convert(files, {"bd_ioctl"})
        self.assertEqual(runs, {"bd.c": 2, "ok.c": 2, "fine.c": 1})
        self.assertEqual(self.strategies(result)["bd_ioctl"],
                         (HandlerStatus.CONVERTED, "wrapper"))
        self.assertEqual(self.strategies(result)["ok_ioctl"],
                         (HandlerStatus.CONVERTED, "pushdown"))

    def test_the_warnings_and_the_recovery_are_once_a_run_not_once_a_pass(self):
        from ioctl_rework import safe_write
        from ioctl_rework.convert import plan
        calls = Counter()

        def counting(name, real):
            def call(*args, **kwargs):
                calls[name] += 1
                return real(*args, **kwargs)
            return call

        files = {f"{n}.c": DRIVER.format(name=n) for n in ("bd", "ok")}
        with mock.patch.object(plan, "run_warnings", counting("warnings", plan.run_warnings)), \
                mock.patch.object(safe_write, "recover", counting("recover", safe_write.recover)):
            result, _ = self.convert(files, {"bd_ioctl"}, "--in-place")
        self.assertEqual(calls, {"warnings": 1, "recover": 1})
        self.assertEqual(result.recovered, [])
        self.assertEqual(self.strategies(result)["bd_ioctl"],
                         (HandlerStatus.CONVERTED, "wrapper"))

    def test_the_forwarding_stage_asks_each_files_macro_sites_once(self):
        # The second pass's files and texts are the first's: refused_sites
        # answers them from the first pass's SitesMemo (macro_sites.py).
        asked = {"sites": Counter(), "pastes": Counter()}

        def counting(kind, real):
            def counted(*args, **kwargs):
                asked[kind][args[1] if kind == "sites" else
                            min(p for p in args[0] if p.endswith(".c"))] += 1
                return real(*args, **kwargs)
            return counted
        files = {f"{n}.c": DRIVER.format(name=n) for n in ("bd", "ok", "fine")}
        with mock.patch.object(macro_forwarding, "sites",
                               counting("sites", macro_forwarding.sites)), \
                mock.patch.object(paste_spelling, "pastes_of",
                                  counting("pastes", paste_spelling.pastes_of)):
            result, runs = self.convert(files, {"bd_ioctl", "fine_ioctl"})
        self.assertEqual(runs, {"bd.c": 2, "ok.c": 1, "fine.c": 2})
        self.assertEqual(asked["sites"], {"bd.c": 1, "ok.c": 1, "fine.c": 1})
        self.assertEqual(asked["pastes"], {"bd.c": 1, "ok.c": 1, "fine.c": 1})
        self.assertEqual(self.strategies(result), {
            "bd_ioctl": (HandlerStatus.CONVERTED, "wrapper"),
            "ok_ioctl": (HandlerStatus.CONVERTED, "pushdown"),
            "fine_ioctl": (HandlerStatus.CONVERTED, "wrapper")})


if __name__ == "__main__":
    unittest.main()

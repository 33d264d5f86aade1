"""verify as a gate on real runs of the rule, no kernel needed.

The lock proof puts back what the rule gets wrong and keeps what it gets
right (test_data/verify/macros: a return hidden in an object-like macro,
in a macro called by a macro, and in a macro of the driver's own header),
and check --fix --kdir prints no conversion the build put back.
"""

import argparse
import contextlib
import io
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.check import cli as check
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import file_runs as convert_runner
from ioctl_rework.convert import verification as verify
from ioctl_rework.convert.summary import FileStatus, HandlerStatus
from ioctl_rework.verify.build import KernelDir
from test_verify import DATA, FakeBuilder, warning

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None


def run_convert(tree: Path, cache: Path, *argv: str) -> convert.ConversionResult:
    parser = argparse.ArgumentParser()
    convert.add_arguments(parser)
    args = parser.parse_args(["--cache-dir", str(cache), *argv, "--", str(tree)])
    return convert.convert(convert.request_from_args(args))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ProofGateTest(unittest.TestCase):
    """What the rule writes is proven before it is output.  The real rule's
    wrappers around handlers that return inside macros are proven and kept;
    the same run with a rule bug put in (each new function loses its
    unlock_kernel(), as the pushdown once lost the paths through the
    macros) is put back, every handler with the prover's words."""

    cache = Path(tempfile.mkdtemp(prefix="verify-proof-cache-"))
    EXPECTED = {"qic_ioctl": "drivers/char/qic.c", "card_ioctl": "drivers/char/card.c",
                "sq_ioctl": "drivers/char/sndq.c"}

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-proof-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        shutil.copytree(DATA / "macros", self.tree)

    def forgetful_rule(self):
        """The rule's output, each file without its first unlock_kernel()."""
        real = convert_runner.tidy.tidy

        def forgetful(applied) -> bytes:
            return real(applied).replace(b"\tunlock_kernel();\n", b"", 1)

        return mock.patch.object(convert_runner.tidy, "tidy", side_effect=forgetful)

    def test_the_rules_wrappers_are_proven_and_kept(self):
        result = run_convert(self.tree, self.cache, "--strategy", "wrapper")
        self.assertEqual({h.handler: h.status for h in result.summary.handlers},
                         dict.fromkeys(self.EXPECTED, HandlerStatus.CONVERTED))
        self.assertEqual(sorted(result.changes), sorted(self.EXPECTED.values()))

    def test_a_lost_unlock_is_put_back_with_the_provers_words(self):
        with self.forgetful_rule():
            result = run_convert(self.tree, self.cache, "--strategy", "wrapper")
        handlers = {h.handler: h for h in result.summary.handlers}
        for name, rel in self.EXPECTED.items():
            with self.subTest(name):
                self.assertIs(handlers[name].status, HandlerStatus.FAILED)
                self.assertTrue(handlers[name].reason.startswith(
                    f"the lock proof failed: {rel}:"), handlers[name].reason)
                self.assertIn("leaves the BKL held", handlers[name].reason)
                self.assertTrue(handlers[name].reason.endswith(
                    "; its files were left as they were"))
        self.assertEqual(result.changes, {})
        self.assertEqual(result.diff, "")
        self.assertEqual({f.file: f.status for f in result.summary.files if f.file.endswith(".c")},
                         dict.fromkeys(self.EXPECTED.values(), FileStatus.FAILED))

    def test_in_place_nothing_put_back_is_written_and_the_status_is_1(self):
        before = {p: p.read_bytes() for p in self.tree.rglob("*") if p.is_file()}
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()), \
                self.forgetful_rule():
            parser = argparse.ArgumentParser()
            convert.add_arguments(parser)
            status = convert.main(parser.parse_args(
                ["--cache-dir", str(self.cache), "--in-place", "--strategy", "wrapper",
                 str(self.tree)]))
        self.assertEqual(status, 1)
        self.assertEqual({p: p.read_bytes() for p in self.tree.rglob("*") if p.is_file()}, before)
        self.assertIn("file failed: drivers/char/qic.c: not rewritten: the lock proof of "
                      "drivers/char/qic.c: drivers/char/qic.c:", stderr.getvalue())


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class CheckFixTest(unittest.TestCase):
    """check --fix --kdir: the conversion it prints went through the same builds."""

    def test_a_conversion_that_gains_a_warning_is_not_printed_and_a_note_says_why(self):
        legacy = (DATA.parent / "convert" / "tree" / "drivers" / "char" / "ds1620.c").read_text()
        lines = legacy.splitlines()
        patch = ("--- /dev/null\n+++ b/drivers/char/ds1620.c\n"
                 f"@@ -0,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines))
        with tempfile.TemporaryDirectory(prefix="verify-check-") as tmp:
            patch_file = Path(tmp) / "0001-ds1620.patch"
            patch_file.write_text(patch)
            builder = FakeBuilder({}, {"drivers/char/ds1620.c": [
                warning("drivers/char/ds1620.c", "unused variable 'inode'")]})
            # --fix's builds alone (check.compiler's compile is test_check_compiler's).
            request = check.CheckRequest(check.SourceKind.DIFF, str(patch_file), fix=True,
                                         kdir=KernelDir(Path(tmp), False, "k"), compile=False)
            with mock.patch("ioctl_rework.verify.build.Builder", builder):
                report = check.run_check(request)
        (result,) = report.results
        self.assertEqual(result.fix_diff, "")
        self.assertTrue(any("ds1620_ioctl not converted: the build (--kdir) failed: new in "
                            "drivers/char/ds1620.c" in note for note in result.notes),
                        result.notes)
        self.assertTrue(builder.calls)


if __name__ == "__main__":
    unittest.main()

"""Tests for the variant matrix, the broken variants and the verdicts
(ioctl_rework.fixture.variants, ioctl_rework.fixture.runner)."""

import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import settings
from ioctl_rework.fixture import kernel, proof, runner, variants

DATA = Path(__file__).resolve().parent / "test_data" / "fixture"


def recorded(output: str, console: str) -> proof.Transcript:
    return proof.parse_transcript((DATA / output).read_text(), (DATA / console).read_text())


class MatrixTest(unittest.TestCase):
    def test_every_strategy_lock_and_target(self):
        found = {(v.options.strategy, v.options.lock, v.options.target)
                 for v in variants.conversion_variants()
                 if v.options.compat and not v.options.multi_kernel
                 and v.options.target in variants.TARGETS}
        self.assertEqual(len(found), 3 * 2 * 3)
        self.assertEqual({t.inode_style for (_, _, t) in found},
                         {"f_dentry", "f_path", "file_inode"})

    def test_compat_ptr_ioctl_is_proven_on_a_target_that_has_it(self):
        modern = [v.name for v in variants.conversion_variants()
                  if v.options.compat and v.options.target.version >= (5, 5, 0)]
        self.assertEqual(modern, ["auto-bkl-6.1.0"])

    def test_multi_kernel_built_twice(self):
        multi = [v for v in variants.conversion_variants() if v.options.multi_kernel]
        self.assertEqual([v.extra_cflags for v in multi], ["", "-DFIXTURE_NO_UNLOCKED_IOCTL"])

    def test_names_are_unique_and_selectable(self):
        names = [v.name for v in variants.all_variants()]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(variants.select(["legacy"]), [variants.LEGACY])
        with self.assertRaisesRegex(kernel.FixtureError, "unknown variant.*nope"):
            variants.select(["nope"])

    def test_what_a_variant_leaves_legacy_is_decided_once(self):
        bkl = settings.ConversionOptions(lock=settings.LockMode.BKL,
                                         target=settings.Target((2, 6, 20)), compat=False)
        mutex = settings.ConversionOptions(lock=settings.LockMode.MUTEX,
                                           target=settings.Target((2, 6, 20)), compat=False)
        self.assertEqual(variants.left_legacy(bkl), {})
        self.assertEqual(variants.left_legacy(bkl, ("fx_lower.c",)),
                         {"fx_lower.c": "left out of the run: still on .ioctl"})
        # Under the mutex the stack and its lower driver stay, for the mutex's reason.
        self.assertEqual(variants.left_legacy(mutex, ("fx_lower.c",)),
                         {"fx_stack.c": variants.MUTEX_KEPT_REASON,
                          "fx_lower.c": variants.MUTEX_KEPT_REASON})
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("fx_a.c", "fx_stack.c", "fx_lower.c"):
                (Path(tmp) / name).write_text("")
            self.assertEqual(variants.conversion_paths(Path(tmp), bkl), (Path(tmp),))
            self.assertEqual([p.name for p in variants.conversion_paths(Path(tmp), bkl,
                                                                        ("fx_lower.c",))],
                             ["fx_a.c", "fx_stack.c"])
            self.assertEqual([p.name for p in variants.conversion_paths(Path(tmp), mutex)],
                             ["fx_a.c"])

    def test_negative_variants_name_what_they_break(self):
        negatives = variants.negative_variants()
        self.assertGreaterEqual(len(negatives), 2)
        for variant in negatives:
            self.assertTrue(variant.broken.exists())
            self.assertIn(variant.based_on, {v.name for v in variants.conversion_variants()})

    def test_negative_without_a_breaks_line_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "bad.patch").write_text(
                "no header\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a\n+b\n")
            with mock.patch.object(variants, "NEGATIVE_DIR", Path(tmp)):
                with self.assertRaisesRegex(kernel.FixtureError, "breaks: VARIANT"):
                    variants.negative_variants()

    def test_a_negative_in_the_old_edit_format_fails_loudly(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "late.edit").write_text("# breaks: pushdown-bkl-3.9.0\n=== a.c\n")
            with mock.patch.object(variants, "NEGATIVE_DIR", Path(tmp)):
                with self.assertRaisesRegex(kernel.FixtureError, "late.edit: the .edit format"):
                    variants.negative_variants()


class KernelHeadersTest(unittest.TestCase):
    """The kernel proofs convert the fixture drivers, which are built against
    the shimmed 6.1, against its headers (fixture/headers_tree.py), as
    convert wants of any run outside a tree; their stamp is in the key."""

    def prepare(self, variant, stamp: str):
        """(kernel headers convert_directory was given, the stored key) of
        preparing VARIANT with headers made from STAMP (both mocked)."""
        with tempfile.TemporaryDirectory() as tmp:
            headers = Path(tmp) / "headers" / "linux-source-6.1"
            headers.mkdir(parents=True)
            (headers.parent / ".stamp").write_text(stamp)
            given = []
            with mock.patch.object(variants.headers_tree, "headers_tree", return_value=headers), \
                    mock.patch.object(variants, "convert_directory",
                                      side_effect=lambda *a: given.append(a[4]) or []), \
                    mock.patch.object(variants, "compat_drivers", return_value=[]), \
                    mock.patch.object(variants, "break_directory"):
                variants.prepare(variant, Path(tmp) / "work")
            stored = (Path(tmp) / "work" / variant.name / "stamp.json").read_text()
            return given, headers, stored

    def test_every_conversion_variant_reads_the_fixture_kernels_headers(self):
        for variant in variants.conversion_variants()[:3] + variants.negative_variants()[:1]:
            with self.subTest(variant=variant.name):
                given, headers, _ = self.prepare(variant, "one\n")
                self.assertEqual([(k.source, k.build) for k in given], [(headers, headers)])

    def test_other_headers_are_another_conversion(self):
        variant = variants.conversion_variants()[0]
        self.assertNotEqual(self.prepare(variant, "one\n")[2], self.prepare(variant, "two\n")[2])


class BreakTest(unittest.TestCase):
    def test_negative_patch_applies_to_a_converted_driver(self):
        patch = variants.NEGATIVE_DIR / "dropped-unlock.patch"
        with tempfile.TemporaryDirectory() as tmp:
            driver = Path(tmp) / "fx_minor.c"
            driver.write_text("\t\treturn ret;\n\tcase FX_MINOR_SET_VALUE:\n"
                              "\t\tif (get_user(value, argp)) {\n\t\t\tunlock_kernel();\n"
                              "\t\t\treturn -EFAULT;\n\t\t}\n"
                              "\t\tif (value > FX_MINOR_VALUE_MAX) {\n")
            variants.break_directory(Path(tmp), patch)
            self.assertNotIn("unlock_kernel", driver.read_text())

    def test_negative_patch_that_no_longer_applies_says_so(self):
        patch = variants.NEGATIVE_DIR / "dropped-unlock.patch"
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "fx_minor.c").write_text("int nothing_to_break;\n")
            with self.assertRaisesRegex(Exception, "dropped-unlock.patch: fx_minor.c: hunk"):
                variants.break_directory(Path(tmp), patch)


def run(variant, output, console, sparse="", left_alone=()):
    prepared = variants.PreparedVariant(variant, Path("/nonexistent"), left_alone)
    return runner.VariantRun(prepared, recorded(output, console), sparse, None, None, Path("."))


class VerdictTest(unittest.TestCase):
    LEGACY = run(variants.LEGACY, "legacy-output.txt", "legacy-console.log")
    OPTIONS = settings.ConversionOptions(strategy=settings.Strategy.PUSHDOWN, lock=settings.LockMode.BKL,
                                         target=settings.DEFAULT_TARGET, compat=True)

    def test_legacy_verdict(self):
        self.assertTrue(runner.judge(self.LEGACY, self.LEGACY).passed)

    def test_good_conversion_passes(self):
        good = run(variants.Variant("good", self.OPTIONS), "converted-output.txt",
                   "converted-console.log")
        verdict = runner.judge(self.LEGACY, good)
        self.assertEqual(verdict.failures, ())
        self.assertTrue(verdict.passed)

    def test_each_negative_fails_the_proof_and_is_named(self):
        cases = {"dropped-unlock": ("converted-output.txt", "dropped-unlock-console.log",
                                    "fx_minor_ioctl"),
                 "wrong-inode": ("wrong-inode-output.txt", "converted-console.log",
                                 "fx_minor FX_GET valid")}
        for name, (output, console, culprit) in cases.items():
            with self.subTest(name):
                broken = variants.Variant(f"negative-{name}", self.OPTIONS,
                                          broken=variants.NEGATIVE_DIR / f"{name}.patch")
                verdict = runner.judge(self.LEGACY, run(broken, output, console))
                self.assertTrue(verdict.passed, "a broken variant must be caught")
                self.assertIn(culprit, [f.key for f in verdict.failures])
                # The same transcript for a variant that is not broken on purpose fails.
                honest = variants.Variant(name, self.OPTIONS)
                self.assertFalse(runner.judge(self.LEGACY, run(honest, output, console)).passed)

    def test_booted_negatives_fail_the_proof(self):
        """Real boots: pushdown-bkl-3.9.0 (its fx_split.h prototype converted
        by hand; see the fixture report) and the two negative patches on it."""
        options = settings.ConversionOptions(strategy=settings.Strategy.PUSHDOWN,
                                             lock=settings.LockMode.BKL,
                                             target=settings.Target((3, 9, 0)), compat=True)
        left_alone = (variants.LeftAlone("fx_claim.c", "fx_claim_ioctl", "refused"),
                      variants.LeftAlone("fx_ifdef.c", "-", "not changed by the conversion"))

        def booted(name: str, recorded_as: str, sparse: str = "legacy") -> runner.VariantRun:
            patch = variants.NEGATIVE_DIR / f"{name[len('negative-'):]}.patch"
            variant = (variants.LEGACY if name == "legacy" else
                       variants.Variant(name, options, broken=patch if patch.exists() else None))
            return run(variant, f"booted-{recorded_as}-output.txt",
                       f"booted-{recorded_as}-console.log",
                       (DATA / f"booted-sparse-{sparse}.txt").read_text(),
                       () if variant.legacy else left_alone)

        legacy = booted("legacy", "legacy")
        self.assertEqual(runner.judge(legacy, booted("pushdown-bkl-3.9.0", "pushdown-bkl")).failures,
                         ())
        verdict = runner.judge(legacy, booted("negative-dropped-unlock", "dropped-unlock",
                                              "dropped-unlock"))
        self.assertTrue(verdict.passed)
        self.assertEqual({(f.what, f.key) for f in verdict.failures},
                         {("kernel log", "fx_minor_ioctl"), ("sparse", "fx_minor.c")})
        verdict = runner.judge(legacy, booted("negative-wrong-inode", "wrong-inode"))
        self.assertTrue(verdict.passed)
        self.assertEqual({f.key.split()[0] for f in verdict.failures}, {"fx_minor0", "fx_minor1"})
        self.assertIn("ino", " ".join(f.message for f in verdict.failures))

    def test_sparse_imbalance_fails(self):
        good = run(variants.Variant("good", self.OPTIONS), "converted-output.txt",
                   "converted-console.log", (DATA / "sparse-imbalance.txt").read_text())
        self.LEGACY.sparse = (DATA / "sparse-legacy.txt").read_text()
        try:
            verdict = runner.judge(self.LEGACY, good)
        finally:
            self.LEGACY.sparse = ""
        self.assertEqual([(f.what, f.key) for f in verdict.failures], [("sparse", "fx_minor.c")])


if __name__ == "__main__":
    unittest.main()

"""have_ioctl: HAVE_UNLOCKED_IOCTL/HAVE_COMPAT_IOCTL conditionals resolved
for a target without .ioctl, plain forms only; and the modern target's
options (settings.Target, settings.ConversionOptions)."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import cli as convert
from ioctl_rework.ctext import have_ioctl
from ioctl_rework import settings

# The rule's own case: a driver already set up for both kernels.
IFDEF_CASE = Path(__file__).resolve().parents[2] / "semantic-patches" / "tests" / \
    "have_unlocked_ioctl_ifdef.c"

FOPS_IFDEF_ELSE = """static const struct file_operations pp_fops = {
\t.owner\t\t= THIS_MODULE,
#ifdef HAVE_UNLOCKED_IOCTL
\t.unlocked_ioctl\t= pp_unlocked_ioctl,
#else
\t.ioctl\t\t= pp_ioctl,
#endif
};"""


class Resolve(unittest.TestCase):
    def test_true_branch_kept_else_dropped(self):
        result = have_ioctl.resolve(FOPS_IFDEF_ELSE)
        self.assertEqual(result.text, """static const struct file_operations pp_fops = {
\t.owner\t\t= THIS_MODULE,
\t.unlocked_ioctl\t= pp_unlocked_ioctl,
};""")
        self.assertEqual(result.resolved, (3,))
        self.assertEqual(result.left, ())

    def test_ifndef_keeps_only_else(self):
        text = "a\n#ifndef HAVE_COMPAT_IOCTL\nold\n#else\nnew\n#endif /* HAVE_COMPAT_IOCTL */\nb"
        self.assertEqual(have_ioctl.resolve(text).text, "a\nnew\nb")

    def test_ifndef_without_else_disappears(self):
        text = "a\n#if !defined(HAVE_UNLOCKED_IOCTL)\nstatic int legacy;\n#endif\nb"
        self.assertEqual(have_ioctl.resolve(text).text, "a\nb")

    def test_if_defined_spellings(self):
        for opening in ("#if defined(HAVE_UNLOCKED_IOCTL)", "#if defined HAVE_UNLOCKED_IOCTL",
                        "# ifdef HAVE_COMPAT_IOCTL", "#ifdef HAVE_UNLOCKED_IOCTL /* 2.6.11 */"):
            with self.subTest(opening=opening):
                self.assertEqual(have_ioctl.resolve(f"x\n{opening}\nnew\n#endif\ny").text,
                                 "x\nnew\ny")

    def test_nested_conditionals_keep_their_own_directives(self):
        text = ("#ifdef HAVE_UNLOCKED_IOCTL\n#ifdef CONFIG_COMPAT\nc\n#else\nd\n#endif\n"
                "#else\n#ifdef CONFIG_X\ne\n#endif\n#endif")
        self.assertEqual(have_ioctl.resolve(text).text,
                         "#ifdef CONFIG_COMPAT\nc\n#else\nd\n#endif")

    def test_nested_have_conditionals_both_resolved(self):
        text = "#ifdef HAVE_UNLOCKED_IOCTL\nu\n#ifdef HAVE_COMPAT_IOCTL\nc\n#endif\n#endif"
        result = have_ioctl.resolve(text)
        self.assertEqual(result.text, "u\nc")
        self.assertEqual(result.resolved, (1, 3))

    def test_elif_after_true_test_is_dropped_with_else(self):
        text = "#ifdef HAVE_UNLOCKED_IOCTL\nu\n#elif defined(OTHER)\no\n#else\nl\n#endif"
        self.assertEqual(have_ioctl.resolve(text).text, "u")

    # Negative cases: never guess.
    def test_compound_expression_left_and_listed(self):
        text = "#if defined(HAVE_UNLOCKED_IOCTL) && defined(CONFIG_X)\nu\n#endif"
        result = have_ioctl.resolve(text)
        self.assertEqual(result.text, text)
        self.assertEqual(result.left, (1,))

    def test_false_test_with_elif_left(self):
        text = "#ifndef HAVE_UNLOCKED_IOCTL\nl\n#elif defined(X)\nx\n#endif"
        result = have_ioctl.resolve(text)
        self.assertEqual(result.text, text)
        self.assertEqual(result.left, (1,))

    def test_unterminated_left(self):
        text = "#ifdef HAVE_UNLOCKED_IOCTL\nu\n"
        self.assertEqual(have_ioctl.resolve(text).text, text)
        self.assertEqual(have_ioctl.resolve(text).left, (1,))

    def test_other_macros_untouched(self):
        text = "#ifdef HAVE_UNLOCKED_IOCTL_X\na\n#endif\n#ifdef CONFIG_COMPAT\nb\n#else\nc\n#endif"
        result = have_ioctl.resolve(text)
        self.assertEqual(result.text, text)
        self.assertEqual((result.resolved, result.left), ((), ()))


class ModernTarget(unittest.TestCase):
    def test_versions(self):
        modern = settings.Target.parse("6.1")
        self.assertEqual(modern.inode_style, "file_inode")
        self.assertFalse(modern.has_bkl)
        self.assertFalse(modern.has_legacy_ioctl)
        self.assertEqual(modern.default_lock, settings.LockMode.MUTEX)
        self.assertTrue(settings.Target.parse("2.6.35").has_legacy_ioctl)
        self.assertFalse(settings.Target.parse("2.6.36").has_legacy_ioctl)
        self.assertEqual(settings.Target.parse("2.6.38").default_lock, settings.LockMode.BKL)

    def test_for_target_6_1(self):
        options = settings.ConversionOptions.for_target(settings.Target.parse("6.1"))
        self.assertEqual(options.lock, settings.LockMode.MUTEX)
        self.assertTrue(options.resolves_have_ioctl)
        args = options.spatch_args("patch")
        self.assertEqual(args, ["-D", "patch", "-D", "mutex", "-D", "no_bkl"])

    def test_no_bkl_only_with_the_mutex_on_a_kernel_without_bkl(self):
        bkl_on_modern = settings.ConversionOptions.for_target(settings.Target.parse("6.1"),
                                                           lock=settings.LockMode.BKL)
        self.assertNotIn("no_bkl", bkl_on_modern.spatch_args("patch"))
        mutex_on_old = settings.ConversionOptions.for_target(settings.Target.parse("2.6.20"),
                                                          lock=settings.LockMode.MUTEX)
        self.assertNotIn("no_bkl", mutex_on_old.spatch_args("patch"))

    def test_a_modern_target_classifies_compat_by_default(self):
        modern = settings.ConversionOptions.for_target(settings.Target.parse("6.1"))
        self.assertTrue(modern.compat)
        self.assertEqual(modern.warnings(), [])
        self.assertTrue(settings.ConversionOptions.for_target(settings.Target.parse("2.6.36")).compat)
        # Older targets keep --compat as the user's choice; --multi-kernel output's
        # entry exists only under HAVE_UNLOCKED_IOCTL.
        self.assertFalse(settings.ConversionOptions.for_target(settings.Target.parse("2.6.35")).compat)
        self.assertFalse(settings.ConversionOptions.for_target(
            settings.Target.parse("6.1"), multi_kernel=True).compat)

    def test_says_what_no_compat_costs_on_a_modern_target(self):
        without = settings.ConversionOptions.for_target(settings.Target.parse("6.1"), compat=False)
        self.assertEqual(len(without.warnings()), 1)
        self.assertIn("--no-compat on 6.1.0: no .compat_ioctl is added", without.warnings()[0])
        self.assertEqual(settings.ConversionOptions.for_target(
            settings.Target.parse("2.6.20")).warnings(), [])

    def test_old_targets_and_multi_kernel_keep_conditionals(self):
        self.assertFalse(settings.ConversionOptions.for_target(
            settings.Target.parse("2.6.20")).resolves_have_ioctl)
        self.assertFalse(settings.ConversionOptions.for_target(
            settings.Target.parse("6.1"), multi_kernel=True).resolves_have_ioctl)


class ConvertResolves(unittest.TestCase):
    """convert leaves a multi-kernel driver it does not convert as it was, at any target."""

    def converted(self, target: str) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "pp.c").write_bytes(IFDEF_CASE.read_bytes())
            options = settings.ConversionOptions.for_target(settings.Target.parse(target))
            request = convert.ConvertRequest(paths=(Path(tmp),), options=options,
                                             root=Path(tmp), output=convert.Output.IN_PLACE)
            result = convert.convert(request)
            self.assertFalse(result.failed)
            convert.write_in_place(result, Path(tmp))
            return (Path(tmp) / "pp.c").read_text()

    def test_modern_target(self):
        # Its unlocked_ioctl takes the BKL, which 6.1 does not have: the entry is
        # listed to convert by hand, and a file none of whose entries was
        # converted is kept byte for byte, its conditionals too (the run says
        # it left the file alone; test_convert_untouched has the other way).
        self.assertEqual(self.converted("6.1"), IFDEF_CASE.read_text())

    def test_old_target_leaves_the_file(self):
        self.assertEqual(self.converted("2.6.20"), IFDEF_CASE.read_text())


if __name__ == "__main__":
    unittest.main()

"""The builtins spatch gets in place of Coccinelle's standard.h: its own
entries less the macros of semantic-patches/macros.h, made from the
installed standard.h (macro_builtins.py)."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.spatch import installation, macro_builtins
from ioctl_rework.spatch import rules
from ioctl_rework.spatch import runner as spatch

STANDARD = """// include/linux/percpu.h
#define DEFINE_PER_CPU(type, name) \\
    __attribute__((__section__(".data.percpu"))) __typeof__(type) per_cpu__##name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) per_cpu__##name
#define  KEEP_ME 1
"""


class WithoutMacrosTest(unittest.TestCase):
    def test_a_define_goes_with_its_continuation_lines_and_nothing_else(self):
        text, dropped = macro_builtins.without_macros(STANDARD, {"DEFINE_PER_CPU", "ABSENT"})
        self.assertEqual(dropped, ["DEFINE_PER_CPU"])
        self.assertEqual(text, "// include/linux/percpu.h\n" + STANDARD.split("\n", 3)[3])

    def test_the_names_a_macro_file_defines(self):
        self.assertEqual(macro_builtins.defined_names("#define A(x) x\n# define B\n/* #define C */"
                                                      "\nint D;\n"), {"A", "B"})

    def test_the_builtins_say_what_they_leave_out(self):
        text = macro_builtins.builtins_text(STANDARD, "#define DEFINE_PER_CPU(t, n) t n\n")
        self.assertTrue(text.startswith("// Coccinelle's standard.h for ioctl-rework, less the "
                                        "macros its macro\n// file defines: DEFINE_PER_CPU\n"))
        self.assertNotIn("per_cpu__##name\n#define DECLARE", text)
        self.assertIn("#define DECLARE_PER_CPU", text)
        self.assertIn("#define  KEEP_ME 1", text)


@unittest.skipUnless(spatch.standard_h(), "standard.h is not installed")
class InstalledBuiltinsTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.TemporaryDirectory()
        self.addCleanup(self.cache.cleanup)
        patcher = mock.patch.dict(os.environ, {"XDG_CACHE_HOME": self.cache.name})
        patcher.start()
        self.addCleanup(patcher.stop)
        macro_builtins._builtins_file.cache_clear()

    def test_every_command_line_has_them_beside_the_macro_file(self):
        options = rules.spatch_options(rules.CONVERSION_RULE)
        self.assertEqual(options.count("--macro-file-builtins"), 1)
        built = Path(options[options.index("--macro-file-builtins") + 1])
        self.assertTrue(built.is_relative_to(self.cache.name), built)
        text = built.read_text("latin-1")
        self.assertNotIn("#define DEFINE_PER_CPU", text)
        self.assertIn("#define DECLARE_PER_CPU", text)
        standard = spatch.standard_h().read_text("latin-1")
        self.assertEqual(text.count("\n#define "), standard.count("\n#define ") - 1)

    def test_made_once_per_content(self):
        first = macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())
        stamp = first.stat().st_mtime_ns
        macro_builtins._builtins_file.cache_clear()
        self.assertEqual(macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h()), first)
        self.assertEqual(first.stat().st_mtime_ns, stamp)
        with tempfile.TemporaryDirectory() as tmp:
            other = Path(tmp, "macros.h")
            other.write_text("#define OTHER 1\n")
            self.assertNotEqual(macro_builtins.builtins_for(other, spatch.standard_h()), first)

    def test_a_removed_file_is_made_again(self):
        # spatch only warns about a missing builtins file and parses without it.
        first = macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())
        first.unlink()
        again = macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())
        self.assertTrue(again.is_file(), again)

    def test_each_cache_directory_has_its_own(self):
        first = macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())
        with tempfile.TemporaryDirectory() as other, \
                mock.patch.dict(os.environ, {"XDG_CACHE_HOME": other}):
            moved = macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())
            self.assertTrue(moved.is_relative_to(other), moved)
            self.assertTrue(moved.is_file())
        self.assertEqual(macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h()), first)

    def test_make_cocci_gets_the_same_file(self):
        env = {**os.environ, "PYTHONPATH": str(Path(rules.__file__).parents[2])}
        out = subprocess.run([sys.executable, "-m", "ioctl_rework.spatch.macro_builtins"],
                             capture_output=True, text=True, env=env, check=True)
        self.assertEqual(out.stdout.strip(),
                         str(macro_builtins.builtins_for(rules.MACRO_FILE, spatch.standard_h())))


class NoStandardHTest(unittest.TestCase):
    def test_without_standard_h_spatch_keeps_its_own(self):
        with mock.patch.object(installation, "standard_h", return_value=None):
            options = rules.spatch_options(rules.CONVERSION_RULE)
        self.assertNotIn("--macro-file-builtins", options)
        self.assertIn("--macro-file", options)


if __name__ == "__main__":
    unittest.main()

"""What a 32-bit process gets in the tree's own era (issue 24, section 1).

The fixture tree test_data/compat_era/linux-2.6.12 has headers in the
include/asm-* layout, a generic table (fs/compat_ioctl.c and
include/linux/compat_ioctl.h), an arch table, a register_ioctl32_conversion
call, and a compat_sys_ioctl that returns -EINVAL for the rest.  Each
driver there states at its top what the tree does with its commands.
"""

import unittest
from pathlib import Path

from ioctl_rework.cache import Cache
from ioctl_rework.compat import cexpr, probe, table

ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"
MODERN = Path(__file__).resolve().parent / "test_data" / "audit" / "tree"


class CommandNumbersTest(unittest.TestCase):
    """The tree's macros expanded and evaluated as gcc would for x86_64."""

    MACROS = cexpr.definitions(
        (ERA / "include/asm-x86_64/ioctl.h").read_text()
        + "#define _SIO _IO\n#define BASE 'W'\n#define R_INT _IOR(BASE, 5, int)\n"
          "#define R_ARR _IOR('x', 2, unsigned long[2])\n"
          "#define R_STRUCT _IOR('x', 3, struct thing)\n#define VIA _SIO('s', 1)\n")

    def value(self, name: str, sizes=None) -> int:
        return cexpr.evaluate(cexpr.expand(name, self.MACROS.get), sizes)

    def test_each_spelling_of_a_command(self):
        self.assertEqual(self.value("R_INT"), 0x80045705)
        self.assertEqual(self.value("R_ARR"), 0x80107802)
        self.assertEqual(self.value("VIA"), 0x00007301)       # rescanned: _SIO then (...)
        self.assertEqual(self.value("(unsigned int)R_INT"), 0x80045705)

    def test_a_structure_size_comes_from_the_caller_or_stays_uncertain(self):
        self.assertEqual(self.value("R_STRUCT", {"struct thing": 40}.get), 0x80287803)
        with self.assertRaises(cexpr.Uncertain):
            self.value("R_STRUCT")

    def test_enum_constants_and_compat_structures(self):
        enums = cexpr.enumerators("enum { A_CMD = 3, B_CMD, C_CMD = A_CMD + 7 };")
        self.assertEqual([cexpr.evaluate(cexpr.expand(n, enums.get))
                          for n in ("A_CMD", "B_CMD", "C_CMD")], [3, 4, 10])
        structs = cexpr.struct_members("struct t32 { compat_long_t v; };\n"
                                       "struct t { int a; long b; char c[3]; };")
        self.assertEqual((cexpr.struct_size("t32", structs), cexpr.struct_size("t", structs)),
                         (4, 24))


class TableTest(unittest.TestCase):
    """The table as the fixture tree writes it."""

    @classmethod
    def setUpClass(cls):
        cls.table = table.read(ERA)

    def test_every_source_is_read(self):
        self.assertEqual(set(self.table.files), {
            "fs/compat_ioctl.c", "include/linux/compat_ioctl.h", "arch/x86_64/kernel/ioctl32.c"})
        sources = {e.source for e in self.table.entries}
        self.assertIn("drivers/misc/fxr_reg.c:37 register_ioctl32_conversion", sources)
        self.assertEqual((self.table.fallback, self.table.fallback_source),
                         ("-EINVAL", "compat_sys_ioctl, fs/compat.c:30"))

    def test_lookup_by_number_not_name(self):
        keepalive = self.table.lookup("FX_PING", 0x80045705, None)
        self.assertEqual(keepalive.action, table.TableAction.PASSED)
        self.assertEqual(keepalive.entry.expression, "WDIOC_KEEPALIVE")
        # FXA_SET_LEVEL's number is translated by the arch table's FXA_OLD_LEVEL32.
        level = self.table.lookup("FXA_SET_LEVEL", 0x40046606, None)
        self.assertEqual((level.action, level.entry.expression),
                         (table.TableAction.TRANSLATED, "FXA_OLD_LEVEL32"))
        self.assertIsNone(self.table.lookup("FXA_RESET", 0x6602, None).action)

    def test_an_unknown_size_that_may_match_is_uncertain_not_a_miss(self):
        found = self.table.lookup("WDIOC_GETSUPPORT", 0x80285700, None)
        self.assertEqual(found.entry.expression, "WDIOC_GETSUPPORT")
        self.assertIn("sizeof(struct watchdog_info) is not known", found.uncertain)
        self.assertIsNone(found.action)
        sized = self.table.lookup("WDIOC_GETSUPPORT", 0x80285700,
                                  {"struct watchdog_info": 40}.get)
        self.assertEqual(sized.action, table.TableAction.PASSED)

    def test_a_tree_without_a_table(self):
        modern = table.read(MODERN)
        self.assertEqual(modern.entries, ())
        self.assertTrue(modern.no_entry().startswith("no compat table in the tree"))


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class AuditPerEraTest(unittest.TestCase):
    """The audit of the fixture tree: findings true for its era, each with
    the source that decided it."""

    @classmethod
    def setUpClass(cls):
        from ioctl_rework.audit import scan as audit
        cls.result = audit.audit([ERA], cache=Cache(None))
        cls.missing = {f.file: f for f in cls.result.findings
                       if f.kind.value == "missing-compat"}

    def test_what_the_table_passes_is_no_finding(self):
        for file in ("drivers/char/watchdog/fx_wdt.c", "drivers/char/fx_ping.c",
                     "drivers/misc/fxr_reg.c"):
            with self.subTest(file):
                self.assertNotIn(file, self.missing)
        self.assertEqual(self.result.stats.passed_by_table, 3)

    def test_what_the_table_translates_is_translated(self):
        found = self.missing["drivers/misc/fxa_timeout.c"]
        self.assertEqual(found.compat_class, "translated")
        self.assertIn("FXA_GET_TIMEOUT (fs/compat_ioctl.c:31 HANDLE_IOCTL)", found.compat_source)
        self.assertIn("FXA_SET_LEVEL (arch/x86_64/kernel/ioctl32.c:16 HANDLE_IOCTL)",
                      found.compat_source)
        self.assertIn("passes FXA_SET_MODE (fs/compat_ioctl.c:33 ULONG_IOCTL)",
                      found.compat_source)

    def test_the_rest_gets_the_eras_error_and_says_who_decided(self):
        found = self.missing["drivers/misc/fxa_reset.c"]
        self.assertEqual(found.compat_class, "same-handler")
        self.assertTrue(found.compat_source.startswith(
            "FXA_RESET: not in the compat table (fs/compat_ioctl.c, "
            "include/linux/compat_ioctl.h, arch/x86_64/kernel/ioctl32.c"), found.compat_source)
        self.assertIn("32-bit processes get -EINVAL (compat_sys_ioctl, fs/compat.c:30)",
                      found.compat_source)

    def test_a_translated_command_forbids_adding_the_entry(self):
        found = self.missing["drivers/misc/fxa_flags.c"]
        self.assertEqual(found.compat_class, "needs-translation")
        self.assertIn("FXA_SET_FLAGS: compat table: translated by fs/compat_ioctl.c:32 "
                      "HANDLE_IOCTL(FXA_SET_FLAGS); a .compat_ioctl would bypass that",
                      found.compat_detail)

    def test_a_modern_tree_says_there_is_no_table(self):
        from ioctl_rework.audit import scan as audit
        result = audit.audit([MODERN / "drivers/misc/unlocked_bkl.c"], cache=Cache(None))
        found = next(f for f in result.findings if f.kind.value == "missing-compat")
        self.assertTrue(found.compat_source.startswith("no compat table in the tree"))


if __name__ == "__main__":
    unittest.main()

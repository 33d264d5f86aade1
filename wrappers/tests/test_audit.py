"""Tests for ioctl_rework.audit.scan: reading the rules' reports, caching,
and one end-to-end audit of a small recorded tree."""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import scan as audit
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.ctext.candidates import may_hold_legacy_entry
from ioctl_rework.cache import Cache
from ioctl_rework.audit.findings import Finding, Kind

DATA = Path(__file__).resolve().parent / "test_data" / "audit"
TREE = DATA / "tree"


def _have_spatch() -> bool:
    return shutil.which(spatch.SPATCH) is not None


class LegacyReportTest(unittest.TestCase):
    def setUp(self):
        self.found = audit.read_legacy_report((DATA / "legacy-report.txt").read_text())
        self.by_handler = {f.handler: f for f in self.found}

    def test_one_finding_per_decision_line(self):
        self.assertEqual(sorted(self.by_handler),
                         ["NULL", "a_ioctl", "b_ioctl", "c_ioctl", "d_ioctl"])
        self.assertTrue(all(f.kind is Kind.LEGACY_IOCTL for f in self.found))

    def test_effort_follows_the_rule(self):
        self.assertEqual(self.by_handler["a_ioctl"].effort, "auto-pushdown")
        self.assertEqual(self.by_handler["b_ioctl"].effort, "auto-wrapper")
        self.assertEqual(self.by_handler["c_ioctl"].effort, "manual")
        self.assertEqual(self.by_handler["c_ioctl"].reason,
                         "the inode parameter is written at line 9")
        self.assertEqual(self.by_handler["d_ioctl"].effort, "auto-remove")

    def test_flags(self):
        self.assertTrue(self.by_handler["a_ioctl"].uses_inode)
        self.assertFalse(self.by_handler["a_ioctl"].returns_enoioctlcmd)
        self.assertTrue(self.by_handler["b_ioctl"].returns_enoioctlcmd)
        self.assertTrue(self.by_handler["d_ioctl"].dead_ioctl)
        self.assertFalse(self.by_handler["a_ioctl"].dead_ioctl)
        self.assertEqual((self.by_handler["a_ioctl"].file, self.by_handler["a_ioctl"].line),
                         ("/k/drivers/char/a.c", 40))


class UnlockedReportTest(unittest.TestCase):
    def test_kinds_and_first_site_per_handler(self):
        found = audit.first_per_handler(
            audit.read_unlocked_report((DATA / "unlocked-report.txt").read_text()))
        self.assertEqual([(f.kind, f.line) for f in found],
                         [(Kind.BKL_IN_UNLOCKED, 13), (Kind.ENOIOCTLCMD_UNLOCKED, 19),
                          (Kind.MISSING_COMPAT, 27)])
        self.assertEqual({f.struct for f in found}, {"m_fops"})
        self.assertTrue(found[1].returns_enoioctlcmd)


class BundleTest(unittest.TestCase):
    def test_headers_dropped_and_virtuals_once(self):
        text = audit.bundle_rules(audit.AUDIT_RULES)
        self.assertEqual(text.count("virtual report"), 1)
        self.assertNotIn("SPDX", text)
        self.assertNotIn("// Confidence", text)
        for name in ("compat_missing_fops", "bkl_taken", "eno_returned"):
            self.assertIn(f"@ {name}", text)


class PrefilterTest(unittest.TestCase):
    def test_only_files_the_rules_can_report(self):
        runs = [audit.RuleRun("legacy", Path("x"), (), re.compile(b"ioctl"),
                              may_hold_legacy_entry),
                audit.RuleRun("unlocked", Path("y"), (), audit._UNLOCKED_MEMBER)]
        found = {c.path.name: c.runs for c in audit._candidates([TREE], runs)}
        self.assertEqual(found["legacy_dead.c"], ("legacy", "unlocked"))
        self.assertEqual(found["legacy_misc.c"], ("legacy",))
        self.assertEqual(found["unlocked_bkl.c"], ("unlocked",))
        self.assertNotIn("Makefile", found)
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "no_fops.c").write_text("int x = f.ioctl = 0;\n")
            Path(tmp, "comment.c").write_text("/* file_operations has an ioctl */\n")
            self.assertEqual(audit._candidates([Path(tmp)], runs), [])

    def test_every_spelling_of_a_legacy_entry_is_a_candidate(self):
        runs = [audit.RuleRun("legacy", Path("x"), (), re.compile(b"ioctl"),
                              may_hold_legacy_entry)]
        spellings = {
            "address.c": "struct file_operations f = { .ioctl = &h, };\n",
            "cast.c": "struct file_operations f = { .ioctl = (void *)h, };\n",
            "array.c": "struct file_operations f[] = { { .ioctl = h }, };\n",
            "typedef.c": "typedef struct file_operations fops_t;\n"
                         "static fops_t f = { .ioctl = h, };\n",
            "runtime.c": "struct file_operations f;\nvoid g(void) { f.ioctl = h; }\n",
            "pointer.c": "void g(struct file_operations *ops) { ops->ioctl = h; }\n",
            "positional.c": "struct file_operations f = { THIS_MODULE, NULL, NULL, NULL,"
                            " NULL, NULL, NULL, NULL, h, };\n",
            "macro.c": "struct file_operations f = { .ioctl = DRM(ioctl), };\n",
            # A comment between the member and its = or : is a space to
            # the compiler (and to the finder, which reads code_only).
            "comment_block.c": "struct file_operations f = { .ioctl /* old */ = h, };\n",
            "comment_line.c": "struct file_operations f = {\n\t.ioctl\t// old\n\t= h,\n};\n",
            "comment_gnu.c": "struct file_operations f = { ioctl /* 2.4 */ : h, };\n",
            "comment_runtime.c": "struct file_operations f;\n"
                                 "void g(void) { f.ioctl /* set late */ = h; }\n",
            "comment_embedded.c": "struct drm_driver d = {\n"
                                  "\t.fops = { .ioctl /* x */ /* y */ = h, },\n};\n",
        }
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in spellings.items():
                Path(tmp, name).write_text(text)
            Path(tmp, "tty.c").write_text("struct file_operations f = { .open = o, };\n"
                                          "struct tty_operations t = { .ioctl = h, };\n")
            Path(tmp, "tty_comment.c").write_text(
                "struct file_operations f = { .open = o, };\n"
                "struct tty_operations t = { .ioctl /* its own */ = h, };\n")
            found = sorted(c.path.name for c in audit._candidates([Path(tmp)], runs))
        self.assertEqual(found, sorted(spellings))


class PrefilterIndexTest(unittest.TestCase):
    """Unchanged files (same size, mtime, inode) are not read again."""

    def test_stat_index(self):
        runs = [audit.RuleRun("unlocked", Path("y"), (), audit._UNLOCKED_MEMBER)]
        with tempfile.TemporaryDirectory() as tmp:
            cache = Cache(Path(tmp) / "cache", "audit")
            source = Path(tmp) / "tree" / "a.c"
            source.parent.mkdir()
            source.write_text("struct file_operations f = { .unlocked_ioctl = h, };\n")
            first = audit._candidates([source.parent], runs, cache)
            self.assertEqual([c.path for c in first], [source])
            # Same size and mtime: the index answers, the new text is not read.
            stat = source.stat()
            source.write_text("struct file_operations f = { .unlocked_ioctl = H, };\n")
            os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            self.assertEqual(audit._candidates([source.parent], runs, cache)[0].digest,
                             first[0].digest)
            # A new mtime: read again, new digest.
            os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
            self.assertNotEqual(audit._candidates([source.parent], runs, cache)[0].digest,
                                first[0].digest)


class FindTreeTest(unittest.TestCase):
    def test_tree_and_version(self):
        self.assertEqual(audit.find_tree(TREE / "drivers" / "char"), TREE)
        self.assertEqual(audit.find_tree(TREE / "drivers" / "char" / "legacy_misc.c"), TREE)
        self.assertEqual(audit._tree_version(TREE), "2.6.18")

    def test_missing_path_is_an_error(self):
        with self.assertRaises(audit.AuditError):
            audit.audit([TREE / "no-such-dir"])


EXPECTED = [
    # The entry spatch could not parse around is listed by its text, never dropped.
    ("drivers/char/broken.c", 5, "legacy-ioctl", "broken_fops", "broken_ioctl",
     "CHAR and MISC DRIVERS"),
    ("drivers/char/legacy_dead.c", 17, "missing-compat", "legacy_dead_fops",
     "legacy_dead_unlocked_ioctl", "LEGACY CHAR DRIVERS"),
    ("drivers/char/legacy_dead.c", 18, "legacy-ioctl", "legacy_dead_fops",
     "legacy_dead_ioctl", "LEGACY CHAR DRIVERS"),
    ("drivers/char/legacy_misc.c", 22, "legacy-ioctl", "legacy_misc_fops",
     "legacy_misc_ioctl", "LEGACY CHAR DRIVERS"),
    ("drivers/misc/excluded_compat.c", 10, "missing-compat", "excluded_fops",
     "excluded_ioctl", "THE REST"),
    ("drivers/misc/unlocked_bkl.c", 13, "bkl-in-unlocked", "unlocked_bkl_fops",
     "unlocked_bkl_ioctl", "CHAR and MISC DRIVERS"),
    ("drivers/misc/unlocked_bkl.c", 19, "enoioctlcmd-unlocked", "unlocked_bkl_fops",
     "unlocked_bkl_ioctl", "CHAR and MISC DRIVERS"),
    ("drivers/misc/unlocked_bkl.c", 27, "missing-compat", "unlocked_bkl_fops",
     "unlocked_bkl_ioctl", "CHAR and MISC DRIVERS"),
    ("sound/oss/oss_mixer.c", 23, "legacy-ioctl", "oss_old_fops", "oss_old_ioctl",
     "OSS SOUND"),
]


@unittest.skipUnless(_have_spatch(), "spatch is not installed (make deps)")
class EndToEndTest(unittest.TestCase):
    """The recorded tree, audited twice: cold, then from the cache."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tree = Path(cls.tmp.name) / "tree"
        shutil.copytree(TREE, cls.tree)
        cls.cache = Cache(Path(cls.tmp.name) / "cache", "audit")
        cls.cold = audit.audit([cls.tree], jobs=2, cache=cls.cache)
        cls.warm = audit.audit([cls.tree], jobs=2, cache=cls.cache)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_exact_findings(self):
        got = [(f.file, f.line, f.kind.value, f.struct, f.handler, f.subsystem)
               for f in self.cold.findings]
        self.assertEqual(got, EXPECTED)

    def test_other_ops_structures_are_not_legacy_ioctl(self):
        files = {f.file for f in self.cold.findings}
        self.assertNotIn("drivers/block/blk_ops.c", files)

    def test_effort_and_maintainers(self):
        by_handler = {(f.kind, f.handler): f for f in self.cold.findings}
        dead = by_handler[Kind.LEGACY_IOCTL, "legacy_dead_ioctl"]
        self.assertEqual((dead.effort, dead.dead_ioctl), ("auto-remove", True))
        misc = by_handler[Kind.LEGACY_IOCTL, "legacy_misc_ioctl"]
        self.assertEqual(misc.effort, "auto-pushdown")
        self.assertEqual(misc.maintainers, ("Legacy Maintainer <legacy@example.org>",
                                            "legacy-drivers@example.org"))

    def test_unparsable_file_is_listed_with_reason(self):
        self.assertEqual([(s.file, s.partial) for s in self.cold.skipped],
                         [("drivers/char/broken.c", True)])
        self.assertIn("could not parse", self.cold.skipped[0].reason)
        [entry] = [f for f in self.cold.findings if f.file == "drivers/char/broken.c"]
        self.assertEqual(entry.effort, "manual")
        self.assertIn("convert it by hand", entry.reason)

    def test_version_from_makefile(self):
        self.assertEqual(self.cold.version, "2.6.18")

    def test_rerun_comes_from_the_cache(self):
        self.assertEqual(self.warm.stats.spatch_runs, 0)
        self.assertEqual(self.warm.stats.cached, self.cold.stats.spatch_runs)
        self.assertEqual(self.warm.findings, self.cold.findings)
        self.assertEqual(self.warm.skipped, self.cold.skipped)

    def test_changed_file_is_audited_again(self):
        tree = Path(self.tmp.name) / "changed"
        shutil.copytree(self.tree, tree)
        target = tree / "drivers" / "misc" / "excluded_compat.c"
        target.write_text(target.read_text().replace(
            "\t.unlocked_ioctl\t= excluded_ioctl,",
            "\t.unlocked_ioctl\t= excluded_ioctl,\n\t.compat_ioctl\t= excluded_ioctl,"))
        again = audit.audit([tree / "drivers" / "misc"], jobs=1, cache=self.cache)
        self.assertEqual(again.stats.spatch_runs, 2)   # new path, new content: no reuse
        self.assertNotIn("drivers/misc/excluded_compat.c", {f.file for f in again.findings})


if __name__ == "__main__":
    unittest.main()

"""The compat classes cost nothing on a re-run and stay true when a file
changes (issue 24, section 3).

A copy of the era fixture tree (test_data/compat_era/linux-2.6.12) is
audited with a cache; its adapter header takes FXA_RESET's number from a
header of its own (include/linux/fxa_reset.h), which the probe reads only
through gcc.  Setting FXA_RESET to the number of FXA_SET_MODE, which the
table passes, or putting FXA_RESET in the table, changes the verdicts of
the two drivers that handle FXA_RESET and no other.
"""

import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import ioctl_rework.compat as compat
from ioctl_rework.audit import scan as audit
from ioctl_rework.cache import Cache
from ioctl_rework.compat import probe, table
from ioctl_rework.spatch import runner as spatch

ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"
# What the unchanged tree gets (test_compat_era says why).
BEFORE = {"drivers/misc/fxa_timeout.c": "translated",
          "drivers/misc/fxa_reset.c": "same-handler",
          "drivers/misc/fxa_flags.c": "needs-translation"}
# FXA_RESET passed by the table: fxa_reset.c is no finding, and fxa_flags.c
# has every command handled by the table (FXA_SET_FLAGS translated).
AFTER = {"drivers/misc/fxa_timeout.c": "translated",
         "drivers/misc/fxa_flags.c": "translated"}
# The drivers that read the adapter headers: the only ones probed again.
ADAPTER_COMMANDS = {"FXA_GET_TIMEOUT", "FXA_RESET", "FXA_SET_MODE", "FXA_SET_FLAGS",
                    "FXA_SET_LEVEL", "struct fxa_timeout", "int"}


class Work:
    """What a run did: compiles (their items), spatch runs with files,
    reads of the table, header scans."""

    def __init__(self):
        self.compiled: list[str] = []
        self.spatch_files = 0
        self.table_reads = 0
        self.header_scans = 0

    def patches(self):
        compile_, run_batched = probe._compile, spatch.run_batched
        read, scan = table._read, compat.probe_headers

        def counted_compile(items, *args):
            self.compiled += [item.text for item in items]
            return compile_(items, *args)

        def counted_spatch(rule, files, *args, **kwargs):
            self.spatch_files += len(files)
            return run_batched(rule, files, *args, **kwargs)

        def counted_read(*args):
            self.table_reads += 1
            return read(*args)

        def counted_scan(*args):
            self.header_scans += 1
            return scan(*args)
        return [mock.patch.object(probe, "_compile", counted_compile),
                mock.patch.object(spatch, "run_batched", counted_spatch),
                mock.patch.object(table, "_read", counted_read),
                mock.patch.object(compat, "probe_headers", counted_scan)]


@unittest.skipIf(probe.tools_missing() or shutil.which(spatch.SPATCH) is None,
                 "gcc, pahole or spatch missing (make deps)")
class CompatCacheTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="compat-cache-")
        self.tree = Path(self.tmp.name) / "linux-2.6.12"
        shutil.copytree(ERA, self.tree)
        header = self.tree / "include/linux/fxa.h"
        header.write_text(header.read_text().replace(
            "#define FXA_RESET\t_IO('f', 2)\n", "#include <linux/fxa_reset.h>\n"))
        self.reset_header = self.tree / "include/linux/fxa_reset.h"
        self.reset_header.write_text("#define FXA_RESET\t_IO('f', 2)\n")
        self.cache = Cache(Path(self.tmp.name) / "cache", "audit")

    def tearDown(self):
        self.tmp.cleanup()

    def audit(self) -> tuple[dict[str, str], Work]:
        work = Work()
        patches = work.patches()
        for patch in patches:
            patch.start()
        try:
            result = audit.audit([self.tree], cache=self.cache)
        finally:
            for patch in patches:
                patch.stop()
        return ({f.file: f.compat_class for f in result.findings
                 if f.kind.value == "missing-compat"}, work)

    def test_a_warm_run_does_no_probe_work(self):
        cold, cold_work = self.audit()
        self.assertEqual(cold, BEFORE)
        self.assertTrue(cold_work.compiled and cold_work.spatch_files)
        self.assertEqual(cold_work.table_reads, 1)      # once a run, not once a file
        warm, work = self.audit()
        self.assertEqual(warm, BEFORE)
        self.assertEqual((work.compiled, work.spatch_files, work.table_reads, work.header_scans),
                         ([], 0, 0, 0))

    def test_a_changed_header_probes_again_only_the_drivers_that_read_it(self):
        self.audit()
        # Read by gcc only: fxa.h includes it; no driver names it.
        self.reset_header.write_text("#define FXA_RESET\t_IOW('f', 3, int)\n")
        changed, work = self.audit()
        self.assertEqual(changed, AFTER)
        self.assertTrue(work.compiled)
        self.assertLessEqual(set(work.compiled), ADAPTER_COMMANDS)
        self.assertEqual(work.spatch_files, 0)         # the drivers' text is unchanged

    def test_a_changed_table_file_changes_only_the_verdicts_it_decides(self):
        self.audit()
        compat_ioctl = self.tree / "fs/compat_ioctl.c"
        compat_ioctl.write_text(compat_ioctl.read_text().replace(
            "ULONG_IOCTL(FXA_SET_MODE)\n", "ULONG_IOCTL(FXA_SET_MODE)\nCOMPATIBLE_IOCTL(FXA_RESET)\n"))
        changed, work = self.audit()
        self.assertEqual(changed, AFTER)
        self.assertEqual((work.compiled, work.spatch_files, work.table_reads), ([], 0, 1))

    def test_a_header_the_table_includes_is_read_for_the_table(self):
        self.audit()
        # fs/compat_ioctl.c sees FXA_SET_MODE through fxa.h: the table is
        # read again and passes the new number, as the drivers now use it.
        header = self.tree / "include/linux/fxa.h"
        header.write_text(header.read_text().replace("_IOW('f', 3, int)", "_IOW('f', 9, int)"))
        changed, work = self.audit()
        self.assertEqual(work.table_reads, 1)
        self.assertEqual(changed, BEFORE)


MODERN = Path(__file__).resolve().parent / "test_data" / "audit" / "tree"


@unittest.skipIf(probe.tools_missing() or shutil.which(spatch.SPATCH) is None,
                 "gcc, pahole or spatch missing (make deps)")
class KeptVerdictsTest(unittest.TestCase):
    """A tree whose table no new file can extend: the run's verdicts are
    kept whole, and a re-run does not run the classifier."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="compat-kept-")
        self.tree = Path(self.tmp.name) / "tree"
        shutil.copytree(MODERN, self.tree)
        self.cache = Cache(Path(self.tmp.name) / "cache", "audit")

    def tearDown(self):
        self.tmp.cleanup()

    def audit(self) -> tuple[dict[str, tuple], int]:
        runs = []
        classify = compat.classify_files_read

        def counted(*args):
            runs.append(args)
            return classify(*args)
        with mock.patch.object(compat, "classify_files_read", counted):
            result = audit.audit([self.tree], cache=self.cache)
        return ({f.file: (f.compat_class, f.compat_detail, f.compat_source)
                 for f in result.findings if f.kind.value == "missing-compat"}, len(runs))

    def test_a_re_run_takes_the_verdicts_and_a_changed_driver_does_not(self):
        cold, runs = self.audit()
        self.assertEqual(runs, 1)
        self.assertEqual(cold["drivers/misc/unlocked_bkl.c"][0], "same-handler")
        warm, runs = self.audit()
        self.assertEqual((warm, runs), (cold, 0))
        driver = self.tree / "drivers/misc/unlocked_bkl.c"
        driver.write_text(driver.read_text() + "/* touched */\n")
        changed, runs = self.audit()
        self.assertEqual((changed, runs), (cold, 1))


if __name__ == "__main__":
    unittest.main()

"""A warm `convert` at a modern target takes the compat results from the
cache, the tree's compat table's verdicts included (issue 25, the warm
ratio; compat.verdict_memo), and classifies again what a changed file
decides.

A copy of the era fixture tree (test_data/compat_era/linux-2.6.12), its
three fxa drivers made legacy, each fops in another spelling (C99 with
tabs, C99 with spaces, GNU), converted for 6.1 with a cache.  As in test_compat_cache,
fxa.h takes FXA_RESET from a header of its own (fxa_reset.h), which the
probe reads only through gcc.  The work is counted: the compat facts
rule's spatch runs, the add rule's, gcc's compiles and the table's
lookups.
"""

import re
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.compat import apply, facts, probe, table
from ioctl_rework.convert import cli as convert
from ioctl_rework.spatch import runner as spatch

ERA = Path(__file__).resolve().parent / "test_data" / "compat_era" / "linux-2.6.12"
SPELLINGS = {"drivers/misc/fxa_reset.c": ".ioctl\t\t= fxa_reset_ioctl,",
             "drivers/misc/fxa_timeout.c": ".ioctl = fxa_timeout_ioctl,",
             "drivers/misc/fxa_flags.c": "ioctl:\t\tfxa_flags_ioctl,"}
HANDLERS = {"drivers/misc/fxa_reset.c": "fxa_reset_ioctl",
            "drivers/misc/fxa_timeout.c": "fxa_timeout_ioctl",
            "drivers/misc/fxa_flags.c": "fxa_flags_ioctl"}
# The commands of fxa_reset_ioctl with a case added for FXA_SET_FLAGS.
RESET_COMMANDS = {"FXA_RESET", "FXA_SET_MODE", "FXA_SET_FLAGS"}


class Work:
    """What a run did for compat: files given to the facts rule, runs of
    the add rule, items compiled, commands looked up in the table."""

    def __init__(self):
        self.facts_files = 0
        self.add_runs = 0
        self.compiled: list[str] = []
        self.looked_up: list[str] = []

    def patches(self) -> list:
        run_batched, run_files = spatch.run_batched, spatch.run_files
        compile_, lookup = probe._compile, table.CompatTable.lookup

        def counted_batched(rule, files, *args, **kwargs):
            if rule == facts.FACTS_RULE:
                self.facts_files += len(files)
            return run_batched(rule, files, *args, **kwargs)

        def counted_files(rule, *args, **kwargs):
            if rule == apply.ADD_RULE:
                self.add_runs += 1
            return run_files(rule, *args, **kwargs)

        def counted_compile(items, *args):
            self.compiled += [item.text for item in items]
            return compile_(items, *args)

        def counted_lookup(self_, name, *args, **kwargs):
            self.looked_up.append(name)
            return lookup(self_, name, *args, **kwargs)
        return [mock.patch.object(spatch, "run_batched", counted_batched),
                mock.patch.object(spatch, "run_files", counted_files),
                mock.patch.object(probe, "_compile", counted_compile),
                mock.patch.object(table.CompatTable, "lookup", counted_lookup)]


@unittest.skipIf(probe.tools_missing() or shutil.which(spatch.SPATCH) is None,
                 "gcc, pahole or spatch missing (make deps)")
class WarmConvertTest(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="compat-warm-")
        self.addCleanup(tmp.cleanup)
        self.tree = Path(tmp.name) / "linux-2.6.12"
        shutil.copytree(ERA, self.tree)
        for rel, entry in SPELLINGS.items():
            driver = self.tree / rel
            text = driver.read_text()
            text = re.sub(r"static long (\w+)\(struct file \*file,",
                          r"static int \1(struct inode *inode, struct file *file,", text)
            driver.write_text(re.sub(r"\.unlocked_ioctl\t= \w+,", entry, text))
        header = self.tree / "include/linux/fxa.h"
        header.write_text(header.read_text().replace(
            "#define FXA_RESET\t_IO('f', 2)\n", "#include <linux/fxa_reset.h>\n"))
        self.reset_header = self.tree / "include/linux/fxa_reset.h"
        self.reset_header.write_text("#define FXA_RESET\t_IO('f', 2)\n")
        self.cache = Path(tmp.name) / "cache"

    def convert(self) -> tuple[dict[str, str], Work]:
        """Handler -> its compat decision, and the compat work done."""
        parser = __import__("argparse").ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--cache-dir", str(self.cache), "--target", "6.1",
                                  "--", str(self.tree)])
        work = Work()
        patches = work.patches()
        for patch in patches:
            patch.start()
        try:
            result = convert.convert(convert.request_from_args(args))
        finally:
            for patch in patches:
                patch.stop()
        return {h.handler: h.compat for h in result.summary.handlers
                if h.file in HANDLERS}, work

    def test_every_spelling_is_converted_and_classified(self):
        cold, work = self.convert()
        self.assertEqual(set(cold), set(HANDLERS.values()))
        self.assertTrue(all(cold.values()), cold)
        self.assertTrue(work.facts_files and work.compiled and work.looked_up)
        # FXA_RESET is in no table: the layouts' class stands and the entry
        # is added; FXA_GET_TIMEOUT is translated: nothing is added.
        self.assertTrue(cold["fxa_reset_ioctl"].startswith("same-handler"), cold)
        self.assertTrue(cold["fxa_timeout_ioctl"].startswith("translated"), cold)

    def test_a_warm_run_runs_no_compat_work(self):
        cold, _ = self.convert()
        warm, work = self.convert()
        self.assertEqual(warm, cold)
        self.assertEqual((work.facts_files, work.add_runs, work.compiled, work.looked_up),
                         (0, 0, [], []))

    def test_a_changed_driver_is_classified_again_alone(self):
        cold, _ = self.convert()
        driver = self.tree / "drivers/misc/fxa_reset.c"
        # A comment: its facts are read again, but its layouts are the
        # same, and so are the verdicts on them (kept by their value).
        driver.write_text(driver.read_text() + "/* touched */\n")
        touched, work = self.convert()
        self.assertEqual(touched, cold)
        self.assertEqual((work.facts_files, work.looked_up), (1, []))
        # A command the table translates: looked up, and it forbids the entry.
        driver.write_text(driver.read_text().replace(
            "\tcase FXA_RESET:\n", "\tcase FXA_SET_FLAGS:\n\tcase FXA_RESET:\n"))
        changed, work = self.convert()
        self.assertEqual(work.facts_files, 1)
        self.assertEqual(set(work.looked_up), RESET_COMMANDS)
        self.assertTrue(changed["fxa_reset_ioctl"].startswith(
            "needs-translation: FXA_SET_FLAGS: compat table: translated by "
            "fs/compat_ioctl.c:32 HANDLE_IOCTL(FXA_SET_FLAGS)"), changed)
        self.assertEqual({h: d for h, d in changed.items() if h != "fxa_reset_ioctl"},
                         {h: d for h, d in cold.items() if h != "fxa_reset_ioctl"})

    def test_a_changed_header_it_includes_is_classified_again(self):
        cold, _ = self.convert()
        # Read by gcc only; FXA_RESET now has FXA_SET_MODE's number, which
        # the table passes: fxa_reset.c and fxa_flags.c, which handle
        # FXA_RESET, change class; fxa_timeout.c, which does not, does not.
        self.reset_header.write_text("#define FXA_RESET\t_IOW('f', 3, int)\n")
        changed, work = self.convert()
        self.assertEqual(work.facts_files, 0)           # no driver's text changed
        self.assertIn("FXA_RESET", work.compiled)
        self.assertIn("FXA_RESET", work.looked_up)
        self.assertTrue(changed["fxa_reset_ioctl"].startswith("table-passes"), changed)
        self.assertNotEqual(changed["fxa_flags_ioctl"], cold["fxa_flags_ioctl"])
        self.assertEqual(changed["fxa_timeout_ioctl"], cold["fxa_timeout_ioctl"])

    def test_a_changed_table_file_looks_every_command_up_again(self):
        cold, _ = self.convert()
        compat_ioctl = self.tree / "fs/compat_ioctl.c"
        compat_ioctl.write_text(compat_ioctl.read_text().replace(
            "ULONG_IOCTL(FXA_SET_MODE)\n", "ULONG_IOCTL(FXA_SET_MODE)\nCOMPATIBLE_IOCTL(FXA_RESET)\n"))
        changed, work = self.convert()
        self.assertEqual((work.facts_files, work.compiled), (0, []))
        self.assertLessEqual(RESET_COMMANDS, set(work.looked_up))
        self.assertTrue(changed["fxa_reset_ioctl"].startswith("table-passes"), changed)
        self.assertEqual(changed["fxa_timeout_ioctl"], cold["fxa_timeout_ioctl"])


if __name__ == "__main__":
    unittest.main()

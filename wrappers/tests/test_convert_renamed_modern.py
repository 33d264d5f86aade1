"""A driver whose text names only .unlocked_ioctl (or .compat_ioctl), in a
directory whose kbuild flags rename that word (`-Dunlocked_ioctl=ioctl`):
gcc compiles a legacy .ioctl entry, yet the prefilter does not pick the
file (it names no ioctl entry), so neither the rule nor the accounting saw
it and convert said nothing (issue 22, "never silent").

convert lists each such file as skipped, with the flag and its Makefile
named as the rule's refusal names them (ctext/renamed_words.refusal), and
exits as that refusal does (0: refused with a reason); a directory whose
flags rename nothing gives no record.
"""

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import FileStatus, text_report

DATA = Path(__file__).resolve().parent / "test_data" / "red31"
CLI = Path(__file__).resolve().parents[1] / "ioctl-rework"
TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n\nobj-y += drivers/\n"
MODERN = (DATA / "modern.c").read_text()
# The same driver with a .compat_ioctl beside its .unlocked_ioctl.
WITH_COMPAT = MODERN.replace("\t.unlocked_ioctl\t= hydro_ioctl,\n",
                             "\t.unlocked_ioctl\t= hydro_ioctl,\n\t.compat_ioctl\t= hydro_ioctl,\n")
# GNU's old initializer spelling.
GNU = MODERN.replace("\t.owner\t\t= THIS_MODULE,\n\t.unlocked_ioctl\t= hydro_ioctl,\n",
                     "\towner:\t\tTHIS_MODULE,\n\tunlocked_ioctl:\thydro_ioctl,\n")

# (Makefile line, the driver, the flag the record names).
RENAMING = {
    "EXTRA_CFLAGS": ("EXTRA_CFLAGS += -Dunlocked_ioctl=ioctl", MODERN, "-Dunlocked_ioctl=ioctl"),
    "ccflags-y, no spaces": ("ccflags-y+=-Dunlocked_ioctl=ioctl", MODERN,
                             "-Dunlocked_ioctl=ioctl"),
    "ccflags-y, -D apart": ("ccflags-y += -Wall -D unlocked_ioctl=ioctl", MODERN,
                            "-Dunlocked_ioctl=ioctl"),
    "CFLAGS_file.o": ("CFLAGS_hydro.o := -Dunlocked_ioctl=ioctl", MODERN,
                      "-Dunlocked_ioctl=ioctl"),
    "EXTRA_CFLAGS, quoted": ("EXTRA_CFLAGS += '-Dunlocked_ioctl=ioctl'", MODERN,
                             "-Dunlocked_ioctl=ioctl"),
    "a compat_ioctl rename": ("ccflags-y += -Dcompat_ioctl=ioctl", WITH_COMPAT,
                              "-Dcompat_ioctl=ioctl"),
    "a GNU initializer": ("EXTRA_CFLAGS += -Dunlocked_ioctl=ioctl", GNU,
                          "-Dunlocked_ioctl=ioctl"),
}
# Flags that rename nothing the rules read, or another object's.
NOT_RENAMING = ("", "ccflags-y += -DHYDRO_DEBUG -DIOCTL_MAX=4",
                "CFLAGS_other.o += -Dunlocked_ioctl=ioctl")


class RenamedModernTest(unittest.TestCase):
    def tree(self, makefile: str, driver: str) -> Path:
        """A scratch kernel tree with DRIVER as drivers/fl/hydro.c."""
        tmp = Path(tempfile.mkdtemp(prefix="renamed-modern-"))
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "drivers/fl").mkdir(parents=True)
        (tmp / "Makefile").write_text(TOP)
        (tmp / "drivers/Makefile").write_text("obj-y += fl/\n")
        (tmp / "drivers/fl/Makefile").write_text(f"obj-m += hydro.o\n{makefile}\n")
        (tmp / "drivers/fl/hydro.c").write_text(driver)
        return tmp

    def convert(self, makefile: str, driver: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        tmp = self.tree(makefile, driver)
        args = parse_args(["--no-cache", "-q", "--target", "2.6.20", "--",
                           str(tmp / "drivers/fl")])
        return convert.convert(convert.request_from_args(args))

    def test_each_spelling_is_listed_as_refused(self):
        for why, (makefile, driver, flag) in RENAMING.items():
            with self.subTest(why):
                result = self.convert(makefile, driver)
                [record] = [f for f in result.summary.files if f.file == "drivers/fl/hydro.c"]
                self.assertIs(record.status, FileStatus.SKIPPED)
                self.assertIn(flag, record.reason)
                self.assertIn("drivers/fl/Makefile", record.reason)
                self.assertIn("file skipped: drivers/fl/hydro.c: ", text_report(result.summary))
                self.assertFalse(result.changes)
                self.assertFalse(result.failed)

    def test_no_renaming_flag_gives_no_record(self):
        for makefile in NOT_RENAMING:
            with self.subTest(makefile):
                result = self.convert(makefile, WITH_COMPAT)
                self.assertEqual(result.summary.files, [])
                self.assertEqual(result.summary.handlers, [])

    def test_the_exit_status_is_the_rules_refusals(self):
        # The same flag over a legacy .ioctl: the rule refuses its handler.
        legacy = MODERN.replace("static long hydro_ioctl(struct file *file,",
                                "static int hydro_ioctl(struct inode *inode, struct file *file,"
                                ).replace(".unlocked_ioctl\t=", ".ioctl\t\t=")
        statuses = []
        for driver in (legacy, MODERN):
            tmp = self.tree("EXTRA_CFLAGS += -Dunlocked_ioctl=ioctl", driver)
            proc = subprocess.run([sys.executable, str(CLI), "convert", "--no-cache",
                                   "--target", "2.6.20", "--", str(tmp / "drivers/fl")],
                                  capture_output=True, text=True)
            self.assertIn("-Dunlocked_ioctl=ioctl", proc.stdout + proc.stderr)
            statuses.append(proc.returncode)
        self.assertEqual(statuses, [0, 0])


if __name__ == "__main__":
    unittest.main()

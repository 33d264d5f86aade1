"""settings.kdir_target: the target of a conversion read from the KDIR it is built against."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework import settings


class TargetOfKdir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.kdir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_prepared_release_wins(self):
        (self.kdir / "include" / "config").mkdir(parents=True)
        (self.kdir / "include" / "config" / "kernel.release").write_text("6.12.118-amd64\n")
        (self.kdir / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        self.assertEqual(settings.kdir_target(self.kdir).version, (6, 12, 118))

    def test_utsrelease_header(self):
        (self.kdir / "include" / "generated").mkdir(parents=True)
        (self.kdir / "include" / "generated" / "utsrelease.h").write_text(
            '#define UTS_RELEASE "6.1.0-fixture"\n')
        self.assertEqual(settings.kdir_target(self.kdir).version, (6, 1, 0))

    def test_unprepared_source_tree(self):
        (self.kdir / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n")
        self.assertEqual(settings.kdir_target(self.kdir), settings.Target((6, 1, 192)))

    def test_not_a_kernel(self):
        with self.assertRaisesRegex(settings.TargetError, "not a prepared kernel"):
            settings.kdir_target(self.kdir)
        with self.assertRaisesRegex(settings.TargetError, "not a directory"):
            settings.kdir_target(self.kdir / "absent")


if __name__ == "__main__":
    unittest.main()

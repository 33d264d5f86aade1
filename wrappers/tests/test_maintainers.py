"""Tests for ioctl_rework.patches.maintainers against get_maintainer.pl's rules."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.patches.maintainers import Maintainers, Section, directory_subsystem, parse

DATA = Path(__file__).resolve().parent / "test_data" / "audit"


def titles(maintainers: Maintainers, path: str) -> list[str]:
    return [s.title for s in maintainers.lookup(path)]


class ParseTest(unittest.TestCase):
    def test_sections_and_fields(self):
        sections = parse((DATA / "tree" / "MAINTAINERS").read_text())
        self.assertEqual([s.title for s in sections],
                         ["BLOCK LAYER", "CHAR and MISC DRIVERS", "LEGACY CHAR DRIVERS",
                          "OSS SOUND", "THE REST"])
        block = sections[0]
        self.assertEqual(block.maintainers, ("Block Maintainer <block@example.org>",))
        self.assertEqual(block.lists, ("linux-block@example.org",))
        self.assertEqual(block.status, "Maintained")
        self.assertEqual(block.files, ("drivers/block/",))
        self.assertEqual(sections[1].excludes, ("drivers/misc/excluded*",))
        self.assertEqual(sections[3].regexes, ("oss",))

    def test_header_prose_is_not_a_section(self):
        sections = parse((DATA / "tree" / "MAINTAINERS").read_text())
        self.assertFalse(any("Descriptions" in s.title for s in sections))

    def test_old_format_parses_but_matches_nothing(self):
        maintainers = Maintainers(parse((DATA / "MAINTAINERS-2.6").read_text()))
        self.assertEqual([s.title for s in maintainers.sections],
                         ["PARALLEL PORT SUPPORT", "WATCHDOG DEVICE DRIVERS"])
        self.assertEqual(maintainers.sections[0].lists, ("linux-parport@example.org",))
        self.assertEqual(maintainers.lookup("drivers/char/lp.c"), [])


class LookupTest(unittest.TestCase):
    def setUp(self):
        self.maintainers = Maintainers.load(DATA / "tree")

    def test_most_specific_first(self):
        self.assertEqual(titles(self.maintainers, "drivers/char/legacy_misc.c"),
                         ["LEGACY CHAR DRIVERS", "CHAR and MISC DRIVERS", "THE REST"])

    def test_file_pattern_only_matches_at_its_depth(self):
        # drivers/char/legacy_*.c must not reach into subdirectories.
        self.assertEqual(titles(self.maintainers, "drivers/char/legacy_x/y.c"),
                         ["CHAR and MISC DRIVERS", "THE REST"])

    def test_exclude(self):
        self.assertEqual(titles(self.maintainers, "drivers/misc/excluded_compat.c"),
                         ["THE REST"])
        self.assertEqual(titles(self.maintainers, "drivers/misc/other.c"),
                         ["CHAR and MISC DRIVERS", "THE REST"])

    def test_n_regex_ranks_above_the_rest(self):
        self.assertEqual(titles(self.maintainers, "sound/oss/oss_mixer.c"),
                         ["OSS SOUND", "THE REST"])

    def test_directory_without_trailing_slash(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "fs" / "ext2").mkdir(parents=True)
            (Path(tmp) / "MAINTAINERS").write_text(
                "EXT2\nM:\tE <e@example.org>\nF:\tfs/ext2\n\n"
                "EXT2 HEADER\nM:\tH <h@example.org>\nF:\tfs/ext2.h\n")
            maintainers = Maintainers.load(Path(tmp))
            self.assertEqual(titles(maintainers, "fs/ext2/ioctl.c"), ["EXT2"])
            self.assertEqual(titles(maintainers, "fs/ext2.h"), ["EXT2 HEADER"])

    def test_contacts_are_m_then_l(self):
        section = self.maintainers.lookup("drivers/block/loop.c")[0]
        self.assertEqual(section.contacts, ("Block Maintainer <block@example.org>",
                                            "linux-block@example.org"))

    def test_no_maintainers_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertIsNone(Maintainers.load(Path(tmp)))


class DirectorySubsystemTest(unittest.TestCase):
    def test_first_two_directories(self):
        self.assertEqual(directory_subsystem("drivers/net/wireless/a/b.c"), "drivers/net")
        self.assertEqual(directory_subsystem("fs/ioctl.c"), "fs")
        self.assertEqual(directory_subsystem("../kernel-fixtures/drivers/fx.c"),
                         "kernel-fixtures/drivers")
        self.assertEqual(directory_subsystem("top.c"), ".")


if __name__ == "__main__":
    unittest.main()

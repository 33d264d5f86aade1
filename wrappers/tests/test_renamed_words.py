"""kbuild flags that define a word the rules read as C (issue 22:
`-Dunlocked_ioctl=...` / `-Dioctl=...` style renames were handled nowhere).

`ccflags-y += -Dioctl=unlocked_ioctl` makes gcc see another member than
the text names; so do flags defining file_operations, inode or
lock_kernel.  The rule read the text and converted it.  Default-deny
(ctext/renamed_words.py): convert refuses every handler of such a file,
in every strategy, with the flag and its Makefile in the reason, and
writes nothing; check says NOT_CHECKED (test_check_renamed_words).
"""

import unittest

from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import renamed_words

from test_unseen_inode import DRIVER, HAVE_TOOLS, ModelRun

PLAIN = DRIVER.format(prelude="", branches="\tif (fl_busy(file)) {\n")

# Makefile line -> the flag the reason names.
RENAMING = {
    "ccflags-y += -Dioctl=unlocked_ioctl": "-Dioctl=unlocked_ioctl",
    "EXTRA_CFLAGS += '-Dfile_operations=fl_file_ops'": "-Dfile_operations=fl_file_ops",
    "CFLAGS_fl.o += -Dinode=fl_inode": "-Dinode=fl_inode",
    "ccflags-y += -Wall -D lock_kernel=fl_lock_kernel": "-Dlock_kernel=fl_lock_kernel",
    "ccflags-y += -UHAVE_UNLOCKED_IOCTL": "-UHAVE_UNLOCKED_IOCTL",
    "ccflags-y += -Dunlocked_ioctl=ioctl": "-Dunlocked_ioctl=ioctl",
}
# Flags that may define any word: a header forced in, a flag not expanded,
# a file the Makefile includes.
MAY_RENAME = {
    "ccflags-y += -include $(src)/fl_config.h": "-include $(src)/fl_config.h",
    "EXTRA_CFLAGS += -D$(FL_FEATURE)": "-D$(FL_FEATURE)",
    "include $(src)/fl.mk": "include $(src)/fl.mk",
    "-include $(obj)/fl_local.mk": "include $(obj)/fl_local.mk",
}
TREE_TOP = ("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n\nexport FL_FEATURE ?=\n-include .config\n"
            "include $(srctree)/arch/$(ARCH)/Makefile\nobj-y += drivers/\n")
NOT_RENAMING = ("ccflags-y += -DFL_DEBUG", "ccflags-y += -DIOCTL_MAX=4",
                "CFLAGS_other.o += -Dioctl=unlocked_ioctl")


class ReadingTest(unittest.TestCase):
    def test_the_flags_that_rename_and_those_that_do_not(self):
        import tempfile
        from pathlib import Path
        for makefile, flag in [*RENAMING.items(), *MAY_RENAME.items(),
                               *((m, None) for m in NOT_RENAMING)]:
            with self.subTest(makefile), tempfile.TemporaryDirectory() as tmp:
                (Path(tmp) / "drivers/fl").mkdir(parents=True)
                (Path(tmp) / "drivers/fl/Makefile").write_text(f"obj-m += fl.o\n{makefile}\n")
                # A tree's top Makefile includes its .config: no flag of fl.c.
                (Path(tmp) / "Makefile").write_text(TREE_TOP)
                why = renamed_words.refusal(tmp, "drivers/fl/fl.c")
                if flag is None:
                    self.assertIsNone(why)
                else:
                    self.assertIn(flag, why)
                    self.assertIn("drivers/fl/Makefile", why)


@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class ConvertTest(ModelRun):
    def handler(self, makefile, *extra):
        result = self.convert_files(makefile, {"fl.c": PLAIN}, "--target", "2.6.20", *extra)
        [record] = [h for h in result.summary.handlers if h.handler == "fl_ioctl"]
        changed = [new.decode() for _, new in result.changes.values()]
        return record, changed[0] if changed else PLAIN

    def test_a_flag_renaming_a_word_the_rule_reads_refuses_every_handler(self):
        for makefile, flag in {**RENAMING, **MAY_RENAME}.items():
            for strategy in ("auto", "wrapper", "pushdown"):
                with self.subTest(makefile=makefile, strategy=strategy):
                    record, text = self.handler(makefile, "--strategy", strategy)
                    self.assertIsNot(record.status, HandlerStatus.CONVERTED)
                    self.assertIn(flag, record.reason)
                    self.assertEqual(text, PLAIN)

    def test_an_object_like_macro_of_a_header_naming_a_member_refuses_too(self):
        for header in ("#define unlocked_ioctl ioctl\n", "#define ioctl unlocked_ioctl\n",
                       "#ifndef fl_ops\n#define file_operations fl_file_ops\n#endif\n"):
            with self.subTest(header):
                driver = PLAIN.replace("#include <linux/kdev_t.h>\n",
                                       '#include <linux/kdev_t.h>\n#include "fl_compat.h"\n')
                result = self.convert_files("", {"fl.c": driver, "fl_compat.h": header},
                                            "--target", "2.6.20")
                [record] = [h for h in result.summary.handlers if h.handler == "fl_ioctl"]
                self.assertIsNot(record.status, HandlerStatus.CONVERTED)
                self.assertIn("is a macro of the file or of a header it includes", record.reason)
                self.assertFalse(result.changes)

    def test_a_function_like_macro_of_that_name_converts_as_before(self):
        # 2.6.9's drm.h: #define ioctl(a,b,c) xf86ioctl(a,b,c), for FreeBSD.
        driver = PLAIN.replace("#include <linux/kdev_t.h>\n",
                               '#include <linux/kdev_t.h>\n#include "fl_compat.h"\n')
        result = self.convert_files("", {"fl.c": driver, "fl_compat.h":
                                         "#define ioctl(a, b, c) xf86ioctl(a, b, c)\n"},
                                    "--target", "2.6.20")
        [record] = [h for h in result.summary.handlers if h.handler == "fl_ioctl"]
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)

    def test_other_flags_convert_as_before(self):
        for makefile in NOT_RENAMING:
            with self.subTest(makefile):
                record, text = self.handler(makefile)
                self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
                self.assertIn(".unlocked_ioctl", text)


if __name__ == "__main__":
    unittest.main()

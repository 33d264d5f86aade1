"""red31's hostile inputs (test_data/red31/) for the four classes of issue
22 it fixed, in spellings the fixes were not written for.

Rule: an inode named through a macro handed to another macro by name, an
object-like alias of a function-like macro, a chain across two headers
(one including the other), a link #undef'd and defined again (the last
three dropped the inode on main; the first was already read): the handler
keeps an inode (a derived local, marked unused where no use is proven in
every build).

check --git: a flag's name set again by a header #included through a
macro; a target macro #undef'd by a header of the patch or of the tree; a
modern-looking driver whose .unlocked_ioctl is renamed by a make
variable, by CFLAGS or KBUILD_CFLAGS (which kbuild_flags did not read), by
a forced header, or by a header of the tree or of the patch: each exited
0 on main before red31; each fails now.

convert: the same renames, and flags in a .mk file the Makefile includes
(which made pushdown leave the lock held behind a return): refused.
"""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus
from test_check import types
from test_check_repo import GitRepo
from test_unseen_inode import DRIVER, FLAGGED, FLAGGED_DRIVER, HAVE_TOOLS

DATA = Path(__file__).resolve().parent / "test_data" / "red31"
TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 20\n\nobj-y += drivers/\n"


def data(name: str) -> str:
    return (DATA / name).read_text()


def renamed_by_header() -> str:
    """modern.c, including hydro_rename.h (#define unlocked_ioctl ioctl)."""
    return data("modern.c").replace("#include <linux/module.h>\n",
                                    '#include <linux/module.h>\n#include "hydro_rename.h"\n')


@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class InodeThroughMacrosTest(unittest.TestCase):
    CASES = {"apply_unit.c": "gauge_ioctl", "alias_unit.c": "meter_ioctl",
             "header_chain.c": "scale_ioctl", "redefined_link.c": "dial_ioctl"}

    def test_the_handler_keeps_an_inode(self):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        for name, handler in self.CASES.items():
            with self.subTest(name):
                tmp = Path(tempfile.mkdtemp(prefix="red31-"))
                self.addCleanup(shutil.rmtree, tmp)
                for other in (name, "scale_a.h", "scale_b.h"):
                    shutil.copy(DATA / other, tmp / other)
                args = parse_args(["--no-cache", "-q", "--no-kernel-headers", "--target",
                                   "2.6.20", "--", str(tmp / name)])
                result = convert.convert(convert.request_from_args(args))
                [record] = [h for h in result.summary.handlers if h.handler == handler]
                self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)
                (_, new), = result.changes.values()
                self.assertRegex(new.decode(), r"struct inode \*inode( __attribute__"
                                 r"\(\(unused\)\))? = (file_inode\(file\)|file->f_path\.dentry"
                                 r"->d_inode);|\(struct inode \*inode, struct file \*file,")


class CheckTest(unittest.TestCase):
    # (files of the tree, files of the commit checked)
    CASES = {
        "a flag's name set again by a header #included through a macro": (
            {"drivers/x/Makefile": data("include_by_macro.mk"),
             "drivers/x/anemo_compat.h": data("anemo_compat.h")},
            {"drivers/x/anemo.c": data("include_by_macro.c")}),
        "a header of the patch #undefs HAVE_UNLOCKED_IOCTL": (
            {"drivers/x/Makefile": "obj-m += pluvio.o\n"},
            {"drivers/x/pluvio.c": data("target_undef.c"),
             "drivers/x/pluvio_compat.h": data("pluvio_compat.h")}),
        "a header of the tree #undefs HAVE_UNLOCKED_IOCTL": (
            {"drivers/x/Makefile": "obj-m += pluvio.o\n",
             "drivers/x/pluvio_compat.h": data("pluvio_compat.h")},
            {"drivers/x/pluvio.c": data("target_undef.c")}),
        "a rename by a make variable": (
            {"drivers/x/Makefile": data("rename_variable.mk")},
            {"drivers/x/hydro.c": data("modern.c")}),
        "a rename in CFLAGS": (
            {"drivers/x/Makefile": data("rename_cflags.mk")},
            {"drivers/x/hydro.c": data("modern.c")}),
        "a rename in KBUILD_CFLAGS": (
            {"drivers/x/Makefile": data("rename_kbuild_cflags.mk")},
            {"drivers/x/hydro.c": data("modern.c")}),
        "a rename by a forced header": (
            {"drivers/x/Makefile": data("rename_forced.mk"),
             "drivers/x/hydro_rename.h": data("hydro_rename.h")},
            {"drivers/x/hydro.c": data("modern.c")}),
        "a rename by a header of the tree": (
            {"drivers/x/Makefile": "obj-m += hydro.o\n",
             "drivers/x/hydro_rename.h": data("hydro_rename.h")},
            {"drivers/x/hydro.c": renamed_by_header()}),
        "a rename by a header of the patch": (
            {"drivers/x/Makefile": "obj-m += hydro.o\n"},
            {"drivers/x/hydro.c": renamed_by_header(),
             "drivers/x/hydro_rename.h": data("hydro_rename.h")}),
    }

    def test_each_fails_the_gate(self):
        for why, (tree, commit) in self.CASES.items():
            with self.subTest(why), GitRepo() as repo:
                repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": "obj-y += x/\n",
                                         **tree})
                repo.commit("the driver", commit)
                out = repo.run_cli("check", "--git", "HEAD")
                self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
                self.assertTrue({"ERROR:NOT_CHECKED", "ERROR:LEGACY_IOCTL"}
                                & set(types(out.stdout)), out.stdout)

    def test_the_modern_driver_alone_passes(self):
        with GitRepo() as repo:
            repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": "obj-y += x/\n",
                                     "drivers/x/Makefile": "obj-m += hydro.o\n"})
            repo.commit("the driver", {"drivers/x/hydro.c": data("modern.c")})
            out = repo.run_cli("check", "--git", "HEAD")
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)


@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class ConvertTest(unittest.TestCase):
    def convert(self, makefile: str, files: dict[str, str]):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        tmp = Path(tempfile.mkdtemp(prefix="red31-"))
        self.addCleanup(shutil.rmtree, tmp)
        driver = tmp / "drivers/fl"
        driver.mkdir(parents=True)
        (driver / "Makefile").write_text(makefile)
        for name, text in files.items():
            (driver / name).write_text(text)
        args = parse_args(["--no-cache", "-q", "--no-kernel-headers", "--target", "2.6.20",
                           "--", str(driver)])
        return convert.convert(convert.request_from_args(args))

    def test_each_is_refused(self):
        _, _, _, prelude, body = FLAGGED["return"]
        returning = FLAGGED_DRIVER.format(prelude=prelude, body=body)
        plain = DRIVER.format(prelude="", branches="\tif (fl_busy(file)) {\n")
        renamed = plain.replace("#include <linux/kdev_t.h>\n",
                                '#include <linux/kdev_t.h>\n#include "fl_rename.h"\n')
        rename = "#define ioctl unlocked_ioctl\n"
        for why, makefile, files in (
                ("flags in an included .mk", data("flags_in_mk.mk"),
                 {"fl.c": returning, "fl.mk": data("fl.mk")}),
                ("CFLAGS", "obj-m += fl.o\nCFLAGS += -Dioctl=unlocked_ioctl\n", {"fl.c": plain}),
                ("KBUILD_CFLAGS", "obj-m += fl.o\nKBUILD_CFLAGS += -Dfile_operations=fl_ops\n",
                 {"fl.c": plain}),
                ("a forced header", data("rename_forced.mk").replace("hydro", "fl"),
                 {"fl.c": plain, "fl_rename.h": rename}),
                ("a quoted header", "obj-m += fl.o\n", {"fl.c": renamed, "fl_rename.h": rename})):
            with self.subTest(why):
                result = self.convert(makefile, files)
                [record] = [h for h in result.summary.handlers if h.handler == "fl_ioctl"]
                self.assertIsNot(record.status, HandlerStatus.CONVERTED, record)
                self.assertFalse(result.changes)


if __name__ == "__main__":
    unittest.main()

"""check.kbuild_macros and check.compiled: the -D and -U flags of a file's
Makefiles decide its #ifdef blocks as gcc reads them (issue 22/23, gate30).

Before, compiled judged blocks from the file's own #defines and the
target's macros alone: a legacy half (`#ifndef HAVE_UNLOCKED_IOCTL`) in a
directory whose Makefile forces a header in or holds a flag it cannot
expand was judged dead, and passed.
"""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.check.compiled import flag_names, macros_before
from ioctl_rework.check.kbuild_macros import Unknowable, flag_macros, makefiles_above
from ioctl_rework.ctext.conditionals import compiled_lines
from test_check import types
from test_check_repo import GitRepo

MULTI = (Path(__file__).resolve().parent / "test_data" / "check_hostile"
         / "multi_kernel.c").read_text()
# THERMO_FLAGS: a knob the tree sets (so its value is unknown here); a
# variable no Makefile of the tree sets is empty (include_search).
TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 32\n\nexport THERMO_FLAGS ?=\nobj-y += drivers/\n"
DRIVER = "drivers/misc/thermo.c"


class TreeTestCase(unittest.TestCase):
    def tree(self, misc: str, parent: str = "obj-y += misc/\n") -> Path:
        """A tree with a top Makefile (2.6.32), drivers/Makefile PARENT and
        drivers/misc/Makefile MISC."""
        root = Path(self.enterContext(tempfile.TemporaryDirectory()))
        for name, text in (("Makefile", TOP), ("drivers/Makefile", parent),
                           ("drivers/misc/Makefile", misc)):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        return root

    def status(self, misc: str, condition: str, parent: str = "obj-y += misc/\n"):
        """Whether gcc compiles the line inside CONDITION ... #endif, as
        compiled judges it with MISC (and PARENT) as the Makefiles."""
        macros = macros_before((2, 6, 32), self.tree(misc, parent), DRIVER)
        return compiled_lines(f"{condition}\nentry\n#endif\n", macros)[1]


class FlagMacrosTest(TreeTestCase):
    def test_what_each_spelling_defines(self):
        for misc, expected in (
                ("ccflags-y += -DFOO\n", {"FOO": "1"}),
                ("EXTRA_CFLAGS += -DFOO=2\n", {"FOO": "2"}),
                ("EXTRA_CFLAGS += -D FOO -UBAR\n", {"FOO": "1", "BAR": False}),
                ("CFLAGS_thermo.o += '-DFOO=3'\n", {"FOO": "3"}),
                ("CFLAGS_other.o += -DFOO\n", {}),
                ("ccflags-y += '-DFOO(x)=x'\n", {"FOO": ""}),
                ("ccflags-$(CONFIG_THERMO_DEBUG) += -DFOO\n", {"FOO": None}),
                ("ifeq ($(CONFIG_X),y)\nccflags-y += -DFOO\nendif\n", {"FOO": None}),
                ("ccflags-y += -DFOO -UFOO\n", {"FOO": None}),
                ("ccflags-y += -DFOO=1\nCFLAGS_thermo.o += -DFOO=2\n", {"FOO": None}),
                ("ccflags-y += -DFOO\nccflags-y := -Wall\n", {"FOO": None}),
                ("ccflags-y := -DFOO\n", {"FOO": "1"}),
                # The config header kbuild forces in comes after the flags.
                ("ccflags-y += -UCONFIG_THERMO_DEBUG\n", {"CONFIG_THERMO_DEBUG": None})):
            with self.subTest(misc):
                self.assertEqual(flag_macros(self.tree(misc), DRIVER), expected)

    def test_a_parents_subdir_flags_reach_it_and_its_other_flags_do_not(self):
        self.assertEqual(flag_macros(self.tree("", "subdir-ccflags-y += -DFOO\n"), DRIVER),
                         {"FOO": "1"})
        self.assertEqual(flag_macros(self.tree("", "ccflags-y += -DFOO\n"), DRIVER), {})

    def test_what_may_set_any_name(self):
        for misc in ("ccflags-y += -include $(src)/thermo_compat.h\n",
                     "ccflags-y += -imacros thermo_config.h\n",
                     "ccflags-y += -D$(THERMO_FEATURE)\n",
                     "ccflags-y += $(THERMO_FLAGS)\n"):
            with self.subTest(misc):
                self.assertIsInstance(flag_macros(self.tree(misc), DRIVER), Unknowable)

    def test_without_a_tree_nothing_is_read(self):
        self.assertEqual(flag_macros(None, DRIVER), {})

    def test_the_makefiles_kbuild_reads_above_a_file(self):
        self.assertEqual(makefiles_above([DRIVER, "drivers/misc/other.c"]),
                         ["drivers/misc/Makefile", "drivers/misc/Kbuild", "drivers/Makefile",
                          "drivers/Kbuild", "Makefile", "Kbuild"])


class CompiledWithFlagsTest(TreeTestCase):
    def test_a_flag_makes_a_block_live(self):
        for misc, condition, parent in (
                ("ccflags-y += -DFOO\n", "#ifdef FOO", ""),
                ("EXTRA_CFLAGS += -DFOO=1\n", "#if defined(FOO)", ""),
                ("ccflags-y += -DFOO\n", "#if FOO", ""),
                ("ccflags-y += -DFOO=2\n", "#if FOO > 1", ""),
                ("ccflags-y += -UNOFOO\n", "#ifndef NOFOO", ""),
                ("CFLAGS_thermo.o += -DFOO\n", "#ifdef FOO", ""),
                ("", "#ifdef FOO", "subdir-ccflags-y += -DFOO\n")):
            with self.subTest(misc + parent + condition):
                self.assertIs(self.status(misc, condition, parent), True)

    def test_a_flag_makes_a_block_dead(self):
        for misc, condition in (("ccflags-y += -UFOO\n", "#ifdef FOO"),
                                ("ccflags-y += -DNOFOO\n", "#ifndef NOFOO"),
                                ("EXTRA_CFLAGS += -DFOO=1\n", "#if FOO > 1"),
                                ("ccflags-y += -DNOFOO\n", "#if !defined(NOFOO)")):
            with self.subTest(misc + condition):
                self.assertIs(self.status(misc, condition), False)

    def test_a_flag_not_sure_to_reach_gcc_decides_nothing(self):
        for misc, condition in (("ccflags-$(CONFIG_X) += -DNOFOO\n", "#ifndef NOFOO"),
                                ("ifdef CONFIG_X\nccflags-y += -DNOFOO\nendif\n",
                                 "#ifndef NOFOO"),
                                ("CFLAGS_other.o += -DFOO\n", "#ifdef FOO")):
            with self.subTest(misc + condition):
                self.assertIsNone(self.status(misc, condition))

    def test_the_legacy_half_is_not_dead_where_a_flag_may_set_any_name(self):
        # The target's macros are no longer taken as known: a forced header,
        # a flag not expanded, or a flag that names one.
        for misc in ("ccflags-y += -include $(src)/thermo_compat.h\n",
                     "ccflags-y += -D$(THERMO_FEATURE)\n",
                     "EXTRA_CFLAGS += $(THERMO_FLAGS)\n",
                     "ccflags-y += -UHAVE_UNLOCKED_IOCTL\n",
                     "ccflags-y += -DHAVE_UNLOCKED_IOCTL=1\n",
                     "ccflags-y += '-DKERNEL_VERSION(a,b,c)=0'\n"):
            for condition in ("#ifndef HAVE_UNLOCKED_IOCTL", "#if !defined(HAVE_UNLOCKED_IOCTL)",
                              "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)"):
                if "HAVE_UNLOCKED" in misc and "VERSION" in condition:
                    continue
                with self.subTest(misc + condition):
                    self.assertIsNone(self.status(misc, condition))
        self.assertIsNone(self.status("ccflags-y += -DLINUX_VERSION_CODE=132617\n",
                                      "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 11)"))
        # Without such a flag, it is dead as before.
        self.assertIs(self.status("ccflags-y += -DDEBUG\n", "#ifndef HAVE_UNLOCKED_IOCTL"),
                      False)


class HeadersAndUndefTest(TreeTestCase):
    """A name a flag sets may be #undef'd or #defined again by a header the
    file includes, which check does not read, or by the file itself: after
    an #include it is unknown; the file's own #undef or #define decides."""

    def status(self, misc: str, text: str):
        """Whether gcc compiles the line `entry` of TEXT, with MISC."""
        root = self.tree(misc)
        found = compiled_lines(text, macros_before((2, 6, 32), root, DRIVER),
                               flag_names(root, DRIVER))
        return found[text.split("\n").index("entry")]

    def test_an_include_before_the_block_leaves_the_flag_unknown(self):
        for include in ('#include "thermo_compat.h"', "#include <linux/fs.h>",
                        "# include <linux/kernel.h>", "#include_next <linux/fs.h>",
                        "#ifdef CONFIG_THERMO_COMPAT\n#include \"thermo_compat.h\"\n#endif"):
            for misc, condition in (("ccflags-y += -DFOO\n", "#ifdef FOO"),
                                    ("ccflags-y += -DNOFOO\n", "#ifndef NOFOO"),
                                    ("EXTRA_CFLAGS += -DFOO=2\n", "#if FOO > 1"),
                                    ("ccflags-y += -UFOO\n", "#if defined(FOO)")):
                with self.subTest(include + misc + condition):
                    self.assertIsNone(self.status(misc, f"{include}\n{condition}\nentry\n#endif\n"))

    def test_an_include_after_the_block_or_never_compiled_changes_nothing(self):
        for text, expected in (("#ifdef FOO\nentry\n#endif\n#include <linux/fs.h>\n", True),
                               ("#if 0\n#include \"x.h\"\n#endif\n#ifdef FOO\nentry\n#endif\n",
                                True),
                               ("#include <linux/fs.h>\n#ifdef BAR\nentry\n#endif\n", None)):
            with self.subTest(text):
                self.assertIs(self.status("ccflags-y += -DFOO\n", text), expected)

    def test_the_files_own_undef_or_define_decides(self):
        for text, expected in (
                ("#undef FOO\n#ifdef FOO\nentry\n#endif\n", False),
                ("# undef FOO /* the old API */\n#ifdef FOO\nentry\n#endif\n", False),
                ("#include <linux/fs.h>\n#undef FOO\n#ifdef FOO\nentry\n#endif\n", False),
                ("#include <linux/fs.h>\n#undef FOO\n#define FOO 0\n#if FOO\nentry\n#endif\n",
                 False),
                ("#include <linux/fs.h>\n#define FOO 1\n#if FOO\nentry\n#endif\n", True),
                ("#ifdef CONFIG_X\n#undef FOO\n#endif\n#ifdef FOO\nentry\n#endif\n", None),
                ("#ifdef FOO\n#undef FOO\n#endif\n#ifndef FOO\nentry\n#endif\n", True)):
            with self.subTest(text):
                self.assertIs(self.status("ccflags-y += -DFOO\n", text), expected)


class CheckTest(unittest.TestCase):
    """A patch adds a multi-kernel driver to a directory whose Makefile has
    long had the flag."""

    def check(self, misc: str) -> tuple[int, list[str], str]:
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        repo.commit("the tree", {"Makefile": TOP, "drivers/Makefile": "obj-y += misc/\n",
                                 "drivers/misc/Makefile": "obj-m += hygro2.o\n" + misc,
                                 "drivers/misc/thermo_compat.h": "/* compat */\n"})
        repo.commit("add hygro2", {"drivers/misc/hygro2.c": MULTI})
        out = repo.run_cli("check", "--git", "HEAD")
        return out.returncode, types(out.stdout), out.stdout + out.stderr

    def test_the_legacy_half_fails_where_a_flag_may_make_it_live(self):
        for misc in ("ccflags-y += -include $(src)/thermo_compat.h\n",
                     "EXTRA_CFLAGS += -D$(HYGRO_FEATURE)\n",
                     "CFLAGS_hygro2.o += -UHAVE_UNLOCKED_IOCTL\n"):
            with self.subTest(misc):
                code, found, out = self.check(misc)
                self.assertEqual(code, 1, out)
                # And NOT_CHECKED: the flag may define, or defines, a word the
                # rules read as C (test_check_renamed_words).
                self.assertEqual(found, ["ERROR:LEGACY_IOCTL", "ERROR:NOT_CHECKED"])
                # Line 31: the .ioctl of the #else of #ifdef HAVE_UNLOCKED_IOCTL.
                self.assertRegex(out, r"FILE: drivers/misc/hygro2.c:31:\n\+\t\.ioctl\t\t= hygro2_ioctl,")

    def test_the_legacy_half_passes_beside_flags_that_cannot_reach_it(self):
        for misc in ("", "ccflags-y += -DDEBUG\n", "CFLAGS_other.o += -include other.h\n"):
            with self.subTest(misc):
                code, found, out = self.check(misc)
                self.assertEqual(code, 0, out)
                self.assertEqual(found, [])


class FlagSetAgainByAHeaderTest(unittest.TestCase):
    """hygro2 takes back HAVE_UNLOCKED_IOCTL (its legacy half then compiles)
    only where a name its Makefile's flag sets says so; a header it includes
    sets that name again.  check read the flag and judged the half dead:
    exit 0 on a driver whose legacy .ioctl compiles on 2.6.36."""

    # (the Makefile's flag, what the header does, the test in hygro2.c)
    SPELLINGS = {
        "-U, a header #defines it": ("-UHYGRO_COMPAT", "#define HYGRO_COMPAT 1",
                                     "#ifdef HYGRO_COMPAT"),
        "-D, a header #undefs it": ("-DHYGRO_NEW_KERNEL", "#undef HYGRO_NEW_KERNEL",
                                    "#ifndef HYGRO_NEW_KERNEL"),
        "-D=2, a header #defines it 1": ("-DHYGRO_API=2",
                                         "#undef HYGRO_API\n#define HYGRO_API 1",
                                         "#if HYGRO_API < 2"),
    }

    def check(self, spelling: str, own: str = "", include: bool = True,
              before: bool = False) -> tuple[int, list[str], str]:
        flag, header, test = self.SPELLINGS[spelling]
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        tree = {"Makefile": TOP, "drivers/Makefile": "obj-y += misc/\n",
                "drivers/misc/Makefile": f"obj-m += hygro2.o\nccflags-y += {flag}\n",
                "drivers/misc/hygro_compat.h": f"/* hygro on old kernels */\n{header}\n"}
        if before:
            tree["drivers/misc/hygro2.c"] = self.driver(test, own, False)
        repo.commit("the tree", tree)
        repo.commit("hygro2", {"drivers/misc/hygro2.c": self.driver(test, own, include)})
        out = repo.run_cli("check", "--git", "HEAD")
        return out.returncode, types(out.stdout), out.stdout + out.stderr

    @staticmethod
    def driver(test: str, own: str, include: bool) -> str:
        glue = (('#include "hygro_compat.h"\n' if include else "") + own +
                f"{test}\n#undef HAVE_UNLOCKED_IOCTL\n#endif\n")
        return MULTI.replace("#include <linux/uaccess.h>\n", "#include <linux/uaccess.h>\n" + glue)

    def test_the_legacy_half_fails_where_a_header_may_set_the_name_again(self):
        for spelling in self.SPELLINGS:
            with self.subTest(spelling):
                code, found, out = self.check(spelling)
                self.assertEqual(code, 1, out)
                self.assertEqual(found, ["ERROR:LEGACY_IOCTL"])
                self.assertIn("hygro2_fops sets the legacy .ioctl (hygro2_ioctl)", out)

    def test_a_patch_that_adds_only_the_include_is_shown_at_it(self):
        code, found, out = self.check("-U, a header #defines it", before=True)
        self.assertEqual(code, 1, out)
        self.assertEqual(found, ["ERROR:LEGACY_IOCTL"])
        self.assertRegex(out, r"FILE: drivers/misc/hygro2.c:11:\n\+#include \"hygro_compat.h\"")

    def test_the_files_own_directive_after_the_include_decides(self):
        for spelling, own in (("-U, a header #defines it", "#undef HYGRO_COMPAT\n"),
                              ("-D, a header #undefs it", "#define HYGRO_NEW_KERNEL\n")):
            with self.subTest(spelling):
                code, found, out = self.check(spelling, own)
                self.assertEqual(code, 0, out)
                self.assertEqual(found, [])


if __name__ == "__main__":
    unittest.main()

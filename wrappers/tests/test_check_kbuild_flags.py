"""check and a patch that changes only kbuild flags (issue 22/23, gate30).

thermo.c keeps its legacy .ioctl in a block a macro decides (`#ifdef
FOO`, `#if FOO > 1`, `#ifndef NOFOO`), dead as gcc first reads it.  A
later patch that touches only a Makefile (`ccflags-y += -DFOO`, ...)
makes that block live without showing it: check passed such a patch
(exit 0) in every mode.  It now fails closed: NOT_CHECKED at the flag.
"""

import unittest

from test_check import types
from test_check_repo import GitRepo, fixture

LEGACY = fixture("legacy_driver.c")
ENTRY = "\t.ioctl\t= thermo_ioctl,\n"
TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 32\n\nobj-y += drivers/\n"
PARENT = "obj-y += misc/\n"
MISC = "obj-m += thermo.o\n"


def guarded(condition: str) -> str:
    """thermo.c with its legacy entry inside CONDITION ... #endif."""
    text = LEGACY.replace(ENTRY, f"{condition}\n{ENTRY}#endif\n")
    assert text != LEGACY
    return text


# (what the driver tests, the Makefile that has the flag, that Makefile before, after)
SPELLINGS = {
    "ccflags-y -D": ("#ifdef FOO", "drivers/misc/Makefile", MISC, MISC + "ccflags-y += -DFOO\n"),
    "EXTRA_CFLAGS -D=1": ("#if defined(FOO)", "drivers/misc/Makefile", MISC,
                          MISC + "EXTRA_CFLAGS += -DFOO=1\n"),
    "#if FOO > 1, -DFOO=2": ("#if FOO > 1", "drivers/misc/Makefile", MISC,
                             MISC + "ccflags-y := -Wall -DFOO=2\n"),
    "CFLAGS_thermo.o -D": ("#if FOO", "drivers/misc/Makefile", MISC,
                           MISC + "CFLAGS_thermo.o += -D FOO\n"),
    "-U": ("#ifndef NOFOO", "drivers/misc/Makefile", MISC + "ccflags-y += -DNOFOO\n",
           MISC + "ccflags-y += -UNOFOO\n"),
    "-D removed": ("#ifndef NOFOO", "drivers/misc/Makefile", MISC + "ccflags-y += -DNOFOO\n",
                   MISC),
    "continuation line": ("#ifdef FOO", "drivers/misc/Makefile",
                          MISC + "ccflags-y += -Wall \\\n\t-O2\n",
                          MISC + "ccflags-y += -Wall \\\n\t-DFOO \\\n\t-O2\n"),
    "parent subdir-ccflags": ("#ifdef FOO", "drivers/Makefile", PARENT,
                              PARENT + "subdir-ccflags-y += '-DFOO'\n"),
    "a .mk file a Makefile includes": ("#ifdef FOO", "drivers/misc/thermo.mk", "",
                                       "ccflags-y += -DFOO\n"),
    "Kbuild -include": ("#ifdef FOO", "drivers/misc/Kbuild", MISC,
                        MISC + "ccflags-y += -include $(src)/thermo_config.h\n"),
}


class FlagOnlyPatchTest(unittest.TestCase):
    def commit_flag(self, spelling: str) -> GitRepo:
        condition, makefile, before, after = SPELLINGS[spelling]
        repo = GitRepo()
        self.addCleanup(repo.__exit__)
        repo.commit("thermo, its legacy half off", {
            "Makefile": TOP, "drivers/Makefile": PARENT, "drivers/misc/Makefile": MISC,
            makefile: before, "drivers/misc/thermo.c": guarded(condition)})
        repo.commit("thermo: turn it on", {makefile: after})
        return repo

    def test_a_flag_change_alone_fails_closed_in_every_mode(self):
        for spelling in SPELLINGS:
            with self.subTest(spelling):
                repo = self.commit_flag(spelling)
                makefile = SPELLINGS[spelling][1]
                out = repo.run_cli("check", "--git", "HEAD")
                self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
                self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED"])
                self.assertIn("changes a kbuild flag", out.stdout)
                self.assertIn(f"FILE: {makefile}:", out.stdout)
                mail = repo.write("../flag.mbox",
                                  repo.git("format-patch", "--stdout", "-1").stdout)
                repo.git("checkout", "-q", "HEAD~1")
                for args in (("--diff", str(mail), "--tree", str(repo.path)),
                             ("--diff", str(mail))):
                    out = repo.run_cli("check", *args)
                    self.assertEqual(out.returncode, 1, f"{args}\n{out.stdout}{out.stderr}")
                    self.assertEqual(types(out.stdout), ["ERROR:NOT_CHECKED"], args)
                allowed = repo.run_cli("check", "--diff", str(mail), "--allow-unchecked")
                self.assertEqual(allowed.returncode, 0, allowed.stdout + allowed.stderr)
                self.assertEqual(types(allowed.stdout), ["WARNING:NOT_CHECKED"])

    def test_the_flag_is_shown_at_its_line(self):
        repo = self.commit_flag("-D removed")
        out = repo.run_cli("check", "--git", "HEAD")
        # The removed line, at the line that now follows it (the end: line 2).
        self.assertRegex(out.stdout, r"FILE: drivers/misc/Makefile:2:\n-ccflags-y \+= -DNOFOO")

    def test_makefile_changes_that_set_no_flag_pass(self):
        for after in (MISC + "obj-m += baro.o\n", MISC + "# ccflags-y += -DFOO\n",
                      MISC + "thermo-objs := thermo_core.o thermo_dev.o\n"):
            with self.subTest(after):
                repo = GitRepo()
                self.addCleanup(repo.__exit__)
                repo.commit("thermo", {"Makefile": TOP, "drivers/Makefile": PARENT,
                                       "drivers/misc/Makefile": MISC,
                                       "drivers/misc/thermo.c": guarded("#ifdef FOO")})
                repo.commit("more objects", {"drivers/misc/Makefile": after})
                out = repo.run_cli("check", "--git", "HEAD")
                self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
                self.assertEqual(types(out.stdout), [])


if __name__ == "__main__":
    unittest.main()

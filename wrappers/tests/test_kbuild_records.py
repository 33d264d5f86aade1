"""kbuild_records: the compile command and dependency lists read back
from what kbuild and gcc write, with recorded inputs (no kernel)."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.verify import kbuild_records
from ioctl_rework.verify.kbuild_records import SAVE_TEMPS

TREE = "/scratch/tree"
# What fixdep writes for an external module's object: the command as a
# make variable ($ doubled, # as $(pound)), objtool after it, then the
# files the compile read.
CMD = (f"cmd_{TREE}/drv/foo.o := gcc -Wp,-MMD,{TREE}/drv/.foo.o.d -nostdinc "
       f"-I./include -I/src/include -DPRICE='\"$$5\"' -DHASH='\"$(pound)\"' "
       f"-I/user/drv {SAVE_TEMPS} -I{TREE}/include "
       f"-DKBUILD_MODFILE='\"{TREE}/drv/foo\"' -DKBUILD_MODNAME='\"foo\"' "
       f"-c -o {TREE}/drv/foo.o {TREE}/drv/foo.c   ; ./tools/objtool/objtool --uaccess "
       f"{TREE}/drv/foo.o\n\n"
       f"source_{TREE}/drv/foo.o := {TREE}/drv/foo.c\n\n"
       f"deps_{TREE}/drv/foo.o := \\\n"
       f"  /src/include/linux/kconfig.h \\\n"
       f"    $(wildcard include/config/CPU_BIG_ENDIAN) \\\n"
       f"  include/generated/autoconf.h \\\n"
       f"  {TREE}/drv/foo.h \\\n\n"
       f"{TREE}/drv/foo.o: $(deps_{TREE}/drv/foo.o)\n\n"
       f"$(deps_{TREE}/drv/foo.o):\n")


class RecordsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="kbuild-records-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, name: str, text: str) -> Path:
        (self.tmp / name).write_text(text)
        return self.tmp / name

    def test_the_command_is_gcc_alone_unescaped_and_unquoted(self):
        command = kbuild_records.compile_command(self.write(".foo.o.cmd", CMD), Path(TREE))
        self.assertEqual(command.argv[0], "gcc")
        self.assertEqual(command.argv[-4:], ("-c", "-o", f"{TREE}/drv/foo.o",
                                             f"{TREE}/drv/foo.c"))
        self.assertIn('-DPRICE="$5"', command.argv)
        self.assertIn('-DHASH="#"', command.argv)
        self.assertIn('-DKBUILD_MODNAME="foo"', command.argv)
        self.assertFalse(any("objtool" in arg for arg in command.argv))

    def test_preprocessing_runs_the_same_flags_on_the_other_tree(self):
        command = kbuild_records.compile_command(self.write(".foo.o.cmd", CMD), Path(TREE))
        argv = command.preprocessor(Path("/old"), Path("/old/drv/foo.i"),
                                    Path("/old/drv/.foo.i.d"))
        self.assertEqual(argv, [
            "gcc", "-E", "-Wp,-MMD,/old/drv/.foo.i.d", "-nostdinc", "-I./include",
            "-I/src/include", '-DPRICE="$5"', '-DHASH="#"', "-I/user/drv", "-I/old/include",
            '-DKBUILD_MODFILE="/old/drv/foo"', '-DKBUILD_MODNAME="foo"',
            "-o", "/old/drv/foo.i", "/old/drv/foo.c"])

    def test_no_command_when_there_is_none_or_it_is_not_a_compile(self):
        self.assertIsNone(kbuild_records.compile_command(self.tmp / "missing.cmd", Path(TREE)))
        for text in ("source_x.o := x.c\n",
                     "cmd_x.o := ld -r -o x.o a.o\n",
                     "cmd_x.o := gcc -c -o x.o 'x.c\n"):          # unbalanced quote
            with self.subTest(text=text):
                self.assertIsNone(kbuild_records.compile_command(self.write("x.cmd", text),
                                                                 Path(TREE)))

    def test_recorded_dependencies_are_files_only_and_absolute(self):
        deps = kbuild_records.recorded_dependencies(self.write(".foo.o.cmd", CMD), Path("/kdir"))
        self.assertEqual(deps, [f"{TREE}/drv/foo.c", "/src/include/linux/kconfig.h",
                                "/kdir/include/generated/autoconf.h", f"{TREE}/drv/foo.h"])

    def test_a_depfile_lists_what_gcc_read(self):
        depfile = self.write(".foo.i.d", f"{TREE}/drv/foo.i: {TREE}/drv/foo.c \\\n"
                                         " /src/include/linux/kconfig.h \\\n"
                                         " include/generated/autoconf.h\n")
        self.assertEqual(kbuild_records.depfile_dependencies(depfile, Path("/kdir")),
                         [f"{TREE}/drv/foo.c", "/src/include/linux/kconfig.h",
                          "/kdir/include/generated/autoconf.h"])
        self.assertIsNone(kbuild_records.depfile_dependencies(self.tmp / "none.d", Path("/k")))


if __name__ == "__main__":
    unittest.main()

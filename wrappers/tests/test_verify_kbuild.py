"""verify_build against a stand-in for kbuild: which make and gcc runs a
build takes, and where the .i the proof reads comes from.

The stand-in KDIR's Makefile logs each make invocation and builds NAME.o
and NAME.i with different flags on purpose (-DOBJECT_RULE, -DI_RULE),
as a .i made apart from the compile could differ from what was compiled:
a .i says which run made it.  The real kbuild is in kernel-fixtures/run-proof.
"""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import cache as cache_mod
from ioctl_rework.verify.build import Builder, KernelDir

FAKE_KBUILD = """\
MAKEFLAGS += -r
$(shell echo '$(MAKECMDGOALS)' >> $(CURDIR)/invocations)
FLAGS := -Wall $(KCFLAGS)
compile = gcc -Wp,-MMD,$(M)/.$*.o.d $(FLAGS) -DOBJECT_RULE -c -o $(M)/$@ $(M)/$*.c
%.o: FORCE
\t@echo '  CC [M]  $(M)/$@'
\t@$(compile) && printf '%s\\n' 'cmd_$(M)/$@ := $(compile) ; true' > $(M)/.$@.cmd
%.i: FORCE
\t@echo '  CPP [M]  $(M)/$@'
\t@gcc $(FLAGS) -DI_RULE -E -o $(M)/$@ $(M)/$*.c
.PHONY: FORCE
"""

SOURCE = """\
#include "drv.h"
#ifdef OBJECT_RULE
int compiled_with_the_object_rule;
#endif
#ifdef I_RULE
int preprocessed_by_the_i_rule;
#endif
int STATE = 1;
"""


@unittest.skipUnless(shutil.which("make") and shutil.which("gcc"), "make or gcc is missing")
class FakeKbuildTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-kbuild-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.kdir = self.tmp / "kdir"
        self.kdir.mkdir()
        (self.kdir / "Makefile").write_text(FAKE_KBUILD)
        self.tree = self.tmp / "tree"
        (self.tree / "drv").mkdir(parents=True)
        (self.tree / "drv/drv.h").write_text("#define STATE converted_state\n")
        self.builder = Builder(KernelDir(self.kdir, sparse=False, fingerprint="k"), self.tree,
                               cache_mod.Cache(None), jobs=2)
        self.sources = ["drv/a.c", "drv/b.c"]

    def texts(self, header: str, **sources: str) -> dict[str, bytes]:
        files = {"drv/drv.h": header.encode()}
        files.update({f"drv/{name}.c": text.encode() for name, text in sources.items()})
        return files

    def invocations(self) -> list[str]:
        path = self.kdir / "invocations"
        return path.read_text().splitlines() if path.exists() else []

    def test_one_make_compiles_every_object_and_its_i_is_the_compiles_own(self):
        built = self.builder.build(self.texts("#define STATE converted_state\n",
                                              a=SOURCE, b=SOURCE), self.sources)
        self.assertEqual(self.invocations(), ["a.o b.o"])
        for source in self.sources:
            with self.subTest(source=source):
                self.assertTrue(built[source].built)
                text = built[source].preprocessed
                self.assertIn("int compiled_with_the_object_rule;", text)
                self.assertNotIn("preprocessed_by_the_i_rule", text)
                self.assertIn("int converted_state = 1;", text)
                # the scratch tree's path is not in it: the same file reads the same each run
                self.assertIn(f'"{source}"', text)
                self.assertNotIn("ioctl-rework-kdir.", text)

    def test_the_legacy_text_is_preprocessed_with_the_compiles_command_without_make(self):
        converted = self.builder.build(self.texts("#define STATE converted_state\n",
                                                  a=SOURCE, b=SOURCE), self.sources)
        legacy = self.builder.build(
            self.texts("#define STATE legacy_state\n", a=SOURCE, b="#error b is broken\n"),
            self.sources, cached=True, compile=False,
            commands={s: converted[s].command for s in self.sources})
        self.assertEqual(self.invocations(), ["a.o b.o"])
        text = legacy["drv/a.c"].preprocessed
        self.assertIn("int legacy_state = 1;", text)
        self.assertIn("int compiled_with_the_object_rule;", text)
        self.assertNotIn("preprocessed_by_the_i_rule", text)
        self.assertIsNone(legacy["drv/b.c"].preprocessed)
        (error,) = legacy["drv/b.c"].diagnostics
        self.assertEqual((error.file, error.severity, error.text),
                         ("drv/b.c", "error", "#error b is broken"))

    def test_without_a_command_the_legacy_i_is_made_by_make(self):
        legacy = self.builder.build(self.texts("#define STATE legacy_state\n", a=SOURCE),
                                    ["drv/a.c"], compile=False)
        self.assertEqual(self.invocations(), ["a.i"])
        self.assertIn("preprocessed_by_the_i_rule", legacy["drv/a.c"].preprocessed)

    def test_a_compile_that_fails_hands_out_no_i(self):
        # gcc -save-temps leaves the part it preprocessed before the error
        broken = 'int before_the_error;\n#include "missing.h"\n'
        built = self.builder.build(self.texts("", a=broken, b=SOURCE), self.sources)
        self.assertFalse(built["drv/a.c"].built)
        self.assertIsNone(built["drv/a.c"].preprocessed)
        self.assertIsNone(built["drv/a.c"].command)
        self.assertIn("missing.h", built["drv/a.c"].first_error)
        self.assertIsNotNone(built["drv/b.c"].command)

    def test_a_compile_that_keeps_no_i_built_but_hands_out_none(self):
        # a compiler that ignores -save-temps: the .i is then made alone (verify.py)
        (self.kdir / "Makefile").write_text(FAKE_KBUILD.replace(
            "$(KCFLAGS)", "$(filter-out -save-temps=obj,$(KCFLAGS))"))
        built = self.builder.build(self.texts("", a=SOURCE), ["drv/a.c"])["drv/a.c"]
        self.assertTrue(built.built)
        self.assertEqual(built.diagnostics, ())
        self.assertIsNone(built.preprocessed)


if __name__ == "__main__":
    unittest.main()

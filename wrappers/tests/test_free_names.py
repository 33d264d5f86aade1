"""The names a helper added to a file must avoid include the tree's files
that include that file, in the run or not (ctext/free_names.py): a name
clash there is a compile break the run would never see.  Trees written
here, several spellings of the #include."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import forwarding
from ioctl_rework.ctext import free_names


class TakenByIncludersTest(unittest.TestCase):

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="free-names-"))
        self.addCleanup(shutil.rmtree, self.root)
        self.write("Makefile", "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        self.write("sound/mix/mix_compat.h", "#define MIX 1\n")

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def taken(self) -> set[str]:
        return free_names.taken_by_includers(self.root, "sound/mix/mix_compat.h")

    def test_every_spelling_of_the_include_anywhere_in_the_tree(self):
        for rel, include in [("sound/other/a.c", '#include "../mix/mix_compat.h"'),
                             ("sound/mix/b.c", '#include "mix_compat.h"'),
                             ("drivers/c.c", "#include <sound/mix/mix_compat.h>"),
                             ("drivers/d.h", '  #  include   "mix_compat.h"')]:
            with self.subTest(rel=rel):
                name = "clash_" + rel.replace("/", "_").replace(".", "_")
                self.write(rel, f"{include}\nstatic int {name};\n")
                self.assertIn(name, self.taken())

    def test_a_header_an_includer_includes_is_read_too(self):
        self.write("sound/other/names.h", "int from_its_header;\n")
        self.write("sound/other/e.c", '#include "names.h"\n#include "../mix/mix_compat.h"\n')
        self.assertIn("from_its_header", self.taken())

    def test_files_that_do_not_include_it_take_nothing(self):
        self.write("sound/other/f.c", "/* see mix_compat.h */\nstatic int not_taken;\n")
        self.write("sound/other/g.c", '#include "other_mix_compat.h"\nstatic int nor_this;\n')
        self.write("sound/other/h.txt", '#include "mix_compat.h"\nint nor_text;\n')
        taken = self.taken()
        for name in ("not_taken", "nor_this", "nor_text", "MIX"):
            self.assertNotIn(name, taken)


class IncludersTest(unittest.TestCase):
    """Several files' includers found by one search of the tree (the
    forwarding stage names a helper in each file that calls through
    ->ioctl: it was a grep of the whole tree each)."""

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="free-names-"))
        self.addCleanup(shutil.rmtree, self.root)
        self.write("Makefile", "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        self.files = {"drivers/stk/stk.c": "int stk_own;\n",
                      "drivers/md/md_fwd.h": "#define MD 1\n",
                      "sound/mix/mix_compat.h": "#define MIX 1\n"}
        for rel, text in self.files.items():
            self.write(rel, text)
        # Each includer in another spelling, with a name of its own.
        self.includes = {"drivers/stk/stk_all.c": '#include "stk.c"\nint from_stk_all;\n',
                         "drivers/md/raid.c": "#include <../drivers/md/md_fwd.h>\n"
                                              "int from_raid;\n",
                         "drivers/md/dm.h": '  #  include   "md_fwd.h"\nint from_dm;\n',
                         "sound/other/a.c": '#include "../mix/mix_compat.h"\nint from_a;\n',
                         "sound/other/f.c": "/* see mix_compat.h, md_fwd.h */\nint nor_f;\n"}
        for rel, text in self.includes.items():
            self.write(rel, text)
        self.greps = 0
        run = free_names.subprocess.run

        def counting(command, *args, **kwargs):
            self.greps += command[0] == "grep"
            return run(command, *args, **kwargs)
        free_names.subprocess.run = counting
        self.addCleanup(setattr, free_names.subprocess, "run", run)

    def write(self, rel: str, text: str) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def test_every_file_s_includers_in_one_search(self):
        found = free_names.includers(self.root, sorted(self.files))
        self.assertEqual(self.greps, 1)
        self.assertEqual({rel: sorted(files) for rel, files in found.items()},
                         {"drivers/stk/stk.c": ["drivers/stk/stk_all.c"],
                          "drivers/md/md_fwd.h": ["drivers/md/dm.h", "drivers/md/raid.c"],
                          "sound/mix/mix_compat.h": ["sound/other/a.c"]})

    def test_the_forwarding_helpers_are_named_as_one_file_at_a_time_names_them(self):
        texts = {rel: text.encode() for rel, text in self.files.items()}
        named = forwarding._helper_names(self.root, texts)
        self.assertEqual(self.greps, 1)
        for rel, text in self.files.items():
            with self.subTest(rel=rel):
                used = free_names.taken(self.root, rel, text) | \
                    free_names.taken_by_includers(self.root, rel)
                self.assertEqual(named[rel], ["-D", "forward_helper=" + free_names.first_free(
                    free_names.FORWARD_HELPER, used)])
        # A name an includer takes is not the helper's.
        self.write("drivers/md/dm.h", '#include "md_fwd.h"\nint forward_ioctl;\n')
        self.assertEqual(forwarding._helper_names(self.root, texts)["drivers/md/md_fwd.h"],
                         ["-D", "forward_helper=forward_ioctl2"])


if __name__ == "__main__":
    unittest.main()

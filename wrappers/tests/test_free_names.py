"""The names a helper added to a file must avoid include the tree's files
that include that file, in the run or not (ctext/free_names.py): a name
clash there is a compile break the run would never see.  Trees written
here, several spellings of the #include."""

import shutil
import tempfile
import unittest
from pathlib import Path

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


if __name__ == "__main__":
    unittest.main()

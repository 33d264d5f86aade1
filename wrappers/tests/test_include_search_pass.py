"""read_headers in one pass over a run's files (include_search.Pass): each
header is read and its includes resolved once, not once per file (issue 26:
the forwarding stage of a whole 2.6.9 run read ~800 closures of hundreds of
headers each).  What each file reaches must be what it reaches alone: a
header's includes are resolved along the including file's own search path
(its directory's Makefile -I flags), so two files may find different
headers through the same one."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.ctext import include_search


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def reading(found: include_search.Headers) -> tuple:
    return (found.search, found.texts, found.missing, found.unread, found.cut)


class OnePassTest(unittest.TestCase):
    def setUp(self):
        self.tree = Path(tempfile.mkdtemp(prefix="include-pass-"))
        self.addCleanup(shutil.rmtree, self.tree)
        write(self.tree / "Makefile", "VERSION = 2\nPATCHLEVEL = 6\n")
        # One shared header whose include each driver's -I resolves apart.
        write(self.tree / "include/linux/board.h",
              "#include <board_regs.h>\n#include <linux/absent.h>\n#include \"near.h\"\n")
        write(self.tree / "include/linux/near.h", "#define NEAR 1\n")
        for name in ("alpha", "beta"):
            write(self.tree / f"drivers/{name}/Makefile",
                  f"EXTRA_CFLAGS += -Idrivers/{name}/regs\n")
            write(self.tree / f"drivers/{name}/regs/board_regs.h", f"#define REGS_{name} 1\n")
        # gamma has no -I: board_regs.h is found nowhere.
        write(self.tree / "drivers/gamma/Makefile", "obj-y += g.o\n")
        self.files = []
        for name in ("alpha", "beta", "gamma"):
            for spelling in ("#include <linux/board.h>\n",
                             "#include \"missing.h\"\n#include <linux/board.h>\n",
                             "#include <linux/near.h>\n#include <linux/board.h>\n"):
                rel = f"drivers/{name}/d{len(self.files)}.c"
                write(self.tree / rel, spelling + "int x;\n")
                self.files.append(rel)

    def test_each_file_reaches_in_one_pass_what_it_reaches_alone(self):
        alone = [reading(include_search.read_headers(self.tree, rel)) for rel in self.files]
        for order in (self.files, self.files[::-1], self.files[1::2] + self.files[::2]):
            with self.subTest(order=order[0]):
                one_pass = include_search.Pass()
                shared = {rel: reading(include_search.read_headers(self.tree, rel,
                                                                   one_pass=one_pass))
                          for rel in order}
                self.assertEqual([shared[rel] for rel in self.files], alone)

    def test_the_same_header_leads_each_driver_to_its_own_registers(self):
        one_pass = include_search.Pass()
        reached = {rel.split("/")[1]: include_search.read_headers(self.tree, rel,
                                                                  one_pass=one_pass)
                   for rel in self.files[::3]}
        self.assertIn("drivers/alpha/regs/board_regs.h", reached["alpha"].texts)
        self.assertNotIn("drivers/beta/regs/board_regs.h", reached["alpha"].texts)
        self.assertIn("drivers/beta/regs/board_regs.h", reached["beta"].texts)
        self.assertEqual(reached["gamma"].unread, ["board_regs.h", "linux/absent.h"])

    def test_a_limit_cuts_in_one_pass_as_alone(self):
        for limit in (1, 2, 3):
            with self.subTest(limit=limit):
                one_pass = include_search.Pass()
                for rel in self.files:
                    self.assertEqual(
                        reading(include_search.read_headers(self.tree, rel, limit,
                                                            one_pass=one_pass)),
                        reading(include_search.read_headers(self.tree, rel, limit)))


if __name__ == "__main__":
    unittest.main()

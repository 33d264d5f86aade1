"""red34: a driver whose handler and file_operations live in a header it
includes with quotes (bench/adversarial red34_hdr_body), converted with
only its .c among the run's paths.  On main the run said "0 .ioctl fops
entries" and exit 0, and the result still named .ioctl in compiled code:
a silent skip.  The header's members are now accounted for as the .c's
are, each record naming the header, its line and the file that includes
it, in every way the compiler finds the header: beside the file, through
another header, through the directory's kbuild include path; a run-time
assignment in the header too.  A member of another structure in such a
header is explained, not listed; a header among the run's paths is
converted as before."""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert.summary import HandlerStatus
from test_convert import HAVE_SPATCH, parse_args

DATA = Path(__file__).resolve().parent / "test_data" / "red34"
MAIN = (DATA / "hb_main.c").read_text()
SETUP_MAIN = MAIN.replace('#include "hb_body.h"', '#include "hb_setup.h"\n\n'
                          "static struct file_operations hb_fops;").replace(
    "\treturn misc_register(&hb_misc);", "\thb_setup(&hb_fops);\n\treturn misc_register(&hb_misc);")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class HeaderEntriesTest(unittest.TestCase):
    def run_convert(self, files: dict[str, str], paths: list[str]):
        tmp = Path(tempfile.mkdtemp(prefix="red34-hdr-"))
        self.addCleanup(shutil.rmtree, tmp)
        for rel, text in files.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        args = parse_args(["--no-cache", "-q", "--no-kernel-headers", "--target", "2.6.11",
                           "--", *(str(tmp / p) for p in paths)])
        return convert.convert(convert.request_from_args(args))

    def listed(self, files: dict[str, str], header: str, line: int, kind: str):
        result = self.run_convert(files, ["hb_main.c"])
        [record] = [h for h in result.summary.handlers if h.file.endswith(header)]
        self.assertIs(record.status, HandlerStatus.SKIPPED, record.reason)
        self.assertEqual(record.line, line)
        self.assertEqual(record.handler, "hb_ioctl")
        self.assertIn(f"{kind} (`", record.reason)
        self.assertIn("a header that hb_main.c includes, which is not among the run's paths",
                      record.reason)
        self.assertEqual(result.changes, {})

    def test_a_header_beside_the_file(self):
        self.listed({"hb_main.c": MAIN, "hb_body.h": (DATA / "hb_body.h").read_text()},
                    "hb_body.h", 16, "an .ioctl entry")

    def test_a_header_through_another_header(self):
        self.listed({"hb_main.c": MAIN.replace("hb_body.h", "hb_chain.h"),
                     "hb_chain.h": (DATA / "hb_chain.h").read_text(),
                     "hb_body.h": (DATA / "hb_body.h").read_text()},
                    "hb_body.h", 16, "an .ioctl entry")

    def test_a_header_on_the_kbuild_include_path(self):
        self.listed({"hb_main.c": MAIN, "inc/hb_body.h": (DATA / "hb_body.h").read_text(),
                     "Makefile": "EXTRA_CFLAGS += -I$(src)/inc\nobj-m += hb_main.o\n"},
                    "inc/hb_body.h", 16, "an .ioctl entry")

    def test_a_run_time_assignment_in_a_header(self):
        self.listed({"hb_main.c": SETUP_MAIN, "hb_setup.h": (DATA / "hb_setup.h").read_text()},
                    "hb_setup.h", 10, "a run-time assignment of .ioctl")

    def test_another_structure_in_a_header_is_explained(self):
        other = MAIN.replace('#include "hb_body.h"', '#include "hb_body.h"\n#include "hb_other.h"')
        result = self.run_convert({"hb_main.c": other,
                                   "hb_body.h": (DATA / "hb_body.h").read_text(),
                                   "hb_other.h": (DATA / "hb_other.h").read_text()},
                                  ["hb_main.c"])
        self.assertEqual([h.file for h in result.summary.handlers], ["hb_body.h"])
        self.assertTrue(any(t.file == "hb_other.h" for t in result.summary.tokens),
                        result.summary.tokens)

    def test_a_header_among_the_paths_is_converted(self):
        result = self.run_convert({"hb_main.c": MAIN,
                                   "hb_body.h": (DATA / "hb_body.h").read_text()},
                                  ["hb_main.c", "hb_body.h"])
        [record] = result.summary.handlers
        self.assertIs(record.status, HandlerStatus.CONVERTED, record.reason)


if __name__ == "__main__":
    unittest.main()

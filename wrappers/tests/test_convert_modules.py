"""Mutex mode and kbuild composite modules (issue 22 section 4): the files
of one module whose handlers the run converts share one mutex, defined in
the first of them in Makefile order and declared extern in the others,
and the lock proof accepts it; they convert together or not at all, with
words naming the file that stopped them; a module of which one file has
handlers keeps that file's private static mutex.  Several spellings of
the module (foo-objs, foo-y, foo-$(CONFIG_X), continuation lines, Kbuild,
objects in a subdirectory)."""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import lockproof
from ioctl_rework.convert import verification
from ioctl_rework.ctext.spans import code_only
from ioctl_rework.convert.summary import FileStatus, HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

DRIVER = """#include <linux/fs.h>
#include <linux/delay.h>
{include}
extern int fm_total;

static int {name}_ioctl(struct inode *inode, struct file *file,
\t\tunsigned int cmd, unsigned long arg)
{{
{body}}}

static struct file_operations {name}_fops = {{
\t.ioctl = {name}_ioctl,
}};
"""
ADD = "\tif (cmd != 1)\n\t\treturn -ENOTTY;\n\tfm_total += arg;\n\treturn 0;\n"
CLEAR = "\tfm_total = 0;\n\treturn 0;\n"
# Polls for state another call sets: refused under any mutex.
POLL = "\twhile (!fm_total)\n\t\tmsleep(10);\n\treturn 0;\n"


def driver(name: str, body: str, include: str = "") -> str:
    return DRIVER.format(name=name, body=body, include=include)


# Module fm: fb.o comes first, so fb.c defines the mutex.  (where, text, dir)
SPELLINGS = (
    ("Makefile", "obj-m += fm.o\nfm-objs := fb.o fa.o\n", ""),
    ("Makefile", "obj-$(CONFIG_FM) += fm.o\nfm-y := fb.o \\\n\tfa.o\n", ""),
    ("Makefile", "fm-y := fb.o\nfm-$(CONFIG_FM_A) += fa.o\n", ""),
    ("Kbuild", "obj-m := fm.o\nfm-y += fb.o fa.o\n", ""),
    ("Makefile", "obj-m += fm.o\nfm-objs := sub/fb.o sub/fa.o\n", "sub/"),
)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ModuleMutexTest(unittest.TestCase):
    cache = Path(tempfile.mkdtemp(prefix="modules-cache-"))

    def convert(self, files: dict[str, str], *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                Path(tmp, name).parent.mkdir(parents=True, exist_ok=True)
                Path(tmp, name).write_text(text)
            args = parse_args(["--cache-dir", str(self.cache), "--no-compat", "--target",
                               "2.6.39", "--no-kernel-headers", *extra, "--", tmp])
            return convert.convert(convert.request_from_args(args))

    def new(self, result, rel: str) -> str:
        self.assertIn(rel, result.changes)
        return code_only(result.changes[rel][1].decode())

    def test_one_mutex_for_the_module_in_every_spelling(self):
        for makefile, text, where in SPELLINGS:
            with self.subTest(makefile=makefile, text=text):
                result = self.convert({makefile: text, f"{where}fa.c": driver("fa", ADD),
                                       f"{where}fb.c": driver("fb", CLEAR)})
                self.assertEqual([(h.handler, h.status) for h in result.summary.handlers],
                                 [("fa_ioctl", HandlerStatus.CONVERTED),
                                  ("fb_ioctl", HandlerStatus.CONVERTED)],
                                 [h.reason for h in result.summary.handlers])
                fa, fb = self.new(result, f"{where}fa.c"), self.new(result, f"{where}fb.c")
                # fb.o is first in the Makefile: fb.c defines it, fa.c declares it.
                # Declared just before, as sparse asks of a non-static symbol.
                self.assertRegex(fb, r"(?m)^extern struct mutex fm_ioctl_mutex;\n"
                                     r"DEFINE_MUTEX\(fm_ioctl_mutex\);$")
                self.assertEqual(fb.count("extern struct mutex"), 1)
                self.assertRegex(fa, r"(?m)^extern struct mutex fm_ioctl_mutex;\n\nstatic long "
                                     r"fa_ioctl\(")
                self.assertNotIn("DEFINE_MUTEX", fa)
                for new in (fa, fb):
                    self.assertEqual(set(re.findall(r"mutex_(?:un)?lock\(&(\w+)\)", new)),
                                     {"fm_ioctl_mutex"})
                    self.assertIn("#include <linux/mutex.h>", new)
                self.assertFalse([f for f in result.summary.files
                                  if f.status is not FileStatus.CONVERTED], result.summary.files)

    def test_the_wrapper_takes_the_module_mutex_too(self):
        result = self.convert({"Makefile": SPELLINGS[0][1], "fa.c": driver("fa", ADD),
                               "fb.c": driver("fb", CLEAR)}, "--strategy", "wrapper")
        self.assertEqual({h.strategy for h in result.summary.handlers}, {"wrapper"})
        self.assertIn("mutex_lock(&fm_ioctl_mutex);", self.new(result, "fa.c"))
        self.assertRegex(self.new(result, "fb.c"), r"(?m)^DEFINE_MUTEX\(fm_ioctl_mutex\);")

    def test_the_name_is_free_in_every_file_of_the_module_and_their_headers(self):
        result = self.convert({"Makefile": "fm-y := fb.o fa.o fc.o\n",
                               "fa.c": driver("fa", ADD, '#include "fm.h"\n'),
                               "fb.c": driver("fb", CLEAR),
                               "fc.c": "int fm_ioctl_mutex2;\n",
                               "fm.h": "#define fm_ioctl_mutex fm_lock\n"})
        for rel in ("fa.c", "fb.c"):
            self.assertIn("mutex_lock(&fm_ioctl_mutex3);", self.new(result, rel))

    def test_a_module_with_handlers_in_one_file_keeps_its_private_mutex(self):
        alone = self.convert({"fa.c": driver("fa", ADD)})
        for makefile in ("fm-objs := fb.o fa.o fc.o\n", "fm-y := fa.o\nfm-y += fb.o fc.o\n"):
            with self.subTest(makefile=makefile):
                result = self.convert({"Makefile": makefile, "fa.c": driver("fa", ADD),
                                       "fb.c": "int fm_total;\n", "fc.c": "void fc(void) {}\n"})
                self.assertEqual(result.changes["fa.c"], alone.changes["fa.c"])
                self.assertIn("static DEFINE_MUTEX(fa_mutex);", self.new(result, "fa.c"))

    def test_a_refusal_in_one_file_leaves_the_whole_module_with_its_name(self):
        for order in ("fa.o fb.o", "fb.o fa.o"):
            with self.subTest(order=order):
                result = self.convert({"Makefile": f"fm-objs := {order}\n",
                                       "fa.c": driver("fa", ADD), "fb.c": driver("fb", POLL)})
                self.assertEqual(result.changes, {})
                records = {h.handler: h for h in result.summary.handlers}
                self.assertEqual(records["fb_ioctl"].status, HandlerStatus.SKIPPED)
                self.assertIn("polls shared state", records["fb_ioctl"].reason)
                self.assertEqual(records["fa_ioctl"].status, HandlerStatus.SKIPPED)
                self.assertIn("kbuild module fm (Makefile)", records["fa_ioctl"].reason)
                self.assertIn("fb.c keeps fb_ioctl at line", records["fa_ioctl"].reason)
                files = {f.file: f for f in result.summary.files}
                self.assertEqual(files["fa.c"].status, FileStatus.SKIPPED)
                self.assertIn("convert together or not at all: fb.c", files["fa.c"].reason)

    def test_a_refused_handler_beside_a_converted_one_keeps_its_file_too(self):
        fb = driver("fb", CLEAR) + driver("fc", POLL).split("extern int fm_total;\n")[1]
        result = self.convert({"Makefile": "fm-objs := fa.o fb.o\n", "fa.c": driver("fa", ADD),
                               "fb.c": fb})
        self.assertEqual(result.changes, {})
        records = {h.handler: h for h in result.summary.handlers}
        self.assertEqual({h: r.status for h, r in records.items()},
                         dict.fromkeys(("fa_ioctl", "fb_ioctl", "fc_ioctl"),
                                       HandlerStatus.SKIPPED))
        self.assertIn("fb.c keeps fc_ioctl", records["fb_ioctl"].reason)

    def test_a_file_that_cannot_be_written_keeps_the_whole_module(self):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            files = {"Makefile": SPELLINGS[0][1], "fa.c": driver("fa", ADD),
                     "fb.c": driver("fb", CLEAR)}
            for name, text in files.items():
                Path(tmp, name).write_text(text)
            Path(tmp, "fb.c").chmod(0o444)
            args = parse_args(["--no-cache", "--no-compat", "--target", "2.6.39", "--in-place",
                               "--no-kernel-headers", "--", tmp])
            request = convert.request_from_args(args)
            result = convert.convert(request)
            convert.write_in_place(result, request.root)
            for name, text in files.items():
                self.assertEqual(Path(tmp, name).read_text(), text)
        records = {h.handler: h for h in result.summary.handlers}
        self.assertEqual(records["fb_ioctl"].status, HandlerStatus.FAILED)
        self.assertEqual(records["fa_ioctl"].status, HandlerStatus.SKIPPED)
        self.assertIn("fb.c cannot be written (the file is read-only", records["fa_ioctl"].reason)

    def test_glue_the_target_cannot_build_keeps_the_whole_module(self):
        # fb.c is multi-kernel: its HAVE_UNLOCKED_IOCTL glue takes the BKL,
        # which 2.6.39 does not have, so fb.c is not written, nor is fa.c,
        # which would share fb.c's module mutex.
        glue = ("#ifdef HAVE_UNLOCKED_IOCTL\nstatic long fg_unlocked(struct file *file, "
                "unsigned int cmd,\n\t\tunsigned long arg)\n{\n\tlong ret;\n\n"
                "\tlock_kernel();\n\tret = fg_ioctl(NULL, file, cmd, arg);\n"
                "\tunlock_kernel();\n\treturn ret;\n}\n#endif\n")
        for order in ("fa.o fb.o", "fb.o fa.o"):
            with self.subTest(order=order):
                result = self.convert({"Makefile": f"fm-objs := {order}\n",
                                       "fa.c": driver("fa", ADD),
                                       "fb.c": driver("fb", CLEAR) + glue})
                self.assertEqual(result.changes, {})
                files = {f.file: f for f in result.summary.files}
                self.assertEqual(files["fb.c"].status, FileStatus.SKIPPED)
                self.assertIn("glue at line 16 (fg_unlocked) takes the BKL",
                              files["fb.c"].reason)
                self.assertEqual(files["fa.c"].status, FileStatus.SKIPPED)
                self.assertIn("convert together or not at all: fb.c is not written (the "
                              "#ifdef HAVE_UNLOCKED_IOCTL glue", files["fa.c"].reason)
                self.assertEqual([(h.handler, h.status) for h in result.summary.handlers],
                                 [("fa_ioctl", HandlerStatus.SKIPPED),
                                  ("fb_ioctl", HandlerStatus.SKIPPED)])

    def test_a_proof_failure_in_one_file_puts_back_the_whole_module(self):
        def fails_in_fb(name, texts):
            return [lockproof.LockProblem("fb.c", 1, name, "a mutant")] if texts else []

        files = {"Makefile": SPELLINGS[0][1], "fa.c": driver("fa", ADD),
                 "fb.c": driver("fb", CLEAR)}
        with mock.patch.object(lockproof, "module_problems", fails_in_fb):
            result = self.convert(files)
        self.assertEqual(result.changes, {})
        self.assertEqual({h.status for h in result.summary.handlers}, {HandlerStatus.FAILED})
        for h in result.summary.handlers:
            self.assertIn("a mutant", h.reason)

    def test_bkl_mode_ignores_modules(self):
        result = self.convert({"Makefile": SPELLINGS[0][1], "fa.c": driver("fa", ADD),
                               "fb.c": driver("fb", CLEAR)}, "--lock", "bkl")
        for rel in ("fa.c", "fb.c"):
            self.assertIn("lock_kernel();", self.new(result, rel))


if __name__ == "__main__":
    unittest.main()

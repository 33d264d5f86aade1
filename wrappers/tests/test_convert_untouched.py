"""convert: a file none of whose entries is converted stays byte for byte.

On a target that has HAVE_UNLOCKED_IOCTL (and HAVE_COMPAT_IOCTL), a run
resolves those conditionals in the files it rewrites.  A file whose
handlers were all left alone (multi-kernel glue that takes the BKL, a
handler refused in mutex mode) was still written with its #ifdef lines
removed: a change to code the run said it left alone (issue 22, the
adversarial measure's adv_multi_glue and adv_compat_stmt).  A file with
one entry converted is rewritten, glue resolved, as before, unless its
glue still takes the BKL or reaches f_dentry on a target without them:
then the file is not written at all (it would be half converted and still
not build), and the glue is said once, as the file's record, never as
.ioctl entries.
"""

import unittest

from ioctl_rework.convert.summary import FileStatus, HandlerStatus
from test_convert import ConvertCase

HEAD = b"#include <linux/fs.h>\n#include <linux/smp_lock.h>\n\n"
# A multi-kernel driver whose #ifdef HAVE_UNLOCKED_IOCTL glue takes the BKL.
GLUE_BKL = HEAD + (
    b"static int mg_ioctl(struct inode *inode, struct file *file,\n"
    b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
    b"#ifdef HAVE_UNLOCKED_IOCTL\n"
    b"static long mg_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
    b"\t\t\t      unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
    b"\tret = mg_ioctl(file->f_dentry->d_inode, file, cmd, arg);\n"
    b"\tunlock_kernel();\n\treturn ret;\n}\n#endif\n\n"
    b"static struct file_operations mg_fops = {\n#ifdef HAVE_UNLOCKED_IOCTL\n"
    b"\t.unlocked_ioctl\t= mg_unlocked_ioctl,\n#else\n\t.ioctl\t\t= mg_ioctl,\n"
    b"#endif\n};\n")
# The same glue, spelled with #ifndef and the legacy branch first.
GLUE_IFNDEF = HEAD + (
    b"static int mn_ioctl(struct inode *inode, struct file *file,\n"
    b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
    b"#ifdef HAVE_UNLOCKED_IOCTL\n"
    b"static long mn_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
    b"\t\t\t      unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
    b"\tret = mn_ioctl(NULL, file, cmd, arg);\n\tunlock_kernel();\n\treturn ret;\n}\n"
    b"#endif\n\n"
    b"static struct file_operations mn_fops = {\n#ifndef HAVE_UNLOCKED_IOCTL\n"
    b"\t.ioctl\t\t= mn_ioctl,\n#else\n\t.unlocked_ioctl\t= mn_unlocked_ioctl,\n"
    b"#endif\n};\n")
# A legacy entry refused under the private mutex (a direct call from a
# compat handler of the file), beside HAVE_COMPAT_IOCTL glue.
COMPAT_REFUSED = HEAD + (
    b"static int cs_ioctl(struct inode *inode, struct file *file,\n"
    b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
    b"#ifdef HAVE_COMPAT_IOCTL\n"
    b"static long cs_compat_ioctl(struct file *file, unsigned int cmd,\n"
    b"\t\t\t    unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
    b"\tret = cs_ioctl(file->f_dentry->d_inode, file, cmd, arg);\n"
    b"\tunlock_kernel();\n\treturn ret;\n}\n#endif\n\n"
    b"static struct file_operations cs_fops = {\n\t.ioctl\t\t= cs_ioctl,\n"
    b"#ifdef HAVE_COMPAT_IOCTL\n\t.compat_ioctl\t= cs_compat_ioctl,\n#endif\n};\n")
# The same glue with no lock of its own (a driver that locks in its
# handler): a target without the BKL builds it.
GLUE_CLEAN = GLUE_BKL.replace(b"\tlock_kernel();\n", b"").replace(
    b"\tunlock_kernel();\n", b"").replace(b"file->f_dentry->d_inode", b"NULL")
# Glue under a test of the version number, in hex, that takes the BKL.
GLUE_VERSION = GLUE_BKL.replace(b"#ifdef HAVE_UNLOCKED_IOCTL\nstatic",
                                b"#if LINUX_VERSION_CODE >= 0x02060b\nstatic")
# A second, plain fops in the file: its entry is converted, so the file is
# rewritten and its glue resolved.
CONVERTED = (b"\nstatic int pl_ioctl(struct inode *inode, struct file *file,\n"
             b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn 0;\n}\n\n"
             b"static struct file_operations pl_fops = {\n\t.ioctl\t\t= pl_ioctl,\n};\n")


class UntouchedTest(ConvertCase):
    def convert_file(self, name: str, text: bytes):
        path = self.tree / "drivers/char" / name
        path.write_bytes(text)
        result = self.run_convert("--target", "6.1", "--in-place", paths=[path])
        return path, result

    def test_a_file_whose_entries_were_all_left_alone_is_not_written(self):
        for name, text, status in (("glue.c", GLUE_BKL, FileStatus.SKIPPED),
                                   ("ifndef.c", GLUE_IFNDEF, FileStatus.SKIPPED),
                                   ("compat.c", COMPAT_REFUSED, FileStatus.SKIPPED),
                                   ("clean.c", GLUE_CLEAN, FileStatus.UNCHANGED)):
            with self.subTest(name=name):
                path, result = self.convert_file(name, text)
                self.assertEqual(path.read_bytes(), text)
                self.assertEqual(result.changes, {})
                [record] = [f for f in result.summary.files if f.file.endswith(name)]
                self.assertEqual(record.status, status)
                self.assertFalse(any(h.status is HandlerStatus.CONVERTED
                                     for h in result.summary.handlers))

    def test_a_file_with_a_converted_entry_is_written_and_its_glue_resolved(self):
        path, result = self.convert_file("both.c", GLUE_CLEAN + CONVERTED)
        new = path.read_bytes()
        self.assertIn(b"static long pl_ioctl(struct file *file,", new)
        self.assertNotIn(b"#ifdef HAVE_UNLOCKED_IOCTL", new)
        self.assertEqual([h.handler for h in result.summary.handlers
                          if h.status is HandlerStatus.CONVERTED], ["pl_ioctl"])


class GlueKeptBackTest(ConvertCase):
    """A file whose glue the target cannot build is written in no part: its
    other entries are refused with the glue's reason, and the glue lines
    are said once, as the file's record, not counted as entries."""

    def convert_file(self, name: str, text: bytes, *more: str):
        path = self.tree / "drivers/char" / name
        path.write_bytes(text)
        return path, self.run_convert("--target", "6.1", "--in-place", *more, paths=[path])

    def test_glue_that_takes_the_bkl_keeps_the_whole_file_as_it_was(self):
        for name, text, opening in (
                ("bkl.c", GLUE_BKL, "#ifdef HAVE_UNLOCKED_IOCTL"),
                ("ifndef.c", GLUE_IFNDEF, "#ifdef HAVE_UNLOCKED_IOCTL"),
                ("version.c", GLUE_VERSION, "#if LINUX_VERSION_CODE >= 0x02060b"),
                ("compat.c", COMPAT_REFUSED, "#ifdef HAVE_COMPAT_IOCTL")):
            for more in ((), ("--strategy", "wrapper"), ("--lock", "mutex")):
                with self.subTest(name=name, more=more):
                    path, result = self.convert_file(name, text + CONVERTED, *more)
                    self.assertEqual(path.read_bytes(), text + CONVERTED)
                    self.assertEqual(result.changes, {})
                    [record] = [f for f in result.summary.files if f.file.endswith(name)]
                    self.assertEqual(record.status, FileStatus.SKIPPED)
                    self.assertIn(f"the {opening} glue at line 10 (", record.reason)
                    self.assertIn("takes the BKL (lock_kernel()) at lines ", record.reason)
                    self.assertIn("so the file is not written", record.reason)
                    # The entries are the file's fops entries, glue is none.
                    mine = [h for h in result.summary.handlers if h.file == record.file]
                    self.assertEqual([(h.handler, h.status) for h in mine],
                                     [(h.handler, HandlerStatus.SKIPPED) for h in mine])
                    # The glue functions are no entries.
                    self.assertFalse([h for h in mine if h.handler.endswith(
                        ("_unlocked_ioctl", "_compat_ioctl"))])
                    plain = [h for h in mine if h.handler == "pl_ioctl"]
                    if name != "compat.c":
                        self.assertEqual([h.reason for h in plain], [record.reason])
                    else:       # the rule refused it first, and says why
                        self.assertIn("takes the BKL", plain[0].reason)
                    self.assertEqual(result.summary.totals()["handlers"]["converted"], 0)
                    self.assertFalse(result.failed)


if __name__ == "__main__":
    unittest.main()

"""convert over a small 2.6-era tree whose compat layer forwards through a
header macro that defines whole functions by token pasting (the shape of
2.6.9's sound/core/ioctl32/ioctl32.h DEFINE_ALSA_IOCTL, written here): the
lower driver converts, the header's macro follows it (convert/macro_bodies.py),
the header is in the output, and every file written compiles (gcc
-fsyntax-only -Wall -Werror against a stub <linux/fs.h> of the target)."""

import argparse
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import macro_bodies
from ioctl_rework.convert.request import ConvertRequest
from ioctl_rework.convert.summary import HandlerStatus

HAVE_GCC = shutil.which("gcc") is not None
HELPER = macro_bodies.MACRO_HELPER

LOWER = """\
#include <linux/fs.h>

static int mix_value;

static int mix_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case MIX_SET:
		mix_value = *(int *)arg;
		return 0;
	case MIX_GET:
		*(int *)arg = mix_value;
		return 0;
	}
	return -ENOTTY;
}

struct file_operations mix_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= mix_ioctl,
};
"""

HEADER = """\
#ifndef __MIX_COMPAT_H
#define __MIX_COMPAT_H

#include <linux/fs.h>

struct mix_level32 { int value; };
struct mix_level { int value; };

#define DEFINE_MIX_COMPAT(type) \\
static int mix_compat_##type(struct file *file, unsigned int native_ctl, \\
			     unsigned long arg) \\
{ \\
	struct mix_##type data; \\
	int err; \\
	data.value = (int)arg; \\
	if (!file->f_op || !file->f_op->ioctl) \\
		return -ENOTTY; \\
	err = file->f_op->ioctl(file->f_dentry->d_inode, file, native_ctl, \\
				(unsigned long)&data); \\
	if (err < 0) \\
		return err; \\
	return data.value; \\
}

#endif /* __MIX_COMPAT_H */
"""

COMPAT = """\
#include <linux/fs.h>
#include "mix_compat.h"

/* A name of this file the header's helper must not take. */
static int %s;

DEFINE_MIX_COMPAT(level)

int mix_compat_get(struct file *file)
{
	%s = mix_compat_level(file, MIX_GET, 0);
	return %s;
}
""" % ((HELPER,) * 3)

# Member tests a macro spells, other than HEADER's !T in an ||: != NULL in
# an &&, == NULL in a ternary, a bare T in an if.
HEADER_TESTS = """\
#ifndef __MIX_COMPAT_H
#define __MIX_COMPAT_H

#include <linux/fs.h>

#define DEFINE_MIX_QUERY(name) \\
static int mix_query_##name(struct file *file, unsigned int cmd) \\
{ \\
	if (file->f_op && file->f_op->ioctl != NULL) \\
		return file->f_op->ioctl(file->f_dentry->d_inode, file, cmd, 0); \\
	return -ENOTTY; \\
}

#define DEFINE_MIX_PROBE(name) \\
static int mix_probe_##name(struct file *file, unsigned int cmd) \\
{ \\
	return file->f_op->ioctl == NULL ? -ENOTTY : \\
		file->f_op->ioctl(file->f_dentry->d_inode, file, cmd, 0); \\
}

#define DEFINE_MIX_TRY(name) \\
static int mix_try_##name(struct file *file, unsigned int cmd) \\
{ \\
	int err = -ENOTTY; \\
	if (file->f_op->ioctl) \\
		err = file->f_op->ioctl(file->f_dentry->d_inode, file, cmd, 0); \\
	return err; \\
}

#endif /* __MIX_COMPAT_H */
"""

COMPAT_TESTS = """\
#include <linux/fs.h>
#include "mix_compat.h"

DEFINE_MIX_QUERY(level)
DEFINE_MIX_PROBE(level)
DEFINE_MIX_TRY(level)

int mix_compat_get(struct file *file)
{
	return mix_query_level(file, MIX_GET) + mix_probe_level(file, MIX_GET) +
		mix_try_level(file, MIX_GET);
}
"""

STUB_FS = """\
#ifndef _STUB_FS_H
#define _STUB_FS_H
#define NULL	((void *)0)
#define ENOTTY	25
#define MIX_SET	1
#define MIX_GET	2
struct module;
#define THIS_MODULE ((struct module *)0)
struct inode { unsigned int i_rdev; };
struct dentry { struct inode *d_inode; };
struct path { struct dentry *dentry; };
struct file_operations;
struct file {
	struct path f_path;
	struct dentry *f_dentry;
	struct file_operations *f_op;
	void *private_data;
};
struct file_operations {
	struct module *owner;
%s	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
};
#endif
"""
LEGACY_MEMBER = "\tint (*ioctl)(struct inode *, struct file *, unsigned int, unsigned long);\n"


@unittest.skipUnless(HAVE_GCC, "gcc is not installed")
class ConvertMacroBodiesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="macro-bodies-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        (self.tree / "sound/mix").mkdir(parents=True)
        (self.tree / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        (self.tree / "sound/mix/Makefile").write_text("obj-m += mix.o mix_compat.o\n")
        (self.tree / "sound/mix/mix.c").write_text(LOWER)
        (self.tree / "sound/mix/mix_compat.h").write_text(HEADER)
        (self.tree / "sound/mix/mix_compat.c").write_text(COMPAT)

    def convert(self, target: str, *options: str):
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--target", target, "--no-cache", *options, "--",
                                  str(self.tree / "sound/mix")])
        return convert.convert(convert.request_from_args(args))

    def compile_output(self, result, legacy: bool, *flags: str) -> None:
        """Every file of the driver, as the run writes it, compiles."""
        out = self.tmp / ("out-" + "-".join([str(legacy), *flags]))
        shutil.copytree(self.tree / "sound/mix", out)
        for rel, (_, new) in result.changes.items():
            (out / Path(rel).name).write_bytes(new)
        stubs = self.tmp / ("stubs-" + "-".join([str(legacy), *flags])) / "linux"
        stubs.mkdir(parents=True)
        (stubs / "fs.h").write_text(STUB_FS % (LEGACY_MEMBER if legacy else ""))
        (stubs / "smp_lock.h").write_text("void lock_kernel(void);\nvoid unlock_kernel(void);\n")
        (stubs / "mutex.h").write_text("")
        # Not the host's <linux/version.h>: the kernel modelled (2.6.11, or
        # 2.6.36 without the legacy member), for the helper's version test.
        (stubs / "version.h").write_text(
            "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n"
            "#define LINUX_VERSION_CODE KERNEL_VERSION(2, 6, %d)\n" % (11 if legacy else 36))
        for source in ("mix.c", "mix_compat.c"):
            proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror", *flags, "-I",
                                   str(stubs.parent), "-I", str(out), str(out / source)],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, f"{source}: {proc.stderr}")

    def check_run(self, result):
        self.assertFalse(result.failed, [h for h in result.summary.handlers
                                         if h.status is HandlerStatus.FAILED])
        statuses = {h.handler: h.status for h in result.summary.handlers}
        self.assertIs(statuses["mix_ioctl"], HandlerStatus.CONVERTED)
        self.assertIn("sound/mix/mix_compat.h", result.changes)
        self.assertIn("sound/mix/mix_compat.h",
                      {f.file for f in result.summary.files if f.status.value == "converted"})
        return result.changes["sound/mix/mix_compat.h"][1].decode()

    def test_2_6_11_forwards_through_the_fallback_helper(self):
        result = self.convert("2.6.11")
        header = self.check_run(result)
        # The including file takes the stem: the helper is the next free name.
        self.assertIn(f"static inline int {HELPER}2(", header)
        self.assertIn(f"err = {HELPER}2(file->f_op, file->f_dentry->d_inode, file, native_ctl,",
                      header)
        self.assertIn("!(file->f_op->unlocked_ioctl || file->f_op->ioctl)", header)
        self.assertIn("#include <linux/smp_lock.h>", header)
        self.compile_output(result, legacy=True)

    def test_the_helper_name_is_free_in_files_outside_the_run(self):
        # A driver of another directory includes the header and takes the
        # next name: it compiles the helper too, so the helper skips it.
        (self.tree / "sound/other").mkdir()
        (self.tree / "sound/other/user.c").write_text(
            '#include <linux/fs.h>\n#include "../mix/mix_compat.h"\n\n'
            f"int {HELPER}2(void)\n{{\n\treturn 0;\n}}\n")
        header = self.check_run(self.convert("2.6.11"))
        self.assertIn(f"static inline int {HELPER}3(", header)
        self.assertNotIn(f"{HELPER}2(", header)

    def test_2_6_36_forwards_through_unlocked_ioctl(self):
        result = self.convert("2.6.36")
        header = self.check_run(result)
        self.assertIn("err = (int)file->f_op->unlocked_ioctl(file, native_ctl,", header)
        self.assertIn("!file->f_op->unlocked_ioctl)", header)
        self.assertNotIn("->ioctl", header)
        self.assertNotIn(HELPER, header)
        self.compile_output(result, legacy=False)

    def test_multi_kernel_keeps_the_old_macro_for_old_kernels(self):
        result = self.convert("2.6.11", "--multi-kernel")
        header = self.check_run(result)
        self.assertEqual(header.count("#ifdef HAVE_UNLOCKED_IOCTL"), 2)
        self.assertIn(HEADER[HEADER.index("#define DEFINE_MIX_COMPAT"):
                             HEADER.index("#endif /*")].rstrip("\n"), header)
        for flags in (["-DHAVE_UNLOCKED_IOCTL"], []):
            with self.subTest(flags=flags):
                self.compile_output(result, True, *flags)

    def test_multi_kernel_member_tests_compile_on_every_kernel(self):
        # 2.6.36 .. 2.6.38 define HAVE_UNLOCKED_IOCTL and have no .ioctl:
        # a macro's test of either member is only below 2.6.36, from there
        # it tests ->unlocked_ioctl alone (calls still through the helper).
        spellings = {"HEADER": (HEADER, COMPAT), "HEADER_TESTS": (HEADER_TESTS, COMPAT_TESTS)}
        for name, (header_text, compat) in spellings.items():
            (self.tree / "sound/mix/mix_compat.h").write_text(header_text)
            (self.tree / "sound/mix/mix_compat.c").write_text(compat)
            for target in ("2.6.11", "2.6.36", "2.6.37", "2.6.38"):
                with self.subTest(header=name, target=target):
                    result = self.convert(target, "--multi-kernel")
                    header = self.check_run(result)
                    # compile_output builds under self.tmp by name: one per run.
                    self.tmp = Path(tempfile.mkdtemp(prefix="build-", dir=self.tree.parent))
                    for legacy, flags in ((True, []), (True, ["-DHAVE_UNLOCKED_IOCTL"]),
                                          (False, ["-DHAVE_UNLOCKED_IOCTL"])):
                        self.compile_output(result, legacy, *flags)
                    macros = header_text.count("#define DEFINE_")
                    self.assertEqual(header.count(
                        "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\n#define"), macros,
                        header)
                    self.assertEqual(header.count("->unlocked_ioctl || "), macros)

    def test_a_header_that_cannot_be_written_denies_the_run(self):
        # convert's own test of a file it may not write in place (a symlink
        # out of the tree, say), made to refuse the header alone.
        header = "sound/mix/mix_compat.h"
        real = ConvertRequest.unwritable

        def unwritable(request, rels):
            found = real(request, rels)
            if header in rels:
                found[header] = "a symlink out of the tree"
            return found
        with mock.patch.object(ConvertRequest, "unwritable", unwritable):
            result = self.convert("2.6.11")
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        records = {h.handler: h for h in result.summary.handlers}
        self.assertIs(records["mix_ioctl"].status, HandlerStatus.FAILED)
        self.assertIn("the header cannot be written (a symlink out of the tree)",
                      records["DEFINE_MIX_COMPAT"].reason)

    def test_a_body_that_cannot_be_rewritten_denies_the_run(self):
        # The inode of another file: 2.6.36 has no inode to pass.
        (self.tree / "sound/mix/mix_compat.h").write_text(HEADER.replace(
            "file->f_op->ioctl(file->f_dentry->d_inode,", "file->f_op->ioctl(NULL,"))
        result = self.convert("2.6.36")
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        records = {h.handler: h for h in result.summary.handlers}
        self.assertIs(records["mix_ioctl"].status, HandlerStatus.FAILED)
        self.assertIn("macro DEFINE_MIX_COMPAT (sound/mix/mix_compat.h:9)",
                      records["DEFINE_MIX_COMPAT"].reason)
        self.assertIn("not the inode of the file", records["DEFINE_MIX_COMPAT"].reason)


if __name__ == "__main__":
    unittest.main()

"""convert over a small 2.6-era tree whose compat driver forwards through a
macro that defines a whole function by token pasting (the shape of 2.6.9's
sound/core/ioctl32/ioctl32.h DEFINE_ALSA_IOCTL, written here), the macro
written in the .c itself, in a quoted header of its directory, or in a
header of another directory that the kbuild include path finds
(EXTRA_CFLAGS += -I...): its call through ->ioctl is converted as a call in
a function is (the fallback helper where the target still has .ioctl,
->unlocked_ioctl from 2.6.36), every continuation kept, the file that holds
it in the output, and what is written compiles (gcc -fsyntax-only against
a stub <linux/fs.h> of the target).  Before, the -I header's call was
never read and the lower driver was converted beside it (exit 0), and the
.c's was refused whole.  A call the macro builds by pasting, and a macro
of an angle-bracket header outside the run, are still refused, naming
the site."""

import argparse
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import macro_bodies
from ioctl_rework.convert.summary import HandlerStatus

from test_convert_macro_bodies import LEGACY_MEMBER, LOWER, STUB_FS

HAVE_GCC = shutil.which("gcc") is not None
HELPER = macro_bodies.MACRO_HELPER

# A macro, named DEFINE_MIX_{name}, its call spelled as one of CALLS.
MACRO = """\
#define DEFINE_MIX_%s(type) \\
static int mix_%s_##type(struct file *file, unsigned int native_ctl, \\
			     unsigned long arg) \\
{ \\
	struct mix_##type data; \\
	struct file *lower = file; \\
	int err; \\
	data.value = (int)arg; \\
	%s \\
	if (err < 0) \\
		return err; \\
	return data.value + (lower != file); \\
}
"""
# The spellings of the call: one line; split over lines; through a
# pointer to the member; through a local pointer, after a test of it.
CALLS = {
    "ONE": "err = file->f_op->ioctl(file->f_dentry->d_inode, file, native_ctl, "
           "(unsigned long)&data);",
    "SPLIT": "err = file->f_op->ioctl(file->f_dentry->d_inode, \\\n"
             "\t\t\t\tfile, native_ctl, \\\n\t\t\t\t(unsigned long)&data);",
    "STAR": "err = (*file->f_op->ioctl)(file->f_dentry->d_inode, file, \\\n"
            "\t\t\t\t   native_ctl, (unsigned long)&data);",
    "LOCAL": "if (!lower->f_op || !lower->f_op->ioctl) \\\n"
             "\t\treturn -ENOTTY; \\\n"
             "\terr = lower->f_op->ioctl(lower->f_dentry->d_inode, lower, \\\n"
             "\t\t\t\t native_ctl, (unsigned long)&data);",
}
# Calls a macro builds by pasting: which member they call no reading proves.
PASTED = {
    "IOCTL": "err = file->f_op->io##ctl(file->f_dentry->d_inode, file, native_ctl, "
             "(unsigned long)&data);",
    "PARAM": "err = file->f_op->type##ctl(file->f_dentry->d_inode, file, "
             "native_ctl, (unsigned long)&data);",
}


def macros(calls: dict[str, str]) -> str:
    return "\n".join(MACRO % (name, name.lower(), call) for name, call in calls.items())


def uses(calls: dict[str, str], type_: str) -> str:
    defined = "".join(f"DEFINE_MIX_{name}({type_})\n" for name in calls)
    called = " +\n\t\t".join(f"mix_{name.lower()}_{type_}(file, MIX_GET, 0)"
                                for name in calls)
    return (f"struct mix_{type_} {{ int value; }};\n\n{defined}\n"
            f"int mix_compat_get(struct file *file)\n{{\n\treturn {called};\n}}\n")


GUARD = "#ifndef __MIX_COMPAT_H\n#define __MIX_COMPAT_H\n\n#include <linux/fs.h>\n\n%s\n#endif\n"

# Where the macros are: (header path or None for the .c, the include line,
# the directory's Makefile).
PLACES = {
    "in the .c": (None, "", "obj-m += mix.o mix_compat.o\n"),
    "in a quoted header": ("sound/mix/mix_compat.h", '#include "mix_compat.h"\n',
                           "obj-m += mix.o mix_compat.o\n"),
    "in an -I header": ("sound/mixinc/mix_compat.h", '#include "mix_compat.h"\n',
                        "EXTRA_CFLAGS += -I$(src)/../mixinc\nobj-m += mix.o mix_compat.o\n"),
}


@unittest.skipUnless(HAVE_GCC, "gcc is not installed")
class ForwardingMacroCallsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="fwd-macro-calls-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def tree(self, place: str, calls: dict[str, str], type_: str = "level") -> Path:
        header, include, makefile = PLACES[place]
        tree = Path(tempfile.mkdtemp(prefix="tree-", dir=self.tmp))
        (tree / "sound/mix").mkdir(parents=True)
        (tree / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        (tree / "sound/mix/Makefile").write_text(makefile)
        (tree / "sound/mix/mix.c").write_text(LOWER)
        if header is None:
            compat = "#include <linux/fs.h>\n\n" + macros(calls) + "\n" + uses(calls, type_)
        else:
            (tree / header).parent.mkdir(parents=True, exist_ok=True)
            (tree / header).write_text(GUARD % macros(calls))
            compat = "#include <linux/fs.h>\n" + include + "\n" + uses(calls, type_)
        (tree / "sound/mix/mix_compat.c").write_text(compat)
        return tree

    def convert(self, tree: Path, target: str, *options: str):
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--target", target, "--no-cache", *options, "--",
                                  str(tree / "sound/mix")])
        return convert.convert(convert.request_from_args(args))

    def holder(self, place: str) -> str:
        return PLACES[place][0] or "sound/mix/mix_compat.c"

    def compile_output(self, tree: Path, result, legacy: bool) -> None:
        """Every file of the driver, as the run writes it, compiles."""
        out = Path(tempfile.mkdtemp(prefix="out-", dir=self.tmp))
        shutil.copytree(tree / "sound", out / "sound")
        for rel, (_, new) in result.changes.items():
            (out / rel).write_bytes(new)
        stubs = Path(tempfile.mkdtemp(prefix="stubs-", dir=self.tmp)) / "linux"
        stubs.mkdir()
        (stubs / "fs.h").write_text(STUB_FS % (LEGACY_MEMBER if legacy else ""))
        (stubs / "smp_lock.h").write_text("void lock_kernel(void);\nvoid unlock_kernel(void);\n")
        for source in ("mix.c", "mix_compat.c"):
            proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror", "-I",
                                   str(stubs.parent), "-I", str(out / "sound/mixinc"),
                                   str(out / "sound/mix" / source)],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, f"{source}: {proc.stderr}")

    def macro_of(self, text: str, name: str) -> str:
        start = text.index(f"#define DEFINE_MIX_{name}(")
        return text[start:text.index("\n}", start) + 2]

    def test_the_calls_convert_on_a_target_with_ioctl(self):
        for place in PLACES:
            with self.subTest(place=place):
                tree = self.tree(place, CALLS)
                result = self.convert(tree, "2.6.11")
                self.assertFalse(result.failed, [h for h in result.summary.handlers
                                                 if h.status is HandlerStatus.FAILED])
                statuses = {h.handler: h.status for h in result.summary.handlers}
                self.assertIs(statuses["mix_ioctl"], HandlerStatus.CONVERTED)
                holder = self.holder(place)
                self.assertIn(holder, result.changes)
                text = result.changes[holder][1].decode()
                for name in CALLS:
                    macro = self.macro_of(text, name)
                    self.assertRegex(macro, rf"err = {HELPER}\d*\((lower|file)->f_op, ")
                    self.assertNotRegex(macro, r"->ioctl\s*\)?\s*\(")
                    # Every line of the #define but its last still continues.
                    self.assertTrue(all(line.endswith("\\")
                                        for line in macro.split("\n")[:-1]), macro)
                self.assertEqual(len(re.findall(rf"static inline int {HELPER}\d*\(", text)), 1)
                self.assertIn("lock_kernel();", text)
                sites = {c.where for c in result.summary.changes
                         if c.file == holder and c.kind == "forwarded-call"}
                self.assertEqual(sites, {f"DEFINE_MIX_{name}" for name in CALLS})
                self.compile_output(tree, result, legacy=True)

    def test_the_calls_convert_to_unlocked_ioctl_from_2_6_36(self):
        for place in PLACES:
            with self.subTest(place=place):
                tree = self.tree(place, CALLS)
                result = self.convert(tree, "2.6.36")
                self.assertFalse(result.failed)
                text = result.changes[self.holder(place)][1].decode()
                for name in CALLS:
                    macro = self.macro_of(text, name)
                    self.assertRegex(macro, r"err = \(int\)(lower|file)->f_op->unlocked_ioctl"
                                            r"\((\s|\\)*(lower|file), ")
                    self.assertNotIn("->ioctl", macro)
                    self.assertTrue(all(line.endswith("\\")
                                        for line in macro.split("\n")[:-1]), macro)
                self.assertNotIn(HELPER, text)
                self.compile_output(tree, result, legacy=False)

    def test_a_pasted_call_is_refused_naming_the_site(self):
        for place in PLACES:
            with self.subTest(place=place):
                # DEFINE_MIX_PARAM(io) pastes io ## ctl.
                tree = self.tree(place, PASTED, "io")
                result = self.convert(tree, "2.6.11")
                self.assertTrue(result.failed)
                self.assertEqual(result.changes, {})
                records = {h.handler: h for h in result.summary.handlers}
                self.assertIs(records["mix_ioctl"].status, HandlerStatus.FAILED)
                for name in PASTED:
                    site = records[f"DEFINE_MIX_{name}"]
                    self.assertIs(site.status, HandlerStatus.FAILED)
                    self.assertRegex(site.reason, r"pastes (io ?## ?ctl|type ?## ?ctl)")
                # The lower driver's refusal names a site and why.
                self.assertRegex(records["mix_ioctl"].reason,
                                 r"sound/mix\w*/mix_compat\.[ch]:\d+ \(DEFINE_MIX_[A-Z]+\)")

    def test_a_macro_of_an_angle_header_outside_the_run_is_refused(self):
        tree = self.tree("in an -I header", {"ONE": CALLS["ONE"]})
        (tree / "include/sound").mkdir(parents=True)
        (tree / "sound/mixinc/mix_compat.h").rename(tree / "include/sound/mixfwd.h")
        compat = tree / "sound/mix/mix_compat.c"
        compat.write_text(compat.read_text().replace('#include "mix_compat.h"',
                                                     "#include <sound/mixfwd.h>"))
        (tree / "sound/mix/Makefile").write_text("obj-m += mix.o mix_compat.o\n")
        result = self.convert(tree, "2.6.11")
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        records = {h.handler: h for h in result.summary.handlers}
        reason = records["DEFINE_MIX_ONE"].reason
        self.assertIn("include/sound/mixfwd.h", reason)
        self.assertIn("a header the run does not write", reason)
        self.assertIn("sound/mix/mix_compat.c:", records["mix_ioctl"].reason)

if __name__ == "__main__":
    unittest.main()

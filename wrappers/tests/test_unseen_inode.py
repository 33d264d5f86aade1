"""An inode named only in an #if branch spatch passes over (issue 22 (2):
the rule's inode decisions do not see kbuild -D flags).  spatch reads one
branch of an #if whose branches each open the same block; a use of the
inode in another, the one the directory's Makefile compiles with its -D
(ccflags-y, EXTRA_CFLAGS, CFLAGS_file.o; with a value or without), was no
use to the rule, which dropped the parameter: `'inode' undeclared` in the
build the Makefile makes.  Now such a handler keeps its signature behind
the wrapper, which passes it the inode (semantic-patches/ioctl_rule/
unseen_inode.py), or is refused where that wrapper is not taken.  The
output is compiled with gcc -fsyntax-only -Wall -Werror against model
headers, with the Makefile's flags and without.

KbuildDefinesTest: a name such a flag defines, named in the handler's
code, is not the file's own default the rule read (ioctl_rule/
kbuild_defines.py): the same wrapper, or a refusal."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert.summary import HandlerStatus

from shared_runs import SharedRuns, distinct, distinct_files
from test_forwarding import MODEL_FS, MODEL_LEGACY, MODEL_UNLOCKED

HAVE_TOOLS = shutil.which(os.environ.get("SPATCH", "spatch")) is not None and \
    shutil.which("gcc") is not None

DRIVER = """#include <linux/fs.h>
#include <linux/module.h>
#include <linux/kdev_t.h>
{prelude}
struct fl_dev {{
\tstruct inode *inode;
\tint busy;
}};

static int fl_busy(struct file *file)
{{
\tstruct fl_dev *dev = file->private_data;

\treturn dev->busy;
}}

static int fl_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{branches}\t\treturn -EBUSY;
\t}}
\treturn 0;
}}

static struct file_operations fl_fops = {{
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= fl_ioctl,
}};
"""

# (Makefile line, the -D flags it gives gcc, text before the handler, its
# #if): the branch spatch reads does not name the inode; the one the flags
# compile does.
UNSEEN = {
    "ifndef": ("ccflags-y += -DUSE_INODE", ["-DUSE_INODE"], "",
               "#ifndef USE_INODE\n\tif (fl_busy(file)) {\n#else\n"
               "\tif (MINOR(inode->i_rdev) > 3) {\n#endif\n"),
    "not_defined": ("EXTRA_CFLAGS += -DUSE_INODE", ["-DUSE_INODE"], "",
                    "#if !defined(USE_INODE)\n\tif (fl_busy(file)) {\n#else\n"
                    "\tif (fl_busy(file) || MINOR(inode->i_rdev) > 3) {\n#endif\n"),
    "value": ("CFLAGS_fl.o += -DFL_LEVEL=2", ["-DFL_LEVEL=2"],
              "\n#ifndef FL_LEVEL\n#define FL_LEVEL 0\n#endif\n",
              "#if FL_LEVEL < 2\n\tif (fl_busy(file)) {\n#else\n"
              "\tif (inode->i_rdev != arg) {\n#endif\n"),
    "no_value": ("ccflags-y := -D FL_BY_INODE", ["-DFL_BY_INODE"], "",
                 "#if !FL_BY_INODE\n\tif (fl_busy(file)) {\n#else\n"
                 "\tif (MINOR(inode->i_rdev) == 0 && fl_busy(file)) {\n#endif\n"),
    "declaration": ("ccflags-y += -DUSE_INODE", ["-DUSE_INODE"], "",
                    "#ifndef USE_INODE\n\tif (fl_busy(file)) {\n#else\n"
                    "\tif (fl_busy(file)) {\n\t\tstruct inode *ip = inode;\n\n"
                    "\t\tif (MINOR(ip->i_rdev) > 3)\n\t\t\treturn -ENODEV;\n#endif\n"),
    "written": ("ccflags-y += -DUSE_INODE", ["-DUSE_INODE"], "",
                "#ifndef USE_INODE\n\tif (fl_busy(file)) {\n#else\n"
                "\tif ((inode = file->f_dentry->d_inode) == NULL) {\n#endif\n"),
}

# Branches whose inode spatch reads, or whose other branch names no
# inode parameter (a member, a tag): converted as before.
SEEN = {
    "read_branch": ("ccflags-y += -DUSE_INODE", ["-DUSE_INODE"], "",
                    "#ifdef USE_INODE\n\tif (MINOR(inode->i_rdev) > 3) {\n#else\n"
                    "\tif (fl_busy(file)) {\n#endif\n"),
    "member": ("ccflags-y += -DUSE_INODE", ["-DUSE_INODE"], "",
               "#ifndef USE_INODE\n\tif (fl_busy(file)) {\n#else\n"
               "\tif (((struct fl_dev *)file->private_data)->inode == NULL ||\n"
               "\t    sizeof(struct inode) == 0) {\n#endif\n"),
}

# A handler whose code names what a kbuild flag defines: the file's own
# default (#ifndef NAME ... #define NAME ...) is not what the compiler
# sees.  (Makefile lines, gcc flags ({dir}: the driver's directory), other
# files of the directory, text before the handler, its body.)
FLAGGED_DRIVER = """#include <linux/fs.h>
#include <linux/module.h>
#include <linux/kdev_t.h>

int fl_up(struct file *file);
{prelude}
static int fl_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{body}}}

static struct file_operations fl_fops = {{
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= fl_ioctl,
}};
"""
ENTER_DEFAULT = "\n#ifndef FL_ENTER\n#define FL_ENTER(f) do { } while (0)\n#endif\n"
ENTER_BODY = "\tint err;\n\n\tFL_ENTER(file);\n\terr = fl_up(file);\n\treturn err;\n"
ENTER_RETURNS = "FL_ENTER(f)=do { if (!fl_up(f)) return -ENODEV; } while (0)"
UNIT_DEFAULT = "\n#ifndef FL_UNIT\n#define FL_UNIT() 0\n#endif\n"
UNIT_BODY = "\tif (FL_UNIT() > 3)\n\t\treturn -ENODEV;\n\treturn fl_up(file);\n"
FLAGGED = {
    # A return the flag hides: pushdown would leave the BKL held.
    "return": ("ccflags-y += '-D%s'" % ENTER_RETURNS, ["-D" + ENTER_RETURNS], {},
               ENTER_DEFAULT, ENTER_BODY),
    # The same through a macro of the file that names the flag's name.
    "through_macro": ('EXTRA_CFLAGS += "-D%s"' % ENTER_RETURNS, ["-D" + ENTER_RETURNS], {},
                      ENTER_DEFAULT + "#define fl_enter(f) FL_ENTER(f)\n",
                      ENTER_BODY.replace("FL_ENTER(", "fl_enter(")),
    # An inode the flag names: a new signature leaves it undeclared.
    "inode": ("CFLAGS_fl.o := '-DFL_UNIT()=MINOR(inode->i_rdev)'",
              ["-DFL_UNIT()=MINOR(inode->i_rdev)"], {}, UNIT_DEFAULT, UNIT_BODY),
    # A header forced in, which the rule does not read.
    "forced": ("ccflags-y += -include $(src)/fl_config.h", ["-include", "{dir}/fl_config.h"],
               {"fl_config.h": "#define FL_ENTER(f) \\\n\tdo { if (!fl_up(f)) return -ENODEV; } "
                               "while (0)\n"},
               ENTER_DEFAULT, ENTER_BODY),
}
# A flag's name only in #if lines: the rule decides as before.
DIRECTIVE_ONLY = ("ccflags-y += -DFL_LEVEL=2", ["-DFL_LEVEL=2"], {}, "",
                  "\tint err = 0;\n\n\tif (fl_up(file))\n\t\terr = -EBUSY;\n"
                  "#if FL_LEVEL > 1\n\tif (cmd == 7)\n\t\terr = -EINVAL;\n#endif\n"
                  "\treturn err;\n")

MODEL_KDEV = "#define MINOR(dev) ((unsigned int)(dev) & 0xff)\n"
MODEL_ERRNO = "#define EBUSY\t16\n#define ENODEV\t19\n"


# The conversions of UnseenInodeTest and KbuildDefinesTest, one case each,
# with the options it is converted with: the cases of one set of options
# are one run (shared_runs: a directory and a prefix for the names of
# each; "fl_" becomes "q0_", "q1_", ...).  key: (test, the subTest's labels).
CASES: dict[tuple, tuple[tuple[str, ...], str, int]] = {}
RUNS = SharedRuns("unseen-inode-")
UNSEEN_REFUSED = (("--target", "2.6.20", "--strategy", "pushdown"),
                  ("--target", "2.6.20", "--multi-kernel"),
                  ("--target", "2.6.39", "--no-compat"))
NULL_PROBE = "\nint fl_probe(struct file *file)\n{\n\treturn fl_ioctl(NULL, file, 0, 0);\n}\n"


def add_case(key: tuple, extra: tuple[str, ...], makefile: str, files: dict[str, str]) -> None:
    index = len(CASES)
    argv = ("--no-cache", "-q", "--no-kernel-headers", *extra)
    directory = f"{key[0].replace(' ', '_')}-{index}"
    RUNS.add(argv, directory, distinct_files(
        {"Makefile": "obj-m += fl.o\n%s\n" % makefile, **files}, "fl", index))
    CASES[key] = (argv, directory, index)


def unseen_case(key, extra, case, after=""):
    add_case(key, extra, case[0], {"fl.c": DRIVER.format(prelude=case[2], branches=case[3])
                                   + after})


def flagged_case(key, extra, case):
    add_case(key, extra, case[0], {"fl.c": FLAGGED_DRIVER.format(prelude=case[3], body=case[4]),
                                   **case[2]})


for _strategy in ("auto", "wrapper"):
    for _name, _case in UNSEEN.items():
        unseen_case(("unseen", _strategy, _name),
                    ("--target", "2.6.20", "--strategy", _strategy), _case)
    for _name, _case in ((n, c) for n, c in FLAGGED.items() if n != "forced"):
        flagged_case(("flagged", _strategy, _name),
                     ("--target", "2.6.20", "--strategy", _strategy), _case)
for _extra, _name in zip(UNSEEN_REFUSED, ("ifndef", "value", "no_value")):
    unseen_case(("unseen refused", _name), _extra, UNSEEN[_name])
for _extra, _name in zip(UNSEEN_REFUSED, ("return", "inode", "forced")):
    flagged_case(("flagged refused", _name), _extra, FLAGGED[_name])
unseen_case(("null",), ("--target", "2.6.20"), UNSEEN["ifndef"], after=NULL_PROBE)
for _name, _case in SEEN.items():
    unseen_case(("seen", _name), ("--target", "2.6.20"), _case)
flagged_case(("directive only",), ("--target", "2.6.20"), DIRECTIVE_ONLY)


def tearDownModule():
    RUNS.remove()


class ModelRun(unittest.TestCase):
    """Converts a driver directory with its Makefile and compiles the
    output against model headers of a 2.6.20 kernel."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="unseen-inode-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        linux = self.tmp / "model" / "linux"
        linux.mkdir(parents=True)
        model_fs = MODEL_FS.replace("#define NULL", MODEL_ERRNO + "#define NULL")
        (linux / "fs.h").write_text(model_fs % {
            "have": "#define HAVE_UNLOCKED_IOCTL 1\n#define HAVE_COMPAT_IOCTL 1",
            "members": MODEL_LEGACY + MODEL_UNLOCKED})
        (linux / "module.h").write_text("#define THIS_MODULE ((struct module *)0)\n")
        (linux / "kdev_t.h").write_text(MODEL_KDEV)
        (linux / "smp_lock.h").write_text("void lock_kernel(void);\nvoid unlock_kernel(void);\n")
        (linux / "mutex.h").write_text("struct mutex { int locked; };\n"
                                       "#define DEFINE_MUTEX(m) struct mutex m\n"
                                       "void mutex_lock(struct mutex *m);\n"
                                       "void mutex_unlock(struct mutex *m);\n")

    def convert_files(self, makefile, files, *extra):
        """FILES, with a kbuild Makefile whose flags are MAKEFILE, converted
        as drivers/fl/ of a scratch directory."""
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        driver = self.tmp / "drivers" / "fl"
        shutil.rmtree(driver, ignore_errors=True)
        driver.mkdir(parents=True)
        (driver / "Makefile").write_text("obj-m += fl.o\n%s\n" % makefile)
        for name, text in files.items():
            (driver / name).write_text(text)
        args = parse_args(["--no-cache", "-q", "--no-kernel-headers", *extra, "--", str(driver)])
        return convert.convert(convert.request_from_args(args))

    def compile_errors(self, text, flags):
        source = self.tmp / "built.c"
        source.write_text(text)
        proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-function",
                               *[flag.replace("{dir}", str(self.tmp / "drivers" / "fl"))
                                 for flag in flags],
                               "-I", str(self.tmp / "model"), str(source)],
                              capture_output=True, text=True)
        return proc.stderr if proc.returncode else ""



@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class SharedRunTest(ModelRun):
    def part(self, key):
        """Case KEY's part of its run, and the prefix of its names."""
        argv, directory, index = CASES[key]
        return RUNS.part(argv, directory), distinct("fl_", "fl", index)

    def case_flags(self, key, flags):
        """FLAGS of case KEY for gcc: its names, {dir} its directory."""
        argv, directory, index = CASES[key]
        return [distinct(f, "fl", index).replace("{dir}", str(RUNS.part(
            argv, directory).directory)) for f in flags]


class UnseenInodeTest(SharedRunTest):
    def assert_builds(self, case, key, name):
        """Case KEY converted the handler, and its output builds with the
        Makefile's flags and without them.  The record, the output and the
        prefix of its names."""
        part, prefix = self.part(key)
        record = part.handlers[0]
        self.assertEqual(record.status, HandlerStatus.CONVERTED, record)
        (_, new), = part.changes.values()
        for flags in (self.case_flags(key, case[1]), []):
            self.assertEqual(self.compile_errors(new.decode(), flags), "", (name, flags))
        return record, new.decode(), prefix

    def test_the_inputs_build_with_and_without_their_flags(self):
        for name, case in {**UNSEEN, **SEEN}.items():
            for flags in (case[1], []):
                with self.subTest(name=name, flags=flags):
                    text = DRIVER.format(prelude=case[2], branches=case[3])
                    self.assertEqual(self.compile_errors(text, flags), "")

    def test_an_unseen_inode_keeps_its_signature_behind_the_wrapper(self):
        for strategy in ("auto", "wrapper"):
            for name, case in UNSEEN.items():
                with self.subTest(strategy=strategy, name=name):
                    record, new, prefix = self.assert_builds(
                        case, ("unseen", strategy, name), name)
                    self.assertIn(f"static int {prefix}ioctl(struct inode *inode, "
                                  "struct file *file,", new)
                    self.assertIn(f"{prefix}ioctl(file->f_path.dentry->d_inode, file, cmd, arg);",
                                  new)
                    self.assertIn("in code spatch did not parse", record.reason or "")

    def test_where_that_wrapper_is_not_taken_the_handler_is_refused(self):
        for extra, name in zip(UNSEEN_REFUSED, ("ifndef", "value", "no_value")):
            with self.subTest(mode=extra, name=name):
                part, _ = self.part(("unseen refused", name))
                record = part.handlers[0]
                self.assertIsNot(record.status, HandlerStatus.CONVERTED, record)
                self.assertFalse(part.changes)
                line = DRIVER.format(prelude=UNSEEN[name][2], branches=UNSEEN[name][3]) \
                    .split("\n").index(UNSEEN[name][3].split("\n")[3]) + 1
                self.assertIn("its inode is named at line %d, in code spatch did not parse"
                              % line, record.reason or "")

    def test_a_caller_passing_null_refuses_a_handler_whose_inode_is_unseen(self):
        part, _ = self.part(("null",))
        record, = part.handlers
        self.assertIsNot(record.status, HandlerStatus.CONVERTED, record)
        self.assertIn("passes NULL as its inode", record.reason or "")
        self.assertFalse(part.changes)

    def test_an_inode_spatch_reads_converts_as_before(self):
        for name, case in SEEN.items():
            with self.subTest(name=name):
                record, new, prefix = self.assert_builds(case, ("seen", name), name)
                self.assertNotIn("spatch did not parse", record.reason or "")
                self.assertNotIn(f"static int {prefix}ioctl(struct inode *inode", new)
                self.assertIn(f"static long {prefix}ioctl(struct file *file", new)



@unittest.skipUnless(HAVE_TOOLS, "spatch or gcc is not installed")
class KbuildDefinesTest(SharedRunTest):
    """A name a kbuild flag of the directory's Makefile defines (or one a
    header the flags force in may), named in a handler's code: the rule
    read the file's own default, not what the compiler sees, and took
    pushdown (a return the flag hides left the BKL held, in silence) or
    dropped an inode the flag names (`'inode' undeclared`).  Now the
    handler keeps its signature behind the wrapper, or is refused
    (semantic-patches/ioctl_rule/kbuild_defines.py)."""

    def test_the_inputs_build_with_their_flags(self):
        for name, case in {**FLAGGED, "directive_only": DIRECTIVE_ONLY}.items():
            with self.subTest(name=name):
                driver = self.tmp / "drivers" / "fl"
                driver.mkdir(parents=True, exist_ok=True)
                for other, text in case[2].items():
                    (driver / other).write_text(text)
                text = FLAGGED_DRIVER.format(prelude=case[3], body=case[4])
                self.assertEqual(self.compile_errors(text, case[1]), "")

    def test_a_flagged_name_keeps_the_signature_behind_the_wrapper(self):
        for strategy in ("auto", "wrapper"):
            # A forced header may define any word the rule reads: refused in
            # every strategy (ctext/renamed_words.py, test_renamed_words).
            for name, case in ((n, c) for n, c in FLAGGED.items() if n != "forced"):
                with self.subTest(strategy=strategy, name=name):
                    key = ("flagged", strategy, name)
                    part, prefix = self.part(key)
                    record = part.handlers[0]
                    self.assertEqual((record.status, record.strategy),
                                     (HandlerStatus.CONVERTED, "wrapper"), record)
                    self.assertIn("kbuild flag of its Makefile", record.reason or "")
                    (_, new), = part.changes.values()
                    new = new.decode()
                    self.assertIn(f"static int {prefix}ioctl(struct inode *inode, "
                                  "struct file *file,", new)
                    self.assertIn(f"\tlock_kernel();\n\tret = {prefix}ioctl("
                                  "file->f_path.dentry->d_inode, file, cmd, arg);\n"
                                  "\tunlock_kernel();\n", new)
                    self.assertEqual(self.compile_errors(new, self.case_flags(key, case[1])),
                                     "", name)

    def test_where_that_wrapper_is_not_taken_the_handler_is_refused(self):
        for extra, name in zip(UNSEEN_REFUSED, ("return", "inode", "forced")):
            with self.subTest(mode=extra, name=name):
                part, _ = self.part(("flagged refused", name))
                record = part.handlers[0]
                self.assertIsNot(record.status, HandlerStatus.CONVERTED, record)
                self.assertIn("kbuild flag of its Makefile", record.reason or "")
                self.assertFalse(part.changes)

    def test_a_parent_makefile_flag_is_part_of_the_cached_run(self):
        # subdir-ccflags of the directory above apply too; adding one
        # changes the decision even where the rule's run was cached.
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        tree = self.tmp / "tree"
        (tree / "drivers" / "fl").mkdir(parents=True)
        (tree / "drivers" / "fl" / "Makefile").write_text("obj-m += fl.o\n")
        (tree / "drivers" / "fl" / "fl.c").write_text(FLAGGED_DRIVER.format(
            prelude=ENTER_DEFAULT, body=ENTER_BODY))
        parent = tree / "drivers" / "Makefile"
        strategies = []
        for flags in ("", "subdir-ccflags-y += '-D%s'\n" % ENTER_RETURNS):
            parent.write_text("obj-y += fl/\n" + flags)
            args = parse_args(["--cache-dir", str(self.tmp / "cache"), "-q",
                               "--no-kernel-headers", "--target", "2.6.20",
                               "--", str(tree)])
            record, = convert.convert(convert.request_from_args(args)).summary.handlers
            strategies.append((record.strategy, "kbuild flag" in (record.reason or "")))
        self.assertEqual(strategies, [("pushdown", False), ("wrapper", True)])

    def test_a_name_only_in_if_lines_converts_as_before(self):
        key = ("directive only",)
        part, _ = self.part(key)
        record = part.handlers[0]
        self.assertEqual((record.status, record.strategy),
                         (HandlerStatus.CONVERTED, "pushdown"), record)
        (_, new), = part.changes.values()
        self.assertEqual(self.compile_errors(new.decode(),
                                             self.case_flags(key, DIRECTIVE_ONLY[1])), "")


if __name__ == "__main__":
    unittest.main()

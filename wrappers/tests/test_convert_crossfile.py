"""convert: every file that names a converted handler follows it, or the
handler is converted nowhere (small multi-file trees written here, one
class of shapes each, with negative cases)."""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import series
from ioctl_rework.convert.summary import FileStatus, HandlerStatus

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None
MAKEFILE = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 11\n"

# A handler with a prototype in its driver's own header.
PROTO_C = """#include <linux/fs.h>
#include "proto.h"

static struct file_operations proto_fops = {
	.owner		= THIS_MODULE,
	.ioctl		= proto_ioctl,
};

static int proto_ioctl(struct inode *inode, struct file *file, uint cmd, ulong arg)
{
	if (cmd != PROTO_RESET)
		return -ENOTTY;
	return 0;
}
"""
PROTO_H = """#ifndef _PROTO_H
#define _PROTO_H
static int proto_ioctl(struct inode *, struct file *, uint, ulong);
#endif
"""

# A global handler: its fops and definition in one file, a prototype in a
# subsystem header, a caller in another file of the directory.
SUB_H = "int sub_ioctl(struct inode *inode, struct file *filp, u_int cmd, u_long arg);\n"
SUB_MAIN = """#include <linux/fs.h>
#include "sub.h"

int sub_ioctl(struct inode *inode, struct file *filp, u_int cmd, u_long arg)
{
	return cmd == SUB_RESET ? 0 : -ENOTTY;
}

static struct file_operations sub_fops = {
	.ioctl		= sub_ioctl,
};
"""


def caller(body_inode: str, passed: str = "inode") -> str:
    return f"""#include <linux/fs.h>
#include "sub.h"

static long sub_compat_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{{
{body_inode}	long ret;

	lock_kernel();
	ret = sub_ioctl({passed}, file, cmd, arg);
	unlock_kernel();
	return ret;
}}
"""


FED = caller("\tstruct inode *inode = file->f_dentry->d_inode;\n")

# ext2's shape: the definition needs the wrapper (a declaration calls a
# function before the lock could be taken), the fops are in two other files.
EXT_IOCTL = """#include <linux/fs.h>
#include "ext.h"

int ext_ioctl(struct inode *inode, struct file *filp, unsigned int cmd,
	      unsigned long arg)
{
	struct ext_info *ei = EXT_I(inode);

	return ei->flags;
}
"""
EXT_H = "extern int ext_ioctl(struct inode *, struct file *, unsigned int, unsigned long);\n"


def ext_fops(kind: str) -> str:
    return f"""#include <linux/fs.h>
#include "ext.h"

struct file_operations ext_{kind}_operations = {{
	.ioctl		= ext_ioctl,
}};
"""


# An exported handler, used by two other drivers.
CORE = """#include <linux/fs.h>
#include <linux/module.h>
#include <linux/core_ioctl.h>

int core_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
	       unsigned long arg)
{
	return cmd == CORE_RESET ? 0 : -ENOTTY;
}
EXPORT_SYMBOL(core_ioctl);

static struct file_operations core_fops = {
	.ioctl		= core_ioctl,
};
"""
CORE_H = ("int core_ioctl(struct inode *inode, struct file *file, unsigned int cmd,\n"
          "\t       unsigned long arg);\n")


def core_user(name: str) -> str:
    return f"""#include <linux/fs.h>
#include <linux/core_ioctl.h>

static int {name}_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
		      unsigned long arg)
{{
	if (cmd == {name.upper()}_PING)
		return 0;
	return core_ioctl(inode, file, cmd, arg);
}}

static struct file_operations {name}_fops = {{
	.ioctl		= {name}_ioctl,
}};
"""


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class CrossFileCase(unittest.TestCase):
    cache = Path(tempfile.mkdtemp(prefix="crossfile-cache-"))

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="crossfile-test-"))
        self.tree = self.tmp / "tree"
        self.enterContext(mock.patch.dict(os.environ, {"SOURCE_DATE_EPOCH": "1700000000"}))
        self.addCleanup(shutil.rmtree, self.tmp)

    def write(self, files: dict[str, str]) -> None:
        for rel, text in {"Makefile": MAKEFILE, **files}.items():
            path = self.tree / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)

    def run_convert(self, *argv: str) -> convert.ConversionResult:
        parser = __import__("argparse").ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--cache-dir", str(self.cache), *argv, "--", str(self.tree)])
        return convert.convert(convert.request_from_args(args))

    def new(self, result, rel: str) -> str:
        return result.changes[rel][1].decode() if rel in result.changes \
            else (self.tree / rel).read_text()

    def handler(self, result, name: str, file: str | None = None):
        found = [h for h in result.summary.handlers
                 if h.handler == name and (file is None or h.file == file)]
        self.assertTrue(found, name)
        return found[0]


class FollowTest(CrossFileCase):
    def test_a_prototype_in_the_drivers_header_with_uint_ulong_follows(self):
        self.write({"drivers/char/proto.c": PROTO_C, "drivers/char/proto.h": PROTO_H})
        result = self.run_convert()
        record = self.handler(result, "proto_ioctl")
        self.assertEqual(record.status, HandlerStatus.CONVERTED)
        self.assertEqual(record.other_files, ("drivers/char/proto.h",))
        self.assertEqual(record.named_in, ("drivers/char/proto.h",))
        self.assertIn("static long proto_ioctl(struct file *, uint, ulong);",
                      self.new(result, "drivers/char/proto.h"))
        self.assertIn("static long proto_ioctl(struct file *file, uint cmd, ulong arg)",
                      self.new(result, "drivers/char/proto.c"))

    def test_each_spelling_of_a_prototype_follows(self):
        spellings = {
            "a": "static int a_ioctl(struct inode*, struct file*, u_int, u_long);",
            "b": "extern int b_ioctl(struct inode *ip, struct file *fp, my_cmd_t c, my_arg_t a);",
            "c": "int c_ioctl(struct inode *, struct file *, unsigned, unsigned long);",
        }
        files = {"drivers/char/spell.h": "\n".join(spellings.values()) + "\n"}
        for name in spellings:
            qualifier = "static " if name == "a" else ""
            files[f"drivers/char/{name}.c"] = (
                f'#include <linux/fs.h>\n#include "spell.h"\n\n'
                f"{qualifier}int {name}_ioctl(struct inode *inode, struct file *file,\n"
                f"\t\tunsigned int cmd, unsigned long arg)\n{{\n\treturn -ENOTTY;\n}}\n\n"
                f"static struct file_operations {name}_fops = {{\n"
                f"\t.ioctl\t\t= {name}_ioctl,\n}};\n")
        self.write(files)
        result = self.run_convert()
        header = self.new(result, "drivers/char/spell.h")
        self.assertEqual(header.split("\n")[:3], [
            "static long a_ioctl(struct file*, u_int, u_long);",
            "extern long b_ioctl(struct file *fp, my_cmd_t c, my_arg_t a);",
            "long c_ioctl(struct file *, unsigned, unsigned long);"])
        for name in spellings:
            self.assertEqual(self.handler(result, f"{name}_ioctl").status,
                             HandlerStatus.CONVERTED)

    def test_a_caller_in_another_file_follows_and_the_fed_inode_local_goes(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": FED})
        result = self.run_convert()
        record = self.handler(result, "sub_ioctl")
        self.assertEqual(record.status, HandlerStatus.CONVERTED)
        self.assertEqual(record.other_files, ("drivers/sub/compat.c", "drivers/sub/sub.h"))
        compat = self.new(result, "drivers/sub/compat.c")
        self.assertIn("\tret = sub_ioctl(file, cmd, arg);\n", compat)
        self.assertNotIn("struct inode", compat)
        self.assertIn("long sub_ioctl(struct file *filp, u_int cmd, u_long arg);",
                      self.new(result, "drivers/sub/sub.h"))

    def test_a_local_still_used_after_the_call_stays(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": caller(
                        "\tstruct inode *inode = file->f_dentry->d_inode;\n"
                        "\tint unit = iminor(inode);\n").replace(
                        "return ret;", "return ret + unit;")})
        result = self.run_convert()
        self.assertEqual(self.handler(result, "sub_ioctl").status, HandlerStatus.CONVERTED)
        compat = self.new(result, "drivers/sub/compat.c")
        self.assertIn("struct inode *inode = file->f_dentry->d_inode;", compat)
        self.assertIn("sub_ioctl(file, cmd, arg)", compat)

    def test_the_series_puts_the_files_of_a_handler_in_one_patch(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": FED,
                    "drivers/char/proto.c": PROTO_C, "drivers/char/proto.h": PROTO_H})
        result = self.run_convert()
        patches = series.plan(result.summary, series.Split.FILE)
        files = sorted(tuple(r.file for r in p.files) for p in patches)
        self.assertEqual(files, [("drivers/char/proto.c", "drivers/char/proto.h"),
                                 ("drivers/sub/compat.c", "drivers/sub/main.c",
                                  "drivers/sub/sub.h")])

    def test_an_exported_handler_converts_with_its_two_users(self):
        self.write({"drivers/core/core.c": CORE, "include/linux/core_ioctl.h": CORE_H,
                    "drivers/a/alpha.c": core_user("alpha"),
                    "drivers/b/beta.c": core_user("beta")})
        result = self.run_convert()
        core = self.handler(result, "core_ioctl")
        self.assertEqual(core.status, HandlerStatus.CONVERTED)
        self.assertTrue(core.exported)
        self.assertEqual(set(core.other_files), {"drivers/a/alpha.c", "drivers/b/beta.c",
                                                 "include/linux/core_ioctl.h"})
        for user in ("alpha", "beta"):
            text = self.new(result, f"drivers/{user[0]}/{user}.c")
            self.assertIn("\tret = core_ioctl(file, cmd, arg);\n", text)
            self.assertNotIn("struct inode", text)
        self.assertIn("EXPORT_SYMBOL(core_ioctl);", self.new(result, "drivers/core/core.c"))
        [patch] = [p for p in series.plan(result.summary, series.Split.FILE)
                   if any(r.file == "drivers/core/core.c" for r in p.files)]
        self.assertEqual(len(patch.files), 4)
        self.assertRegex(" ".join(patch.body.split()),
                         r"core_ioctl\(\) is exported .*callers outside the tree must follow")

    def test_a_static_homonym_of_another_driver_is_not_touched(self):
        other = PROTO_C.replace('#include "proto.h"\n', "").replace(
            "proto_fops", "other_fops").replace(
            "static int proto_ioctl(struct inode *inode", "static int proto_ioctl(int x, int y")
        other = other.replace(".ioctl\t\t= proto_ioctl,", ".release\t= proto_ioctl,")
        self.write({"drivers/char/proto.c": PROTO_C, "drivers/char/proto.h": PROTO_H,
                    "drivers/other/proto.c": other})
        result = self.run_convert()
        self.assertEqual(self.handler(result, "proto_ioctl").status, HandlerStatus.CONVERTED)
        self.assertNotIn("drivers/other/proto.c", result.changes)

    def test_a_static_handler_whose_fops_is_in_a_header_it_includes_converts(self):
        # The irnet shape: the .c file defines a static handler and includes
        # the header that holds the (static) fops naming it.
        header = ("static struct file_operations hdr_fops = {\n"
                  "\t.ioctl\t\t= hdr_ioctl,\n};\n")
        source = ("#include <linux/fs.h>\n\nstatic int hdr_ioctl(struct inode *inode, "
                  "struct file *file,\n\t\t     unsigned int cmd, unsigned long arg)\n"
                  "{\n\treturn -ENOTTY;\n}\n\n#include \"hdr_fops.h\"\n")
        self.write({"drivers/char/hdr_fops.h": header, "drivers/char/hdr.c": source})
        result = self.run_convert()
        self.assertEqual(self.handler(result, "hdr_ioctl").status, HandlerStatus.CONVERTED)
        self.assertIn("static long hdr_ioctl(struct file *file,",
                      self.new(result, "drivers/char/hdr.c"))
        self.assertIn(".unlocked_ioctl = hdr_ioctl", self.new(result, "drivers/char/hdr_fops.h"))

    def test_a_parse_failure_away_from_the_handler_does_not_block_it(self):
        broken = FED + "\nstatic int unrelated(void)\n{\n\treturn 0 +* ) ;;; @@@\n}\n"
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": broken})
        result = self.run_convert()
        record = self.handler(result, "sub_ioctl")
        self.assertEqual(record.status, HandlerStatus.CONVERTED)
        self.assertIn("sub_ioctl(file, cmd, arg)", self.new(result, "drivers/sub/compat.c"))
        self.assertEqual(len(record.unparsed), 1)
        self.assertRegex(record.unparsed[0], r"^drivers/sub/compat\.c: spatch could not "
                                             r"parse the code around line 1[5-9].*not named")


class RefuseTest(CrossFileCase):
    def test_a_definition_the_rule_refuses_keeps_fops_and_header_legacy_too(self):
        # The ext2 class: the fops of two files and the header were switched
        # while the definition stayed legacy.
        self.write({"fs/ext/ioctl.c": EXT_IOCTL, "fs/ext/ext.h": EXT_H,
                    "fs/ext/dir.c": ext_fops("dir"), "fs/ext/file.c": ext_fops("file")})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        for kind in ("dir", "file"):
            record = self.handler(result, "ext_ioctl", f"fs/ext/{kind}.c")
            self.assertEqual(record.status, HandlerStatus.SKIPPED)
            self.assertRegex(record.reason, r"^fs/ext/ioctl\.c:4: its definition keeps the "
                                            r"old signature .*converted nowhere")
            self.assertEqual(set(record.named_in), {"fs/ext/ext.h", "fs/ext/ioctl.c",
                                                    "fs/ext/dir.c", "fs/ext/file.c"}
                             - {f"fs/ext/{kind}.c"})

    def test_a_caller_passing_null_refuses_the_handler_everywhere(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": caller("", passed="NULL")})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        record = self.handler(result, "sub_ioctl")
        self.assertEqual(record.status, HandlerStatus.SKIPPED)
        self.assertRegex(record.reason, r"^drivers/sub/compat\.c:9: a call passes NULL as "
                                        r"the inode of file.*converted nowhere")

    def test_a_caller_passing_another_inode_refuses_the_handler(self):
        for decl, pattern in [
                ("\tstruct inode *inode = file->private_data;\n",
                 r"passes inode as the inode of file \(inode is not set only to the inode of file\)"),
                ("\tstruct inode *inode = NULL;\n", r"inode \(set to NULL\)"),
                ("\tstruct inode *inode = other->f_dentry->d_inode;\n", "not set only")]:
            with self.subTest(decl=decl):
                self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                            "drivers/sub/compat.c": caller(decl)})
                result = self.run_convert()
                self.assertEqual(result.changes, {})
                self.assertRegex(self.handler(result, "sub_ioctl").reason, pattern)

    def test_a_caller_passing_its_own_inode_parameter_with_another_file_refuses(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/relay.c": (
                        '#include "sub.h"\n\nint relay(struct inode *inode, struct file *a,\n'
                        "\t  struct file *b, unsigned long arg)\n{\n"
                        "\treturn sub_ioctl(inode, b, 0, arg);\n}\n")})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        self.assertRegex(self.handler(result, "sub_ioctl").reason,
                         r"relay\.c:6: a call passes inode as the inode of b")

    def test_a_prototype_that_cannot_be_rewritten_refuses_the_handler(self):
        self.write({"drivers/sub/sub.h": "int sub_ioctl();\n", "drivers/sub/main.c": SUB_MAIN})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        self.assertRegex(self.handler(result, "sub_ioctl").reason,
                         r"^drivers/sub/sub\.h:1: its prototype keeps the old signature")

    def test_a_handler_stored_as_a_value_elsewhere_is_refused(self):
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/table.c": ('#include "sub.h"\n\nvoid *sub_table[] = '
                                            "{ sub_ioctl, };\n")})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        self.assertRegex(self.handler(result, "sub_ioctl").reason,
                         r"^drivers/sub/table\.c:3: uses sub_ioctl as a value")

    def test_an_unparsed_line_naming_the_handler_blocks_it_everywhere(self):
        broken = FED.replace("ret = sub_ioctl(inode, file, cmd, arg);",
                             "ret = sub_ioctl(inode, file, cmd, arg) +* ) @@@;")
        self.write({"drivers/sub/sub.h": SUB_H, "drivers/sub/main.c": SUB_MAIN,
                    "drivers/sub/compat.c": broken})
        result = self.run_convert()
        self.assertEqual(result.changes, {})
        record = self.handler(result, "sub_ioctl")
        self.assertEqual(record.status, HandlerStatus.FAILED)
        self.assertRegex(record.reason, r"^drivers/sub/compat\.c:10: its call keeps the old "
                                        r"signature .*spatch could not parse the code around "
                                        r"line 10; converted nowhere")
        self.assertEqual({f.file: f.status for f in result.summary.files}
                         ["drivers/sub/compat.c"], FileStatus.FAILED)

    def test_one_refused_user_of_an_exported_handler_keeps_all_legacy(self):
        beta = core_user("beta").replace("core_ioctl(inode, file", "core_ioctl(NULL, file")
        self.write({"drivers/core/core.c": CORE, "include/linux/core_ioctl.h": CORE_H,
                    "drivers/a/alpha.c": core_user("alpha"), "drivers/b/beta.c": beta})
        result = self.run_convert()
        self.assertEqual(self.handler(result, "core_ioctl").status, HandlerStatus.SKIPPED)
        for rel in ("drivers/core/core.c", "include/linux/core_ioctl.h"):
            self.assertNotIn(rel, result.changes)
        # alpha_ioctl itself still converts; its call keeps the inode it has.
        alpha = self.new(result, "drivers/a/alpha.c")
        self.assertIn("core_ioctl(inode, file, cmd, arg)", alpha)
        self.assertIn("struct inode *inode = file->f_dentry->d_inode;", alpha)
        self.assertTrue(re.search(r"drivers/b/beta\.c:\d+: a call passes NULL",
                                  self.handler(result, "core_ioctl").reason))

    def test_with_a_mutex_a_handler_called_from_another_file_and_its_caller_are_refused(self):
        self.write({"drivers/core/core.c": CORE, "include/linux/core_ioctl.h": CORE_H,
                    "drivers/a/alpha.c": core_user("alpha")})
        result = self.run_convert("--lock", "mutex")
        self.assertRegex(self.handler(result, "core_ioctl").reason,
                         r"^drivers/a/alpha\.c:9: called from another file.*--lock mutex")
        # alpha_ioctl would run core_ioctl under alpha's mutex, not core's lock.
        alpha = self.handler(result, "alpha_ioctl")
        self.assertEqual(alpha.status, HandlerStatus.SKIPPED)
        self.assertRegex(alpha.reason, "it calls or is called by core_ioctl directly.*"
                         "core_ioctl is not a handler of this file converted under the private mutex")
        self.assertEqual(result.changes, {})

    def test_with_the_wrapper_strategy_a_handler_named_in_a_header_is_left_alone(self):
        self.write({"drivers/char/proto.c": PROTO_C, "drivers/char/proto.h": PROTO_H})
        result = self.run_convert("--strategy", "wrapper")
        self.assertEqual(result.changes, {})
        self.assertRegex(self.handler(result, "proto_ioctl").reason,
                         r"^drivers/char/proto\.h:3 names it too, and the wrapper .*needs the "
                         r"handler in the file of its fops; --strategy pushdown")


if __name__ == "__main__":
    unittest.main()

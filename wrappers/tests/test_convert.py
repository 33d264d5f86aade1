"""convert: whole runs of the real rule over test_data/convert/tree.

The tree holds one case per file: a same-file handler that uses its inode
(ds1620.c), a handler defined in another file with a prototype in a header
(nwflash*.{c,h}), a refused handler (inode_writer.c), a tty driver that
must not be touched (tty_only.c) and a GNU-style initializer (widget.c).
"""

import argparse
import errno
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import safe_write
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import diffs as convert_diffs
from ioctl_rework.convert import merge
from ioctl_rework.convert import series
from ioctl_rework.patches.identity import Identity
from ioctl_rework.spatch import runner as spatch
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import FileStatus, HandlerStatus

DATA = Path(__file__).resolve().parent / "test_data" / "convert"
WRAPPERS = Path(__file__).resolve().parents[1]
CLI = WRAPPERS / "ioctl-rework"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

BROKEN = b"""/* Not C that spatch can parse. */
#include <linux/fs.h>
static int broken_ioctl(struct inode *inode, struct file *file, unsigned int cmd,
\t\t\tunsigned long arg)
{
\treturn 0 +* ) ;;; }}} ((( @@@
}
static struct file_operations broken_fops = {
\t.ioctl = broken_ioctl,
};
"""


def handler_source(name: str) -> bytes:
    return (DATA / "tree/drivers/char/ds1620.c").read_bytes().replace(b"ds1620", name.encode())


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    convert.add_arguments(parser)
    return parser.parse_args(argv)


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ConvertCase(unittest.TestCase):
    # One cache for the whole module: every case starts from the same tree.
    cache = Path(tempfile.mkdtemp(prefix="convert-cache-"))

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="convert-test-"))
        self.tree = self.tmp / "tree"
        shutil.copytree(DATA / "tree", self.tree, symlinks=True)
        # A series needs an author, which a fresh machine's git may not know.
        self.enterContext(mock.patch.dict(os.environ, {
            "SOURCE_DATE_EPOCH": "1700000000", "GIT_AUTHOR_NAME": "T",
            "GIT_AUTHOR_EMAIL": "t@example.org"}))

    def tearDown(self):
        for path in self.tmp.rglob("*"):
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(self.tmp)

    def run_convert(self, *argv: str, paths=None) -> convert.ConversionResult:
        # Copies outside the tree read no kernel's headers: these tests are
        # not about them (test_kernel_headers is).
        args = parse_args(["--cache-dir", str(self.cache), "--no-kernel-headers", *argv, "--",
                           *map(str, paths or [self.tree])])
        request = convert.request_from_args(args)
        result = convert.convert(request)
        if request.output is convert.Output.IN_PLACE:
            convert.write_in_place(result, request.root)
        return result

    def handlers(self, result) -> dict:
        return {h.handler: h for h in result.summary.handlers}

    def files(self, result) -> dict:
        return {f.file: f for f in result.summary.files}


class WholeRunTest(ConvertCase):
    def test_every_handler_is_recorded_with_its_fate(self):
        result = self.run_convert()
        self.assertEqual(str(result.summary.target), "2.6.11")  # from the tree's Makefile
        h = self.handlers(result)
        self.assertEqual(sorted(h), ["ds1620_ioctl", "flash_ioctl", "iw_ioctl", "widget_ioctl"])
        ds = h["ds1620_ioctl"]
        self.assertEqual((ds.status, ds.strategy, ds.uses_inode, ds.returns_enoioctlcmd,
                          ds.file, ds.line, ds.fops),
                         (HandlerStatus.CONVERTED, "pushdown", True, True,
                          "drivers/char/ds1620.c", 20, "ds1620_fops"))
        flash = h["flash_ioctl"]
        self.assertEqual(flash.status, HandlerStatus.CONVERTED)
        self.assertIn("drivers/char/nwflash_ops.c", flash.other_files)
        self.assertEqual(h["iw_ioctl"].status, HandlerStatus.SKIPPED)
        self.assertIn("inode parameter is written", h["iw_ioctl"].reason)
        self.assertEqual(h["widget_ioctl"].status, HandlerStatus.CONVERTED)
        files = self.files(result)
        # No file_operations entry in any spelling (audit's prefilter): not even read by spatch.
        self.assertNotIn("drivers/char/tty_only.c", files)
        self.assertNotIn("drivers/char/tty_only.c", result.changes)
        self.assertEqual(files["drivers/char/nwflash_ops.c"].status, FileStatus.CONVERTED)
        # The header's prototype follows the definition, or nwflash.c would not build.
        self.assertEqual(files["drivers/char/nwflash.h"].status, FileStatus.CONVERTED)
        self.assertIn("+long flash_ioctl(struct file *file, unsigned int cmd,", result.diff)
        # 2.6.11 has the BKL and reaches the inode through f_dentry.
        self.assertIn("+\tstruct inode *inode = file->f_dentry->d_inode;", result.diff)
        self.assertIn("+\tlock_kernel();", result.diff)
        self.assertIn("-\tioctl:\t\twidget_ioctl,", result.diff)
        self.assertFalse(result.failed)

    def test_json_summary_has_handlers_files_totals_and_time(self):
        out = self.tmp / "summary.json"
        with mock.patch.object(sys, "stderr", io.StringIO()) as stderr:
            code = convert.main(parse_args(["--cache-dir", str(self.cache), "--json", str(out),
                                            "--series", str(self.tmp / "s"), str(self.tree)]))
        # ds1620.c, nwflash.c, nwflash.h (the prototype), nwflash_ops.c, widget.
        self.assertIn("series of 3 patches", stderr.getvalue())
        self.assertIn("4 .ioctl fops entries: 3 converted, 1 skipped, 0 failed", stderr.getvalue())
        self.assertEqual(code, 0)
        data = json.loads(out.read_text())
        keys = {"file", "line", "fops", "handler", "status", "reason", "strategy",
                "uses_inode", "returns_enoioctlcmd"}
        self.assertTrue(all(keys <= set(h) for h in data["handlers"]))
        self.assertEqual(data["totals"]["handlers"],
                         {"converted": 3, "skipped": 1, "failed": 0, "outside": 0})
        self.assertEqual(data["totals"]["fops"], 4)
        self.assertGreater(data["wall_seconds"], 0)
        self.assertTrue(all({"file", "status", "reason"} <= set(f) for f in data["files"]))

    def test_in_place_twice_changes_nothing_the_second_time(self):
        ds = self.tree / "drivers/char/ds1620.c"
        ds.chmod(0o640)
        self.run_convert("--in-place")
        first = {p: p.read_bytes() for p in self.tree.rglob("*.[ch]")}
        self.assertIn(b"\t.unlocked_ioctl\t= ds1620_ioctl,", ds.read_bytes())  # tab-aligned
        self.assertEqual(ds.stat().st_mode & 0o777, 0o640)
        again = self.run_convert("--in-place")
        self.assertEqual(again.diff, "")
        self.assertEqual({p: p.read_bytes() for p in self.tree.rglob("*.[ch]")}, first)
        self.assertFalse(list(self.tree.rglob("*" + safe_write.TEMP_SUFFIX)))

    @unittest.skipUnless(shutil.which("git"), "git is not installed")
    def test_the_series_applies_with_git_am_to_a_git_copy(self):
        repo = self.tmp / "repo"
        shutil.copytree(self.tree, repo)
        git = ["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@example.org"]
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "input"], check=True)
        result = self.run_convert()
        from ioctl_rework.patches.maintainers import Maintainers
        paths = series.write(result.summary, self.tmp / "series", series.Split.FILE,
                             Maintainers.load(self.tree))
        cover = paths[0].read_text()
        self.assertIn("converted: 3   skipped: 1   failed: 0", cover)
        mails = [p for p in paths if p.name != series.COVER_LETTER]
        ds_patch = next(p.read_text() for p in mails if "ds1620" in p.name)
        self.assertIn("Subject: [PATCH 1/3] char: ds1620: convert to unlocked_ioctl", ds_patch)
        self.assertIn("Cc: Char Maintainer <char@example.org>", ds_patch)
        am = subprocess.run(git + ["am", *map(str, mails)], capture_output=True, text=True)
        self.assertEqual(am.returncode, 0, am.stdout + am.stderr)
        for rel, (_, new) in result.changes.items():
            self.assertEqual((repo / rel).read_bytes(), new, rel)


    def test_a_copied_subdirectory_keeps_its_subsystem_in_the_subjects(self):
        copy = self.tmp / "copies" / "char"
        shutil.copytree(self.tree / "drivers/char", copy)
        result = self.run_convert("--target", "2.6.11", paths=[copy])
        self.assertFalse(result.summary.tree_top)
        self.assertEqual([p.subject for p in series.plan(result.summary, series.Split.FILE)],
                         ["char: ds1620: convert to unlocked_ioctl",
                          "char: nwflash: convert to unlocked_ioctl"])
        # From the tree's top, the same files are named from there.
        whole = self.run_convert(paths=[self.tree / "drivers/char"])
        self.assertTrue(whole.summary.tree_top)
        self.assertEqual([p.subject for p in series.plan(whole.summary, series.Split.DIR)],
                         ["char: convert 2 ioctl handlers to unlocked_ioctl"])

    def test_wrapper_strategy_says_why_a_handler_in_another_file_is_left_alone(self):
        result = self.run_convert("--strategy", "wrapper")
        flash = self.handlers(result)["flash_ioctl"]
        self.assertEqual(flash.status, HandlerStatus.SKIPPED)
        self.assertRegex(flash.reason, "needs the handler in the file of its fops")
        self.assertNotIn("drivers/char/nwflash_ops.c", result.changes)


class ReliabilityTest(ConvertCase):
    def test_unparseable_file_is_reported_and_the_rest_converted(self):
        (self.tree / "drivers/char/broken.c").write_bytes(BROKEN)
        result = self.run_convert()
        broken = self.files(result)["drivers/char/broken.c"]
        self.assertEqual(broken.status, FileStatus.FAILED)
        self.assertRegex(broken.reason, "parse|spatch")
        self.assertEqual(self.handlers(result)["broken_ioctl"].status, HandlerStatus.FAILED)
        self.assertEqual(self.handlers(result)["ds1620_ioctl"].status, HandlerStatus.CONVERTED)
        self.assertTrue(result.failed)

    def test_every_spelling_in_an_unparseable_file_is_a_failed_entry(self):
        spellings = {"addr": b"\t.ioctl = &addr_ioctl,\n", "cast": b"\t.ioctl = (void *)cast_ioctl,\n",
                     "rt": b"};\nvoid rt_init(void) { rt_fops.ioctl = rt_ioctl; }\n"
                           b"void rt2(struct file_operations *o) { o->ioctl = rt_ioctl; }\n{\n"}
        for name, entry in spellings.items():
            source = BROKEN.replace(b"broken", name.encode()).replace(
                b"\t.ioctl = %s_ioctl,\n" % name.encode(), entry)
            (self.tree / f"drivers/char/{name}.c").write_bytes(source)
        h = self.handlers(self.run_convert())
        for name in spellings:
            self.assertEqual(h[f"{name}_ioctl"].status, HandlerStatus.FAILED, name)
            self.assertRegex(h[f"{name}_ioctl"].reason, "could not (check|parse)")

    def test_unparseable_code_with_nothing_to_convert_is_unchanged_not_failed(self):
        # A tty driver whose unparseable function is nowhere near an
        # .ioctl of a file_operations: nothing in it needed the rule.
        (self.tree / "drivers/char/tty_broken.c").write_bytes(
            b"#include <linux/fs.h>\n"
            b"static int tty_helper(int x)\n{\n\treturn 0 +* ) ;;; }}} ((( @@@\n}\n"
            b"/* not struct file_operations */\n"
            b"static struct tty_operations tb_ops = {\n\t.ioctl = tb_ioctl,\n};\n")
        result = self.run_convert()
        record = self.files(result)["drivers/char/tty_broken.c"]
        self.assertEqual(record.status, FileStatus.UNCHANGED)
        self.assertRegex(record.reason, "could not parse")
        self.assertNotIn("tb_ioctl", self.handlers(result))

    def test_a_refusal_beside_an_unparseable_macro_is_a_refusal_not_a_failure(self):
        # spatch cannot parse these #define lines; the handler it read is
        # refused by pushdown for the macro's return, with the rule's reason.
        macros = {
            "commaret": b"#define need(c)\tif (!capable(c)) return (printk(\"no\\n\"), -EPERM)\n",
            "commaret2": b"#define need(c) \\\n\tif (!(c)) return (dev_warn(0, \"x\"), -EINVAL)\n",
        }
        for name, macro in macros.items():
            source = handler_source(name).replace(b"#include <linux/fs.h>\n",
                                                  b"#include <linux/fs.h>\n" + macro)
            source = source.replace(b"\tswitch (cmd) {", b"\tneed(1);\n\tswitch (cmd) {", 1)
            (self.tree / f"drivers/char/{name}.c").write_bytes(source)
        result = self.run_convert("--strategy", "pushdown")
        for name in macros:
            with self.subTest(macro=name):
                record = self.files(result)[f"drivers/char/{name}.c"]
                self.assertEqual(record.status, FileStatus.UNCHANGED, record.reason)
                self.assertRegex(record.reason, "could not parse")
                handler = self.handlers(result)[f"{name}_ioctl"]
                self.assertEqual(handler.status, HandlerStatus.SKIPPED, handler.reason)
                self.assertRegex(handler.reason, "^pushdown is not safe: macro need at line "
                                 r"\d+ can return")

    def test_a_handler_named_in_code_spatch_skipped_is_converted_nowhere(self):
        # The handler parses, but a caller spatch cannot parse would keep
        # calling it with the inode: the file must not be rewritten.
        source = handler_source("skipcall") + (
            b"static int skipcall_compat(struct file *file, unsigned int cmd)\n{\n"
            b"\treturn skipcall_ioctl(file->f_dentry->d_inode, file, cmd, 0) +* ) @@@;\n}\n")
        (self.tree / "drivers/char/skipcall.c").write_bytes(source)
        result = self.run_convert()
        record = self.files(result)["drivers/char/skipcall.c"]
        self.assertEqual(record.status, FileStatus.FAILED)
        self.assertRegex(record.reason, "could not parse.*where skipcall_ioctl is named")
        self.assertEqual(self.handlers(result)["skipcall_ioctl"].status, HandlerStatus.FAILED)

    def test_an_entry_inside_if_0_is_reported_as_never_compiled(self):
        source = handler_source("dead0").replace(b"static int dead0_ioctl", b"#if 0\nstatic int dead0_ioctl")
        (self.tree / "drivers/char/dead0.c").write_bytes(source + b"#endif\n")
        result = self.run_convert()
        entry = self.handlers(result)["dead0_ioctl"]
        self.assertEqual(entry.status, HandlerStatus.SKIPPED)
        self.assertRegex(entry.reason, r"inside the #if 0 at line \d+: never compiled")
        self.assertNotIn("drivers/char/dead0.c", result.changes)

    def test_an_entry_naming_its_handler_through_a_macro_is_skipped_with_why(self):
        # The 2.6 DRM templates: struct file_operations DRM(fops) = { .ioctl = DRM(ioctl) }.
        (self.tree / "drivers/char/drm_tmpl.h").write_bytes(
            b"struct file_operations\tDRM(fops) = {\n"
            b"\t.owner   = THIS_MODULE,\n\t.ioctl\t = DRM(ioctl),\n};\n")
        result = self.run_convert()
        entry = self.handlers(result)["DRM(ioctl)"]
        self.assertEqual((entry.file, entry.line, entry.status),
                         ("drivers/char/drm_tmpl.h", 3, HandlerStatus.SKIPPED))
        self.assertRegex(entry.reason, "macro.*by hand")

    def test_crlf_and_bytes_that_are_not_utf8_survive(self):
        source = b"/* \xe9t\xe9 \xff */\n" + handler_source("crlf")
        path = self.tree / "drivers/char/crlf.c"
        path.write_bytes(source.replace(b"\n", b"\r\n"))
        self.run_convert("--in-place")
        new = path.read_bytes()
        self.assertIn(b"\t.unlocked_ioctl\t= crlf_ioctl,\r\n", new)
        self.assertTrue(new.startswith(b"/* \xe9t\xe9 \xff */\r\n"))
        self.assertEqual(new.count(b"\n"), new.count(b"\r\n"))

    def test_a_fops_member_of_a_device_table_is_reported_not_skipped_silently(self):
        path = self.tree / "drivers/char/devtab.c"
        path.write_bytes(
            b"#include <linux/fs.h>\n\nstruct dt_dev {\n\tconst char *name;\n"
            b"\tstruct file_operations fops;\n};\n\n"
            b"static int dt_ioctl(struct inode *inode, struct file *file,\n"
            b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
            b"static struct dt_dev dt_devs[] = {\n"
            b"\t{ \"dt0\", { .owner = THIS_MODULE, .ioctl = dt_ioctl } },\n"
            b"\t{ .name = \"dt1\", .fops = { .ioctl = dt_ioctl, } },\n};\n")
        before = path.read_bytes()
        result = self.run_convert(paths=[path])
        entries = [(h.line, h.status) for h in result.summary.handlers if h.handler == "dt_ioctl"]
        self.assertEqual(entries, [(15, HandlerStatus.SKIPPED), (16, HandlerStatus.SKIPPED)])
        for h in result.summary.handlers:
            self.assertRegex(h.reason, "file_operations in a device table of struct dt_dev .*"
                             "the rule does not read: left alone; convert it by hand")
        self.assertEqual(path.read_bytes(), before)

    def test_a_member_named_ioctl_given_data_is_no_entry(self):
        # As 2.6.9's mptctl.c: an adapter's "ioctl" member holds data.
        path = self.tree / "drivers/char/adapter.c"
        path.write_bytes(
            b"#include <linux/fs.h>\n\n"
            b"static int ad_ioctl(struct inode *inode, struct file *file,\n"
            b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
            b"static struct file_operations ad_fops = {\n\t.ioctl = ad_ioctl,\n};\n\n"
            b"static int ad_probe(struct ad_adapter *ioc)\n{\n\tu8 *mem = kmalloc(8, 0);\n\n"
            b"\tioc->ioctl = (AD_IOCTL *) mem;\n\treturn 0;\n}\n")
        result = self.run_convert(paths=[path])
        self.assertEqual([(h.handler, h.status) for h in result.summary.handlers],
                         [("ad_ioctl", HandlerStatus.CONVERTED)])

    def test_the_legacy_half_of_a_multi_kernel_driver_is_no_entry_to_convert(self):
        # Already converted by hand for both kernels: its .ioctl is for the
        # old ones, and nothing is left to convert by hand.
        path = self.tree / "drivers/char/both.c"
        path.write_bytes(
            b"#include <linux/fs.h>\n\n"
            b"static int both_ioctl(struct inode *inode, struct file *file,\n"
            b"\t\t      unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
            b"#ifdef HAVE_UNLOCKED_IOCTL\n"
            b"static long both_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
            b"\t\t\t\tunsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
            b"\tret = both_ioctl(file->f_dentry->d_inode, file, cmd, arg);\n"
            b"\tunlock_kernel();\n\treturn ret;\n}\n#endif\n\n"
            b"static struct file_operations both_fops = {\n#ifdef HAVE_UNLOCKED_IOCTL\n"
            b"\t.unlocked_ioctl = both_unlocked_ioctl,\n#else\n\t.ioctl = both_ioctl,\n"
            b"#endif\n};\n")
        result = self.run_convert(paths=[path])
        self.assertEqual([h for h in result.summary.handlers
                          if "convert it by hand" in (h.reason or "")], [])

    def test_a_fops_defined_by_a_macro_of_the_driver_is_reported(self):
        path = self.tree / "drivers/char/mbuilt.c"
        path.write_bytes(
            b"#include <linux/fs.h>\n\n#define MB_FOPS(name)\t\t\t\t\\\n"
            b"static struct file_operations name##_fops = {\t\\\n"
            b"\t.ioctl\t\t= name##_ioctl,\t\t\\\n}\n\n"
            b"static int mb_ioctl(struct inode *inode, struct file *file,\n"
            b"\t\t    unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
            b"MB_FOPS(mb);\n")
        result = self.run_convert(paths=[path])
        [entry] = result.summary.handlers
        self.assertEqual((entry.line, entry.status), (5, HandlerStatus.SKIPPED))
        self.assertRegex(entry.reason, "named through a macro.*by hand")

    def test_an_aligned_compat_entry_is_reported_as_added(self):
        # tidy lines the new .compat_ioctl up with tabs; the summary must
        # still find it, not say it was not added.
        path = self.tree / "drivers/char/fwload.c"
        path.write_bytes(
            b"#include <linux/fs.h>\n#include <asm/uaccess.h>\n\n"
            b"struct fw_chunk {\n\tunsigned int len;\n\tunsigned char data[64];\n};\n\n"
            b"#define FW_LOAD\t\t_IOW('F', 1, struct fw_chunk)\n\n"
            b"static int fw_ioctl(struct inode *inode, struct file *file,\n"
            b"\t\t    unsigned int cmd, unsigned long arg)\n{\n"
            b"\tstruct fw_chunk chunk;\n\n\tif (cmd != FW_LOAD)\n\t\treturn -ENOTTY;\n"
            b"\tif (copy_from_user(&chunk, (void __user *)arg, sizeof(chunk)))\n"
            b"\t\treturn -EFAULT;\n\treturn chunk.len;\n}\n\n"
            b"static struct file_operations fw_fops = {\n\t.owner\t\t= THIS_MODULE,\n"
            b"\t.ioctl\t\t= fw_ioctl,\n};\n")
        result = self.run_convert("--target", "6.1", "--in-place", paths=[path])
        self.assertIn(b"\t.compat_ioctl\t= compat_ptr_ioctl,\n", path.read_bytes())
        self.assertRegex(self.handlers(result)["fw_ioctl"].compat,
                         r"compat-ptr.*; added \.compat_ioctl = compat_ptr_ioctl$")

    def test_read_only_definition_file_means_the_handler_is_converted_nowhere(self):
        (self.tree / "drivers/char/nwflash_ops.c").chmod(0o444)
        before = (self.tree / "drivers/char/nwflash.c").read_bytes()
        result = self.run_convert("--in-place")
        flash = self.handlers(result)["flash_ioctl"]
        self.assertEqual(flash.status, HandlerStatus.FAILED)
        self.assertIn("read-only", flash.reason)
        self.assertEqual((self.tree / "drivers/char/nwflash.c").read_bytes(), before)
        self.assertIn(b"int flash_ioctl(struct inode",
                      (self.tree / "drivers/char/nwflash_ops.c").read_bytes())
        self.assertEqual(self.handlers(result)["ds1620_ioctl"].status, HandlerStatus.CONVERTED)

    def test_symlink_out_of_the_tree_is_skipped_and_never_written(self):
        outside = self.tmp / "outside.c"
        outside.write_bytes(handler_source("outside"))
        (self.tree / "drivers/char/link.c").symlink_to(outside)
        result = self.run_convert("--in-place")
        link = self.files(result)["drivers/char/link.c"]
        self.assertEqual(link.status, FileStatus.SKIPPED)
        self.assertIn("outside the tree", link.reason)
        self.assertEqual(outside.read_bytes(), handler_source("outside"))

    def test_awkward_file_names_are_never_options(self):
        names = ["-dash.c", "with space.c", "new\nline.c"]
        for name in names:
            stem = "h%d" % names.index(name)
            (self.tree / "drivers/misc" / name).write_bytes(handler_source(stem))
        proc = subprocess.run([sys.executable, str(CLI), "convert", "--in-place",
                               "--cache-dir", str(self.cache), "--", *names],
                              cwd=self.tree / "drivers/misc", capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name in names:
            self.assertIn(b".unlocked_ioctl", (self.tree / "drivers/misc" / name).read_bytes(),
                          name)

    def test_spatch_killed_mid_run_is_a_reported_failure(self):
        (self.tree / "drivers/char/victim.c").write_bytes(handler_source("victim"))
        fake = self.tmp / "spatch"
        # Killed whether victim.c runs alone or in a batch (--file-groups):
        # the batch's other files are then run alone and convert.
        fake.write_text('#!/bin/sh\nfor a; do last=$a\n'
                        '  case "$a" in *.groups) grep -q victim "$a" && kill -9 $$;; esac\n'
                        'done\n'
                        'case "$last" in *victim*) kill -9 $$;; esac\n'
                        f'exec {shutil.which("spatch")} "$@"\n')
        fake.chmod(0o755)
        with mock.patch.object(spatch, "SPATCH", str(fake)):
            result = self.run_convert("--no-cache")
        victim = self.files(result)["drivers/char/victim.c"]
        self.assertEqual(victim.status, FileStatus.FAILED)
        self.assertIn("killed", victim.reason)
        self.assertEqual(self.handlers(result)["victim_ioctl"].status, HandlerStatus.FAILED)
        self.assertEqual(self.handlers(result)["ds1620_ioctl"].status, HandlerStatus.CONVERTED)

    def test_disk_full_while_writing_leaves_every_file_old(self):
        before = {p: p.read_bytes() for p in self.tree.rglob("*.[ch]")}
        real_write = os.write
        written = []

        def fill_up(fd, data):
            written.append(len(data))
            if len(written) > 3:  # the journal and the first file fit, then the disk is full
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_write(fd, data)

        err = self.tmp / "stderr"
        with mock.patch.object(safe_write.os, "write", fill_up), \
                open(err, "w") as stream, mock.patch.object(sys, "stderr", stream):
            code = convert.main(parse_args(["--cache-dir", str(self.cache), "--in-place",
                                            str(self.tree)]))
        self.assertEqual(code, 1)
        self.assertIn("No space left on device", err.read_text())
        self.assertIn("nothing was written", err.read_text())
        self.assertEqual({p: p.read_bytes() for p in self.tree.rglob("*.[ch]")}, before)
        self.assertFalse(list(self.tree.rglob("*" + safe_write.TEMP_SUFFIX)))

    def test_killed_in_place_run_leaves_old_or_new_and_a_rerun_completes(self):
        expected = {rel: new for rel, (_, new) in self.run_convert().changes.items()}
        pristine = self.tmp / "pristine"
        shutil.copytree(self.tree, pristine)
        for delay in (0.2, 0.6, 1.0, 1.5, 2.5):
            with self.subTest(delay=delay):
                shutil.rmtree(self.tree)
                shutil.copytree(pristine, self.tree)
                proc = subprocess.Popen([sys.executable, str(CLI), "convert", "--in-place",
                                         "--cache-dir", str(self.cache), str(self.tree)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(delay)
                proc.kill()
                proc.wait()
                for rel, new in expected.items():
                    data = (self.tree / rel).read_bytes()
                    self.assertIn(data, (new, (pristine / rel).read_bytes()), rel)
                self.run_convert("--in-place")
                for rel, new in expected.items():
                    self.assertEqual((self.tree / rel).read_bytes(), new, rel)
                self.assertFalse(list(self.tree.rglob("*" + safe_write.TEMP_SUFFIX)))
                self.assertFalse((self.tree / safe_write.JOURNAL_NAME).exists())

    def test_a_tree_of_ten_thousand_files(self):
        big = self.tmp / "big"
        for i in range(10_000):
            directory = big / f"drivers/d{i // 500}"
            if i % 500 == 0:
                directory.mkdir(parents=True)
            if i % 1000 == 7:
                (directory / f"drv{i}.c").write_bytes(handler_source(f"drv{i}"))
            else:
                (directory / f"f{i}.c").write_bytes(b"int f%d(void) { return %d; }\n" % (i, i))
        start = time.monotonic()
        result = self.run_convert("--target", "2.6.11", paths=[big])
        elapsed = time.monotonic() - start
        converted = [h for h in result.summary.handlers if h.status is HandlerStatus.CONVERTED]
        self.assertEqual(len(converted), 10)
        self.assertEqual(len(result.summary.changed_files), 10)
        self.assertLess(elapsed, 600)


class OptionsTest(unittest.TestCase):
    """Requests from the command line; no spatch needed."""

    def test_target_chooses_the_lock_unless_told(self):
        tree = DATA / "tree"
        request = convert.request_from_args(parse_args(["--target", "6.1", str(tree)]))
        self.assertEqual(request.options.lock.value, "mutex")  # no BKL after 2.6.39
        self.assertEqual(request.options.target.inode_style, "file_inode")
        request = convert.request_from_args(parse_args([str(tree)]))
        self.assertEqual((str(request.options.target), request.options.lock.value),
                         ("2.6.11", "bkl"))
        self.assertEqual(request.root, tree)
        request = convert.request_from_args(parse_args(["--lock", "bkl", "--target", "3.0",
                                                        str(tree / "drivers/char")]))
        self.assertEqual(request.options.lock.value, "bkl")
        self.assertEqual(request.root, tree)  # the tree's top, found from a subdirectory

    def test_a_modern_target_classifies_compat_unless_told_not_to(self):
        tree = DATA / "tree"

        def compat(*words):
            return convert.request_from_args(parse_args([*words, str(tree)])).options.compat

        self.assertTrue(compat("--target", "6.1"))
        self.assertTrue(compat("--target", "2.6.36"))
        self.assertFalse(compat("--target", "6.1", "--no-compat"))
        self.assertFalse(compat("--target", "6.1", "--multi-kernel"))
        self.assertFalse(compat())                      # 2.6.11, read from the tree
        self.assertTrue(compat("--compat"))

    def test_bad_input_is_a_clear_error_with_status_2(self):
        tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "drv.c").write_text("int x;\n")
        cases = [(["convert", str(tmp / "missing.c")], "no such file or directory"),
                 (["convert", str(tmp)], "pass --target VERSION"),
                 (["convert", "--target", "two", str(tmp)], "not a kernel version"),
                 (["convert", "--shard", "4/3", str(tmp)], "K must be between 1 and N"),
                 (["merge", str(tmp / "drv.c")], "cannot read")]
        for argv, message in cases:
            with self.subTest(argv=argv):
                proc = subprocess.run([sys.executable, str(CLI), *argv], capture_output=True,
                                      text=True)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertIn(message, proc.stderr)


class CacheAndShardTest(ConvertCase):
    def test_cached_rerun_runs_no_spatch_and_gives_the_same_result(self):
        first = self.run_convert()
        self.assertTrue(first.diff)
        with mock.patch.object(spatch, "run_files", side_effect=AssertionError("spatch ran")), \
                mock.patch.object(spatch, "run_batch", side_effect=AssertionError("spatch ran")), \
                mock.patch.object(convert_diffs, "git_diff", side_effect=AssertionError("diffed")):
            again = self.run_convert()
        self.assertEqual(again.diff, first.diff)
        self.assertEqual(again.summary.handlers, first.summary.handlers)

    def test_cached_rerun_reads_files_that_changed(self):
        later = self.tree / "drivers/char/later.c"
        later.write_bytes(b"int later;\n")
        self.assertIn("ds1620_ioctl", self.handlers(self.run_convert()))
        later.write_bytes(handler_source("later"))
        (self.tree / "drivers/char/fresh.c").write_bytes(handler_source("fresh"))
        ds = self.tree / "drivers/char/ds1620.c"
        ds.write_bytes(re.sub(rb"\.ioctl\s*=\s*ds1620_ioctl,", b"", ds.read_bytes()))
        again = self.handlers(self.run_convert())
        self.assertEqual(again["fresh_ioctl"].status, HandlerStatus.CONVERTED)
        self.assertEqual(again["later_ioctl"].status, HandlerStatus.CONVERTED)
        self.assertNotIn("ds1620_ioctl", again)

    def test_cached_rerun_finds_a_new_file_naming_a_handler(self):
        # Same handler names as the first run: only the tree's files tell
        # that a second prototype of flash_ioctl now needs rewriting.
        self.run_convert()
        extra = self.tree / "drivers/char/nwflash_extra.h"
        extra.write_bytes((self.tree / "drivers/char/nwflash.h").read_bytes())
        again = self.run_convert()
        self.assertEqual(self.handlers(again)["flash_ioctl"].status, HandlerStatus.CONVERTED)
        self.assertIn("drivers/char/nwflash_extra.h", again.changes)

    def test_a_header_that_gains_a_returning_macro_is_read_again(self):
        # The rule reads the macros of headers included with quotes: a run
        # cached from before the header changed would keep the pushdown.
        header = self.tree / "drivers/char/lowlevel/guard.h"
        header.parent.mkdir()
        header.write_bytes(b"#define GUARD(d) do { if (!(d)) printk(\"no device\\n\"); } while (0)\n")
        (self.tree / "drivers/char/guard.c").write_bytes(
            handler_source("guard").replace(b"#include <linux/fs.h>",
                                            b"#include <linux/fs.h>\n#include \"lowlevel/guard.h\"")
            .replace(b"\tswitch (cmd)", b"\tGUARD(file);\n\tswitch (cmd)", 1))
        self.assertEqual(self.handlers(self.run_convert())["guard_ioctl"].strategy, "pushdown")
        header.write_bytes(b"#define GUARD(d) do { if (!(d)) return -ENODEV; } while (0)\n")
        self.assertEqual(self.handlers(self.run_convert())["guard_ioctl"].strategy, "wrapper")

    def test_clear_cache_empties_it(self):
        directory = self.tmp / "own-cache"
        self.run_convert("--cache-dir", str(directory),
                         paths=[self.tree / "drivers/char/ds1620.c"])
        self.assertTrue(any((directory / "convert").rglob("*")))
        self.assertGreater(convert.clear_cache(directory), 0)
        self.assertFalse((directory / "convert").exists())

    def test_three_merged_shards_equal_one_whole_run(self):
        whole = self.run_convert().summary
        parts = [self.run_convert("--shard", f"{k}/3").summary for k in (1, 2, 3)]
        self.assertTrue(sum(1 for p in parts if p.handlers) >= 2, "the split is not a split")
        merged = merge.merge(parts)

        def comparable(s):
            data = summary_mod.to_json(s)
            for key in ("wall_seconds", "stage_seconds", "started", "shard"):
                data.pop(key)
            return data

        self.assertEqual(comparable(merged), comparable(whole))
        me = Identity("T", "t@example.org")
        self.assertEqual(series.render(merged, series.Split.FILE, None, me),
                         series.render(whole, series.Split.FILE, None, me))

    def test_merge_refuses_missing_and_mismatched_shards(self):
        parts = [self.run_convert("--shard", f"{k}/3").summary for k in (1, 2)]
        with self.assertRaisesRegex(summary_mod.SummaryError, "missing shard 3/3"):
            merge.merge(parts)
        parts[1].options = {**parts[1].options, "lock": "mutex"}
        with self.assertRaisesRegex(summary_mod.SummaryError, "differ in options"):
            merge.merge(parts, allow_partial=True)


def tearDownModule():
    shutil.rmtree(ConvertCase.cache, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()

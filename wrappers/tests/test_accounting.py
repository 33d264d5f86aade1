"""convert never leaves an ioctl member unexplained (convert/accounting.py,
ctext/ioctl_tokens.py, convert/bkl_glue.py, convert/forwarding.py), and
its text summary names file:line, fops and handler of every entry it did
not convert.  Drivers are written here, several spellings per class."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import accounting, bkl_glue
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus, Summary
from ioctl_rework.ctext import header_cache, ioctl_tokens
from ioctl_rework.ctext.ioctl_tokens import Use
from ioctl_rework.settings import Target

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

HEAD = "#include <linux/fs.h>\n#include <linux/module.h>\n\n"
HANDLERS = """
static int a_ioctl(struct inode *inode, struct file *file,
\t\t   unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static int b_ioctl(struct inode *inode, struct file *file,
\t\t   unsigned int cmd, unsigned long arg)
{
\treturn 1;
}
"""

# Run-time assignments with a conditional: listed as skipped.
CONDITIONAL = [
    "static struct file_operations c_fops;\nstatic int fast;\n" + HANDLERS +
    "static void c_setup(void)\n{\n\tc_fops.ioctl = fast ? a_ioctl : b_ioctl;\n}\n",
    "static int fast;\n" + HANDLERS +
    "static void c_setup(struct file_operations *ops)\n{\n"
    "\tops->ioctl = fast ? &a_ioctl : &b_ioctl;\n}\n",
    "static int fast;\n" + HANDLERS +
    "static void c_setup(struct file_operations *ops)\n{\n"
    "\tops->ioctl = (fast > 1) ?\n\t\ta_ioctl : b_ioctl;\n}\n",
]
# Entries written by a macro of the file: listed as skipped.
MACRO = [
    "#define DRV_IOCTL .ioctl = a_ioctl,\n" + HANDLERS +
    "static struct file_operations m_fops = {\n\t.owner = THIS_MODULE,\n\tDRV_IOCTL\n};\n",
    "#define DRV_OPS \\\n\t.owner = THIS_MODULE, \\\n\t.ioctl = a_ioctl,\n" + HANDLERS +
    "static struct file_operations m_fops = {\n\tDRV_OPS\n};\n",
    "#define DRV_OPS(h) { .ioctl = h, }\n" + HANDLERS +
    "static struct file_operations m_fops = DRV_OPS(a_ioctl);\n",
]
# Calls and reads through a file_operations: failures, unless converted.
FAILURES = [
    HANDLERS + "static int f_probe(struct file *f)\n{\n"
    "\treturn f->f_op->ioctl != NULL;\n}\n",
    HANDLERS + "static int f_pass(struct file_operations *ops, struct inode *inode,\n"
    "\t\t  struct file *f)\n{\n\treturn ops->ioctl(inode, f, 0, 0);\n}\n",
    HANDLERS + "typedef struct file_operations fops_t;\n"
    "static void *f_peek(fops_t *ops)\n{\n\treturn (void *)ops->ioctl;\n}\n",
]
# No entry of a file_operations: explained, not listed as entries.
EXPLAINED = [
    ("struct tty_operations t_ops = {\n\t.ioctl = t_ioctl,\n};\n", "other-structure"),
    ("struct mpt_adapter { void *ioctl; };\n"
     "static void m(struct mpt_adapter *ioc)\n{\n\tif (ioc->ioctl)\n\t\treturn;\n}\n",
     "other-structure"),
    ("static void m(struct tty_struct *tty)\n{\n\ttty->driver->ioctl(tty, 0, 0, 0);\n}\n",
     "unknown-structure"),
    ("struct mpt { int x; };\nstatic void m(struct mpt *ioc, char *mem)\n{\n"
     "\tioc->ioctl = (MPT_IOCTL *) mem;\n}\n", "other-structure"),
    ("#ifdef HAVE_UNLOCKED_IOCTL\n#else\nstatic struct file_operations x = {\n"
     "\t.ioctl = a_ioctl,\n};\n#endif\n", "legacy-half"),
]
# Never a token: comments, literals, #if 0, other names.
NONE = [
    "/* .ioctl = h, */\n// f->f_op->ioctl(inode, f, 0, 0);\n",
    'static const char *s = ".ioctl = h,";\nstatic char c = \'.\';\n',
    "#if 0\nstatic struct file_operations x = {\n\t.ioctl = a_ioctl,\n};\n#endif\n",
    "static struct file_operations y = {\n\t.unlocked_ioctl = u,\n\t.compat_ioctl = u,\n};\n",
]


def account(text: str, summary: Summary | None = None) -> accounting.Accounting:
    data = (HEAD + text).encode()
    return accounting.account(summary or Summary("/", "6.1", {}, "1.1.1", 0.0),
                              {"d.c": (data, data)})


class TokensTest(unittest.TestCase):
    def test_comments_literals_and_dead_code_hold_no_token(self):
        for text in NONE:
            with self.subTest(text=text):
                self.assertEqual(ioctl_tokens.tokens(HEAD + text), [])

    def test_uses_are_told_apart(self):
        found = ioctl_tokens.tokens(
            "struct file_operations f = {\n\t.ioctl = h,\n};\nstruct file_operations g = {\n"
            "\tioctl: h,\n};\nvoid s(struct file *x)\n{\n\tf.ioctl = h;\n"
            "\tx->f_op->ioctl(i, x, 0, 0);\n\t(*x->f_op->ioctl)(i, x, 0, 0);\n"
            "\tif (x->f_op->ioctl) ;\n}\n")
        self.assertEqual([(t.line, t.use) for t in found],
                         [(2, Use.ENTRY), (5, Use.ENTRY), (9, Use.ASSIGNMENT), (10, Use.CALL),
                          (11, Use.CALL), (12, Use.READ)])
        self.assertEqual(found[0].struct, "file_operations")
        self.assertEqual([t.base for t in found[2:]], ["f", "f_op", "f_op", "f_op"])


class AccountingTest(unittest.TestCase):
    def test_conditional_assignments_are_listed_as_skipped(self):
        for text in CONDITIONAL:
            with self.subTest(text=text):
                found = account(text)
                self.assertEqual([r.status for r in found.records], [HandlerStatus.SKIPPED])
                self.assertIn("run-time assignment with a conditional", found.records[0].reason)

    def test_macro_written_entries_are_listed_as_skipped(self):
        for text in MACRO:
            with self.subTest(text=text):
                found = account(text)
                self.assertEqual([r.status for r in found.records], [HandlerStatus.SKIPPED])
                self.assertIn("written by the macro DRV_", found.records[0].reason)
                self.assertEqual(found.records[0].line, 4 + text.split("\n").index(
                    next(l for l in text.split("\n") if ".ioctl" in l)))

    def test_calls_and_reads_through_a_file_operations_fail(self):
        for text in FAILURES:
            with self.subTest(text=text):
                found = account(text)
                self.assertEqual([r.status for r in found.records], [HandlerStatus.FAILED])
                self.assertIn("f_", found.records[0].handler)
                if "->ioctl(" in text:
                    # A call site names the function it is in, and no fops:
                    # that function is no handler of the structure it calls through.
                    self.assertEqual(found.records[0].fops, "?")

    def test_members_of_other_structures_are_explained(self):
        for text, kind in EXPLAINED:
            with self.subTest(text=text):
                found = account(text)
                self.assertEqual(found.records, [])
                self.assertEqual([t.kind for t in found.tokens], [kind])

    def test_a_record_of_the_run_at_the_line_explains_it(self):
        text = HANDLERS + "static struct file_operations e = {\n\t.ioctl = a_ioctl,\n};\n"
        line = (HEAD + text).split("\n").index("\t.ioctl = a_ioctl,") + 1
        summary = Summary("/", "6.1", {}, "1.1.1", 0.0)
        self.assertEqual(len(account(text, summary).records), 1)
        self.assertEqual(account(text, summary).records[0].status, HandlerStatus.FAILED)
        summary.handlers.append(HandlerRecord("d.c", line, "e", "a_ioctl",
                                              HandlerStatus.SKIPPED, "a reason"))
        self.assertEqual(account(text, summary).records, [])

    def test_a_member_the_run_rewrote_is_gone_and_one_it_wrote_fails(self):
        old = (HEAD + "static struct file_operations e = {\n\t.ioctl = a_ioctl,\n};\n").encode()
        new = old.replace(b".ioctl", b".unlocked_ioctl")
        summary = Summary("/", "6.1", {}, "1.1.1", 0.0)
        self.assertEqual(accounting.account(summary, {"d.c": (old, new)}).records, [])
        wrote = old.replace(b"};", b"\t.owner = NULL,\n\t.ioctl = b_ioctl,\n};")
        found = accounting.account(summary, {"d.c": (old, wrote)}).records
        self.assertEqual([r.status for r in found], [HandlerStatus.FAILED, HandlerStatus.FAILED])
        self.assertTrue(any("the run wrote" in r.reason for r in found))


GLUE = """#include <linux/fs.h>
#include <linux/smp_lock.h>

#ifdef HAVE_UNLOCKED_IOCTL
static long g_unlocked(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct inode *inode = file->f_dentry->d_inode;
	long ret;

	lock_kernel();
	ret = g_ioctl(inode, file, cmd, arg);
	unlock_kernel();
	return ret;
}
#endif
"""


class GlueTest(unittest.TestCase):
    def test_bkl_and_f_dentry_in_the_kept_branch_are_refused_in_words(self):
        found = bkl_glue.glue_lines(GLUE, Target.parse("6.1"))
        self.assertEqual([(r.line, r.function, r.branch) for r in found],
                         [(7, "g_unlocked", 4), (10, "g_unlocked", 4), (12, "g_unlocked", 4)])
        self.assertIn("lock_kernel()", found[1].what)
        self.assertIn("f_dentry", found[0].what)

    def test_the_file_is_refused_once_with_every_line_and_why(self):
        why = bkl_glue.file_refusal(GLUE, Target.parse("6.1"))
        self.assertEqual(why, "the #ifdef HAVE_UNLOCKED_IOCTL glue at line 4 (g_unlocked) "
                              "reaches the inode through file->f_dentry at line 7, which "
                              "kernels >= 3.19 do not have, and takes the BKL "
                              "(lock_kernel()) at lines 10, 12, which kernels >= 2.6.39 do "
                              "not have: target 6.1.0 cannot build it, so the file is not "
                              "written (converting its other entries would leave it half "
                              "converted and still not building): left as it was; convert "
                              "the glue by hand")
        self.assertIsNone(bkl_glue.file_refusal(GLUE, Target.parse("2.6.20")))
        # Two glue functions: each named, with its own lines.
        second = GLUE.replace("g_unlocked", "g_compat").replace("HAVE_UNLOCKED", "HAVE_COMPAT")
        why = bkl_glue.file_refusal(GLUE + second.split("\n", 2)[2], Target.parse("3.0"))
        self.assertIn("glue at line 4 (g_unlocked) takes the BKL (lock_kernel()) at lines 10, "
                      "12, which kernels >= 2.6.39 do not have; the #ifdef HAVE_COMPAT_IOCTL "
                      "glue at line 17 (g_compat) takes the BKL", why)
        self.assertNotIn("f_dentry", why)

    def test_targets_that_have_them_and_other_branches_say_nothing(self):
        self.assertEqual(bkl_glue.glue_lines(GLUE, Target.parse("2.6.20")), [])
        self.assertEqual([r.line for r in bkl_glue.glue_lines(GLUE,
                                                             Target.parse("3.0"))], [10, 12])
        legacy = GLUE.replace("#ifdef HAVE", "#ifndef HAVE")
        self.assertEqual(bkl_glue.glue_lines(legacy, Target.parse("6.1")), [])


# The same glue under a test of the version number (red33_ver_hex): the
# branch the target compiles, in each spelling.
VERSION_GLUE = {
    "KERNEL_VERSION": ("#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,11)", "#endif"),
    "hex": ("#if LINUX_VERSION_CODE >= 0x02060b", "#endif"),
    "greater than 2.6.10": ("#if LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 10)", "#endif"),
    "else of less than": ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,11)\n"
                          "static int g_old;\n#else", "#endif"),
    "elif": ("#if LINUX_VERSION_CODE < 0x020600\nstatic int g_old;\n"
             "#elif LINUX_VERSION_CODE >= 0x02060b", "#endif"),
}


def version_glue(opening: str, closing: str) -> str:
    body = GLUE.split("#ifdef HAVE_UNLOCKED_IOCTL\n")[1].rsplit("#endif", 1)[0]
    return "#include <linux/fs.h>\n#include <linux/smp_lock.h>\n\n" + \
        f"{opening}\n{body}{closing}\n"


class VersionGlueTest(unittest.TestCase):
    def test_bkl_in_the_branch_the_target_compiles_is_refused_in_words(self):
        for spelling, (opening, closing) in VERSION_GLUE.items():
            with self.subTest(spelling=spelling):
                text = version_glue(opening, closing)
                found = bkl_glue.glue_lines(text, Target.parse("6.1"))
                lock = text.split("\n").index("\tlock_kernel();") + 1
                self.assertEqual([(r.line, r.function) for r in found],
                                 [(lock - 3, "g_unlocked"), (lock, "g_unlocked"),
                                  (lock + 2, "g_unlocked")])
                self.assertIn("lock_kernel()", found[1].what)
                self.assertIn("#if LINUX_VERSION_CODE", found[1].words)

    def test_a_branch_the_target_does_not_compile_says_nothing(self):
        for spelling, (opening, closing) in VERSION_GLUE.items():
            legacy = opening.replace(">=", "<").replace("> K", "<= K").replace(
                "< KERNEL_VERSION(2,6,11)\n", ">= KERNEL_VERSION(2,6,11)\n")
            with self.subTest(spelling=spelling):
                self.assertEqual(bkl_glue.glue_lines(version_glue(legacy, closing),
                                                   Target.parse("6.1")), [])
                self.assertEqual(bkl_glue.glue_lines(version_glue(opening, closing),
                                                   Target.parse("2.6.20")), [])


class CompatGlueTest(unittest.TestCase):
    """A compat handler under #ifdef HAVE_COMPAT_IOCTL that takes the BKL
    (red33_ioc_table): the conversion resolves the #ifdef and keeps it, so
    a 6.1 target cannot build it; said in words, like the unlocked glue."""

    def test_bkl_in_the_compat_half_is_refused_in_words(self):
        for opening in ("#ifdef HAVE_COMPAT_IOCTL",
                        "#ifndef HAVE_COMPAT_IOCTL\nstatic int g_old;\n#else"):
            with self.subTest(opening=opening):
                text = version_glue(opening, "#endif")
                lock = text.split("\n").index("\tlock_kernel();") + 1
                found = bkl_glue.glue_lines(text, Target.parse("6.1"))
                self.assertEqual([r.line for r in found], [lock - 3, lock, lock + 2])
                self.assertIn(f"the {opening.split(chr(10))[0]} glue at line 4 (g_unlocked) "
                              "reaches the inode",
                              bkl_glue.file_refusal(text, Target.parse("6.1")))

    def test_the_other_half_and_a_target_with_the_bkl_say_nothing(self):
        text = version_glue("#ifndef HAVE_COMPAT_IOCTL", "#endif")
        self.assertEqual(bkl_glue.glue_lines(text, Target.parse("6.1")), [])
        self.assertEqual(bkl_glue.glue_lines(version_glue("#ifdef HAVE_COMPAT_IOCTL",
                                                               "#endif"),
                                           Target.parse("2.6.20")), [])


class TextSummaryTest(unittest.TestCase):
    def test_every_skipped_and_failed_entry_is_named_where_it_is(self):
        summary = Summary("/", "6.1", {}, "1.1.1", 0.0)
        summary.handlers += [
            HandlerRecord("a/x.c", 12, "x_fops", "x_ioctl", HandlerStatus.SKIPPED,
                          "in the branch of the #if 0 at line 10 that is never compiled"),
            HandlerRecord("b/y.c", 40, "?", "y_ioctl", HandlerStatus.FAILED, "why at line 41"),
        ]
        lines = summary_mod.text_report(summary).splitlines()
        self.assertIn("  skipped: a/x.c:12: x_fops: x_ioctl: in the branch of the #if 0 at "
                      "line 10 that is never compiled", lines)
        self.assertIn("  failed: b/y.c:40: ?: y_ioctl: why at line 41", lines)
        self.assertFalse(any("line N" in line for line in lines))


STACK = HEAD + """static int up_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{
\tstruct file *lower = file->private_data;

\tif (!lower->f_op || !lower->f_op->ioctl)
\t\treturn -ENOTTY;
\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
}

static long relay(struct file *file, unsigned int cmd, unsigned long arg)
{
\tstruct file *lower = file->private_data;

\treturn (*lower->f_op->ioctl)(inode, lower, cmd, arg);
}

static struct file_operations up_fops = {
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= up_ioctl,
};

static struct file_operations relay_fops = {
\t.owner\t\t= THIS_MODULE,
\t.unlocked_ioctl\t= relay,
};
"""


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ConvertRunTest(unittest.TestCase):
    def run_convert(self, files: dict[str, str], *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                (Path(tmp) / name).write_text(text)
            # A scratch directory, no kernel tree: run without a kernel's headers.
            args = parse_args(["--no-cache", "--target", "2.6.20", "--no-kernel-headers", *extra,
                               "--", tmp])
            return convert.convert(convert.request_from_args(args))

    def test_silent_shapes_are_listed_and_a_run_with_a_failure_fails(self):
        result = self.run_convert({"cond.c": HEAD + CONDITIONAL[0], "macro.c": HEAD + MACRO[0],
                                   "probe.c": HEAD + FAILURES[0]})
        got = {(h.file, h.status) for h in result.summary.handlers}
        self.assertEqual(got, {("cond.c", HandlerStatus.SKIPPED),
                               ("macro.c", HandlerStatus.SKIPPED),
                               ("probe.c", HandlerStatus.FAILED)})
        self.assertTrue(result.failed)
        data = summary_mod.to_json(result.summary)
        self.assertEqual(summary_mod.from_json(data).tokens, result.summary.tokens)

    def test_forwarding_refusal_is_recorded_and_the_file_left_as_it_was(self):
        # relay passes an inode that is not its file's: its call cannot
        # follow, so no file of the run is written (test_forwarding has the
        # converting cases) and every use of the member is accounted for.
        result = self.run_convert({"stack.c": STACK})
        self.assertEqual(result.changes, {})
        failed = [h for h in result.summary.handlers if h.status is HandlerStatus.FAILED]
        refused = [h for h in failed if h.handler == "relay"]
        self.assertEqual([h.line for h in refused], [18])
        self.assertIn("not the inode of lower", refused[0].reason)
        up = [h for h in failed if h.handler == "up_ioctl" and h.fops == "up_fops"]
        self.assertIn("stack.c:18 (relay) could not be converted", up[0].reason)
        self.assertEqual([c for c in result.summary.changes if c.kind == "forwarded-call"], [])
        self.assertTrue(result.failed)


class ContestedTest(unittest.TestCase):
    """A call the file declares of another structure, where a kbuild flag of
    the file or a macro call may make it a file_operations (member_types.
    contested): unproven, a failure at its file:line, never explained as
    another structure's."""

    CALL = "\treturn ops->ioctl(0, code, v);"

    def setUp(self):
        from test_member_types import MemberTypesCase
        case = MemberTypesCase()
        case.setUp()
        self.addCleanup(case.doCleanups)
        self.case = case

    def account(self, text: str, makefile: str = ""):
        rel = "drivers/x/x.c"
        self.case.write({rel: text, "drivers/x/Makefile": "obj-m += x.o\n" + makefile})
        data = text.encode()
        line = next(n for n, code in enumerate(text.split("\n"), 1) if code == self.CALL)
        return line, accounting.account(Summary("/", "2.6.9", {}, "1.1.1", 0.0),
                                        {rel: (data, data)}, self.case.root)

    def test_a_contested_call_is_unproven_and_fails(self):
        before = "static struct usb_gadget_ops *ops;\n"
        for makefile, body in [("ccflags-y += -Dusb_gadget_ops=file_operations\n", self.CALL),
                               ("EXTRA_CFLAGS += -Dops=the_fops\n", self.CALL),
                               ("CFLAGS_x.o += -Dusb_gadget_ops=file_operations\n", self.CALL),
                               ("", "\tget_ops(ops);\n" + self.CALL)]:
            with self.subTest(makefile=makefile, body=body):
                line, found = self.account(self.case.function(body, before=before), makefile)
                self.assertEqual([(r.file, r.line, r.status) for r in found.records],
                                 [("drivers/x/x.c", line, HandlerStatus.FAILED)])
                self.assertIn(f"drivers/x/x.c:{line}: ", found.records[0].reason)
                self.assertIn("unproven", found.records[0].reason)
                self.assertNotIn("other-structure", [t.kind for t in found.tokens])

    def test_an_uncontested_call_stays_explained(self):
        line, found = self.account(self.case.function(
            self.CALL, before="static struct usb_gadget_ops *ops;\n"))
        self.assertEqual(found.records, [])
        self.assertEqual([(t.line, t.kind) for t in found.tokens], [(line, "other-structure")])

class HeadersOnceTest(unittest.TestCase):
    """The headers of the files accounted for are read once for all of
    them (one include_search.Pass): before, each file whose members needed
    its declarations read its whole include closure again."""

    CALLS = ("\treturn lower->ops->ioctl(inode, file, cmd, arg);\n",
             "\treturn (*lower->f_op->ioctl)(inode, file, cmd, arg);\n",
             "\tif (lower->ops->ioctl)\n\t\treturn lower->ops->ioctl(inode, file, cmd, arg);"
             "\n\treturn 0;\n")

    def test_a_header_shared_by_three_files_is_read_once(self):
        root = Path(tempfile.mkdtemp(prefix="account-headers-"))
        self.addCleanup(shutil.rmtree, root)
        (root / "Makefile").write_text("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n")
        (root / "include/linux").mkdir(parents=True)
        (root / "include/linux/fs.h").write_text("struct file;\nstruct inode;\n")
        (root / "drivers/stk").mkdir(parents=True)
        (root / "drivers/stk/lower.h").write_text(
            "#include <linux/fs.h>\nstruct lower_ops {\n\tint (*ioctl)(struct inode *, "
            "struct file *, unsigned int, unsigned long);\n};\n")
        files = {}
        for n, call in enumerate(self.CALLS):
            text = ('#include "lower.h"\n\nstatic int stk%d_ioctl(struct inode *inode, '
                    "struct file *file,\n\t\t       unsigned int cmd, unsigned long arg)\n"
                    "{\n%s}\n" % (n, call)).encode()
            (root / f"drivers/stk/stk{n}.c").write_bytes(text)
            files[f"drivers/stk/stk{n}.c"] = (text, text)
        reads: dict = {}
        text = header_cache.text

        def counting(path):
            reads[str(path)] = reads.get(str(path), 0) + 1
            return text(path)
        header_cache.text = counting
        self.addCleanup(setattr, header_cache, "text", text)
        found = accounting.account(Summary(str(root), "2.6.11", {}, "1.1.1", 0.0), files, root)
        self.assertTrue(found.records)          # each call read its declarations
        for header in ("drivers/stk/lower.h", "include/linux/fs.h"):
            self.assertEqual(reads.get(str(root / header)), 1, header)


if __name__ == "__main__":
    unittest.main()

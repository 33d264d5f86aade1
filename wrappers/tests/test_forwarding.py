"""A stacking driver's call through a file's ->ioctl, and its test of that
member, follow the conversion in every mode (convert/forwarding.py and
f_op_ioctl_forwarding.cocci); a call that cannot follow leaves the whole
run as it was (forwarding.denied), since the pointer may reach any fops.
Drivers are written here, several spellings of the member test each."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import forwarding
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus
from ioctl_rework.ctext import spans
from tiers import cover

HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

HEAD = "#include <linux/fs.h>\n#include <linux/module.h>\n\n"
LOWER = HEAD + """static int low_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn cmd == 1 ? 0 : -EINVAL;
}

static struct file_operations low_fops = {
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= low_ioctl,
};
"""


def stacker(name: str, body: str) -> str:
    """A driver whose handler NAME_ioctl forwards to the file below with BODY."""
    return HEAD + f"""static int {name}_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{{
\tstruct file *lower = file->private_data;
{body}}}

static struct file_operations {name}_fops = {{
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= {name}_ioctl,
}};
"""


# The member test beside the call, spelled as stacking drivers spell it.
STACKERS = {
    "guard.c": stacker("guard", """
\tif (!lower->f_op || !lower->f_op->ioctl)
\t\treturn -ENOTTY;
\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
"""),
    "both.c": stacker("both", """
\tif (lower->f_op && lower->f_op->ioctl != NULL)
\t\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
\treturn -ENOTTY;
"""),
    "choice.c": stacker("choice", """
\treturn lower->f_op->ioctl ?
\t\tlower->f_op->ioctl(file_inode(lower), lower, cmd, arg) : -ENOTTY;
"""),
    "local.c": stacker("local", """\tconst struct file_operations *fops = lower->f_op;
\tint err;

\tif (fops->ioctl == NULL)
\t\treturn -ENOTTY;
\terr = (*fops->ioctl)(lower->f_path.dentry->d_inode, lower, cmd, arg);
\treturn err;
"""),
}

# A call that cannot follow: it passes an inode that is not its file's.
RELAY = HEAD + """int relay_to(struct file *lower, struct inode *inode,
\t     unsigned int cmd, unsigned long arg)
{
\treturn lower->f_op->ioctl(inode, lower, cmd, arg);
}
"""

# A test with no call beside it: what it decides cannot be followed.
PROBE = HEAD + """static int can_forward(struct file *lower)
{
\treturn lower->f_op && lower->f_op->ioctl;
}
"""

# A test spatch does not write twice: in the body of a do { } while (0).
DO_WHILE = stacker("loop", """
\tdo {
\t\tif (!lower->f_op->ioctl)
\t\t\treturn -ENOTTY;
\t} while (0);
\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
""")

# Where the multi-kernel output cannot write the call twice: an initializer.
INITIALIZER = stacker("init", """\tint ret = lower->f_op->ioctl(lower->f_dentry->d_inode, lower,
\t\t\t\t     cmd, arg);

\treturn ret;
""")

MODES = {
    "bkl": ["--target", "2.6.11"],
    "mutex": ["--target", "2.6.39", "--no-compat"],
    "multi-kernel": ["--target", "2.6.11", "--multi-kernel"],
}
# `->ioctl` as a member: a call or a test of a file_operations.
MEMBER = re.compile(r"->\s*ioctl\b")
# The first line of the helper a target with .ioctl gets (the rule's shape),
# its parameter list continued under its parenthesis (patches/tidy).
FALLBACK_HELPER = ("static int forward_ioctl(const struct file_operations *fops, "
                   "struct inode *inode,\n\t\t\t struct file *file, unsigned int cmd, "
                   "unsigned long arg)\n{")


# One cache for the module: a driver several tests convert alike runs spatch once.
CACHE = Path(tempfile.mkdtemp(prefix="forwarding-cache-"))


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


class ConvertRun(unittest.TestCase):
    """Converts a tree of the files a test writes."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="forwarding-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_convert(self, files: dict[str, str], *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        tree = self.tmp / "tree"
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir()
        for name, text in files.items():
            (tree / name).write_text(text)
        # Forwarding in the files of the run, not in a kernel's headers.
        args = parse_args(["--cache-dir", str(CACHE), "-j", "2", "-q", "--no-kernel-headers",
                           *extra, "--", str(tree)])
        return convert.convert(convert.request_from_args(args))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ForwardingRunTest(ConvertRun):

    def test_calls_and_member_tests_follow_in_every_mode(self):
        # Under a private mutex they are refused (MutexForwardingTest).
        for mode, argv in MODES.items():
            if mode == "mutex":
                continue
            with self.subTest(mode=mode):
                result = self.run_convert({"lower.c": LOWER, **STACKERS}, *argv)
                self.assertFalse(result.failed, [h.reason for h in result.summary.handlers
                                                 if h.status is not HandlerStatus.CONVERTED])
                self.assertEqual(sorted(result.changes), sorted(["lower.c", *STACKERS]))
                for name in STACKERS:
                    new = result.changes[name][1].decode()
                    # Both targets still have .ioctl: the call falls back to it for
                    # a lower driver still on it (the helper, once per file).
                    self.assertRegex(new, r"forward_ioctl\((lower->f_op|fops), [^;]*, lower, "
                                          r"cmd, arg\)", name)
                    self.assertEqual(new.count(FALLBACK_HELPER), 1, name)
                    self.assertEqual(new.count("#include <linux/smp_lock.h>"), 1, name)
                    # ->ioctl is left only where it falls back: the helper, the tests
                    # of either member, the legacy half of the multi-kernel output.
                    for number, line in enumerate(new.split("\n"), 1):
                        if MEMBER.search(line):
                            self.assertTrue(
                                "->unlocked_ioctl || " in line or
                                line == "\tret = fops->ioctl(inode, file, cmd, arg);" or
                                mode == "multi-kernel" and spans.legacy_half(new, number),
                                f"{mode}: {name}:{number}: {line}")
                    tests = [c for c in result.summary.changes
                             if c.file == name and "tests ->unlocked_ioctl or ->ioctl" in c.reason]
                    self.assertEqual(len(tests), 1, name)
                    calls = [c for c in result.summary.changes
                             if c.file == name and c.kind == "forwarded-call"
                             and c.reason.startswith("calls ")]
                    self.assertTrue(calls, name)
                    for change in calls:
                        self.assertIn("or ->ioctl under the BKL", change.reason)
                        self.assertNotIn("warning", change.reason)
                if mode == "multi-kernel":
                    # The legacy half keeps the old text, and its layout (after
                    # a blank line spatch writes where the copies end).
                    guard = result.changes["guard.c"][1].decode()
                    self.assertRegex(guard, r"#else\n(\t\n)?\tif \(!lower->f_op \|\| "
                                     r"!lower->f_op->ioctl\)\n\t\treturn -ENOTTY;\n#endif\n")
                    # Below 2.6.36 either member, from 2.6.36 (no .ioctl) the new one.
                    self.assertIn("#ifdef HAVE_UNLOCKED_IOCTL\n"
                                  "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\n"
                                  "\tif (!lower->f_op || "
                                  "!(lower->f_op->unlocked_ioctl || lower->f_op->ioctl))\n"
                                  "\t\treturn -ENOTTY;\n#else\n"
                                  "\tif (!lower->f_op || !lower->f_op->unlocked_ioctl) "
                                  "return -ENOTTY;\n#endif\n#else\n", guard)
                    # The helper is compiled where it is used (its version test
                    # reads <linux/version.h>).
                    self.assertIn("#ifdef HAVE_UNLOCKED_IOCTL\n#include <linux/version.h>\n"
                                  + FALLBACK_HELPER, guard)

    def test_the_helper_name_is_free_in_the_headers_of_the_tree(self):
        # The rule sees a scratch copy of the text alone: convert names the
        # helper from the file and the headers it includes in the tree.
        header = "/* Taken: forward_ioctl2 */\nint forward_ioctl(int);\n"
        guard = STACKERS["guard.c"].replace('#include <linux/module.h>\n',
                                            '#include <linux/module.h>\n#include "stack.h"\n')
        result = self.run_convert({"lower.c": LOWER, "guard.c": guard, "stack.h": header},
                                  *MODES["bkl"])
        self.assertFalse(result.failed)
        new = result.changes["guard.c"][1].decode()
        self.assertIn("static int forward_ioctl3(const struct file_operations *fops", new)
        self.assertIn("forward_ioctl3(lower->f_op, lower->f_dentry->d_inode, lower, cmd, arg);",
                      new)
        self.assertNotIn("forward_ioctl(", new)

    def test_a_target_without_ioctl_calls_unlocked_ioctl_alone(self):
        # No lower driver can be on .ioctl there: no fallback, no helper.
        result = self.run_convert({"lower.c": LOWER, **STACKERS}, "--target", "2.6.36")
        calls = [c for c in result.summary.changes if c.kind == "forwarded-call"]
        self.assertTrue(calls)
        for change in calls:
            self.assertNotIn("BKL", change.reason)
        for name in STACKERS:
            new = result.changes[name][1].decode()
            self.assertIn("(int)", new)
            self.assertIn("->unlocked_ioctl(lower, cmd, arg)", new, name)
            self.assertNotIn("forward_ioctl", new, name)
            self.assertIsNone(MEMBER.search(new), name)

    def test_a_call_that_cannot_follow_leaves_every_file_of_the_run(self):
        files = {"lower.c": LOWER, "guard.c": STACKERS["guard.c"], "relay.c": RELAY}
        for mode, argv in MODES.items():
            if mode == "mutex":
                continue        # guard.c's call is refused too (MutexForwardingTest)
            with self.subTest(mode=mode):
                result = self.run_convert(files, *argv)
                self.assertTrue(result.failed)
                self.assertEqual(result.changes, {})
                self.assertFalse([c for c in result.summary.changes
                                  if c.kind == "forwarded-call"])
                handlers = {h.handler: h for h in result.summary.handlers if h.fops != "f_op"}
                self.assertEqual(sorted(handlers), ["guard_ioctl", "low_ioctl", "relay_to"])
                for name in ("guard_ioctl", "low_ioctl"):
                    self.assertEqual(handlers[name].status, HandlerStatus.FAILED)
                    self.assertIn("relay.c:7 (relay_to) could not be converted",
                                  handlers[name].reason)
                    self.assertIn("no handler of the run is converted", handlers[name].reason)
                self.assertIn("not the inode of lower", handlers["relay_to"].reason)
                files_said = {f.file: f.reason for f in result.summary.files}
                self.assertIn("the file is left as it was", files_said["relay.c"])
                self.assertIn("relay.c:7", files_said["lower.c"])

    def test_a_test_in_a_function_with_no_call_leaves_the_run(self):
        # What it decides cannot be followed: left on ->ioctl it says "no
        # ioctl" for every converted driver.
        result = self.run_convert({"lower.c": LOWER, "probe.c": PROBE}, *MODES["bkl"])
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        low = next(h for h in result.summary.handlers if h.handler == "low_ioctl")
        self.assertIn("probe.c:6 (can_forward) could not be converted", low.reason)

    def test_every_shard_of_the_run_is_denied(self):
        # Each shard converts its own files: a refusal in another shard's
        # file must stop this one too, or the lower driver converts there.
        files = {"lower.c": LOWER, "guard.c": STACKERS["guard.c"], "relay.c": RELAY}
        for part in ("1/2", "2/2"):
            with self.subTest(shard=part):
                result = self.run_convert(files, "--target", "2.6.11", "--shard", part)
                self.assertEqual(result.changes, {})
                for h in result.summary.handlers:
                    if h.handler in ("low_ioctl", "guard_ioctl") and h.fops not in ("?", "f_op"):
                        self.assertIn("relay.c:7 (relay_to)", h.reason)

    def test_a_refused_call_leaves_its_own_file_unconverted(self):
        # The handler of the file with the refused call converts on its own;
        # the file must not be written half converted.
        text = stacker("half", "\n\treturn 0;\n") + "\n" + RELAY[len(HEAD):]
        for mode, argv in MODES.items():
            if mode == "mutex":
                continue        # the rule refuses half_ioctl (MutexForwardingTest)
            with self.subTest(mode=mode):
                result = self.run_convert({"half.c": text}, *argv)
                self.assertTrue(result.failed)
                self.assertNotIn("half.c", result.changes)
                half = next(h for h in result.summary.handlers if h.handler == "half_ioctl")
                self.assertEqual(half.status, HandlerStatus.FAILED)
                self.assertIn("half.c:20 (relay_to) could not be converted", half.reason)

    def test_a_site_spatch_did_not_write_twice_denies_the_run(self):
        # spatch writes nothing before the if in a do { } while (0): left
        # on ->ioctl in code every kernel compiles, the test would say "no
        # ioctl" for the converted lower driver.
        result = self.run_convert({"lower.c": LOWER, "loop.c": DO_WHILE},
                                  *MODES["multi-kernel"])
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        site = next(h for h in result.summary.handlers if h.fops == "?")
        self.assertEqual(site.handler, "loop_ioctl")
        self.assertIn("could not write twice", site.reason)

    def test_the_multi_kernel_output_refuses_a_call_it_cannot_write_twice(self):
        result = self.run_convert({"lower.c": LOWER, "init.c": INITIALIZER},
                                  *MODES["multi-kernel"])
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        init = [h for h in result.summary.handlers if h.fops == "?"]
        self.assertIn("does not write", init[0].reason)
        # Without --multi-kernel the same call converts.
        result = self.run_convert({"lower.c": LOWER, "init.c": INITIALIZER},
                                  *MODES["bkl"])
        self.assertFalse(result.failed)
        self.assertIn("ret = forward_ioctl(lower->f_op, lower->f_dentry->d_inode, lower, cmd, arg);",
                      result.changes["init.c"][1].decode())


# Sites the rule refuses, as bench/adversarial's red_fwd_local_fn and
# red_fwd_ternary_fn spell them: a copy of the member called later (once
# recorded as a test), and a conditional choosing the function (two members
# on one line, once recorded twice, at a line of the converted text).
COPIES = {
    "copy.c": stacker("copy", """\tint (*fn)(struct inode *, struct file *, unsigned int, unsigned long);

\tfn = lower->f_op->ioctl;
\tif (!fn)
\t\treturn -ENOTTY;
\treturn fn(file_inode(lower), lower, cmd, arg);
"""),
    "init.c": stacker("init", """\tconst struct file_operations *fops = lower->f_op;
\tint (*fn)(struct inode *, struct file *, unsigned int, unsigned long) = fops->ioctl;

\treturn fn ? fn(file_inode(lower), lower, cmd, arg) : -ENOTTY;
"""),
}
PICK_NONE = """static int pick_none(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn -ENOSYS;
}

"""
CHOICES = {
    "pick.c": HEAD + PICK_NONE + stacker("pick", """
\tif (cmd == 1)
\t\treturn 77;
\treturn (lower->f_op->ioctl ? lower->f_op->ioctl : pick_none)
\t\t(lower->f_dentry->d_inode, lower, cmd, arg);
""")[len(HEAD):],
    "pick2.c": HEAD + PICK_NONE + stacker("pick2", """\tint ret;

\tret = (lower->f_op->ioctl != NULL ? lower->f_op->ioctl : pick_none)(file_inode(lower),
\t\t\t\t\t\t\t\t\t lower, cmd, arg);
\treturn ret;
""")[len(HEAD):],
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class RefusedRecordsTest(ConvertRun):
    """Each refused site is recorded once, at its own line of the file as
    it was, and says what the site does."""

    def records(self, files: dict[str, str], *argv: str) -> list[HandlerRecord]:
        result = self.run_convert(files, *argv)
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        handlers = result.summary.handlers
        self.assertEqual(len(handlers), len(set(handlers)), "a record is repeated")
        return [h for h in handlers if h.fops == "?"]

    def test_a_copy_of_the_member_is_no_test(self):
        for strategy, (name, text) in cover(("auto", "wrapper"), COPIES.items()):
            with self.subTest(strategy=strategy, driver=name):
                (site,) = self.records({name: text}, "--target", "2.6.11",
                                       "--strategy", strategy)
                self.assertIn("copies ->ioctl into a variable", site.reason)
                self.assertNotIn("tests ->ioctl", site.reason)
                self.assertRegex(text.split("\n")[site.line - 1], r"= \w+->(f_op->)?ioctl;")

    def test_two_members_of_one_line_are_one_record_at_that_line(self):
        for strategy, (name, text) in cover(("auto", "wrapper"), CHOICES.items()):
            with self.subTest(strategy=strategy, driver=name):
                sites = self.records({name: text}, "--target", "2.6.11",
                                     "--strategy", strategy)
                self.assertEqual(len({(h.line, h.handler, h.reason) for h in sites}),
                                 len(sites))
                self.assertTrue(sites)
                for site in sites:
                    self.assertIn("lower->f_op->ioctl ?" if name == "pick.c" else
                                  "lower->f_op->ioctl != NULL ?",
                                  text.split("\n")[site.line - 1], site)
                    self.assertIn("chooses ->ioctl by a conditional", site.reason)
                    self.assertNotIn("tests ->ioctl", site.reason)

    def test_under_the_mutex_a_file_with_no_call_lists_no_test_beside_one(self):
        # The conditional's call is none member_calls reads: the rule refuses
        # the site; no test is listed "beside the call through it".
        for name, text in CHOICES.items():
            with self.subTest(driver=name):
                result = self.run_convert({name: text}, *MODES["mutex"])
                self.assertNotIn("beside the call",
                                 " ".join(h.reason for h in result.summary.handlers))
                self.assertEqual(len(result.summary.handlers), len(set(result.summary.handlers)))


# Forwarding to the file's own fops, as bench/adversarial's adv_forward_ptr does.
SAME_FILE = HEAD + """static int fp_lower_ioctl(struct inode *inode, struct file *file,
\t\t\t  unsigned int cmd, unsigned long arg)
{
\treturn cmd == 2 ? 0 : -ENOTTY;
}

static struct file_operations fp_lower_fops = {
\t.owner\t= THIS_MODULE,
\t.ioctl\t= fp_lower_ioctl,
};

static const struct file_operations *fp_lower = &fp_lower_fops;

static int fp_upper_ioctl(struct inode *inode, struct file *file,
\t\t\t  unsigned int cmd, unsigned long arg)
{
\tif (cmd == 1)
\t\treturn 42;
\tif (fp_lower && fp_lower->ioctl)
\t\treturn fp_lower->ioctl(inode, file, cmd, arg);
\treturn -ENOTTY;
}

static struct file_operations fp_upper_fops = {
\t.owner\t= THIS_MODULE,
\t.ioctl\t= fp_upper_ioctl,
};
"""

# Two files of one kbuild module: one forwards through its file's own f_op
# and an element of an array of fops, the other only handles.
MODULE_FORWARDER = HEAD + """extern struct file_operations pm_fops[2];

static int pm_ctl_ioctl(struct inode *inode, struct file *file,
\t\t\tunsigned int cmd, unsigned long arg)
{
\tif (cmd == 1)
\t\treturn pm_fops[1].ioctl(inode, file, cmd, arg);
\treturn 0;
}

static struct file_operations pm_ctl_fops = {
\t.owner\t= THIS_MODULE,
\t.ioctl\t= pm_ctl_ioctl,
};
"""
MODULE_HANDLER = HEAD + """static int pm_chan_ioctl(struct inode *inode, struct file *file,
\t\t\t unsigned int cmd, unsigned long arg)
{
\treturn cmd == 1 ? 0 : -EINVAL;
}

struct file_operations pm_fops[2] = {
\t{ .owner = THIS_MODULE, .ioctl = pm_chan_ioctl, },
\t{ .owner = THIS_MODULE, .ioctl = pm_chan_ioctl, },
};
"""
NO_LEGACY, LEGACY = ["--target", "6.1", "--no-compat"], ["--target", "2.6.20", "--lock", "mutex"]


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class MutexForwardingTest(ConvertRun):
    """Under a private mutex a call through a member named ioctl may reach
    a handler of its own file or module, which would take the mutex its
    caller holds: its file's handlers are left alone, each with the reason.
    Left on ->ioctl, the call denies the run where the target still has the
    legacy .ioctl (a driver converted there would have none); where it has
    none the refused file cannot build, and the call is listed."""

    def refusals(self, result) -> dict[str, str]:
        return {h.handler: h.reason for h in result.summary.handlers
                if h.status is not HandlerStatus.CONVERTED}

    def test_the_summary_records_both_handlers_of_the_file(self):
        for argv in (NO_LEGACY, LEGACY):
            with self.subTest(argv=argv):
                result = self.run_convert({"fp.c": SAME_FILE}, *argv)
                self.assertEqual(result.changes, {})
                self.assertFalse([h for h in result.summary.handlers
                                  if h.status is HandlerStatus.CONVERTED])
                said = self.refusals(result)
                for name in ("fp_lower_ioctl", "fp_upper_ioctl"):
                    self.assertIn("would take the mutex its caller holds", said[name])
                if argv is NO_LEGACY:
                    self.assertIn("fp_upper_ioctl may reach it through fp_lower->ioctl "
                                  "(line 23)", said["fp_lower_ioctl"])
                    self.assertIn("it calls through fp_lower->ioctl (line 23), which may reach "
                                  "fp_lower_ioctl of this file", said["fp_upper_ioctl"])
                    site = [h for h in result.summary.handlers if h.fops == "?"]
                    # The call, and the test of the member beside it (line 22).
                    self.assertEqual([(h.line, h.status) for h in site],
                                     [(22, HandlerStatus.SKIPPED), (23, HandlerStatus.SKIPPED)])
                    self.assertIn("a test of ->ioctl beside the call", site[0].reason)
                else:
                    self.assertTrue(result.failed)
                    self.assertIn("fp.c:23 (fp_upper_ioctl)", said["fp_lower_ioctl"])

    def test_every_stacker_spelling_is_refused(self):
        # The lower driver converts where no stacker can build; where they
        # can, it would leave them a NULL .ioctl: the run is denied.
        for argv in (NO_LEGACY, LEGACY):
            with self.subTest(argv=argv):
                result = self.run_convert({"lower.c": LOWER, **STACKERS}, *argv)
                said = self.refusals(result)
                for name in STACKERS:
                    self.assertIn("which may reach this handler itself" if argv is NO_LEGACY
                                  else "may reach a handler of its own file or kbuild module",
                                  said[name.removesuffix(".c") + "_ioctl"])
                self.assertEqual(sorted(result.changes),
                                 ["lower.c"] if argv is NO_LEGACY else [])
                if argv is LEGACY:
                    self.assertIn("no handler of the run is converted", said["low_ioctl"])

    def test_two_files_of_one_module_are_both_left(self):
        files = {"ctl.c": MODULE_FORWARDER, "chan.c": MODULE_HANDLER,
                 "Makefile": "obj-m += pm.o\npm-objs := ctl.o chan.o\n"}
        for argv in (NO_LEGACY, LEGACY):
            with self.subTest(argv=argv):
                result = self.run_convert(files, *argv)
                self.assertEqual(result.changes, {})
                said = self.refusals(result)
                self.assertIn("it calls through pm_fops[1].ioctl (line 10)"
                              if argv is NO_LEGACY else "a call through pm_fops[1].ioctl may "
                              "reach a handler of its own file", said["pm_ctl_ioctl"])
                self.assertIn("ctl.c", said["pm_chan_ioctl"])
                self.assertIn("pm_ctl_ioctl", said["pm_chan_ioctl"])

    def test_without_the_mutex_the_same_file_converts(self):
        result = self.run_convert({"fp.c": SAME_FILE}, "--target", "2.6.11")
        self.assertFalse(result.failed, self.refusals(result))
        self.assertRegex(result.changes["fp.c"][1].decode(),
                         r"forward_ioctl\(fp_lower, \w+, file, cmd, arg\)")


# Calls alone (no test of the member), spelled as stacking drivers spell
# them: what the multi-kernel output of each must compile on every kernel.
CALLERS = {
    "ret.c": stacker("ret", """
\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
"""),
    "assign.c": stacker("assign", """\tint err;

\terr = lower->f_op->ioctl(lower->f_path.dentry->d_inode, lower, cmd, arg);
\treturn err;
"""),
    "deref.c": stacker("deref", """\tconst struct file_operations *fops = lower->f_op;

\treturn (*fops->ioctl)(lower->f_dentry->d_inode, lower, cmd, arg);
"""),
    "nested.c": stacker("nested", """
\tif (cmd != 0) {
\t\tint err = 0;

\t\terr = lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
\t\treturn err;
\t}
\treturn -EINVAL;
"""),
}

# A kernel of VERSION modelled in a few headers: its file_operations with
# or without the legacy member, HAVE_UNLOCKED_IOCTL where it is defined.
MODEL_FS = """\
#ifndef _MODEL_FS_H
#define _MODEL_FS_H
#define EINVAL\t22
#define ENOTTY\t25
#define NULL ((void *)0)
%(have)s
struct inode { unsigned int i_rdev; };
struct dentry { struct inode *d_inode; };
struct path { struct dentry *dentry; };
struct file_operations;
struct file {
\tstruct path f_path;
\tstruct dentry *f_dentry;
\tconst struct file_operations *f_op;
\tvoid *private_data;
};
static inline struct inode *file_inode(struct file *f) { return f->f_path.dentry->d_inode; }
struct module;
struct file_operations {
\tstruct module *owner;
%(members)s};
#endif
"""
MODEL_LEGACY = "\tint (*ioctl)(struct inode *, struct file *, unsigned int, unsigned long);\n"
MODEL_UNLOCKED = ("\tlong (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);\n"
            "\tlong (*compat_ioctl)(struct file *, unsigned int, unsigned long);\n")
MODELS = {
    # version: (has .ioctl, has .unlocked_ioctl and HAVE_UNLOCKED_IOCTL)
    (2, 6, 9): (True, False),
    (2, 6, 20): (True, True),
    (2, 6, 36): (False, True),
    (2, 6, 38): (False, True),
}
HAVE_GCC = shutil.which("gcc") is not None


@unittest.skipUnless(HAVE_SPATCH and HAVE_GCC, "spatch or gcc is not installed")
class MultiKernelCompilesTest(ConvertRun):
    """--multi-kernel output compiles on the kernels it is for: the
    fallback helper calls ->ioctl only below 2.6.36, which removed the
    member but kept HAVE_UNLOCKED_IOCTL (gcc -Wall -Werror on models)."""

    def model(self, version: tuple[int, int, int]) -> Path:
        legacy, unlocked = MODELS[version]
        root = self.tmp / ("model-%d.%d.%d" % version)
        linux = root / "linux"
        linux.mkdir(parents=True)
        (linux / "fs.h").write_text(MODEL_FS % {
            "have": "#define HAVE_UNLOCKED_IOCTL 1\n#define HAVE_COMPAT_IOCTL 1"
                    if unlocked else "",
            "members": (MODEL_LEGACY if legacy else "") + (MODEL_UNLOCKED if unlocked else "")})
        (linux / "module.h").write_text("#define THIS_MODULE ((struct module *)0)\n")
        (linux / "smp_lock.h").write_text("void lock_kernel(void);\nvoid unlock_kernel(void);\n")
        (linux / "version.h").write_text(
            "#define LINUX_VERSION_CODE %d\n"
            "#define KERNEL_VERSION(a,b,c) (((a) << 16) + ((b) << 8) + (c))\n"
            % ((version[0] << 16) + (version[1] << 8) + version[2]))
        return root

    def compile(self, text: str, version: tuple[int, int, int], name: str) -> str:
        source = self.tmp / ("built-%d.%d.%d-" % version + name)
        source.write_text(text)
        proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror",
                               "-Wno-unused-function", "-I", str(self.model(version)),
                               str(source)], capture_output=True, text=True)
        shutil.rmtree(self.tmp / ("model-%d.%d.%d" % version))
        return proc.stderr if proc.returncode else ""

    def compile_each(self, texts: dict[str, str], version: tuple[int, int, int]) -> dict[str, str]:
        """compile() of each of TEXTS (name: text): one gcc for them all,
        each file its own translation unit, and each alone again only when
        that gcc fails, for the words of the one that did."""
        sources = []
        for name, text in texts.items():
            sources.append(self.tmp / ("built-%d.%d.%d-" % version + name))
            sources[-1].write_text(text)
        proc = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Werror",
                               "-Wno-unused-function", "-I", str(self.model(version)),
                               *map(str, sources)], capture_output=True, text=True)
        shutil.rmtree(self.tmp / ("model-%d.%d.%d" % version))
        if proc.returncode == 0:
            return {name: "" for name in texts}
        return {name: self.compile(text, version, name) for name, text in texts.items()}

    def test_the_inputs_compile_where_the_legacy_member_is(self):
        # The models themselves: the drivers as written build on 2.6.9 and
        # 2.6.20, and the legacy call is what breaks on 2.6.36.
        for name, text in CALLERS.items():
            for version in MODELS:
                with self.subTest(name=name, version=version):
                    said = self.compile(text, version, name)
                    if MODELS[version][0]:
                        self.assertEqual(said, "")
                    else:
                        self.assertIn("ioctl", said)

    def converted_multi_kernel(self, target: str) -> dict[str, str]:
        """CALLERS and STACKERS beside LOWER converted --multi-kernel for
        TARGET, every handler converted: the new text of each file.  One
        run for both tests (the module's cache answers the second): the
        drivers name nothing of each other."""
        result = self.run_convert({"lower.c": LOWER, **CALLERS, **STACKERS},
                                  "--target", target, "--multi-kernel")
        self.assertFalse(result.failed, [h.reason for h in result.summary.handlers
                                         if h.status is not HandlerStatus.CONVERTED])
        return {name: new.decode() for name, (_, new) in result.changes.items()}

    def test_every_target_with_the_fallback_compiles_on_every_kernel(self):
        for target in ("2.6.11", "2.6.36", "2.6.37", "2.6.38"):
            with self.subTest(target=target):
                changes = self.converted_multi_kernel(target)
                for name in CALLERS:
                    self.assertIn("#include <linux/version.h>", changes[name], name)
                for version in MODELS:
                    said = self.compile_each({name: changes[name] for name in CALLERS}, version)
                    for name in CALLERS:
                        self.assertEqual(said[name], "", f"{target}: {name} on {version}")

    def test_every_member_test_compiles_and_answers_on_every_kernel(self):
        # The member tests of STACKERS (negated in an ||, in an && with
        # != NULL, a ternary, == NULL through a local fops): below 2.6.36
        # "has a handler" is either member, from 2.6.36 (no .ioctl, yet
        # HAVE_UNLOCKED_IOCTL) ->unlocked_ioctl alone.  Run on each model
        # against a lower fops with ->unlocked_ioctl (7), with .ioctl (8)
        # where the kernel has it, and with neither (-ENOTTY).
        # make check runs each target and each spelling on every kernel
        # at least once, make test every pair (tiers.cover); each output
        # compiles on every kernel in both.
        targets = ("2.6.11", "2.6.36", "2.6.37", "2.6.38")
        answered = cover(targets, STACKERS)
        for target in targets:
            with self.subTest(target=target):
                changes = self.converted_multi_kernel(target)
                for version in MODELS:
                    said = self.compile_each({name: changes[name] for name in STACKERS}, version)
                    for name in STACKERS:
                        self.assertEqual(said[name], "", f"{target}: {name} on {version}")
                        if (target, name) not in answered:
                            continue
                        self.assertEqual(self.answers(changes[name], version, name[:-2]),
                                         self.kernel_answers(version),
                                         f"{target}: {name} on {version}")

    @staticmethod
    def kernel_answers(version: tuple[int, int, int]) -> list[int]:
        legacy, unlocked = MODELS[version]
        return ([7] if unlocked else []) + ([8] if legacy else []) + [-25]

    def answers(self, text: str, version: tuple[int, int, int], name: str) -> list[int]:
        """What the handler NAME_ioctl of TEXT returns on the model of
        VERSION for each lower fops of kernel_answers, in that order."""
        legacy, unlocked = MODELS[version]
        lowers = ([".unlocked_ioctl = lower_unlocked"] if unlocked else []) + \
            ([".ioctl = lower_legacy"] if legacy else []) + [".owner = 0"]
        entry = (f"{name}_fops.unlocked_ioctl(&top, 1, 0)" if unlocked else
                 f"{name}_fops.ioctl(&node, &top, 1, 0)")
        harness = text + f"""
#include <stdio.h>
void lock_kernel(void) {{}}
void unlock_kernel(void) {{}}
static long lower_unlocked(struct file *f, unsigned int c, unsigned long a) {{ return 7; }}
static int lower_legacy(struct inode *i, struct file *f, unsigned int c, unsigned long a)
{{ return 8; }}
static const struct file_operations lowers[] = {{ {{ {" }, { ".join(lowers)} }} }};
int main(void)
{{
\tunsigned int n;
\tstruct inode node;
\tstruct dentry d = {{ &node }};
\tfor (n = 0; n < sizeof(lowers) / sizeof(lowers[0]); n++) {{
\t\tstruct file lower = {{ {{ &d }}, &d, &lowers[n], 0 }};
\t\tstruct file top = {{ {{ &d }}, &d, 0, &lower }};
\t\tprintf("%d\\n", (int){entry});
\t}}
\treturn 0;
}}
"""
        source = self.tmp / ("run-%d.%d.%d-" % version + name + ".c")
        source.write_text(harness)
        binary = self.tmp / ("run-%d.%d.%d-" % version + name)
        built = subprocess.run(["gcc", "-w", "-I", str(self.model(version)), "-o", str(binary),
                                str(source)], capture_output=True, text=True)
        shutil.rmtree(self.tmp / ("model-%d.%d.%d" % version))
        self.assertEqual(built.returncode, 0, built.stderr)
        ran = subprocess.run([str(binary)], capture_output=True, text=True, timeout=30)
        return [int(word) for word in ran.stdout.split()]


class DeniedTest(unittest.TestCase):
    def refused(self, rel: str, line: int, function: str) -> HandlerRecord:
        return HandlerRecord(rel, line, "?", function, HandlerStatus.FAILED, "why")

    def test_nothing_refused_denies_nothing(self):
        self.assertEqual(forwarding.denied(forwarding.Forwarded(), ["a.c", "b.c"]), {})

    def test_every_file_is_denied_naming_the_first_site(self):
        done = forwarding.Forwarded(refused=[self.refused("s/z.c", 9, "z"),
                                             self.refused("s/y.c", 4, "y")])
        said = forwarding.denied(done, ["a.c", "s/y.c", "s/z.c"])
        self.assertEqual(sorted(said), ["a.c", "s/y.c", "s/z.c"])
        self.assertIn("s/y.c:4 (y) and 1 more could not be converted", said["a.c"])
        self.assertIn("at s/y.c:4 (y) could not be converted (why): the file is left",
                      said["s/y.c"])
        self.assertIn("at s/z.c:9 (z) could not be converted (why): the file is left",
                      said["s/z.c"])
        self.assertIn("could not be converted (why), and it may reach", said["a.c"])


if __name__ == "__main__":
    unittest.main()

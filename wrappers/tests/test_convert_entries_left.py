"""convert: a handler converted for the entries the rule reads goes back
when an entry the rule does not read may still store it in .ioctl.

Seen by the integrator after audit34 taught the finder macro-written
entries: `#define FOPS_ENTRY(p) .ioctl = p##_ioctl,` used as
`FOPS_ENTRY(me)` beside a plain `.ioctl = me_ioctl` in another fops.  The
rule converted me_ioctl for the plain entry and left the macro's entry
alone, so the macro's fops held `long me_ioctl(struct file *, ...)` in its
legacy member: the VFS would call it with the inode first.  The run said
"failed" for the macro's line but wrote the file.

Spellings that may store the handler (its files go back): a pasted name,
a parameter of a function-like macro passed the handler, an object-like
macro naming it, a macro used in another macro's body (where the use
spells the name, the rule keeps the handler's legacy signature behind a
wrapper, which is right too).  Kept: a macro whose uses pass another
handler, a pasted name whose literal part no converted handler has."""

import unittest

from ioctl_rework.convert import entries_left
from ioctl_rework.ctext import ioctl_tokens
from ioctl_rework.convert.summary import HandlerStatus
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

HANDLERS = """#include <linux/module.h>
#include <linux/fs.h>

%s

static int me_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	return cmd == 1 ? 0 : -ENOTTY;
}

static int other_ioctl(struct inode *inode, struct file *file,
		       unsigned int cmd, unsigned long arg)
{
	return -EINVAL;
}

static struct file_operations plain_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= me_ioctl,
};

%s
MODULE_LICENSE("GPL");
"""

# (the macro, its use): each may store me_ioctl in a legacy member
MAY_STORE = {
    "pasted name": ("#define FOPS_ENTRY(p) .ioctl = p##_ioctl,",
                    "static struct file_operations m_fops = {\n\tFOPS_ENTRY(me)\n};"),
    "pasted prefix": ("#define FOPS_ENTRY(p) .ioctl = me_##p,",
                      "static struct file_operations m_fops = {\n\tFOPS_ENTRY(ioctl)\n};"),
    "macro parameter": ("#define DECLARE_FOPS(name, h) static struct file_operations name = "
                        "{ .owner = THIS_MODULE, .ioctl = h, }",
                        "DECLARE_FOPS(m_fops, me_ioctl);"),
    "object-like macro": ("#define ME_ENTRY .ioctl = me_ioctl,",
                          "static struct file_operations m_fops = {\n\tME_ENTRY\n};"),
    "used in another macro": ("#define DECLARE_FOPS(name, h) static struct file_operations name"
                              " = { .ioctl = h, }\n#define ME_FOPS(n) DECLARE_FOPS(n, me_ioctl)",
                              "ME_FOPS(m_fops);"),
}
# spellings whose use names me_ioctl: the rule keeps its legacy signature
SPELLED = {"macro parameter", "used in another macro"}
# (the macro, its use): no converted handler can be stored
KEEPS = {
    "another handler passed": ("#define DECLARE_FOPS(name, h) static struct file_operations "
                               "name = { .ioctl = h, }", "DECLARE_FOPS(m_fops, other_ioctl);"),
    "another pasted suffix": ("#define FOPS_ENTRY(p) .ioctl = p##_legacy,",
                              "static struct file_operations m_fops = {\n\tFOPS_ENTRY(me)\n};"),
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class EntriesLeftTest(CrossFileCase):
    def convert(self, macro: str, use: str):
        self.write({"drivers/char/me.c": HANDLERS % (macro, use),
                    "drivers/char/Makefile": "obj-m += me.o\n"})
        return self.run_convert("--target", "2.6.20", "--no-compat", "--no-kernel-headers")

    def test_a_handler_an_unread_entry_may_store_is_put_back(self):
        for spelling, (macro, use) in MAY_STORE.items():
            with self.subTest(spelling=spelling):
                result = self.convert(macro, use)
                records = [h for h in result.summary.handlers if h.handler == "me_ioctl"]
                if spelling in SPELLED:
                    # the rule sees the name with its old signature and keeps
                    # it: its wrapper calls it, and the macro's entry holds it
                    self.assertIn("static int me_ioctl(struct inode *inode",
                                  self.new(result, "drivers/char/me.c"))
                    continue
                self.assertNotIn("drivers/char/me.c", result.changes)
                self.assertNotIn(HandlerStatus.CONVERTED, {h.status for h in records})
                # the rule itself leaves a handler an object-like macro names;
                # a pasted name is put back by the entry check
                if spelling != "object-like macro":
                    failed = [h for h in records if h.status is HandlerStatus.FAILED]
                    self.assertTrue(failed, records)
                    self.assertIn("the entry check failed", failed[0].reason)
                    self.assertIn("may store me_ioctl", failed[0].reason)

    def test_a_handler_no_unread_entry_may_store_converts(self):
        for spelling, (macro, use) in KEEPS.items():
            with self.subTest(spelling=spelling):
                result = self.convert(macro, use)
                self.assertIn("long me_ioctl(struct file *file",
                              self.new(result, "drivers/char/me.c"))
                self.assertEqual(self.handler(result, "me_ioctl").status,
                                 HandlerStatus.CONVERTED)


POLLING = """#include <linux/module.h>
#include <linux/fs.h>
#include <linux/delay.h>

static int mx_flag;
static int mx_count;
static int mx_other;

static int mx_a_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	%s
	return 0;
}

static int mx_b_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	while (!mx_flag)
		msleep(10);
	mx_count++;
	return 0;
}

static struct file_operations mx_a_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mx_a_ioctl,
};

static struct file_operations mx_b_fops = {
	.owner	= THIS_MODULE,
	.ioctl	= mx_b_ioctl,
};
MODULE_LICENSE("GPL");
"""
# the body of the handler that converts: what it shares with the one refused
SHARES = {
    "a counter both write": "mx_count++;",
    "the flag the other polls": "mx_flag = 1;",
    "a call out of the file": "mx_external_poke();",
}


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class BesideTheBklTest(CrossFileCase):
    """Mutex mode: a handler refused (a poll loop) stays on .ioctl under the
    BKL; one of its file converted to the private mutex no longer excludes
    it.  Found by glue34; the check puts back a handler that may share state
    (shared_state proves none here: msleep is a call out of the file)."""

    def convert(self, body: str, lock: str):
        self.write({"drivers/char/mx.c": POLLING % body,
                    "drivers/char/Makefile": "obj-m += mx.o\n"})
        return self.run_convert("--target", "6.1", "--lock", lock, "--no-compat",
                                "--no-kernel-headers")

    def test_a_handler_that_may_share_state_with_one_left_under_the_bkl_goes_back(self):
        for spelling, body in SHARES.items():
            with self.subTest(spelling=spelling):
                result = self.convert(body, "mutex")
                self.assertNotIn("drivers/char/mx.c", result.changes)
                record = self.handler(result, "mx_a_ioctl")
                self.assertEqual(record.status, HandlerStatus.FAILED)
                self.assertIn("the BKL check failed", record.reason)
                self.assertIn("mx.c:32", record.reason)     # mx_b_fops' entry, old line

    def test_under_the_bkl_both_convert(self):
        # the BKL is dropped while a handler sleeps: the poll loop converts,
        # and nothing stays on .ioctl
        result = self.convert("mx_count++;", "bkl")
        new = self.new(result, "drivers/char/mx.c")
        self.assertIn("static long mx_a_ioctl(struct file *file", new)
        self.assertNotRegex(new, r"\.ioctl\s*=")


class MayStoreTest(unittest.TestCase):
    """entries_left's reading of a value, without spatch."""

    def may_store(self, text: str, name: str) -> bool:
        token = next(t for t in ioctl_tokens.tokens(text) if t.use in
                     (ioctl_tokens.Use.ENTRY, ioctl_tokens.Use.ASSIGNMENT))
        return entries_left._may_store(text, token)(name)

    def test_values(self):
        pasted = "#define E(p) .ioctl = p##_ioctl,\nstatic struct file_operations f = { E(x) };\n"
        self.assertTrue(self.may_store(pasted, "me_ioctl"))
        self.assertFalse(self.may_store(pasted, "me_open"))
        passed = ("#define D(n, h) static struct file_operations n = { .ioctl = h, }\n"
                  "D(a, one_ioctl);\nD(b,\n  two_ioctl);\n")
        self.assertTrue(self.may_store(passed, "one_ioctl"))
        # a use whose arguments run over lines is not read: any name
        self.assertTrue(self.may_store(passed, "three_ioctl"))
        one_line = ("#define D(n, h) static struct file_operations n = { .ioctl = h, }\n"
                    "D(a, one_ioctl);\n#ifdef D\n#endif\n")
        self.assertFalse(self.may_store(one_line, "three_ioctl"))
        plain = "static struct file_operations f = { .ioctl = (&x_ioctl), };\n"
        self.assertTrue(self.may_store(plain, "x_ioctl"))
        self.assertFalse(self.may_store(plain, "y_ioctl"))


if __name__ == "__main__":
    unittest.main()

"""red34: GCC's computed goto (`goto *p;`, labels as values) in a handler
(bench/adversarial red34_cgoto, longjmp-style error exits picked at run
time).  On main the proof could not follow it: every strategy failed the
handler, the wrapper too, whose lock the body never touches.  A computed
goto now reaches every label of the function: a conversion that releases
the lock on each of them is proven, one that misses the unlock at a label
only the computed goto reaches is rejected at that label's return, in
each spelling (bare, through a macro of the file, with the target in a
table); a computed goto in a function without labels stays unprovable."""

import unittest

from lockproof_helpers import messages, prove

LEGACY = """#include <linux/fs.h>

static int cg_sent;
{decl}
static int cg_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
\tvoid *bail = &&out_inval;
{legacy}
}}

static struct file_operations cg_fops = {{ .ioctl = cg_ioctl, }};
"""
PUSHED = """#include <linux/fs.h>
#include <linux/smp_lock.h>

static int cg_sent;
{decl}
static long cg_ioctl(struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{{
\tvoid *bail;
\tint ret;

\tlock_kernel();
\tbail = &&out_inval;
{pushed}
}}

static struct file_operations cg_fops = {{ .unlocked_ioctl = cg_ioctl, }};
"""
BODY = """\tcg_sent++;
\tif (cmd == 2)
\t\tbail = &&out_busy;
\tif (arg > 2)
\t\t{jump};
{ret}
out_busy:
\tcg_sent += 2;
{busy}\treturn -EBUSY;
out_inval:
\tcg_sent--;
{inval}\treturn -EINVAL;"""
JUMPS = {
    "bare": ("", "goto *bail"),
    "a macro of the file": ("#define CG_BAIL() goto *bail\n", "CG_BAIL()"),
    "a table": ("", "goto *(arg > 5 ? bail : bail)"),
}
UNLOCK = "\tunlock_kernel();\n"


def body(jump: str, pushed: bool, busy: str = UNLOCK) -> str:
    if not pushed:
        return BODY.format(jump=jump, ret="\treturn cg_sent;", busy="", inval="")
    return BODY.format(jump=jump, ret="\tret = cg_sent;\n\tunlock_kernel();\n\treturn ret;", busy=busy,
                       inval=UNLOCK)


class ComputedGotoTest(unittest.TestCase):
    def proof(self, decl: str, jump: str, busy: str = UNLOCK) -> list[str]:
        old = LEGACY.format(decl=decl, legacy=body(jump, False))
        new = PUSHED.format(decl=decl, pushed=body(jump, True, busy))
        return messages(prove(old, new, {"cg_ioctl": "cg_ioctl"}))

    def test_a_pushdown_that_unlocks_at_every_label_is_proven(self):
        for spelling, (decl, jump) in JUMPS.items():
            with self.subTest(spelling):
                self.assertEqual(self.proof(decl, jump), [])

    def test_a_label_reached_only_by_the_computed_goto_must_unlock(self):
        for spelling, (decl, jump) in JUMPS.items():
            with self.subTest(spelling):
                found = self.proof(decl, jump, busy="")
                self.assertEqual(len(found), 1, found)
                self.assertIn("leaves the BKL held", found[0])

    def test_a_computed_goto_without_labels_is_unprovable(self):
        old = LEGACY.format(decl="", legacy="\tgoto *bail;")
        new = PUSHED.format(decl="", pushed="\tgoto *bail;")
        found = messages(prove(old, new, {"cg_ioctl": "cg_ioctl"}))
        self.assertTrue(found and all(m.startswith("unprovable:") for m in found), found)


if __name__ == "__main__":
    unittest.main()

"""red34: a converted handler that still names its dropped inode.

bench/adversarial red34_regparm, with plain parameters: a handler that
uses its inode (in a const declaration initializer) beside a K&R
definition of another handler in the same file.  On main, --strategy
wrapper (and auto) dropped the inode parameter without the derived local,
exit 0: a compile break the proof passed.  The proof now checks, on its
own, that every parameter of the legacy handler the converted one no
longer has is named only where the converted one declares it again; the
run fails the handler with that reason and writes nothing of its files.
Spellings: a declaration initializer, a return expression, a condition, a
macro of the file that names it, a statement; accepted: the derived
local, a member of the same name (->inode, .inode), and a body that does
not name it."""

import shutil
import tempfile
import unittest
from pathlib import Path

from lockproof_helpers import messages, prove
from test_convert import HAVE_SPATCH, parse_args

HEAD = "#include <linux/fs.h>\n\n"
LEGACY = HEAD + """{decl}static int dp_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{body}
}}

static struct file_operations dp_fops = {{ .ioctl = dp_ioctl, }};
"""
WRAPPED = HEAD + """{decl}static long dp_ioctl(struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{{
{new_body}
}}

static long dp_unlocked_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{{
\tint ret;

\tlock_kernel();
\tret = dp_ioctl(file, cmd, arg);
\tunlock_kernel();
\treturn ret;
}}

static struct file_operations dp_fops = {{ .unlocked_ioctl = dp_unlocked_ioctl, }};
"""
DERIVED = "\tstruct inode *inode = file->f_dentry->d_inode;\n"

# body of the legacy handler (the converted one keeps it, without a local)
NAMING = {
    "const initializer": "\tconst int unit = iminor(inode) & 3;\n\n\treturn unit + cmd;",
    "return expression": "\treturn iminor(inode) + cmd;",
    "condition": "\tif (inode->i_rdev)\n\t\treturn 1;\n\treturn 0;",
    "macro of the file": "\treturn DP_UNIT() + cmd;",
    "statement": "\tinode->i_private = 0;\n\treturn 0;",
}
NOT_NAMING = {
    "a member named inode": "\tstruct dp_pair *p = file->private_data;\n\n"
                            "\tp->inode = 0;\n\treturn file->f_dentry->d_inode != 0;",
    "no use": "\treturn cmd;",
    "the struct tag": "\treturn sizeof(struct inode) + cmd;",
}
DECL = "#define DP_UNIT() iminor(inode)\n\nstruct dp_pair {\n\tvoid *inode;\n};\n\n"


def proof(body: str, new_body: str) -> list[str]:
    old = LEGACY.format(decl=DECL, body=body)
    new = WRAPPED.format(decl=DECL, new_body=new_body)
    return messages(prove(old, new, {"dp_ioctl": "dp_unlocked_ioctl"}))


class DroppedParameterTest(unittest.TestCase):
    def test_a_use_without_a_declaration_is_rejected(self):
        for spelling, body in NAMING.items():
            with self.subTest(spelling):
                found = proof(body, body)
                self.assertEqual(len(found), 1, found)
                self.assertIn("inode at line", found[0])
                self.assertIn("names a parameter of the legacy handler that the converted "
                              "one neither has nor declares: it would not build", found[0])

    def test_the_derived_local_is_accepted(self):
        for spelling, body in NAMING.items():
            with self.subTest(spelling):
                self.assertEqual(proof(body, DERIVED + body), [])

    def test_bodies_that_do_not_name_it_are_accepted(self):
        for spelling, body in NOT_NAMING.items():
            with self.subTest(spelling):
                self.assertEqual(proof(body, body), [])


# red34_regparm of the adversarial set with plain parameters: its K&R
# neighbour (reordered declarations) kept the rule from deriving the inode.
KNR_NEIGHBOUR = (Path(__file__).resolve().parents[2] / "bench" / "adversarial" / "tree" /
                 "drivers" / "adv" / "red34_regparm.c").read_text().replace(
    "register struct inode *const inode", "struct inode *inode").replace(
    "struct file *const file, const unsigned int cmd", "struct file *file, unsigned int cmd"
).replace("register unsigned long arg)", "unsigned long arg)")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class KnrNeighbourTest(unittest.TestCase):
    def test_the_handler_is_not_written_without_its_inode(self):
        from ioctl_rework.convert import cli as convert
        from ioctl_rework.convert.summary import HandlerStatus
        tmp = Path(tempfile.mkdtemp(prefix="red34-knr-"))
        self.addCleanup(shutil.rmtree, tmp)
        (tmp / "rp.c").write_text(KNR_NEIGHBOUR)
        for strategy in ("wrapper", "auto"):
            with self.subTest(strategy):
                args = parse_args(["--no-cache", "-q", "--no-kernel-headers", "--target",
                                   "2.6.11", "--strategy", strategy, "--", str(tmp / "rp.c")])
                result = convert.convert(convert.request_from_args(args))
                [record] = [h for h in result.summary.handlers if h.handler == "rp_ioctl"]
                if record.status is HandlerStatus.CONVERTED:
                    # converted only with the inode derived from the file
                    (_, new), = result.changes.values()
                    self.assertIn("struct inode *inode", new.decode())
                else:
                    # failed by the proof (wrapper), or refused before it (auto)
                    self.assertEqual(result.changes, {}, record.reason)
                    if strategy == "wrapper":
                        self.assertIn("neither has nor declares", record.reason)


if __name__ == "__main__":
    unittest.main()

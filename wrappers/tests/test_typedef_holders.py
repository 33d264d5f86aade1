"""An `.ioctl` entry of a structure declared through a typedef'd name.

ALSA's `static snd_pcm_ops_t foo_ops = { .ioctl = snd_pcm_lib_ioctl }`:
snd_pcm_ops_t is a typedef of struct _snd_pcm_ops (<sound/pcm.h>), not a
file_operations.  fops_holders names the typedef of the holder;
member_types proves the struct through a typedef READ in the file or a
header it includes; the accounting lists a proven one as an
"other-structure" token naming the structure (never a FAILED entry, never
counted among the fops entries).  Anything not proven (an unread typedef,
a pointer typedef, a #define alias, a typedef of file_operations,
typedefs that disagree, a structure whose body is not read) stays a
FAILED entry, as before.
"""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import accounting
from ioctl_rework.convert.summary import HandlerStatus, Summary
from ioctl_rework.ctext import fops_holders, ioctl_tokens
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"
OPS_BODY = ("{\n\tint (*open)(void *substream);\n"
            "\tint (*ioctl)(void *substream, unsigned int cmd, void *arg);\n}")
# <sound/pcm.h> of the tree, as 2.6.9 writes it.
PCM_H = f"#ifndef PCM_H\n#define PCM_H\ntypedef struct _snd_pcm_ops {OPS_BODY} snd_pcm_ops_t;\n#endif\n"
FS_H = ("struct file_operations {\n\tint (*ioctl) (struct inode *, struct file *, "
        "unsigned int, unsigned long);\n};\n")
OPS = "\t.open = x_open,\n\t.ioctl = snd_pcm_lib_ioctl,\n"


def declared(spelling: str) -> str:
    """A driver declaring SPELLING (`static snd_pcm_ops_t x_ops`) with OPS."""
    if spelling.endswith("]"):
        return f"{spelling} = {{\n\t{{\n{OPS}\t}},\n\t[1] = {{ .ioctl = snd_pcm_lib_ioctl }},\n}};\n"
    return f"{spelling} = {{\n{OPS}}};\n"


class AccountingCase(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="typedef-holders-"))
        self.addCleanup(shutil.rmtree, self.root)

    def account(self, files: dict[str, str], rel: str = "sound/pci/x.c",
                root: bool = True) -> accounting.Accounting:
        for name, text in {"Makefile": TOP, "include/linux/fs.h": FS_H,
                           "sound/pci/Makefile": "obj-m += x.o\n", **files}.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        data = files[rel].encode()
        return accounting.account(Summary("/", "2.6.11", {}, "1.1.1", 0.0), {rel: (data, data)},
                                  self.root if root else None)

    def assert_other(self, found: accounting.Accounting, structure: str, count: int) -> None:
        self.assertEqual(found.records, [])
        self.assertEqual(len(found.tokens), count)
        for token in found.tokens:
            self.assertEqual(token.kind, "other-structure")
            self.assertIn(f"struct {structure}", token.reason)

    def assert_failed(self, found: accounting.Accounting, count: int) -> None:
        self.assertEqual(found.tokens, [])
        self.assertEqual(len(found.records), count)
        for record in found.records:
            self.assertEqual(record.status, HandlerStatus.FAILED)
            self.assertEqual(record.handler, "snd_pcm_lib_ioctl")


class ProvenTest(AccountingCase):
    def test_a_typedef_read_in_a_tree_header_in_each_declaration(self):
        for spelling, count in [("static snd_pcm_ops_t x_ops", 1),
                                ("snd_pcm_ops_t x_ops", 1),
                                ("static const snd_pcm_ops_t x_ops", 1),
                                ("static snd_pcm_ops_t const x_ops", 1),
                                ("static snd_pcm_ops_t x_ops[]", 2),
                                ("static const snd_pcm_ops_t x_ops[2]", 2)]:
            with self.subTest(spelling=spelling):
                text = "#include <sound/pcm.h>\n\n" + declared(spelling)
                found = self.account({"include/sound/pcm.h": PCM_H, "sound/pci/x.c": text})
                self.assert_other(found, "_snd_pcm_ops", count)
                self.assertIn("snd_pcm_ops_t (x_ops", found.tokens[0].reason)

    def test_a_typedef_in_a_quoted_header_in_the_file_and_through_two_typedefs(self):
        for files in [
                {"sound/pci/x.h": f"typedef struct card_ops {OPS_BODY} snd_pcm_ops_t;\n",
                 "sound/pci/x.c": '#include "x.h"\n' + declared("static snd_pcm_ops_t x_ops")},
                {"sound/pci/x.c": f"struct card_ops {OPS_BODY};\n"
                                  "typedef struct card_ops snd_pcm_ops_t;\n"
                                  + declared("static snd_pcm_ops_t x_ops")},
                {"sound/pci/x.h": f"struct card_ops {OPS_BODY};\n"
                                  "typedef struct card_ops base_t;\ntypedef base_t snd_pcm_ops_t;\n",
                 "sound/pci/x.c": '#include "x.h"\n' + declared("static snd_pcm_ops_t x_ops")}]:
            with self.subTest(files=files):
                self.assert_other(self.account(files), "card_ops", 1)

    def test_a_declared_struct_stays_other(self):
        text = f"struct snd_ops {OPS_BODY};\n" + declared("static struct snd_ops x_ops")
        found = self.account({"sound/pci/x.c": text})
        self.assertEqual(found.records, [])
        self.assertEqual([t.kind for t in found.tokens], ["other-structure"])


class UnprovenTest(AccountingCase):
    def test_an_unread_typedef_stays_failed(self):
        text = "#include <sound/pcm.h>\n\n" + declared("static snd_pcm_ops_t x_ops")
        self.assert_failed(self.account({"sound/pci/x.c": text}), 1)          # no header
        self.write_pcm_and_assert(text, root=False)                         # not read

    def write_pcm_and_assert(self, text: str, root: bool) -> None:
        found = self.account({"include/sound/pcm.h": PCM_H, "sound/pci/x.c": text}, root=root)
        self.assert_failed(found, 1)

    def test_each_typedef_that_is_not_proof_stays_failed(self):
        for header, count in [
                # a typedef of file_operations: an entry
                ("typedef struct file_operations snd_pcm_ops_t;\n", 1),
                ("typedef const struct file_operations snd_pcm_ops_t;\n", 1),
                # a pointer, an unread form, a macro alias, two that disagree
                (f"struct _snd_pcm_ops {OPS_BODY};\ntypedef struct _snd_pcm_ops *snd_pcm_ops_t;\n", 1),
                (f"struct _snd_pcm_ops {OPS_BODY};\n"
                 "typedef struct _snd_pcm_ops snd_pcm_ops_t, *snd_pcm_ops_p;\n", 1),
                (f"struct _snd_pcm_ops {OPS_BODY};\n#define snd_pcm_ops_t struct _snd_pcm_ops\n", 1),
                (f"struct _snd_pcm_ops {OPS_BODY};\n#ifdef A\n"
                 "typedef struct _snd_pcm_ops snd_pcm_ops_t;\n#else\n"
                 "typedef struct file_operations snd_pcm_ops_t;\n#endif\n", 1),
                # a typedef of a macro; a structure whose body is not read
                (f"struct _snd_pcm_ops {OPS_BODY};\n#define OPS _snd_pcm_ops\n"
                 "typedef struct OPS snd_pcm_ops_t;\n", 1),
                ("typedef struct _snd_pcm_ops snd_pcm_ops_t;\n", 1)]:
            with self.subTest(header=header):
                text = "#include <sound/pcm.h>\n\n" + declared("static snd_pcm_ops_t x_ops")
                found = self.account({"include/sound/pcm.h": header, "sound/pci/x.c": text})
                self.assert_failed(found, count)


class AssignmentTest(AccountingCase):
    def test_an_assignment_to_a_headers_member_says_why_it_was_not_converted(self):
        # 2.6.9 sound/i2c/other/tea575x-tuner.c: `tea->fops` is a
        # file_operations of struct snd_tea575x, declared in a header.
        for statement, object_ in [("\ttea->fops.ioctl = x_ioctl;", "tea->fops"),
                                   ("\tcard->dev[1].fops.ioctl = x_ioctl;", "card->dev[1].fops"),
                                   ("\ttea->fops_p->ioctl = x_ioctl;", "tea->fops_p")]:
            with self.subTest(statement=statement):
                text = ("#include <sound/tea575x.h>\n\nvoid x_init(struct snd_tea575x *tea)\n{\n"
                        f"{statement}\n}}\n")
                found = self.account({"sound/i2c/x.c": text}, rel="sound/i2c/x.c")
                self.assertEqual([(r.line, r.handler, r.status) for r in found.records],
                                 [(5, "x_ioctl", HandlerStatus.FAILED)])
                self.assertIn(f"to a member of {object_}, whose structure the file does not "
                              "declare", found.records[0].reason)
                self.assertNotIn("spatch did not match", found.records[0].reason)


class HolderTest(unittest.TestCase):
    def holders(self, text: str) -> list:
        return [(t.holder.typedef, t.holder.name, t.holder.shape)
                for t in ioctl_tokens.tokens(text)]

    def test_the_typedef_and_name_of_each_declaration(self):
        unplaced, embedded = fops_holders.Shape.UNPLACED, fops_holders.Shape.EMBEDDED
        for text, expected in [
                ("static snd_pcm_ops_t a = {\n.ioctl = h,\n};\n",
                 [("snd_pcm_ops_t", "a", unplaced)]),
                ("int n;\nconst foo_t b = { .ioctl = h };\n", [("foo_t", "b", unplaced)]),
                ("static const foo_ops_t c[] = {\n{ .ioctl = h1 },\n[4] = { .ioctl = h2 },\n};\n",
                 [("foo_ops_t", "c[0]", embedded), ("foo_ops_t", "c[4]", embedded)]),
                # not the holder's own type: none
                ("x_t d = { .inner = { .ioctl = h } };\n", [(None, "d.inner", embedded)]),
                ("struct file_operations e = { .ioctl = h };\n",
                 [(None, "e", fops_holders.Shape.DECLARED)])]:
            with self.subTest(text=text):
                self.assertEqual(self.holders(text), expected)

    def test_a_typedefd_array_element_stays_a_legacy_entry(self):
        # It may be a file_operations: the audit keeps counting it.
        text = "static const fops_t c[] = {\n{ .ioctl = h1 },\n};\n"
        self.assertEqual([t.line for t in ioctl_tokens.legacy_entries(text)], [2])


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ConvertTest(CrossFileCase):
    def test_the_run_counts_only_the_fops_entry_and_lists_the_pcm_ops(self):
        driver = ("#include <linux/fs.h>\n#include <sound/pcm.h>\n\n"
                  "static int x_ioctl(struct inode *inode, struct file *file,\n"
                  "\t\t   unsigned int cmd, unsigned long arg)\n{\n\treturn -ENOTTY;\n}\n\n"
                  "static struct file_operations x_fops = {\n\t.ioctl\t= x_ioctl,\n};\n\n"
                  + declared("static snd_pcm_ops_t x_ops"))
        self.write({"include/sound/pcm.h": PCM_H, "include/linux/fs.h": FS_H,
                    "sound/pci/x.c": driver, "sound/pci/Makefile": "obj-m += x.o\n"})
        result = self.run_convert("--target", "2.6.11")
        handlers = [(h.handler, h.status) for h in result.summary.handlers]
        self.assertEqual(handlers, [("x_ioctl", HandlerStatus.CONVERTED)])
        self.assertEqual(result.summary.totals()["fops"], 1)
        ops_line = driver.split("\n").index("\t.ioctl = snd_pcm_lib_ioctl,") + 1
        self.assertEqual([(t.file, t.line, t.kind) for t in result.summary.tokens],
                         [("sound/pci/x.c", ops_line, "other-structure")])
        self.assertIn("struct _snd_pcm_ops", result.summary.tokens[0].reason)


if __name__ == "__main__":
    unittest.main()

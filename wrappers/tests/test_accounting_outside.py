"""Entries outside a run's paths, and run-time assignments to another
structure's ioctl (convert/accounting.py).

A run over drivers/ reads files elsewhere that share a handler name with
its own (2.6.9: sound/oss's mixer_ioctl, arch/*'s static rtc_ioctl,
net/socket.c's sock_ioctl).  Their entries are not this run's: listed as
"outside" with the path a run would need, never silently dropped, never
a failure of the run, but only where the entry provably reaches no
handler the run converted: its own file defines the handler, or no
handler of that name was converted.  A file that names a converted
handler without defining it may call that very function with the legacy
arguments: it fails, in those words.  A run-time assignment whose
structure member_types proves another one (`sock->ops->ioctl = h;`,
`hw->ops.ioctl = h;`) is no entry; an unproven one stays failed.
"""

import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import accounting
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import HandlerRecord, HandlerStatus, Summary
from test_convert_crossfile import HAVE_SPATCH, CrossFileCase

HEAD = "#include <linux/fs.h>\n\n"
DEFINED = ("static int {name}(struct inode *inode, struct file *file,\n"
           "\t\t     unsigned int cmd, unsigned long arg)\n{{\n\treturn 0;\n}}\n\n")
# How an entry outside the run names its handler: spellings of one class.
ENTRIES = [
    "static struct file_operations o_fops = {{\n\t.ioctl =\t{name},\n}};\n",
    "static struct file_operations o_fops = {{\n\t.ioctl          = &{name},\n}};\n",
    "static struct file_operations o_fops = {{\n\tioctl:\t\t{name},\n}};\n",
    "static struct file_operations o_fops[] = {{\n\t{{ .owner = 0, .ioctl = {name} }},\n}};\n",
]
OUTSIDE = "sound/oss/o.c"


def converted(name: str) -> Summary:
    """A summary in which the run converted a handler NAME in drivers/."""
    summary = Summary("/", "2.6.11", {}, "1.1.1", 0.0)
    summary.handlers.append(HandlerRecord("drivers/char/rtc.c", 9, "rtc_fops", name,
                                          HandlerStatus.CONVERTED, strategy="pushdown"))
    return summary


def account(text: str, summary: Summary, rel: str = OUTSIDE,
            paths: tuple[str, ...] | None = ("drivers",)) -> list[HandlerRecord]:
    data = (HEAD + text).encode()
    return accounting.account(summary, {rel: (data, data)}, None, paths).records


class OutsideTest(unittest.TestCase):
    def test_an_entry_whose_handler_its_file_defines_is_outside(self):
        # arch/m68k/bvme6000/rtc.c: its own static rtc_ioctl.
        for entry in ENTRIES:
            with self.subTest(entry=entry):
                text = DEFINED.format(name="rtc_ioctl") + entry.format(name="rtc_ioctl")
                records = account(text, converted("rtc_ioctl"))
                self.assertEqual([(r.status, r.handler) for r in records],
                                 [(HandlerStatus.OUTSIDE, "rtc_ioctl")])
                self.assertIn("outside this run's paths (drivers)", records[0].reason)
                self.assertIn("run convert over sound/oss to convert it", records[0].reason)
                self.assertNotIn("spatch did not match", records[0].reason)

    def test_an_entry_of_a_name_the_run_converted_nowhere_is_outside(self):
        # net/socket.c's sock_ioctl, declared in a header the run did not convert.
        for entry in ENTRIES:
            with self.subTest(entry=entry):
                records = account(entry.format(name="sock_ioctl"), converted("rtc_ioctl"))
                self.assertEqual([r.status for r in records], [HandlerStatus.OUTSIDE])
                self.assertIn("converted no handler named sock_ioctl", records[0].reason)

    def test_an_undefined_handler_of_a_converted_name_fails_as_a_hazard(self):
        # The entry may call the converted function with the old arguments.
        for entry in ENTRIES:
            for prototype in ("", "extern int rtc_ioctl(struct inode *, struct file *,\n"
                                  "\t\t     unsigned int, unsigned long);\n",
                              "#define rtc_ioctl my_rtc_ioctl\n" +
                              DEFINED.format(name="my_rtc_ioctl")):
                with self.subTest(entry=entry, prototype=prototype):
                    records = account(prototype + entry.format(name="rtc_ioctl"),
                                      converted("rtc_ioctl"))
                    self.assertEqual([r.status for r in records], [HandlerStatus.FAILED])
                    self.assertIn("may be the rtc_ioctl this run converted", records[0].reason)

    def test_a_macro_defined_handler_of_a_converted_name_fails(self):
        # `#define rtc_ioctl` beside a definition: the entry's name is the macro's.
        text = ("#define rtc_ioctl other_ioctl\n" + DEFINED.format(name="rtc_ioctl")
                + ENTRIES[0].format(name="rtc_ioctl"))
        self.assertEqual([r.status for r in account(text, converted("rtc_ioctl"))],
                         [HandlerStatus.FAILED])

    def test_a_run_time_assignment_outside_is_outside_or_fails_alike(self):
        for statement in ("\tx_fops.ioctl = {name};\n", "\tops->ioctl = &{name};\n"):
            setup = ("static struct file_operations x_fops;\n"
                     "static void x_setup(struct file_operations *ops)\n{{\n"
                     + statement + "}}\n")
            with self.subTest(statement=statement):
                own = account(DEFINED.format(name="rtc_ioctl") + setup.format(name="rtc_ioctl"),
                              converted("rtc_ioctl"))
                self.assertEqual([r.status for r in own], [HandlerStatus.OUTSIDE])
                self.assertIn("a run-time assignment of .ioctl", own[0].reason)
                hazard = account(setup.format(name="rtc_ioctl"), converted("rtc_ioctl"))
                self.assertEqual([r.status for r in hazard], [HandlerStatus.FAILED])

    def test_inside_the_paths_or_without_paths_it_stays_failed(self):
        text = DEFINED.format(name="rtc_ioctl") + ENTRIES[0].format(name="rtc_ioctl")
        for rel, paths in (("drivers/char/o.c", ("drivers",)),
                           ("drivers/char/o.c", ("drivers/char/o.c",)),
                           ("sound/oss/o.c", None), ("sound/oss/o.c", (".",)),
                           ("sound/oss/o.c", ("sound/oss", "drivers"))):
            with self.subTest(rel=rel, paths=paths):
                records = account(text, converted("x_ioctl"), rel, paths)
                self.assertEqual([r.status for r in records], [HandlerStatus.FAILED])
                self.assertIn("spatch did not match", records[0].reason)

    def test_a_call_outside_stays_failed(self):
        # Forwarding through a legacy .ioctl may reach a converted fops: no exemption.
        text = ("static int f(struct file *f, struct inode *inode)\n{\n"
                "\treturn f->f_op->ioctl(inode, f, 0, 0);\n}\n")
        self.assertEqual([r.status for r in account(text, converted("x_ioctl"))],
                         [HandlerStatus.FAILED])

    def test_the_text_summary_counts_and_names_them(self):
        summary = converted("rtc_ioctl")
        summary.handlers.append(HandlerRecord("arch/m68k/rtc.c", 3, "?", "rtc_ioctl",
                                              HandlerStatus.OUTSIDE, "why"))
        lines = summary_mod.text_report(summary).splitlines()
        self.assertEqual(lines[0], "2 .ioctl fops entries: 1 converted, 0 skipped, 0 failed, "
                                   "1 outside the run's paths (not converted by this run)")
        self.assertIn("  outside: arch/m68k/rtc.c:3: ?: rtc_ioctl: why", lines)
        back = summary_mod.from_json(summary_mod.to_json(summary))
        self.assertEqual(back.handlers, summary.handlers)


TOP = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\n"
FS_H = ("struct file_operations {\n\tint (*ioctl) (struct inode *, struct file *, "
        "unsigned int, unsigned long);\n};\n")
NET_H = ("#ifndef NET_H\n#define NET_H\nstruct proto_ops {\n\tint (*ioctl)(struct socket *sock, "
         "unsigned int cmd, unsigned long arg);\n};\n"
         "struct socket {\n\tint state;\n\tstruct proto_ops *ops;\n};\n#endif\n")
HWDEP_H = ("#ifndef HWDEP_H\n#define HWDEP_H\ntypedef struct _snd_hwdep_ops {\n"
           "\tint (*ioctl)(void *hw, void *file, unsigned int cmd, unsigned long arg);\n"
           "} snd_hwdep_ops_t;\ntypedef struct _snd_hwdep snd_hwdep_t;\n"
           "struct _snd_hwdep {\n\tint device;\n\tsnd_hwdep_ops_t ops;\n};\n"
           "struct sscape { snd_hwdep_t *hw; };\n#endif\n")


class AssignmentTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="accounting-outside-"))
        self.addCleanup(shutil.rmtree, self.root)
        for name, text in {"Makefile": TOP, "include/linux/fs.h": FS_H,
                           "include/linux/net.h": NET_H,
                           "include/sound/hwdep.h": HWDEP_H}.items():
            (self.root / name).parent.mkdir(parents=True, exist_ok=True)
            (self.root / name).write_text(text)

    def account(self, rel: str, text: str) -> accounting.Accounting:
        (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
        (self.root / rel).write_text(text)
        data = text.encode()
        return accounting.account(Summary("/", "2.6.11", {}, "1.1.1", 0.0), {rel: (data, data)},
                                  self.root, (".",))

    def test_an_assignment_proven_another_structures_is_no_entry(self):
        # 2.6.9 drivers/net/pppox.c, and sound/'s hw->ops run-time assignments.
        cases = [
            ("#include <linux/net.h>\n", "struct socket *sock", "\tsock->ops->ioctl = x_ioctl;",
             "proto_ops"),
            ("#include <linux/net.h>\n", "struct socket *sock",
             "\tsock->ops->ioctl =\n\t\t&x_ioctl;", "proto_ops"),
            ("#include <sound/hwdep.h>\n", "snd_hwdep_t *hw", "\thw->ops.ioctl = x_ioctl;",
             "_snd_hwdep_ops"),
            ("#include <sound/hwdep.h>\n", "struct sscape *sscape",
             "\tsscape->hw->ops.ioctl = x_ioctl;", "_snd_hwdep_ops"),
            ("#include <sound/hwdep.h>\n", "snd_hwdep_t *hws[2]", "\thws[1]->ops.ioctl = x_ioctl;",
             "_snd_hwdep_ops"),
        ]
        for include, parameter, statement, structure in cases:
            with self.subTest(statement=statement, parameter=parameter):
                text = (f"{include}\nvoid x_init({parameter})\n{{\n{statement}\n}}\n")
                found = self.account("drivers/net/x.c", text)
                self.assertEqual(found.records, [])
                self.assertEqual([t.kind for t in found.tokens], ["other-structure"])
                self.assertIn(f"run-time assignment to the ioctl of a struct {structure}",
                              found.tokens[0].reason)

    def test_an_unproven_assignment_stays_failed(self):
        # Unread header, a cast, a local declared by a macro, a file_operations.
        cases = [
            ("#include <sound/unread.h>\n", "snd_hwdep_t *hw", "\thw->ops.ioctl = x_ioctl;"),
            ("#include <linux/net.h>\n", "void *p",
             "\t((struct socket *)p)->ops->ioctl = x_ioctl;"),
            ("#include <linux/net.h>\n", "void *p",
             "\tDECLARE_SOCK(sock, p);\n\tsock->ops->ioctl = x_ioctl;"),
            ("#include <linux/fs.h>\n", "struct file_operations *ops", "\tops->ioctl = x_ioctl;"),
        ]
        for include, parameter, statement in cases:
            with self.subTest(statement=statement):
                text = f"{include}\nvoid x_init({parameter})\n{{\n{statement}\n}}\n"
                found = self.account("drivers/net/x.c", text)
                self.assertEqual([r.status for r in found.records], [HandlerStatus.FAILED])
                self.assertEqual(found.tokens, [])


OWN_RTC = HEAD + DEFINED.format(name="rtc_ioctl") + ENTRIES[0].format(name="rtc_ioctl")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class ConvertTest(CrossFileCase):
    def test_a_run_over_drivers_lists_the_arch_entry_as_outside_and_passes(self):
        self.write({"include/linux/fs.h": FS_H, "drivers/char/rtc.c": OWN_RTC,
                    "arch/m68k/kernel/rtc.c": OWN_RTC.replace("return 0", "return 1")})
        parser = __import__("argparse").ArgumentParser()
        from ioctl_rework.convert import cli as convert
        convert.add_arguments(parser)
        args = parser.parse_args(["--cache-dir", str(self.cache), "--target", "2.6.11", "--",
                                  str(self.tree / "drivers")])
        result = convert.convert(convert.request_from_args(args))
        got = sorted((h.file, h.status) for h in result.summary.handlers)
        self.assertEqual(got, [("arch/m68k/kernel/rtc.c", HandlerStatus.OUTSIDE),
                               ("drivers/char/rtc.c", HandlerStatus.CONVERTED)])
        self.assertIn("run convert over arch/m68k/kernel", result.summary.handlers[0].reason)
        self.assertEqual(sorted(result.changes), ["drivers/char/rtc.c"])
        self.assertFalse(result.failed)


if __name__ == "__main__":
    unittest.main()

"""The compat classifier: facts read back, layouts compiled for i386 and
x86_64 (never run), and the class each shape of handler gets.

Each shape the issue names has a driver here, written in 2.6-era style: a
long member, a pointer inside a structure, a __u64 after a __u32, an
integer argument, a command with no argument, and the refusals (a pointer
and a number, arg or cmd passed on, a copy of an unknown type).
"""

import tempfile
import textwrap
import threading
import unittest
from unittest import mock
from pathlib import Path

from ioctl_rework import compat
from ioctl_rework.cache import Cache
from ioctl_rework.compat import classify, facts, probe
from ioctl_rework.compat.classify import CompatClass

HEADER = """\
#ifndef _UAPI_ABI_H
#define _UAPI_ABI_H
#include <linux/ioctl.h>
#include <linux/types.h>

struct abi_long { long msecs; };
struct abi_ptr { __u32 len; void *data; };
struct abi_u64 { __u32 seq; __u64 when; };
struct abi_clean { __u32 base; __u32 size; __u64 stamp; };

#define ABI_LONG	_IOW('a', 1, struct abi_long)
#define ABI_PTR		_IOW('a', 2, struct abi_ptr)
#define ABI_U64		_IOR('a', 3, struct abi_u64)
#define ABI_CLEAN	_IOWR('a', 4, struct abi_clean)
#define ABI_INT		_IO('a', 5)
#define ABI_NONE	_IO('a', 6)
#define ABI_U32		_IOR('a', 7, __u32)
#endif
"""


def driver(name: str, body: str, fops_member: str = ".ioctl") -> str:
    """A legacy misc driver whose handler's switch has BODY."""
    return textwrap.dedent(f"""\
        #include <linux/fs.h>
        #include <linux/uaccess.h>
        #include "abi.h"

        static int {name}_ioctl(struct inode *inode, struct file *file,
        \t\tunsigned int cmd, unsigned long arg)
        {{
        \tvoid __user *argp = (void __user *)arg;
        \tstruct abi_long l;
        \tstruct abi_ptr p;
        \tstruct abi_u64 u;
        \tstruct abi_clean c;
        \tu32 v = 0;

        \tswitch (cmd) {{
        {textwrap.indent(textwrap.dedent(body), chr(9))}
        \tdefault:
        \t\treturn -ENOTTY;
        \t}}
        }}

        static const struct file_operations {name}_fops = {{
        \t{fops_member} = {name}_ioctl,
        }};
        """)



class AbiDirectory(unittest.TestCase):
    """A scratch directory holding abi.h (HEADER), for the drivers a test writes."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        (self.root / "abi.h").write_text(HEADER)

    def tearDown(self):
        self.tmp.cleanup()


CASES = {
    "long_member": ("case ABI_LONG:\n\treturn copy_from_user(&l, argp, sizeof(l)) ? -EFAULT : 0;\n",
                    CompatClass.NEEDS_TRANSLATION),
    "pointer_in_struct": ("case ABI_PTR:\n\treturn copy_from_user(&p, argp, sizeof(p)) ? -EFAULT : 0;\n",
                          CompatClass.NEEDS_TRANSLATION),
    "u64_after_u32": ("case ABI_U64:\n\treturn copy_to_user(argp, &u, sizeof(u)) ? -EFAULT : 0;\n",
                      CompatClass.NEEDS_TRANSLATION),
    "clean_struct": ("case ABI_CLEAN:\n\treturn copy_from_user(&c, argp, sizeof(c)) ? -EFAULT : 0;\n"
                     "case ABI_U32:\n\treturn put_user(v, (u32 __user *)arg);\n",
                     CompatClass.COMPAT_PTR),
    "integer": ("case ABI_INT:\n\treturn arg > 10 ? -EINVAL : 0;\n", CompatClass.SAME_HANDLER),
    "no_argument": ("case ABI_NONE:\n\treturn 0;\n", CompatClass.SAME_HANDLER),
    "pointer_and_number": ("case ABI_INT:\n\treturn arg ? 0 : -EINVAL;\n"
                           "case ABI_U32:\n\treturn put_user(v, (u32 __user *)arg);\n",
                           CompatClass.UNKNOWN),
    "arg_passed_on": ("case ABI_INT:\n\treturn helper(file, arg);\n", CompatClass.UNKNOWN),
    "cmd_passed_on": ("case ABI_INT:\n\treturn helper(file, cmd);\n", CompatClass.UNKNOWN),
    "pointer_passed_on": ("case ABI_CLEAN:\n\treturn helper(file, argp);\n", CompatClass.UNKNOWN),
    "undefined_command": ("case ABI_NOWHERE:\n\treturn 0;\n", CompatClass.UNKNOWN),
}
# A handler that hands cmd and arg to a function of its file: that
# function's commands and uses count, if it surely gets them unchanged.
HELPER = """\
static int helper(struct file *file, unsigned int cmd, unsigned long arg)
{
\tstruct abi_u64 u;

\tswitch (cmd) {
\tcase ABI_U64:
\t\treturn copy_to_user((void __user *)arg, &u, sizeof(u)) ? -EFAULT : 0;
\t}
\treturn -ENOTTY;
}
"""
POINTER_HELPER = HELPER.replace("unsigned long arg", "void __user *arg").replace(
    "(void __user *)arg", "arg")
DISPATCH = {
    "followed": (HELPER, "helper(file, cmd, arg)"),
    "swapped": (HELPER.replace("unsigned int cmd, unsigned long arg",
                               "unsigned long arg, unsigned int cmd"), "helper(file, arg, cmd)"),
    "pointer_helper": (POINTER_HELPER, "helper(file, cmd, arg)"),
}

# Drivers that keep their ABI in the .c file: the probe takes it from there.
LOCAL = """\
struct local_cfg {
\t__u32 mode;
\tlong timeout;
};
#define LOCAL_SET\t_IOW('l', 1, struct local_cfg)
"""


# The fops entry of u64_after_u32's handler, spelled as drivers spell it.
ENTRY_SPELLINGS = {
    "entry_address": ".ioctl = &{h},",
    "entry_parens": ".ioctl = ({h}),",
    "entry_cast": ".ioctl = (void *){h},",
    "entry_cast_address": ".ioctl = (void *)&{h},",
    "entry_gnu_address": "ioctl: &{h},",
    "entry_unlocked_address": ".unlocked_ioctl = &{h},",
}


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class ShapesTest(unittest.TestCase):
    """Every shape, classified end to end: the rule, the probe, the class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "abi.h").write_text(HEADER)
        files = []
        for name, (body, _) in CASES.items():
            path = root / f"{name}.c"
            path.write_text(driver(name, body))
            files.append(path)
        local = root / "local_definitions.c"
        local.write_text(driver("local_definitions",
                                "case LOCAL_SET:\n\treturn copy_from_user(&l, argp, 4);\n")
                         .replace('#include "abi.h"\n', '#include "abi.h"\n' + LOCAL))
        files.append(local)
        for name, (callee, call) in DISPATCH.items():
            path = root / f"{name}.c"
            path.write_text(driver(name, f"case ABI_NONE:\n\treturn {call};\n")
                            .replace('#include "abi.h"\n', '#include "abi.h"\n\n' + callee))
            files.append(path)
        body = CASES["u64_after_u32"][0]
        for name, entry in ENTRY_SPELLINGS.items():
            path = root / f"{name}.c"
            path.write_text(driver(name, body).replace(f".ioctl = {name}_ioctl,",
                                                       entry.format(h=f"{name}_ioctl")))
            files.append(path)
        cls.results = {Path(c.file).stem: c for c in compat.classify_files(files)
                       if c.handler.endswith("_ioctl")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_shape_gets_its_class(self):
        for name, (_, expected) in CASES.items():
            with self.subTest(name):
                self.assertIn(name, self.results)
                self.assertIs(self.results[name].compat_class, expected,
                              self.results[name].describe())

    def test_every_spelling_of_the_entry_names_its_handler(self):
        for name in ENTRY_SPELLINGS:
            with self.subTest(name):
                self.assertIn(name, self.results)
                self.assertIs(self.results[name].compat_class, CompatClass.NEEDS_TRANSLATION,
                              self.results[name].describe())

    def test_needs_translation_names_the_command_type_and_member(self):
        found = {str(o) for o in self.results["u64_after_u32"].offenders}
        self.assertIn("ABI_U64: struct abi_u64: member when: offset 4 size 8 (i386) vs "
                      "offset 8 size 8 (x86_64)", found)
        self.assertIn("ABI_U64: struct abi_u64: size 12 (i386) vs 16 (x86_64)", found)
        pointer = {str(o) for o in self.results["pointer_in_struct"].offenders}
        self.assertIn("ABI_PTR: struct abi_ptr: member data: offset 4 size 4 (i386) vs "
                      "offset 8 size 8 (x86_64)", pointer)
        long_member = {str(o) for o in self.results["long_member"].offenders}
        self.assertIn("ABI_LONG: struct abi_long: member msecs: offset 0 size 4 (i386) vs "
                      "offset 0 size 8 (x86_64)", long_member)

    def test_a_structure_and_command_defined_in_the_driver_are_probed(self):
        found = {str(o) for o in self.results["local_definitions"].offenders}
        self.assertIn("LOCAL_SET: struct local_cfg: member timeout: offset 4 size 4 (i386) vs "
                      "offset 8 size 8 (x86_64)", found)

    def test_a_callee_given_cmd_and_arg_is_judged_with_the_handler(self):
        followed = self.results["followed"]
        self.assertIs(followed.compat_class, CompatClass.NEEDS_TRANSLATION, followed.describe())
        self.assertIn("ABI_U64", followed.commands)
        for name in ("swapped", "pointer_helper"):
            with self.subTest(name):
                self.assertIs(self.results[name].compat_class, CompatClass.UNKNOWN)
                self.assertIn("passed to helper()", self.results[name].reason)

    def test_unknown_says_why(self):
        reasons = {name: self.results[name].reason for name in
                   ("pointer_and_number", "arg_passed_on", "cmd_passed_on",
                    "pointer_passed_on", "undefined_command")}
        self.assertIn("a pointer (line", reasons["pointer_and_number"])
        self.assertIn("arg is passed to helper()", reasons["arg_passed_on"])
        self.assertIn("cmd is passed to helper()", reasons["cmd_passed_on"])
        self.assertIn("passed to helper()", reasons["pointer_passed_on"])
        self.assertIn("ABI_NOWHERE could not be probed", reasons["undefined_command"])


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class ProbeTest(unittest.TestCase):
    def test_values_and_layouts_of_both_abis_and_the_cache(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = Path(tmp) / "abi.h"
            header.write_text(HEADER)
            cache = Cache(Path(tmp) / "cache", "probe")
            items = [probe.ProbeItem("cmd", "ABI_LONG"), probe.ProbeItem("cmd", "ABI_INT"),
                     probe.ProbeItem("type", "struct abi_clean")]
            first = probe.probe(items, (header,), (), cache)
            self.assertEqual(first[items[0]].commands["i386"].value, 0x40046101)
            self.assertEqual(first[items[0]].commands["x86_64"].value, 0x40086101)
            self.assertEqual(first[items[0]].commands["x86_64"].size_type, "struct abi_long")
            self.assertIsNone(first[items[1]].commands["i386"].size_type)
            self.assertEqual(classify.layout_differences(first[items[2]]), [])
            self.assertEqual([m.path for m in first[items[2]].layouts["i386"].members],
                             ["base", "size", "stamp"])
            # A second probe answers from the cache, compiling nothing.
            header.chmod(0o444)
            again = probe.probe(items, (header,), (), cache)
            self.assertEqual(again, first)

    def test_an_item_that_does_not_compile_leaves_the_others(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = Path(tmp) / "abi.h"
            header.write_text(HEADER)
            items = [probe.ProbeItem("type", "struct abi_missing"),
                     probe.ProbeItem("cmd", "ABI_NONE")]
            found = probe.probe(items, (header,), ())
            self.assertIn("incomplete type", found[items[0]].error)
            self.assertIsNone(found[items[1]].error)

    def test_items_with_errors_of_their_own_go_in_one_retry_each_with_its_words(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = Path(tmp) / "abi.h"
            header.write_text(HEADER)
            bad = {probe.ProbeItem("cmd", "ABI_GONE"): "'ABI_GONE' undeclared",
                   # gcc names an undeclared identifier once a function: the
                   # second item to use it fails in the next compile.
                   probe.ProbeItem("cmd", "ABI_GONE + 1"): "'ABI_GONE' undeclared",
                   probe.ProbeItem("type", "abi_gone_t"): "unknown type name 'abi_gone_t'",
                   probe.ProbeItem("type", "struct abi_missing"): "incomplete type",
                   probe.ProbeItem("cmd", "ABI_LOST"): "'ABI_LOST' undeclared"}
            good = [probe.ProbeItem("cmd", "ABI_LONG"), probe.ProbeItem("type", "struct abi_u64")]
            items = [*bad][:2] + good[:1] + [*bad][2:] + good[1:]
            compiles = []
            real_run = probe.subprocess.run

            def counted(command, *args, **kwargs):
                compiles.append(command[1])
                return real_run(command, *args, **kwargs)
            with mock.patch.object(probe.subprocess, "run", counted):
                found = probe.probe(items, (header,), ())
            for item, words in bad.items():
                with self.subTest(item):
                    self.assertIn(words, found[item].error.replace("\u2018", "'")
                                  .replace("\u2019", "'"))
                    self.assertFalse(found[item].commands or found[item].layouts)
            self.assertEqual(found[good[0]].commands["x86_64"].value, 0x40086101)
            self.assertEqual(found[good[1]].layouts["i386"].size, 12)
            # A failed -m32 compile for all but the second ABI_GONE, one for
            # it, then one per ABI: not one a failing item.
            self.assertEqual([c for c in compiles if c.startswith("-m")],
                             ["-m32", "-m32", "-m32", "-m64"])

    def test_debug_information_and_an_object_only_for_a_structure_pahole_reads(self):
        """Commands and scalar types stop before the assembler (-S, no -g);
        a struct or union among the items gets the object pahole reads.
        The values are the same either way."""
        with tempfile.TemporaryDirectory() as tmp:
            header = Path(tmp) / "abi.h"
            header.write_text(HEADER)
            scalar = [probe.ProbeItem("cmd", "ABI_LONG"), probe.ProbeItem("type", "long"),
                      probe.ProbeItem("type", "abi_gone_t")]     # fails: left out, retried
            aggregate = [*scalar, probe.ProbeItem("type", "const struct abi_clean")]
            for items, wanted in ((scalar, ["-S"]), (aggregate, ["-g", "-c"])):
                commands = []
                real_run = probe.subprocess.run

                def recorded(command, *args, **kwargs):
                    if command[0] == "gcc":
                        commands.append(command)
                    return real_run(command, *args, **kwargs)
                with self.subTest(items[-1].text), \
                        mock.patch.object(probe.subprocess, "run", recorded):
                    found = probe.probe(items, (header,), ())
                    self.assertEqual(found[items[0]].commands["i386"].value, 0x40046101)
                    self.assertEqual(found[items[0]].commands["x86_64"].size_type,
                                     "struct abi_long")
                    self.assertEqual(found[items[1]].layouts["x86_64"].size, 8)
                    self.assertIn("abi_gone_t", found[items[2]].error)
                    last = commands[-2:]
                    self.assertEqual([c[1] for c in last], ["-m32", "-m64"])
                    for command in last:
                        self.assertEqual([o for o in ("-S", "-g", "-c") if o in command],
                                         wanted, command)
                        self.assertIn("-save-temps=obj", command)
            self.assertEqual([m.path for m in found[aggregate[-1]].layouts["i386"].members],
                             ["base", "size", "stamp"])

    def test_a_header_that_does_not_compile_is_left_out_and_said(self):
        with tempfile.TemporaryDirectory() as tmp:
            good, bad = Path(tmp) / "abi.h", Path(tmp) / "kernel_only.h"
            good.write_text(HEADER)
            bad.write_text("struct abi_missing { spinlock_t lock; };\n")
            items = [probe.ProbeItem("type", "struct abi_missing"),
                     probe.ProbeItem("type", "struct abi_u64")]
            found = probe.probe(items, (bad, good), ())
            self.assertIsNone(found[items[1]].error)
            self.assertIn("kernel_only.h", found[items[0]].error)


class FactsTest(unittest.TestCase):
    OUTPUT = textwrap.dedent("""\
        d.c:5: h: compat-fact: params cmd arg unsigned long
        d.c:9: h: compat-fact: case FOO
        d.c:7: h: compat-fact: cast 7:36 void __user *
        d.c:7: h: compat-fact: alias 7:20 argp void __user *
        d.c:10: h: compat-fact: alias-use 10:24
        d.c:10: h: compat-fact: alias-call 10:24 copy_from_user
        d.c:10: h: compat-fact: copy 10:6 struct foo <- argp
        d.c:10: h: compat-fact: copy 10:6 ? & f <- argp
        d.c:7: h: compat-fact: arg-use 7:36
        d.c:20: other: compat-fact: case BAR
        unrelated line
        """)

    def test_lines_group_per_handler_and_typed_copies_win(self):
        found = facts.parse(self.OUTPUT)
        self.assertEqual(list(found), [("d.c", "h")])     # "other" has no definition
        h = found[("d.c", "h")]
        self.assertEqual((h.cmd, h.arg, h.line), ("cmd", "arg", 5))
        self.assertEqual(h.commands, {"FOO": 9})
        self.assertEqual(h.copies, {(10, 6): ("struct foo", "argp")})
        self.assertEqual(h.aliases, {"argp": "void __user *"})

    def test_a_copy_without_a_copy_fact_is_unknown(self):
        found = facts.parse(self.OUTPUT.replace("d.c:10: h: compat-fact: copy", "#"))
        plan = classify.plan(found[("d.c", "h")])
        self.assertIn("copy_from_user() at line 10 was not understood", plan.unknown)


class OverlapTest(unittest.TestCase):
    """The layouts of the files whose handlers pass nothing on are probed
    while the callees run: they need no more facts."""

    def test_a_file_without_callees_is_probed_during_the_callees_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            files = [Path(tmp) / name for name in ("passes_on.c", "alone.c")]
            for file in files:
                file.write_text("/* a driver */\n")
            # Where the callee is defined: a file with no definition of it is
            # not run again (compat.callees.worth_running).
            files[0].write_text("static int helper(unsigned int cmd, unsigned long arg)\n"
                                "{\n\treturn 0;\n}\n")
            probed_alone = threading.Event()
            during_callees = []

            def rule_outputs(todo, *args, **kwargs):
                if len(args) > 3 and args[3]:           # the callees run (LISTED)
                    during_callees.append(probed_alone.wait(10))
                    return {file: "" for file in todo}
                return {file: f"{file}:3: h: compat-fact: params cmd arg unsigned long\n"
                        for file in todo}

            def callees_of(handler_facts, lines):
                return ["helper"] if "passes_on" in handler_facts.file else []

            def classify_stdout(source, *args):
                if source.name == "alone.c":
                    probed_alone.set()
                return []
            with mock.patch.object(compat, "rule_outputs", rule_outputs), \
                    mock.patch.object(compat.callees, "wanted", callees_of), \
                    mock.patch.object(compat.table, "read", lambda *args: None), \
                    mock.patch.object(compat, "classify_stdout", classify_stdout):
                compat.classify_files_read(files, None, 2, 60, Cache(None))
            self.assertEqual(during_callees, [True])


class DescribeTest(unittest.TestCase):
    def test_only_the_two_clean_classes_add_an_entry(self):
        self.assertEqual([c for c in CompatClass if c.adds_compat],
                         [CompatClass.SAME_HANDLER, CompatClass.COMPAT_PTR])

    def test_without_a_compat_ioctl_it_says_what_a_32_bit_process_gets_and_why(self):
        from ioctl_rework.compat.apply import CompatDecision
        from ioctl_rework.settings import Target
        for compat_class, reason in ((CompatClass.NEEDS_TRANSLATION, "layout differs"),
                                     (CompatClass.UNKNOWN, "no case label was found")):
            decision = CompatDecision("d.c", "d_fops", "d_ioctl", classify.Classification(
                "d.c", "d_ioctl", compat_class, reason=reason), None)
            with self.subTest(compat_class=compat_class):
                said = decision.describe(Target.parse("6.1"))
                self.assertEqual(said, f"{compat_class.value}: {reason}; no .compat_ioctl (one "
                                       "is added only where 32-bit callers are proven to share "
                                       "the handler): on 6.1.0 a 32-bit process gets -ENOTTY "
                                       "for each of its commands, since compat_sys_ioctl calls "
                                       "only .compat_ioctl and the kernel keeps no compat table")
                self.assertIn("on 2.6.20 a 32-bit process gets what the kernel's own compat "
                              "table", decision.describe(Target.parse("2.6.20")))
                self.assertTrue(decision.describe().endswith("the handler)"))


if __name__ == "__main__":
    unittest.main()


TREE = Path(__file__).resolve().parent / "test_data" / "audit" / "tree"


class AuditAndCheckTest(unittest.TestCase):
    """missing-compat findings carry the class; check's warning says the line."""

    @classmethod
    def setUpClass(cls):
        from ioctl_rework.audit import scan as audit
        result = audit.audit([TREE], cache=Cache(None))
        cls.missing = {f.file: f for f in result.findings if f.kind.value == "missing-compat"}

    def test_each_missing_compat_finding_has_a_class_and_a_detail(self):
        bkl = self.missing["drivers/misc/unlocked_bkl.c"]
        self.assertEqual(bkl.compat_class, "same-handler")
        self.assertTrue(bkl.compat_detail.startswith(
            "add `.compat_ioctl = unlocked_bkl_ioctl,` (integer or no arguments"))
        dead = self.missing["drivers/char/legacy_dead.c"]
        self.assertEqual((dead.compat_class, dead.compat_detail),
                         ("unknown", "no case label or comparison on cmd was found"))

    def test_without_classes_the_audit_is_as_before(self):
        from ioctl_rework.audit import scan as audit
        plain = audit.audit([TREE], cache=Cache(None), compat_classes=False)
        self.assertEqual({f.compat_class for f in plain.findings}, {None})

    def test_check_says_the_class_and_the_line_to_add(self):
        from ioctl_rework.check import rule_runs as check_rules
        found = check_rules._run_audit([TREE / "drivers/misc/unlocked_bkl.c"], 1, 120)
        warning = next(r for r in found.raws if r.type == "MISSING_COMPAT")
        self.assertIn("(compat class: same-handler)", warning.message)
        self.assertIn("add `.compat_ioctl = unlocked_bkl_ioctl,`", warning.note)


DRIVERS = Path(__file__).resolve().parents[2] / "kernel-fixtures" / "drivers"


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class ConvertCompatTest(unittest.TestCase):
    """convert --compat on the three fx_abi drivers: one entry per clean class."""

    def convert(self, target: str):
        import shutil

        from ioctl_rework.convert import cli as convert
        from ioctl_rework import settings
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "drivers"
            root.mkdir()
            shutil.copytree(DRIVERS / "include", root / "include")
            # The Kbuild's -I finds fixture_observer.h, whose macro the handlers
            # state: unread, auto would take the wrapper (default-deny).
            for name in ("Kbuild", "fx_abi_level.c", "fx_abi_clean.c", "fx_abi_unclean.c"):
                shutil.copy(DRIVERS / name, root / name)
            options = settings.ConversionOptions.for_target(settings.Target.parse(target),
                                                            lock=settings.LockMode.BKL, compat=True)
            result = convert.convert(convert.ConvertRequest(paths=(root,), options=options,
                                                            root=root))
        new = {rel: text.decode() for rel, (_, text) in result.changes.items()}
        said = {h.file: h.compat for h in result.summary.handlers}
        return new, said

    def test_before_5_5_a_compat_ptr_entry_is_written(self):
        new, said = self.convert("3.9")
        self.assertIn("\t.compat_ioctl = fx_abi_level_ioctl,\n", new["fx_abi_level.c"])
        self.assertIn("return fx_abi_clean_ioctl(file, cmd, (unsigned long)compat_ptr(arg));",
                      new["fx_abi_clean.c"])
        self.assertIn("#include <linux/compat.h>\n", new["fx_abi_clean.c"])
        self.assertNotIn("\t.compat_ioctl", new["fx_abi_unclean.c"])
        self.assertTrue(said["fx_abi_unclean.c"].startswith("needs-translation: "))
        self.assertIn("FX_ABI_UNCLEAN_GET_STAMP: struct fx_abi_stamp: member when",
                      said["fx_abi_unclean.c"])
        # Why none, and what a 32-bit process gets on the target without it.
        self.assertTrue(said["fx_abi_unclean.c"].endswith(
            "; no .compat_ioctl (one is added only where 32-bit callers are proven to share "
            "the handler): on 3.9.0 a 32-bit process gets what the kernel's own compat "
            "table (fs/compat_ioctl.c, while it has one) gives: the handler for a command it "
            "lists as compatible, its translation for one it translates, an error for every "
            "other command (-EINVAL on 2.6 kernels, -ENOTTY later)"), said["fx_abi_unclean.c"])
        self.assertTrue(said["fx_abi_level.c"].endswith(
            "added .compat_ioctl = fx_abi_level_ioctl"))

    def test_from_5_5_compat_ptr_ioctl(self):
        new, _ = self.convert("6.1")
        self.assertIn("\t.compat_ioctl = compat_ptr_ioctl,\n", new["fx_abi_clean.c"])
        self.assertNotIn("compat_ptr(arg)", new["fx_abi_clean.c"])

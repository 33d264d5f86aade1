"""The facts rule's second run, on the callees handlers pass cmd and arg
to (compat.callees), starts only for a file where a definition of one of
them can be: the rule finds none elsewhere, and the call stays unfollowed
(the handler unknown, with the same words) as after a run in vain.
"""

import unittest
from unittest import mock
from pathlib import Path

from ioctl_rework import compat
from ioctl_rework.cache import Cache
from ioctl_rework.compat import callees, probe
from ioctl_rework.compat.classify import CompatClass

from test_compat import AbiDirectory, HELPER, driver

# Calls the classifier would follow into a function of the file, to
# functions no file of the run defines: another file's, a header's macro.
ELSEWHERE = {
    "dispatched": ("case ABI_NONE:\n\treturn other_ioctl(file, cmd, arg);\n",
                   "cmd is passed to other_ioctl() at line"),
    "pointer_helper": ("case ABI_CLEAN:\n\treturn fill_clean(file, argp);\n",
                       "is passed to fill_clean() at line"),
    "header_macro": ("case ABI_INT:\n\treturn CHECK_ARG(file, arg);\n",
                     "arg is passed to CHECK_ARG() at line"),
    # Named outside a body only in a comment, which defines nothing.
    "named_in_a_comment": ("case ABI_NONE:\n\treturn other_ioctl(file, cmd, arg);\n",
                           "cmd is passed to other_ioctl() at line"),
}


@unittest.skipIf(probe.tools_missing(), "gcc or pahole missing (make deps)")
class RunTest(AbiDirectory):
    def classified(self, files):
        """The classes of FILES, and the files of each callees run."""
        runs, rule_outputs = [], compat.rule_outputs

        def spied(todo, *args, **kwargs):
            if len(args) > 3 and args[3]:           # LISTED: the callees run
                runs.append(sorted(Path(f).name for f in todo))
            return rule_outputs(todo, *args, **kwargs)
        with mock.patch.object(compat, "rule_outputs", spied):
            found = compat.classify_files(files, jobs=1)
        return {c.handler: c for c in found}, runs

    def test_no_run_for_callees_no_file_defines(self):
        for name, (body, reason) in ELSEWHERE.items():
            with self.subTest(name):
                path = self.root / f"{name}.c"
                text = driver(name, body, ".unlocked_ioctl")
                if name == "named_in_a_comment":
                    text = text.replace("#include \"abi.h\"\n",
                                        "#include \"abi.h\"\n/* other_ioctl() does the rest */\n")
                path.write_text(text)
                found, runs = self.classified([path])
                self.assertEqual(runs, [])
                self.assertIs(found[f"{name}_ioctl"].compat_class, CompatClass.UNKNOWN)
                self.assertIn(reason, found[f"{name}_ioctl"].reason)

    def test_a_callee_of_the_file_is_run_and_followed(self):
        path = self.root / "followed.c"
        path.write_text(driver("followed", "case ABI_NONE:\n\treturn helper(file, cmd, arg);\n",
                               ".unlocked_ioctl")
                        .replace('#include "abi.h"\n', '#include "abi.h"\n\n' + HELPER))
        elsewhere = self.root / "dispatched.c"
        elsewhere.write_text(driver("dispatched", ELSEWHERE["dispatched"][0], ".unlocked_ioctl"))
        found, runs = self.classified([path, elsewhere])
        self.assertEqual(runs, [["followed.c"]])
        self.assertIs(found["followed_ioctl"].compat_class, CompatClass.NEEDS_TRANSLATION,
                      found["followed_ioctl"].describe())
        self.assertIs(found["dispatched_ioctl"].compat_class, CompatClass.UNKNOWN)


class WorthRunningTest(unittest.TestCase):
    """Which files keep their callees run, from the text alone."""

    CALLER = "static long a_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n" \
             "{\n\treturn {callee}(f, cmd, arg);\n}\n"

    def kept(self, texts: dict[str, str], wanted: dict[str, tuple[str, ...]]) -> list[str]:
        return sorted(callees.worth_running(wanted, texts))

    def test_a_callee_defined_in_another_file_of_the_run_keeps_the_caller(self):
        # The run lists every file's callees at once: b.c's definition of
        # other_ioctl is read with a.c's list too.
        texts = {"a.c": self.CALLER.replace("{callee}", "other_ioctl"),
                 "b.c": self.CALLER.replace("{callee}", "b_helper")
                 + "static long b_helper(struct file *f, unsigned int cmd, unsigned long arg)\n"
                   "{\n\treturn 0;\n}\n"
                 + "static long other_ioctl(struct file *f, unsigned int cmd, unsigned long arg)\n"
                   "{\n\treturn 0;\n}\n"}
        self.assertEqual(self.kept(texts, {"a.c": ("other_ioctl",), "b.c": ("b_helper",)}),
                         ["a.c", "b.c"])
        self.assertEqual(self.kept(texts, {"a.c": ("other_ioctl",)}), [])

    def test_what_may_write_a_definition_keeps_the_file(self):
        shapes = {
            "a macro called at file scope": "MAKE_IOCTL(other_ioctl);\n",
            "a directive inside a body": "",
            "a declaration": "static long other_ioctl(struct file *, unsigned int, "
                             "unsigned long);\n",
            "a definition of K&R shape": "long other_ioctl(f, cmd, arg)\n"
                                         "\tstruct file *f; unsigned int cmd; long arg;\n"
                                         "{\n\treturn 0;\n}\n",
        }
        for name, text in shapes.items():
            with self.subTest(name):
                caller = self.CALLER.replace("{callee}", "other_ioctl")
                if name == "a directive inside a body":
                    caller = caller.replace("\treturn", "#define MADE other_ioctl\n\treturn")
                self.assertEqual(self.kept({"a.c": text + caller}, {"a.c": ("other_ioctl",)}),
                                 ["a.c"])

    def test_braces_that_do_not_balance_keep_the_file(self):
        text = self.CALLER.replace("{callee}", "other_ioctl") + "}\n"
        self.assertEqual(self.kept({"a.c": text}, {"a.c": ("other_ioctl",)}), ["a.c"])

    def test_a_call_alone_is_no_definition(self):
        text = self.CALLER.replace("{callee}", "other_ioctl")
        self.assertEqual(self.kept({"a.c": text}, {"a.c": ("other_ioctl",)}), [])


class KeptReportTest(AbiDirectory):
    """A file's kept callees report is the report of a run that listed
    every file's callees: a run listing other names never takes it."""

    def runs(self, listed):
        ran, run_batched = [], compat.spatch.run_batched

        def spied(rule, given, *args, **kwargs):
            ran.extend(Path(f).name for f in given)
            return run_batched(rule, given, *args, **kwargs)
        with mock.patch.object(compat.spatch, "run_batched", spied):
            compat.rule_outputs(list(listed), 1, 120, self.cache, listed)
        return sorted(ran)

    def test_a_report_is_kept_for_the_names_its_run_listed(self):
        self.cache = Cache(self.root / "cache")
        a, b = self.root / "a.c", self.root / "b.c"
        a.write_text(driver("a", "case ABI_NONE:\n\treturn helper(file, cmd, arg);\n",
                            ".unlocked_ioctl").replace('#include "abi.h"\n',
                                                       '#include "abi.h"\n\n' + HELPER))
        b.write_text(a.read_text().replace("a_ioctl", "b_ioctl").replace("helper", "b_helper"))
        self.assertEqual(self.runs({a: ("helper",)}), ["a.c"])
        self.assertEqual(self.runs({a: ("helper",)}), [])
        # b.c's names widen the run: a.c's report is made anew, not taken.
        self.assertEqual(self.runs({a: ("helper",), b: ("b_helper",)}), ["a.c", "b.c"])
        self.assertEqual(self.runs({a: ("helper",), b: ("b_helper",)}), [])


if __name__ == "__main__":
    unittest.main()

"""convert/macro_bodies.py: a header's macro whose body forwards through
->f_op->ioctl is rewritten as the forwarding rule rewrites such a call in a
function (the fallback helper where the target still has .ioctl, the plain
->unlocked_ioctl call from 2.6.36 on), or refused whole with the reason.
The expected texts below are written from the rule's semantics (its
header comment), not taken from the module's output."""

import re
import unittest
from pathlib import Path

from ioctl_rework.convert import macro_bodies
from ioctl_rework.ctext import macro_forwarding
from ioctl_rework.ctext import spans

RULE_TESTS = Path(__file__).resolve().parents[2] / "semantic-patches" / "tests"
HELPER = macro_bodies.MACRO_HELPER

# Each: (macro text, what the legacy target's body must hold, what 2.6.36's must).
CALLS = {
    "multi_line_function": (
        "#define DEFINE_PASS(type) \\\n"
        "static int pass_##type(struct file *file, unsigned int ctl, unsigned long arg) \\\n"
        "{ \\\n"
        "\tint err; \\\n"
        "\terr = file->f_op->ioctl(file->f_dentry->d_inode, file, ctl, arg); \\\n"
        "\treturn err; \\\n"
        "}\n",
        [f"err = {HELPER}(file->f_op, file->f_dentry->d_inode, file, ctl, arg);"],
        ["err = (int)file->f_op->unlocked_ioctl(file, ctl, arg);"]),
    "do_while": (
        "#define PASS_ON(f, c, a, r) do { \\\n"
        "\t(r) = (f)->f_op->ioctl((f)->f_dentry->d_inode, (f), (c), (a)); \\\n"
        "} while (0)\n",
        [f"(r) = {HELPER}((f)->f_op, (f)->f_dentry->d_inode, (f), (c), (a));"],
        ["(r) = (int)(f)->f_op->unlocked_ioctl((f), (c), (a));"]),
    "statement_expression": (
        "#define PASS_ON(f, c, a) ({ \\\n"
        "\tint __r = (f)->f_op->ioctl((f)->f_path.dentry->d_inode, f, c, a); \\\n"
        "\t__r; })\n",
        [f"int __r = {HELPER}((f)->f_op, (f)->f_path.dentry->d_inode, f, c, a);"],
        ["int __r = (int)(f)->f_op->unlocked_ioctl(f, c, a);"]),
    "return_call": (
        "#define RETURN_PASS(lf, c, a) \\\n"
        "\treturn lf->f_op->ioctl(file_inode(lf), lf, c, a)\n",
        [f"return {HELPER}(lf->f_op, file_inode(lf), lf, c, a)"],
        ["return (int)lf->f_op->unlocked_ioctl(lf, c, a)"]),
    "pointer_call": (
        "#define STACK_PASS(lf, c, a) \\\n"
        "\t((*(lf)->f_op->ioctl)((lf)->f_dentry->d_inode, (lf), (c), (a)))\n",
        [f"({HELPER}((lf)->f_op, (lf)->f_dentry->d_inode, (lf), (c), (a)))"],
        ["((int)(lf)->f_op->unlocked_ioctl((lf), (c), (a)))"]),
    "test_beside_call": (
        "#define STACK_PASS(lf, c, a) \\\n\t((lf)->f_op->ioctl ? \\\n"
        "\t (lf)->f_op->ioctl((lf)->f_dentry->d_inode, (lf), (c), (a)) : -ENOTTY)\n",
        ["(((lf)->f_op->unlocked_ioctl || (lf)->f_op->ioctl) ?",
         f"{HELPER}((lf)->f_op, (lf)->f_dentry->d_inode, (lf), (c), (a)) : -ENOTTY)"],
        ["((lf)->f_op->unlocked_ioctl ?",
         "(int)(lf)->f_op->unlocked_ioctl((lf), (c), (a)) : -ENOTTY)"]),
    "tested_against_null": (
        "#define PASS_OR_NOTTY(f, c, a) ((f)->f_op->ioctl == NULL ? -ENOTTY : \\\n"
        "\t(f)->f_op->ioctl((f)->f_dentry->d_inode, f, c, a))\n",
        ["(!((f)->f_op->unlocked_ioctl || (f)->f_op->ioctl) ? -ENOTTY :",
         f"{HELPER}((f)->f_op, (f)->f_dentry->d_inode, f, c, a))"],
        ["((f)->f_op->unlocked_ioctl == NULL ? -ENOTTY :",
         "(int)(f)->f_op->unlocked_ioctl(f, c, a))"]),
    "two_calls": (
        "#define PASS_TWICE(f, c1, c2, a) do { \\\n"
        "\tf->f_op->ioctl(f->f_dentry->d_inode, f, c1, a); \\\n"
        "\tf->f_op->ioctl(f->f_dentry->d_inode, f, c2, a); \\\n"
        "} while (0)\n",
        [f"{HELPER}(f->f_op, f->f_dentry->d_inode, f, c1, a);",
         f"{HELPER}(f->f_op, f->f_dentry->d_inode, f, c2, a);"],
        ["(int)f->f_op->unlocked_ioctl(f, c1, a);", "(int)f->f_op->unlocked_ioctl(f, c2, a);"]),
}

# Bodies no text rewrite can follow whole: refused, and why (for both targets
# unless the target is named).
REFUSED = {
    "pasted_tokens": ("#define PASS(n) static int p_##n(struct file *f) \\\n"
                      "{ return f->f_op->ioctl(f->f_dentry->d_inode, f, CMD_##n, 0); }\n",
                      "four arguments the macro spells", None),
    "by_value": ("#define PASS(ops, f, c, a) ((ops).ioctl(f->f_dentry->d_inode, f, c, a))\n",
                 "by value", None),
    "unknown_pointer": ("#define PASS(ops, f, c, a) ((ops)->ioctl(f->f_dentry->d_inode, f, c, a))\n",
                        "not a file's f_op", None),
    "test_through_call": ("#define PASS(f, c, a) (lower_of(f)->f_op->ioctl ? \\\n"
                          "\tlower_of(f)->f_op->ioctl(0, lower_of(f), c, a) : -ENOTTY)\n",
                          "a call or a side effect", "legacy"),
    "other_inode": ("#define PASS(f, i, c, a) ((f)->f_op->ioctl((i), (f), (c), (a)))\n",
                    "not the inode of the file", None),
    "null_inode": ("#define PASS(f, c, a) ((f)->f_op->ioctl(NULL, (f), (c), (a)))\n",
                   "not the inode of the file", None),
    "test_alone": ("#define HAS_IOCTL(f) ((f)->f_op && (f)->f_op->ioctl)\n",
                   "no call through it", None),
    "compared_with_a_function": ("#define PASS(f, c, a) ((f)->f_op->ioctl == tty_ioctl ? -EINVAL : \\\n"
                                 "\t(f)->f_op->ioctl((f)->f_dentry->d_inode, (f), (c), (a)))\n",
                                 "other than NULL", None),
    "null_compared_first": ("#define PASS(f, c, a) (NULL == (f)->f_op->ioctl ? -ENOTTY : \\\n"
                            "\t(f)->f_op->ioctl((f)->f_dentry->d_inode, (f), (c), (a)))\n",
                            "other than NULL", None),
    "three_arguments": ("#define PASS(f, c, a) ((f)->f_op->ioctl(f, c, a))\n",
                        "four arguments", None),
}


def rewrite(macro: str, legacy: bool, multi: bool = False, used=frozenset(), text=None):
    text = text or ("#ifndef PASS_H\n#define PASS_H\n#include <linux/fs.h>\n\n" + macro +
                    "\n#endif\n")
    macros = list(macro_forwarding.forwarding_macros(text, "include/linux/pass.h"))
    return text, macro_bodies.rewrite_header(text, macros, legacy, multi, set(used))


def flat(text: str) -> str:
    """TEXT as one line of single spaces, continuation lines joined."""
    return " ".join(text.replace("\\\n", " ").split())


class CallsTest(unittest.TestCase):
    def test_every_spelling_on_a_target_with_ioctl_calls_the_helper(self):
        for name, (macro, legacy, _) in CALLS.items():
            with self.subTest(spelling=name):
                text, done = rewrite(macro, legacy=True)
                self.assertEqual(done.refused, {})
                new = flat(done.text)
                for expected in legacy:
                    self.assertIn(flat(expected), new)
                # The helper once, before the macro, with the BKL's header before it.
                self.assertEqual(new.count(f"static inline int {HELPER}("), 1)
                self.assertLess(new.index("#include <linux/smp_lock.h>"),
                                new.index(f"static inline int {HELPER}("))
                self.assertLess(new.index(f"static inline int {HELPER}("), new.index("# define")
                                if "# define" in new else new.index("#define", new.index(HELPER)))
                # Inside the include guard, after the header's own includes.
                self.assertLess(new.index("#include <linux/fs.h>"), new.index(HELPER))
                self.assertTrue(new.endswith("#endif"))
                # The macro's only ->ioctl left is the test of either member.
                macro_part = new[new.index("#define", new.index(HELPER)):]
                self.assertEqual(macro_part.count("->ioctl"),
                                 macro_part.count("->unlocked_ioctl ||"))

    def test_every_spelling_from_2_6_36_calls_unlocked_ioctl(self):
        for name, (macro, _, unlocked) in CALLS.items():
            with self.subTest(spelling=name):
                text, done = rewrite(macro, legacy=False)
                self.assertEqual(done.refused, {})
                new = flat(done.text)
                for expected in unlocked:
                    self.assertIn(flat(expected), new)
                self.assertNotIn("->ioctl", new)
                self.assertNotIn(HELPER, new)
                self.assertNotIn("smp_lock.h", new)

    def test_the_rest_of_the_header_is_as_it_was(self):
        macro = CALLS["do_while"][0]
        text, done = rewrite(macro, legacy=False)
        self.assertEqual(done.text, text.replace(
            "(r) = (f)->f_op->ioctl((f)->f_dentry->d_inode, (f), (c), (a));",
            "(r) = (int)(f)->f_op->unlocked_ioctl((f), (c), (a));"))
        self.assertEqual(done.sites, [(6, "PASS_ON")])

    def test_multi_kernel_writes_the_macro_twice(self):
        macro = CALLS["multi_line_function"][0]
        text, done = rewrite(macro, legacy=True, multi=True)
        new = done.text
        self.assertEqual(new.count("#ifdef HAVE_UNLOCKED_IOCTL"), 2)     # helper, macro
        unlocked, legacy = new.split("#ifdef HAVE_UNLOCKED_IOCTL")[2].split("#else")
        self.assertIn(f"{HELPER}(file->f_op,", unlocked)
        self.assertIn(macro.rstrip("\n"), legacy)       # the old macro, whole

    def test_the_helper_name_is_free(self):
        macro = CALLS["return_call"][0]
        _, done = rewrite(macro, legacy=True, used={HELPER, HELPER + "2"})
        self.assertIn(f"static inline int {HELPER}3(", done.text)
        self.assertIn(f"return {HELPER}3(lf->f_op,", done.text)
        self.assertNotIn(f"{HELPER}(", done.text)

    def test_a_header_that_includes_smp_lock_gets_no_second(self):
        text = ("#ifndef PASS_H\n#define PASS_H\n#include <linux/smp_lock.h>\n\n" +
                CALLS["return_call"][0] + "#endif\n")
        _, done = rewrite("", legacy=True, text=text)
        self.assertEqual(done.text.count("smp_lock.h"), 1)

    def test_two_macros_get_one_helper(self):
        text = ("#ifndef PASS_H\n#define PASS_H\n" + CALLS["return_call"][0] +
                CALLS["do_while"][0] + "#endif\n")
        _, done = rewrite("", legacy=True, text=text)
        self.assertEqual(done.text.count(f"static inline int {HELPER}("), 1)
        self.assertEqual(sorted(name for _, name in done.sites), ["PASS_ON", "RETURN_PASS"])

    def test_macros_under_different_ifs_are_refused(self):
        text = ("#ifdef CONFIG_A\n" + CALLS["return_call"][0] + "#endif\n"
                "#ifdef CONFIG_B\n" + CALLS["do_while"][0] + "#endif\n")
        _, done = rewrite("", legacy=True, text=text)
        self.assertIsNone(done.text)
        self.assertIn("inside an #if", done.refused["PASS_ON"])
        # Without the helper (2.6.36) nothing needs a common place.
        _, done = rewrite("", legacy=False, text=text)
        self.assertEqual(done.refused, {})


class RefusedTest(unittest.TestCase):
    def test_what_cannot_be_rewritten_whole_is_refused_and_nothing_written(self):
        for name, (macro, why, only) in REFUSED.items():
            for legacy in (True, False):
                if only == ("2.6.36" if legacy else "legacy"):
                    continue
                with self.subTest(spelling=name, legacy=legacy):
                    _, done = rewrite(macro + CALLS["do_while"][0], legacy=legacy)
                    self.assertIsNone(done.text)
                    self.assertIn("PASS" if "PASS(" in macro or "PASS " in macro
                                  else "HAS_IOCTL", " ".join(done.refused))
                    self.assertIn(why, " ".join(done.refused.values()))

    def test_a_macro_whose_member_cannot_be_proven_refuses_the_header(self):
        # Beside a macro this module would rewrite: the header is not written.
        for macro, name in [("#define MEMBER(x) x##ioctl\n", "MEMBER"),
                            ("#define FWD(f, c, a) CALL_MEMBER((f)->f_op, ioctl, f, c, a)\n", "FWD"),
                            ("#define the_member ioctl\n", "the_member"),
                            ("#define OP(x) io ## x\n", "OP")]:
            for legacy in (True, False):
                with self.subTest(macro=macro, legacy=legacy):
                    _, done = rewrite(macro + CALLS["do_while"][0], legacy=legacy)
                    self.assertIsNone(done.text)
                    self.assertIn(name, done.refused)
                    self.assertIn("ioctl", done.refused[name])

    def test_a_paste_of_parameters_alone_leaves_the_header_rewritten(self):
        _, done = rewrite("#define CAT(a, b) a##b\n" + CALLS["do_while"][0], legacy=True)
        self.assertIsNotNone(done.text)
        self.assertEqual(done.refused, {})

    def test_a_macro_naming_the_member_by_its_argument_is_left_to_its_sites(self):
        macro = "#define LOWER_OP(l, op, c, a) ((l)->f_op->op(0, l, c, a))\n"
        _, done = rewrite(macro, legacy=True)
        self.assertIsNone(done.text)
        self.assertEqual(done.refused, {})


class OneHelperTest(unittest.TestCase):
    """The helper is the rule's: its tokens are those of the rule's expected
    output (the rule suite checks the rule writes exactly that), but for
    `inline`, which a header's static function needs."""

    def helper_in(self, case: str, name: str, multi: bool) -> list[str]:
        text = (RULE_TESTS / case).read_text()
        start = text.index(f"static int {name}(const struct file_operations")
        if multi:
            start = text.rindex("#ifdef HAVE_UNLOCKED_IOCTL", 0, start)
            # The #endif after the helper's body (its version test has one).
            end = text.index("#endif", spans.closing(text, text.index("{", start))) + len("#endif")
        else:
            end = spans.closing(text, text.index("{", start)) + 1
        return spans.code_tokens(text[start:end])

    def test_token_identical_with_what_the_rule_writes(self):
        for case, name, multi in (("f_op_forwarding_fallback.res", "forward_ioctl3", False),
                                  ("f_op_forwarding_fallback.multi_kernel.res",
                                   "forward_ioctl3", True)):
            with self.subTest(case=case):
                ours = spans.code_tokens(macro_bodies.helper_definition(name, multi))
                self.assertEqual(ours.count("inline"), 1)
                ours.remove("inline")
                self.assertEqual(ours, self.helper_in(case, name, multi))


if __name__ == "__main__":
    unittest.main()

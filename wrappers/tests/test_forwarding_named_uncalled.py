"""A forwarding macro named without being called: passed to another macro
that calls its parameter (`APPLY(STACK_PASS)`, `#define APPLY(p) p(l, c, a)`),
given its arguments by another argument, or renamed by a #define.  Its name
is rescanned after substitution and the call through ->ioctl happens; read
as a call only where `(` follows the name, the use was missed, the lower
driver converted and every forwarded command failed on its NULL .ioctl
(found by the integrator's red team of the paste change, 2026-12-07)."""

import unittest

from ioctl_rework.convert.summary import HandlerStatus

from test_kernel_headers import KernelTestCase, convert_outside_tree, write
from test_macro_forwarding import LOWER, UPPER

STACK_H = ("#define STACK_PASS(lf, c, a) ((lf)->f_op->ioctl((lf)->f_dentry->d_inode, lf, c, a))\n"
           "#define APPLY(p) p(up_lower, cmd, arg)\n"
           "#define APPLY_TO(p, args) p args\n"
           # A macro naming the member by an argument (<linux/rbtree.h>'s rb_entry).
           "#define up_entry(ptr, type, member) \\\n"
           "\t((type *)((char *)(ptr) - (unsigned long)(&((type *)0)->member)))\n")

# File -> (the lines before the handler, the handler's return statement).
NAMED = {
    "through_a_header_macro.c": ("", "return APPLY(STACK_PASS);"),
    "arguments_from_another_argument.c": ("", "return APPLY_TO(STACK_PASS, (up_lower, cmd, arg));"),
    "renamed_by_the_file.c": ("#define FWD STACK_PASS\n", "return FWD(up_lower, cmd, arg);"),
    "renamed_over_a_splice.c": ("#define FWD \\\n\tSTACK_PASS\n", "return FWD(up_lower, cmd, arg);"),
    "through_a_file_macro.c": ("#define CALL(m, l) m(l, cmd, arg)\n",
                               "return CALL(STACK_PASS, up_lower);"),
}
# Mentions that expand nothing: tested by the preprocessor, in a comment, in
# a string, a tag, a member.
MENTIONED = ("#ifdef STACK_PASS\n#define HAVE_PASS 1\n#endif\n"
             "#if defined(STACK_PASS) && HAVE_PASS\n#endif\n"
             "/* not STACK_PASS: the lower driver answers */\n"
             "static const char up_why[] = \"no STACK_PASS\";\n"
             # A tag and a member of that name (2.6.9's via-pmu.c: struct rb_entry).
             "struct STACK_PASS { int n; };\n"
             "static struct STACK_PASS up_sp, *up_spp = &up_sp;\n"
             "static union  STACK_PASS *up_u;\n"
             "static int up_n(void) { return up_sp.n + sizeof(struct STACK_PASS) + up_u->n; }\n"
             # A member and a local named as the macro naming the member by an argument.
             "struct up_pair { int up_entry; };\n"
             "static int up_count(struct up_pair *p) { int up_entry = p->up_entry; return up_entry; }\n")


def upper(before: str, statement: str) -> str:
    text = UPPER % "<linux/stackhelp.h>"
    text = text.replace("static struct file *up_lower;\n",
                        "static struct file *up_lower;\n" + before)
    return text.replace("return STACK_PASS(up_lower, cmd, arg);", statement)


class NamedUncalledTest(KernelTestCase):
    def convert(self, uppers: dict[str, str]):
        write(self.kernel / "include/linux/stackhelp.h", STACK_H)
        write(self.drivers / "lower.c", LOWER)
        for name, text in uppers.items():
            write(self.drivers / name, text)
        return convert_outside_tree(self.drivers, self.kernel)

    def test_a_forwarding_macro_named_without_a_call_is_a_site(self):
        result = self.convert({name: upper(*spelled) for name, spelled in NAMED.items()})
        for name, (before, statement) in NAMED.items():
            with self.subTest(file=name):
                sites = [h for h in result.summary.handlers
                         if h.file == name and h.handler == "STACK_PASS"]
                self.assertTrue(sites, "the use is not refused")
                self.assertIs(sites[0].status, HandlerStatus.FAILED)
                text = upper(before, statement)
                self.assertEqual(sites[0].line, text.count("\n", 0, text.index("STACK_PASS")) + 1)
        lower = [h for h in result.summary.handlers if h.file == "lower.c"]
        self.assertEqual([h.status for h in lower], [HandlerStatus.FAILED])
        self.assertNotIn("lower.c", result.changes)

    def test_a_name_the_preprocessor_only_tests_is_no_site(self):
        result = self.convert({"mentions.c": upper(MENTIONED, "return -ENOTTY;")})
        self.assertFalse(result.failed)
        self.assertEqual(sorted(result.changes), ["lower.c", "mentions.c"])


if __name__ == "__main__":
    unittest.main()

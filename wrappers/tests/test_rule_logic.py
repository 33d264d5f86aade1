"""The conversion rule's Python (semantic-patches/ioctl_rule/) apart from
spatch: C text, dead branches, macro tables and the exits they hide, brace
pairs, fops entries, and decide() over filled fact tables."""

import os
import re
import sys
import tempfile
import time
import types
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "semantic-patches"), str(ROOT / "wrappers")]

from ioctl_rule import (compat_entries, conditionals, ctext, decisions, entries, locking,  # noqa: E402
                        macros, matches, reporting, source, state)
from ioctl_rule.entries import Entry  # noqa: E402
from ioctl_rework.ctext import include_search, spans  # noqa: E402
from ioctl_rework.spatch import rule_parts, rules  # noqa: E402

FLAGS = dict(vars(state.flags))


def position(file, line=1, column=0, element="f"):
    """What spatch passes as a position: a list of one location."""
    return [types.SimpleNamespace(file=file, line=str(line), column=str(column),
                                  current_element=element)]


class FileCase(unittest.TestCase):
    """A test that writes C files into a scratch directory, with the rule's
    per-file tables and flags reset around it."""

    def setUp(self):
        scratch = tempfile.TemporaryDirectory()
        self.addCleanup(scratch.cleanup)
        self.dir = Path(scratch.name)
        state.forget_previous_file()
        self.addCleanup(state.forget_previous_file)
        self.addCleanup(lambda: vars(state.flags).update(FLAGS))

    def write(self, text, name="drv.c"):
        path = self.dir / name
        path.write_text(text)
        return str(path)


class CodeOnly(unittest.TestCase):
    def test_comments_strings_and_characters_blanked_lines_kept(self):
        for text, code in [
                ('a /* { */ b', 'a         b'),
                ('a // { }\nb', 'a       \nb'),
                ('s = "{ \\" }";', 's =         ;'),
                ("c = '{'; d = '\\'';", "c =    ; d =     ;"),
                ('x /* one\n two */ y', 'x' + ' ' * 7 + '\n' + ' ' * 8 + 'y'),
                ('"a" /* "b */ c', ' ' * 13 + 'c')]:
            with self.subTest(text=text):
                self.assertEqual(ctext.code_only(text), code)

    def test_unterminated_string_stops_at_the_line(self):
        # A string cannot span lines: the next line stays code.
        self.assertEqual(ctext.code_only('"a\n{'), '"a\n{')

    def test_fits_int(self):
        for t in ("int", "const int", "unsigned char", "u16", "struct foo", "char *",
                  "volatile short"):
            with self.subTest(t=t):
                self.assertTrue(ctext.fits_int(t))
        for t in ("long", "unsigned long", "unsigned int", "u32", "size_t", "loff_t"):
            with self.subTest(t=t):
                self.assertFalse(ctext.fits_int(t))


class DeadBranches(unittest.TestCase):
    def dead(self, text):
        return [d for d, _ in conditionals.dead_branches(text.split("\n"))]

    def test_if_0_and_else_of_if_1(self):
        self.assertEqual(self.dead("#if 0\na\n#else\nb\n#endif\nc"),
                         [1, 1, None, None, None, None])
        self.assertEqual(self.dead("#if 1\na\n#else\nb\n#endif"),
                         [None, None, 1, 1, None])
        self.assertEqual(self.dead("  #  if 0 /* off */\na\n# endif"), [1, 1, None])

    def test_unknown_conditions_are_not_dead(self):
        for test in ("#ifdef CONFIG_X", "#ifndef X", "#if LINUX_VERSION_CODE < 0x20600",
                     "#if 01", "#if defined(A)"):
            with self.subTest(test=test):
                self.assertEqual(self.dead(test + "\na\n#else\nb\n#endif"), [None] * 5)

    def test_after_elif_nothing_is_dead(self):
        self.assertEqual(self.dead("#if 0\na\n#elif X\nb\n#else\nc\n#endif"),
                         [1, 1, None, None, None, None, None])

    def test_nested_reports_the_outermost_dead_if(self):
        self.assertEqual(self.dead("#if 0\n#ifdef X\na\n#endif\n#endif\nb"),
                         [1, 1, 1, 1, None, None])
        self.assertEqual(self.dead("#ifdef X\n#if 0\na\n#endif\nb\n#endif"),
                         [None, 2, 2, None, None, None])

    def test_kinds(self):
        kinds = [k for _, k in conditionals.dead_branches(
            "#if 0\n#ifdef X\n#endif\n#endif".split("\n"))]
        # Every #endif is one (blanked with the dead code); an unknown #if is not.
        self.assertEqual(kinds, ["if", None, "endif", "endif"])

    def test_without_dead_code(self):
        lines = "a\n#if 0\nreturn 1;\n#else\nreturn 2;\n#endif\nb".split("\n")
        self.assertEqual(conditionals.without_dead_code(lines),
                         ["a", "", "", "#else", "return 2;", "", "b"])


class SharedWithTheWrappers(unittest.TestCase):
    """The rule and the wrappers read C text through one copy."""

    def test_one_copy(self):
        self.assertIs(ctext.code_only, spans.code_only)
        self.assertIs(conditionals.dead_branches, spans.dead_branches)

    def test_one_bracket_matcher(self):
        self.assertIs(locking.closing_or_none, spans.closing_or_none)
        for text, open_at, pair, closed in (("f(a, (b), c) x", 1, "()", 11),
                                            ("{ { } /* x */ }", 0, "{}", 14),
                                            ("{ { }", 2, "{}", 4)):
            with self.subTest(text=text):
                self.assertEqual(spans.closing_or_none(text, open_at, pair), closed)
                self.assertEqual(spans.closing(text, open_at, pair), closed)
        # Never closed: None for the rule's callers, which skip it; the end
        # of the text for the wrappers', which read to it.
        for text, pair in (("f(a, (b)", "()"), ("{ { }", "{}")):
            with self.subTest(text=text):
                self.assertIsNone(spans.closing_or_none(text, text.index(pair[0]), pair))
                self.assertEqual(spans.closing(text, text.index(pair[0]), pair), len(text) - 1)

    def test_never_compiled_of_the_wrappers_is_the_rules(self):
        text = ("a\n#if 0\nb /* #else */\n#else\nc\n#endif\n/*\n#if 0\n*/\nd\n"
                "#if 1\ne\n#else\nf\n#endif\n#ifdef X\ng\n#endif")
        code_lines = {1: None, 3: 2, 5: None, 10: None, 12: None, 14: 11, 17: None}
        for line, dead in code_lines.items():
            with self.subTest(line=line):
                self.assertEqual(spans.never_compiled(text, line), dead)

    def test_legacy_half(self):
        text = ("#ifdef HAVE_UNLOCKED_IOCTL\nnew\n#else\nold\n#endif\n"
                "#ifndef HAVE_UNLOCKED_IOCTL /* old kernels */\nold\n#endif\n"
                "#if HAVE_UNLOCKED_IOCTL\nunknown\n#endif\n"
                "#ifndef HAVE_UNLOCKED_IOCTL\nold\n#elif X\nnew\n#endif")
        for line, legacy in {2: False, 4: True, 7: True, 10: False, 13: True, 15: False}.items():
            with self.subTest(line=line):
                self.assertEqual(spans.legacy_half(text, line), legacy)

    def test_spatch_gets_the_wrappers_on_its_path(self):
        env = rules.spatch_environment(ROOT / "semantic-patches" / "x.cocci",
                                       {"PYTHONPATH": "/elsewhere"})
        self.assertEqual(env["PYTHONPATH"].split(os.pathsep),
                         [str(ROOT / "semantic-patches"), str(ROOT / "wrappers"), "/elsewhere"])


class MacroTables(FileCase):
    HEADER = """#define HDR_BAIL(x) do { if (x) return -EIO; } while (0)
#define lower_exit return 0
"""
    SOURCE = """#include "priv.h"
#include "missing.h"
#define MULTI(x) \\
\tdo { \\
\t\tif (x) \\
\t\t\treturn -EINVAL; \\
\t} while (0)
#define CHAINED MULTI(1)
#define USES_HDR HDR_BAIL(1)
#define GOTO_OUT goto out
#define BREAK_OUT break
#define SAYS_RETURN /* return */ 0
#define STRING_RETURN "return"
#define PLAIN 4
"""

    def table(self):
        self.write(self.HEADER, "priv.h")
        return macros.read_macros(self.write(self.SOURCE))

    def test_returning_macros(self):
        table = self.table()
        # MULTI spans lines; CHAINED and USES_HDR name a macro that returns
        # (USES_HDR one read later, from the header); the header's are read
        # through the quoted include, whatever their case.
        self.assertEqual(table.returning,
                         {"MULTI", "CHAINED", "USES_HDR", "HDR_BAIL", "lower_exit"})

    def test_goto_break_and_non_code_do_not_return(self):
        # A goto or break stays in the function, whose own returns spatch sees.
        table = self.table()
        for name in ("GOTO_OUT", "BREAK_OUT", "SAYS_RETURN", "STRING_RETURN", "PLAIN"):
            with self.subTest(name=name):
                self.assertIn(name, table.bodies)
                self.assertNotIn(name, table.returning)

    def test_function_like_and_missing(self):
        table = self.table()
        self.assertEqual(table.function_like, {"MULTI", "HDR_BAIL"})
        self.assertEqual([Path(p).name for p in table.missing], ["missing.h"])

    def test_declared_functions_and_objects_at_file_scope(self):
        self.write("struct regs {\n\tint inside(void);\n\tint member;\n};\n"
                   "int plain(void);\nstatic struct regs *pointer (int x)\n{\n\treturn 0;\n}\n"
                   "char * * twice(void);\nextern int counter;\nint table[4];\n"
                   "int first, second;\nstatic int *shared = 0;\n"
                   "enum { ONE, TWO = 2 };\n", "decl.h")
        table = macros.read_macros(self.write('#include "decl.h"\n'))
        self.assertLessEqual({"plain", "pointer", "twice", "counter", "table", "first",
                              "shared", "ONE", "TWO"}, table.declared)
        # Names inside braces are members and locals, not the file's.
        self.assertFalse({"inside", "member", "x"} & table.declared)

    def test_a_long_structure_body_is_read_in_linear_time(self):
        # file_scope() blanks a body into one run of blanks; a pattern that
        # backtracks over it took 9 s on this header (2.6.9's apicdef.h: 0.3 s).
        members = "".join("\tint member%d;\n" % i for i in range(1500))
        self.write("struct big\n{\n" + members + "};\nint after(void);\n", "big.h")
        started = time.process_time()
        table = macros.read_macros(self.write('#include "big.h"\n'))
        self.assertIn("after", table.declared)
        self.assertLess(time.process_time() - started, 1.0)

    def test_a_header_including_itself_is_read_once(self):
        self.write('#include "loop.h"\n#define LOOPED return 1\n', "loop.h")
        table = macros.read_macros(self.write('#include "loop.h"\n'))
        self.assertEqual(table.texts["LOOPED"], [" return 1"])


class MacroTableClosure(FileCase):
    """The rule's macro table reads the include closure convert and the
    proof read (include_search.LIMIT headers), not a shorter one of its own
    (400 before: a 6.1 driver's closure is 500-570), and says where the
    limit cut it."""

    LAST = "#define LAST_BAIL(x) do { if (x) return -EIO; } while (0)\nint last_fn(void);\n"

    def closure(self, count, shape):
        """COUNT headers included as SHAPE (a chain, or a fan from the
        file), the last defining LAST; the table of the file."""
        names = ["h%04d.h" % n for n in range(count)]
        for n, name in enumerate(names):
            last = n == count - 1
            nested = "" if shape == "fan" or last else '#include "%s"\n' % names[n + 1]
            self.write("#define H%d %d\n" % (n, n) + nested + (self.LAST if last else ""),
                       name)
        top = "".join('#include "%s"\n' % name for name in names) if shape == "fan" \
            else '#include "%s"\n' % names[0]
        return macros.read_macros(self.write(top))

    def test_a_closure_past_400_headers_is_read_whole(self):
        for shape in ("chain", "fan"):
            for count in (401, 600, include_search.LIMIT - 1):
                with self.subTest(shape=shape, count=count):
                    state.forget_previous_file()
                    table = self.closure(count, shape)
                    self.assertIn("LAST_BAIL", table.returning)
                    self.assertIn("last_fn", table.declared)
                    self.assertEqual(table.missing, [])

    def test_a_closure_the_limit_cuts_says_so_among_the_missing(self):
        for shape in ("chain", "fan"):
            with self.subTest(shape=shape):
                state.forget_previous_file()
                table = self.closure(include_search.LIMIT + 3, shape)
                self.assertNotIn("LAST_BAIL", table.bodies)
                self.assertEqual(table.missing, [macros.CUT % include_search.LIMIT])
                self.assertIn("past the first %d of the include closure" % include_search.LIMIT,
                              decisions.unread_headers(str(self.dir / "drv.c")))


class HiddenExits(FileCase):
    def exits(self, body, defines="", h="foo_ioctl"):
        text = defines + "static int %s(int x)\n{\n%s\n}\n" % (h, body)
        file = self.write(text)
        first = text[:text.index("{")].count("\n") + 1
        macros.hidden_exits(file, h, first, first + 2 + body.count("\n"))
        found = state.facts.get((file, h), {})
        return {k: v - first for k, v in found.items() if not k.endswith("_name")}, found

    def test_macro_that_returns(self):
        for defines, call in [("#define CHECK(x) if (x) return -1\n", "\tCHECK(x);"),
                              ("#define check(x) if (x) return -1\n", "\tcheck (x);"),
                              ("#define BAIL \\\n\treturn -1\n", "\tif (x) BAIL;")]:
            with self.subTest(call=call):
                state.forget_previous_file()
                found, names = self.exits(call, defines)
                self.assertEqual(found, {"return_macro": 1})
                self.assertEqual(names["return_macro_name"], call.split()[-1].split("(")[0]
                                 .strip(";") if "BAIL" in call else call.split("(")[0].strip())

    def test_macros_that_stay_in_the_function(self):
        for defines, call in [("#define OUT goto out\n", "\tOUT;\nout:\n\treturn 0;"),
                              ("#define STOP break\n", "\twhile (x) STOP;"),
                              ("#define check(x) ((x) + 1)\n", "\treturn check(x);")]:
            with self.subTest(call=call):
                state.forget_previous_file()
                self.assertEqual(self.exits(call, defines)[0], {})

    def test_function_like_name_without_parentheses_is_no_call(self):
        found, _ = self.exits("\tint (*f)(int) = 0;\n\tint CHECK = 1;",
                              "#define CHECK(x) if (x) return -1\n")
        self.assertEqual(found, {})

    def test_statement_expression_and_computed_goto(self):
        found, _ = self.exits("\tint y = ({ x; });\n\tgoto *p;")
        self.assertEqual(found, {"stmt_expr": 1, "computed_goto": 2})

    def test_exits_in_dead_code_or_comments_do_not_count(self):
        found, _ = self.exits("#if 0\n\tCHECK(x);\n\tgoto *p;\n#endif\n"
                              "\t/* ({ CHECK(x) */", "#define CHECK(x) return x\n")
        self.assertEqual(found, {})

    def test_unknown_macro_when_a_header_is_missing(self):
        found, names = self.exits("\tMAYBE_EXIT(x);", '#include "gone.h"\n')
        self.assertEqual(found, {"unknown_macro": 1})
        self.assertEqual(names["unknown_macro_name"], "MAYBE_EXIT")
        state.forget_previous_file()
        self.assertEqual(self.exits("\tMAYBE_EXIT(x);")[0], {})   # every header read


class NamesUsed(unittest.TestCase):
    """Every name a body calls or states alone needs a definition, whether
    its value is used or not (default-deny: a call for its value may be a
    statement expression that returns); a member called is not a name."""

    def names(self, code):
        return {name for name, _ in macros.names_used(code)}

    def test_statement_calls_in_every_position(self):
        for code in ["{ need(d); }", "x = 1; need(d);", "if (x) y(); else need(d);",
                     "case 1: need(d); break;", "do need(d); while (0);",
                     "{ need((d)->a, f(x)); }", "if (x) need(d);", "{ need; }"]:
            with self.subTest(code=code):
                self.assertIn("need", self.names(code))

    def test_calls_for_their_value(self):
        for code in ["x = need(d);", "if (need(d)) return 1;", "return need(d);",
                     "y = a + need(d) * 2;", "f(need(d));", "need(d) + 1;",
                     "switch (need(d)) { }", "int v = need (d);", "while (!need(d)) ;"]:
            with self.subTest(code=code):
                self.assertIn("need", self.names(code))

    def test_members_are_not_names(self):
        for code in ["x = d->need(d);", "d.need(d);", "x = ops -> need (d);"]:
            with self.subTest(code=code):
                self.assertNotIn("need", self.names(code))


class BracePairs(FileCase):
    def test_pairs_skip_braces_in_comments_and_literals(self):
        text = 'a { b /* { */ "}" \'{\' { } }\n}'
        pairs = source.brace_pairs(self.write(text))
        self.assertEqual(pairs, {text.index("{"): text.rindex("} }") + 2,
                                 text.index("{ }"): text.index("{ }") + 2})

    def test_unbalanced_close_is_ignored(self):
        text = "} { }"
        self.assertEqual(source.brace_pairs(self.write(text)), {2: 4})


FOPS = """#include <linux/fs.h>

static int foo_ioctl(struct inode *inode, struct file *file,
\t\t     unsigned int cmd, unsigned long arg)
{
\treturn 0;
}

static const struct file_operations foo_fops __read_mostly = {
\t.owner = THIS_MODULE,
\t.ioctl = foo_ioctl,
%s};
"""


class Entries(FileCase):
    def fops(self, extra=""):
        file = self.write(FOPS % extra)
        code = source.code_text(file)
        return file, code, code.index("{", code.index("foo_fops"))

    def test_declaration_and_initializer(self):
        file, code, brace = self.fops()
        self.assertEqual(entries.declaration_of(file, brace),
                         ("static const struct file_operations", "foo_fops"))
        self.assertEqual(entries.initializer_of(file, brace), brace)
        self.assertIsNone(entries.initializer_of(file, code.index("{")))   # a body
        at = code.index(".ioctl")
        p = position(file, code.count("\n", 0, at) + 1, at - code.rindex("\n", 0, at) - 1)
        self.assertEqual(entries.container_of(p), brace)

    def test_sets_unlocked_ioctl(self):
        for extra, expected in [("", False),
                                ("\t.unlocked_ioctl = foo_unlocked,\n", True),
                                ("\tunlocked_ioctl: foo_unlocked,\n", True),
                                ("\t/* .unlocked_ioctl = x, */\n", False),
                                ("\t.inner = { .unlocked_ioctl = x },\n", False)]:
            with self.subTest(extra=extra):
                state.forget_previous_file()
                file, _, brace = self.fops(extra)
                self.assertEqual(entries.sets(file, brace, "unlocked_ioctl"), expected)

    def test_is_fops_type(self):
        state.fops_types.add("my_fops_t")
        for t, expected in [("static const struct file_operations", True),
                            ("struct file_operations __read_mostly", True),
                            ("const my_fops_t", True),
                            ("struct tty_operations", False), (None, False)]:
            with self.subTest(t=t):
                self.assertEqual(entries.is_fops_type(t), expected)


class Decide(FileCase):
    """decide() over the tables the matching rules would fill for FOPS."""

    def handler(self, extra="", wrap_entry=False, facts=None):
        text = FOPS % extra
        if wrap_entry:
            text = text.replace("\t.ioctl = foo_ioctl,\n", "#if 0\n\t.ioctl = foo_ioctl,\n#endif\n")
        file = self.write(text)
        code = source.code_text(file)
        brace = code.index("{", code.index("foo_fops"))
        line = code.count("\n", 0, code.index(".ioctl")) + 1
        state.definitions[(file, "foo_ioctl")] = 3
        state.functions[file] = {"foo_ioctl"}
        state.fops_entries[file] = [Entry(("foo_fops", "foo_ioctl", line, 1, brace, 9))]
        state.known_uses[(file, "foo_ioctl")] = {line}
        state.expr_uses[(file, "foo_ioctl")] = {line}
        for name, at in (facts or {}).items():
            state.facts.setdefault((file, "foo_ioctl"), {})[name] = at
        return file, line

    def decide(self, file):
        return decisions.decide(file, "foo_ioctl")

    def test_plain_handler_is_pushed_down(self):
        file, _ = self.handler()
        self.assertEqual(self.decide(file), ("pushdown", None))

    def test_hidden_exit_takes_the_wrapper(self):
        for facts, why in [({"return_macro": 6, "return_macro_name": "BAIL"},
                            "macro BAIL at line 6 can return"),
                           ({"stmt_expr": 6}, "a statement expression at line 6"),
                           ({"computed_goto": 6}, "a computed goto at line 6")]:
            with self.subTest(facts=facts):
                state.forget_previous_file()
                file, _ = self.handler(facts=facts)
                self.assertEqual(self.decide(file), ("wrapper", why))

    def test_forced_pushdown_with_hidden_exit_is_refused(self):
        state.flags.pushdown = True
        file, _ = self.handler(facts={"computed_goto": 6})
        self.assertEqual(self.decide(file),
                         (None, "pushdown is not safe: a computed goto at line 6"))

    def test_forced_wrapper(self):
        state.flags.wrapper = True
        file, _ = self.handler()
        self.assertEqual(self.decide(file), ("wrapper", None))

    def test_refusals(self):
        cases = [
            (dict(extra="\t.unlocked_ioctl = foo_unlocked,\n"),
             "dead: the fops also sets .unlocked_ioctl, which the VFS prefers"),
            (dict(wrap_entry=True), "its entries are all in the branch of the #if 0 at "
             "line 11 that is never compiled"),
            (dict(facts={"null_inode": 20}), "the call at line 20 passes NULL as its "
             "inode, which the new signature cannot pass on"),
            (dict(facts={"inode_written": 6}), "the inode parameter is written or its "
             "address taken at line 6"),
            (dict(facts={"defined_twice": 30}), "it is defined twice, at lines 3 and 30 "
             "(under #if and #else): one conversion cannot fit both; convert them by hand")]
        for kwargs, why in cases:
            with self.subTest(kwargs=kwargs):
                state.forget_previous_file()
                file, _ = self.handler(**kwargs)
                if "null_inode" in kwargs.get("facts", {}):
                    # Refused only when the handler uses the inode it is
                    # passed NULL for (one that never does just drops it).
                    state.inode_uses[(file, "foo_ioctl")] = {("5", "8")}
                self.assertEqual(self.decide(file), (None, why))

    def test_other_use_with_the_old_signature(self):
        # Under the BKL the wrapper keeps the signature, so the other use
        # sees the same function (red_mx_init_ptr); every other mode refuses.
        used = "also used with its old signature at line 2, 6"
        cases = [({}, ("wrapper", used + ": the wrapper calls it with the inode, as the "
                       "VFS did, and its signature stays")),
                 ({"wrapper": True}, ("wrapper", used + ": the wrapper calls it with the "
                                      "inode, as the VFS did, and its signature stays")),
                 ({"pushdown": True}, (None, used)),
                 ({"multi_kernel": True}, (None, used)),
                 ({"mutex": True}, (None, used + ": a call through that use runs the body "
                                    "without the private mutex, which the wrapper takes "
                                    "only for the VFS"))]
        for flags, expected in cases:
            with self.subTest(flags=flags):
                state.forget_previous_file()
                for name in ("wrapper", "pushdown", "multi_kernel", "mutex"):
                    setattr(state.flags, name, flags.get(name, False))
                file, line = self.handler()
                state.expr_uses[(file, "foo_ioctl")] |= {6, 2}
                self.assertEqual(self.decide(file), expected)

    def test_kept_and_unused(self):
        file, _ = self.handler()
        state.kept.add("foo_ioctl")
        self.assertEqual(self.decide(file), (None, "kept with the old signature (-D keep)"))
        state.forget_previous_file()
        file, _ = self.handler()
        state.fops_entries[file] = []
        self.assertEqual(self.decide(file), (None, "no file_operations here uses it"))

    def test_private_mutex_refuses_a_handler_taking_the_bkl(self):
        state.flags.mutex = True
        file, _ = self.handler(facts={"takes_bkl": 6})
        self.assertEqual(self.decide(file), (None, "it takes the BKL itself at line 6 and "
                                             "the private mutex is not recursive"))
        state.forget_previous_file()
        state.flags.mutex = False
        file, _ = self.handler(facts={"takes_bkl": 6})
        self.assertEqual(self.decide(file), ("pushdown", None))

    def test_multi_kernel(self):
        state.flags.multi_kernel = True
        file, _ = self.handler()
        self.assertEqual(self.decide(file), ("multi-kernel", None))

    def test_decision_is_kept_per_file(self):
        file, _ = self.handler()
        self.assertEqual(self.decide(file)[0], "pushdown")
        state.facts[(file, "foo_ioctl")] = {"computed_goto": 6}
        self.assertEqual(self.decide(file)[0], "pushdown")   # decided once
        state.forget_previous_file()
        self.assertNotIn((file, "foo_ioctl"), state.decisions)


class CompatEntries(unittest.TestCase):
    def setUp(self):
        for table in (compat_entries.classes, compat_entries.has_compat,
                      compat_entries.has_fs_h, compat_entries.wrapped):
            table.clear()
            self.addCleanup(table.clear)
        compat_entries.flags.compat_ptr_ioctl = False
        self.addCleanup(setattr, compat_entries.flags, "compat_ptr_ioctl", False)

    def names(self, fops, entry, file="a.c"):
        bound = compat_entries.decide(fops, entry, position(file))
        return {k: v.name for k, v in bound.items()}

    def test_classes(self):
        compat_entries.listed("a_fops,b_fops,", "same-handler")
        compat_entries.listed("c_fops", "compat-ptr")
        compat_entries.fs_h_included(position("a.c"))
        self.assertEqual(self.names("a_fops", "a_unlocked_ioctl"),
                         {"same": "a_unlocked_ioctl", "ptr": None, "wrap_new": None,
                          "wrap_again": None, "wfn": "a_compat_ioctl"})
        first = self.names("c_fops", "c_ioctl")
        self.assertEqual((first["same"], first["ptr"], first["wrap_new"], first["wrap_again"],
                          first["wfn"]), (None, None, "c_ioctl", None, "c_compat_ioctl"))
        again = self.names("c_fops", "c_ioctl")
        self.assertEqual((again["wrap_new"], again["wrap_again"]), (None, "c_ioctl"))
        self.assertEqual(set(self.names("unlisted_fops", "x").values()) - {"x_compat_ioctl"},
                         {None})

    def test_compat_ptr_ioctl_target_binds_ptr(self):
        compat_entries.flags.compat_ptr_ioctl = True
        compat_entries.listed("c_fops", "compat-ptr")
        self.assertEqual(self.names("c_fops", "c_ioctl", "nofs.c")["ptr"], "c_ioctl")

    def test_nothing_bound(self):
        compat_entries.listed("c_fops,a_fops", "compat-ptr")
        # A wrapper needs <linux/fs.h>, which this file does not include.
        self.assertEqual(set(self.names("c_fops", "c_ioctl", "nofs.c").values())
                         - {"c_compat_ioctl"}, {None})
        compat_entries.listed("a_fops", "same-handler")
        compat_entries.compat_present("a_fops", position("a.c"))
        self.assertEqual(set(self.names("a_fops", "a_ioctl").values()) - {"a_compat_ioctl"},
                         {None})


class IncludeFacts(FileCase):
    """One rule finds every #include <...>; which of them is a header of the
    lock is read from its line, in each spelling the preprocessor takes."""

    SOURCE = ("#include <linux/fs.h>\n"
              "#  include <linux/smp_lock.h>\n"
              "#include < linux/mutex.h >   /* the lock */\n"
              "#include <linux/smp_lock_debug.h>\n"
              "# include <linux/mutex.h>\n"
              "#include <asm/smp_lock.h>\n")

    def test_lock_headers_are_told_apart(self):
        file = self.write(self.SOURCE)
        for line in range(1, 7):
            matches.include(position(file, line))
        self.assertEqual(state.include_lines[file], [1, 2, 3, 4, 5, 6])
        self.assertEqual(state.headers[(file, "smp_lock.h")], [2])
        self.assertEqual(state.headers[(file, "mutex.h")], [3, 5])
        self.assertEqual(state.smp_lock_h_line[file], 2)

    def test_a_file_without_them_has_none(self):
        file = self.write("#include <linux/fs.h>\n#include <linux/module.h>\n")
        for line in (1, 2):
            matches.include(position(file, line))
        self.assertEqual(state.include_lines[file], [1, 2])
        self.assertNotIn((file, "smp_lock.h"), state.headers)
        self.assertNotIn((file, "mutex.h"), state.headers)
        self.assertNotIn(file, state.smp_lock_h_line)


class ReportPrinter(FileCase):
    def test_org_prints_through_spatch_report_prints_itself(self):
        cocci = types.SimpleNamespace(print_main=lambda *args: None)
        self.assertIsNone(reporting.org_printer(cocci))
        state.flags.org = True
        self.assertIs(reporting.org_printer(cocci), cocci.print_main)


class RuleFileShape(unittest.TestCase):
    """The conversion rule keeps its logic in ioctl_rule/: its script rules,
    in the main file and its parts, are glue (a call or two), at most 150
    lines of Python in all; the main file is at most 1,200 lines."""

    RULE = ROOT / "semantic-patches" / "ioctl_to_unlocked_ioctl.cocci"

    def script_rules(self) -> list[tuple[list[str], list[str]]]:
        """(metavariable lines, code lines) of each script rule, blank
        lines and SmPL comments left out."""
        found = []
        for path in [self.RULE, *rule_parts.parts(self.RULE)]:
            found += self.script_rules_of(path.read_text())
        return found

    @staticmethod
    def script_rules_of(text: str) -> list[tuple[list[str], list[str]]]:
        found, kind = [], None
        for line in text.split("\n"):
            if line.startswith("@") and not line.startswith("@@"):
                kind = "meta" if re.search(r"(script|initialize|finalize):python", line) \
                    else None
                if kind:
                    found.append(([], []))
            elif line.startswith("@@"):
                kind = "code" if kind == "meta" else None
            elif kind and line.strip() and not line.startswith("//"):
                found[-1][0 if kind == "meta" else 1].append(line)
        return found

    def test_at_most_150_lines_of_python(self):
        rules = self.script_rules()
        self.assertGreater(len(rules), 40)
        self.assertLessEqual(sum(len(meta) + len(code) for meta, code in rules), 150)

    def test_the_main_file_is_at_most_1200_lines(self):
        self.assertLessEqual(len(self.RULE.read_text().splitlines()), 1200)

    def test_script_rules_are_glue(self):
        for meta, code in self.script_rules()[1:]:     # the first imports the package
            with self.subTest(code=code):
                self.assertLessEqual(len(code), 3)
                self.assertFalse(any(re.match(r"\s*(def|class|for|while)\b", c) for c in code))


if __name__ == "__main__":
    unittest.main()

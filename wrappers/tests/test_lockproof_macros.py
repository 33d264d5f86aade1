"""lockproof: returns hidden in macros, read through the macros.

Three shapes real drivers use (a return in an object-like macro, a macro
that calls a returning macro, a returning macro in the driver's own
header), each with a correct conversion that must pass and the pushdown
that misses the macro's return path, which must be caught.  Then the
expansion itself: #, ##, variadic macros, nesting, line splices, CRLF.
"""

import unittest

from ioctl_rework.lockproof.lexer import directive, tokenize
from ioctl_rework.lockproof.macros import ArityError, expand, parse_define
from lockproof_helpers import line_of, messages, prove

OBJECT_LIKE = """\
#define QIC_EXIT	return result

int qic_rewind(void);
int qic_status(unsigned long arg);

static int qic_ioctl(struct inode *inode, struct file *file,
		     unsigned int cmd, unsigned long arg)
{
	int result = -ENOTTY;

	if (cmd == QIC_REWIND) {
		result = qic_rewind();
		QIC_EXIT;
	}
	result = qic_status(arg);
	QIC_EXIT;
}
"""

NESTED = """\
#define CARD_CHECK(c, magic)					\\
	do {							\\
		if (!(c) || (c)->magic_nr != (magic))		\\
			return -ENXIO;				\\
	} while (0)
#define VALIDATE_CARD(c)	CARD_CHECK(c, CARD_MAGIC)

int card_command(struct card *card, unsigned int cmd, unsigned long arg);

static int card_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	struct card *card = file->private_data;

	VALIDATE_CARD(card);
	return card_command(card, cmd, arg);
}
"""

HEADER = """\
#ifndef _SNDQ_H
#define _SNDQ_H

#define IOCTL_IN(arg, val)					\\
	do {							\\
		int __err = get_user(val, (int __user *)(arg));	\\
		if (__err)					\\
			return __err;				\\
	} while (0)

#endif
"""

HEADER_USER = """\
#include <linux/fs.h>
#include "sndq.h"

int sq_set_speed(int val);

static int sq_ioctl(struct inode *inode, struct file *file,
		    unsigned int cmd, unsigned long arg)
{
	int val;

	IOCTL_IN(arg, val);
	return sq_set_speed(val);
}
"""


def pushdown_of(legacy: str, name: str, first: str, returns: dict[str, str]) -> str:
    """LEGACY converted the way a pushdown that cannot see into macros does."""
    new = legacy.replace(f"static int {name}(struct inode *inode, struct file *file,",
                         f"static long {name}(struct file *file,")
    new = new.replace(first, "\tlock_kernel();\n" + first, 1)
    for old, replacement in returns.items():
        new = new.replace(old, replacement)
    return new


def wrapper_of(legacy: str, name: str) -> str:
    """LEGACY converted with a wrapper around the unchanged body."""
    new = legacy.replace(f"static int {name}(struct inode *inode, struct file *file,",
                         f"static long {name}(struct file *file,")
    return new + (f"\nstatic long {name}_unlocked(struct file *file, unsigned int cmd,\n"
                  "\t\tunsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
                  f"\tret = {name}(file, cmd, arg);\n\tunlock_kernel();\n\treturn ret;\n}}\n")


class ObjectLikeMacroTest(unittest.TestCase):
    def test_the_wrapper_passes(self):
        new = wrapper_of(OBJECT_LIKE, "qic_ioctl")
        self.assertEqual(messages(prove(OBJECT_LIKE, new, {"qic_ioctl": "qic_ioctl_unlocked"})),
                         [])

    def test_a_pushdown_that_unlocks_before_the_macro_passes(self):
        new = pushdown_of(OBJECT_LIKE, "qic_ioctl", "\tif (cmd == QIC_REWIND)",
                          {"\t\tQIC_EXIT;": "\t\tunlock_kernel();\n\t\tQIC_EXIT;",
                           "\tQIC_EXIT;\n}": "\tunlock_kernel();\n\tQIC_EXIT;\n}"})
        self.assertEqual(messages(prove(OBJECT_LIKE, new, {"qic_ioctl": "qic_ioctl"})), [])

    def test_a_pushdown_blind_to_the_macro_return_is_caught(self):
        new = pushdown_of(OBJECT_LIKE, "qic_ioctl", "\tif (cmd == QIC_REWIND)",
                          {"\tQIC_EXIT;\n}": "\tunlock_kernel();\n\tQIC_EXIT;\n}"})
        line = line_of(new, "\t\tQIC_EXIT;")
        self.assertEqual(messages(prove(OBJECT_LIKE, new, {"qic_ioctl": "qic_ioctl"})),
                         [f"{line}: return at line {line} (in macro QIC_EXIT) leaves the BKL held"])


class NestedMacroTest(unittest.TestCase):
    def test_the_wrapper_passes(self):
        new = wrapper_of(NESTED, "card_ioctl")
        self.assertEqual(messages(prove(NESTED, new, {"card_ioctl": "card_ioctl_unlocked"})), [])

    def test_a_pushdown_blind_to_the_inner_macro_return_is_caught(self):
        new = pushdown_of(NESTED, "card_ioctl", "\tVALIDATE_CARD(card);",
                          {"\treturn card_command(card, cmd, arg);":
                           "\tret = card_command(card, cmd, arg);\n\tunlock_kernel();\n"
                           "\treturn ret;"}).replace("\tstruct card *card", "\tlong ret;\n"
                                                     "\tstruct card *card")
        line = line_of(new, "\tVALIDATE_CARD(card);")
        self.assertEqual(messages(prove(NESTED, new, {"card_ioctl": "card_ioctl"})),
                         [f"{line}: return at line {line} (in macro VALIDATE_CARD, from "
                          "CARD_CHECK) leaves the BKL held"])


class HeaderMacroTest(unittest.TestCase):
    HEADERS = {"sndq.h": HEADER}

    def test_the_wrapper_passes(self):
        new = wrapper_of(HEADER_USER, "sq_ioctl")
        self.assertEqual(messages(prove(HEADER_USER, new, {"sq_ioctl": "sq_ioctl_unlocked"},
                                        headers=self.HEADERS)), [])

    def test_a_pushdown_blind_to_the_header_macro_return_is_caught(self):
        new = pushdown_of(HEADER_USER, "sq_ioctl", "\tIOCTL_IN(arg, val);",
                          {"\treturn sq_set_speed(val);":
                           "\tret = sq_set_speed(val);\n\tunlock_kernel();\n\treturn ret;"}
                          ).replace("\tint val;", "\tlong ret;\n\tint val;")
        line = line_of(new, "\tIOCTL_IN(arg, val);")
        self.assertEqual(messages(prove(HEADER_USER, new, {"sq_ioctl": "sq_ioctl"},
                                        headers=self.HEADERS)),
                         [f"{line}: return at line {line} (in macro IOCTL_IN) leaves the BKL held"])

    def test_without_the_header_the_macro_is_an_opaque_call(self):
        # The header is what makes the return visible: the test above is not
        # vacuous.  Unread, the macro is a name the pushdown may not run
        # under the lock, refused on that ground instead.
        new = pushdown_of(HEADER_USER, "sq_ioctl", "\tIOCTL_IN(arg, val);",
                          {"\treturn sq_set_speed(val);":
                           "\tret = sq_set_speed(val);\n\tunlock_kernel();\n\treturn ret;"}
                          ).replace("\tint val;", "\tlong ret;\n\tint val;")
        line = line_of(new, "\tIOCTL_IN(arg, val);")
        self.assertEqual(messages(prove(HEADER_USER, new, {"sq_ioctl": "sq_ioctl"})), [
            f"{line}: IOCTL_IN at line {line} runs with the BKL held and may be a macro that "
            "returns: its definition was not read (not in the file, in a header found, or "
            "among the kernel interfaces known not to return)"])

    def test_a_header_next_to_a_header_is_followed(self):
        headers = {"sndq.h": '#include "sndq_io.h"\n', "sndq_io.h": HEADER}
        new = pushdown_of(HEADER_USER, "sq_ioctl", "\tIOCTL_IN(arg, val);",
                          {"\treturn sq_set_speed(val);":
                           "\tret = sq_set_speed(val);\n\tunlock_kernel();\n\treturn ret;"}
                          ).replace("\tint val;", "\tlong ret;\n\tint val;")
        found = messages(prove(HEADER_USER, new, {"sq_ioctl": "sq_ioctl"}, headers=headers))
        self.assertEqual(len(found), 1)
        self.assertIn("(in macro IOCTL_IN) leaves the BKL held", found[0])


class DefinitionsByConfigurationTest(unittest.TestCase):
    LEGACY = """\
#ifdef DEMO_DEBUG
#define DEMO_TRACE(fmt, args...) printk(KERN_DEBUG fmt, ## args)
#define DEMO_BAIL(e) do { demo_trace_exit(); return (e); } while (0)
#else
#define DEMO_TRACE(x)
#define DEMO_BAIL(e) return (e)
#endif

int demo_reset(void);
void demo_trace_exit(void);

static int demo_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	DEMO_TRACE("demo: cmd %u\\n", cmd);
	if (cmd != DEMO_RESET)
		DEMO_BAIL(-ENOTTY);
	return demo_reset();
}
"""

    def test_a_macro_defined_per_configuration_is_read_in_each(self):
        new = pushdown_of(self.LEGACY, "demo_ioctl", "\tDEMO_TRACE(",
                          {"\t\tDEMO_BAIL(-ENOTTY);": "\t{\n\t\tunlock_kernel();\n"
                           "\t\tDEMO_BAIL(-ENOTTY);\n\t}",
                           "\treturn demo_reset();": "\tret = demo_reset();\n\tunlock_kernel();\n"
                           "\treturn ret;"}).replace("{\n\tlock_kernel();", "{\n\tlong ret;\n\n\tlock_kernel();")
        found = messages(prove(self.LEGACY, new, {"demo_ioctl": "demo_ioctl"}))
        # With DEMO_DEBUG the exit trace runs after the unlock; without it
        # DEMO_TRACE has the wrong number of arguments: that configuration
        # does not compile and is not one to prove.
        line = line_of(new, "DEMO_BAIL(-ENOTTY)")
        self.assertEqual(found, [f"{line}: statement at line {line} (in macro DEMO_BAIL) ran "
                                 "under the BKL before and now runs after unlock_kernel() (it "
                                 "calls demo_trace_exit())"])


def _expand(source: str) -> str:
    macros, code = {}, []
    for token in tokenize(source):
        if token.kind == "directive":
            keyword, rest = directive(token)
            if keyword == "define":
                macro = parse_define(rest, token.line)
                macros[macro.name] = macro
        else:
            code.append(token)
    return " ".join(t.text for t in expand(code, lambda name, _t: macros.get(name)))


class ExpansionTest(unittest.TestCase):
    def test_object_and_function_like_nested_and_recursive(self):
        self.assertEqual(_expand("#define A B + 1\n#define B (A * 2)\nA;"), "( A * 2 ) + 1 ;")
        self.assertEqual(_expand("#define ID(x) x\n#define CALL(f) f(1)\nCALL(ID)(2); ID(ID)(3);"),
                         "1 ( 2 ) ; ID ( 3 ) ;")

    def test_stringizing_pasting_and_variadic_arguments(self):
        self.assertEqual(_expand("#define F(x, y) x ## y + #x\nF(a, b);"), 'ab + "a" ;')
        self.assertEqual(_expand('#define G(fmt, args...) printk(fmt, ## args)\nG("x"); G("y", 1);'),
                         'printk ( "x" ) ; printk ( "y" , 1 ) ;')
        self.assertEqual(_expand("#define H(...) f(__VA_ARGS__)\nH(); H(1, (2, 3));"),
                         "f ( ) ; f ( 1 , ( 2 , 3 ) ) ;")

    def test_line_splices_and_crlf_line_ends(self):
        source = "#define R(e) \\\r\n\tdo { \\\r\n\t\treturn e; \\\r\n\t} while (0)\r\nR(1);\r\nx;\r\n"
        tokens = tokenize(source)
        self.assertEqual([t.kind for t in tokens][:1], ["directive"])
        self.assertEqual(_expand(source), "do { return 1 ; } while ( 0 ) ; x ;")
        self.assertEqual([t.line for t in tokens if t.text == "x"], [6])

    def test_a_use_with_the_wrong_number_of_arguments(self):
        with self.assertRaises(ArityError):
            _expand("#define ONE(x) x\nONE(1, 2);")

    def test_expanded_tokens_carry_the_line_and_the_macros_they_came_from(self):
        macros, code = {}, []
        source = "#define IN(x) OUT(x)\n#define OUT(x) return x\n\n\nIN(5);\n"
        for token in tokenize(source):
            if token.kind == "directive":
                macro = parse_define(directive(token)[1], token.line)
                macros[macro.name] = macro
            else:
                code.append(token)
        out = expand(code, lambda name, _t: macros.get(name))
        self.assertEqual([(t.text, t.line, t.macros) for t in out][:2],
                         [("return", 5, ("IN", "OUT")), ("5", 5, ())])


if __name__ == "__main__":
    unittest.main()

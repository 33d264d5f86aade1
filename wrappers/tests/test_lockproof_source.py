"""lockproof: reading a file as the compiler would, without a build
(#if branches, headers) and from the preprocessor's output (a .i file)."""

import unittest

from ioctl_rework import lockproof
from ioctl_rework.lockproof.expanders import PreprocessedUnit
from ioctl_rework.lockproof.source import Unit
from lockproof_helpers import BKL, line_of, messages

SOURCE = """\
#include <linux/fs.h>
#if 0
static int demo_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
	if (cmd) {
#endif
static int demo_helper(int x)
{
	return x;
}

#ifdef CONFIG_DEMO_NEW
static int demo_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
#else
static int demo_ioctl(struct inode *inode, struct file *file,
		      unsigned int cmd, unsigned long arg)
{
#endif
	return demo_helper(cmd);
}
"""


class UnitTest(unittest.TestCase):
    def test_if_zero_code_is_not_a_definition_and_does_not_unbalance_braces(self):
        unit = Unit("demo.c", SOURCE)
        self.assertEqual(len(unit.definitions("demo_helper")), 1)
        self.assertIsNone(unit.unbalanced())

    def test_a_header_split_by_if_else_gives_one_definition_per_branch(self):
        unit = Unit("demo.c", SOURCE)
        found = unit.definitions("demo_ioctl")
        self.assertEqual([unit.tokens[d.at].line for d in found], [14, 18])
        self.assertEqual([unit.tokens[d.close].line for d in found], [23, 23])
        self.assertEqual(unit.atoms(found[0]), set())

    def test_conditions_inside_a_body_are_its_configurations(self):
        text = ("static int f(int x)\n{\n#ifdef A\n\tx++;\n#endif\n#if defined(B) && C\n"
                "\tx--;\n#elif !defined(A)\n\tx = 0;\n#endif\n\treturn x;\n}\n")
        unit = Unit("f.c", text)
        definition = unit.definitions("f")[0]
        self.assertEqual(unit.atoms(definition), {"A", "defined(B) && C"})
        body = (definition.open, definition.close)
        seen = {" ".join(t.text for t in unit.view(definition, config, body))
                for config in ({"A": True, "defined(B) && C": False},
                               {"A": False, "defined(B) && C": False},
                               {"A": False, "defined(B) && C": True})}
        self.assertEqual(seen, {"{ x ++ ; return x ; }", "{ x = 0 ; return x ; }",
                                "{ x -- ; return x ; }"})

    def test_the_unbalanced_line_is_named(self):
        unit = Unit("f.c", "static int a;\n};\nstatic int f(void)\n{\n\treturn 0;\n}\n")
        self.assertEqual(unit.unbalanced(), 2)


def marker(line: int, name: str, flags: str = "") -> str:
    return f'# {line} "{name}"{" " + flags if flags else ""}\n'


LEGACY_I = (marker(1, "drivers/char/demo.c") + marker(1, "include/linux/fs.h", "1") +
            "struct file { int f_flags; };\nstatic inline int iminor(void *i) { return 0; }\n" +
            marker(3, "drivers/char/demo.c", "2") +
            "static int demo_ioctl(struct inode *inode, struct file *file,\n"
            "        unsigned int cmd, unsigned long arg)\n{\n"
            " if (cmd != 0x4401)\n  return -25;\n"
            " return demo_set(iminor(inode), arg);\n}\n")
NEW_I = (marker(1, "drivers/char/demo.c") + marker(1, "include/linux/fs.h", "1") +
         "struct file { int f_flags; };\nstatic inline int iminor(void *i) { return 0; }\n" +
         marker(1, "include/linux/smp_lock.h", "1") + "extern void lock_kernel(void);\n" +
         marker(4, "drivers/char/demo.c", "2") +
         "static long demo_ioctl(struct file *file,\n"
         "        unsigned int cmd, unsigned long arg)\n{\n"
         " struct inode *inode = file->f_dentry->d_inode;\n long ret;\n\n lock_kernel();\n"
         " if (cmd != 0x4401) {\n  unlock_kernel();\n  return -25;\n }\n"
         " ret = demo_set(iminor(inode), arg);\n unlock_kernel();\n return ret;\n}\n")
NEW_SOURCE = ("#include <linux/fs.h>\n#include <linux/smp_lock.h>\n\n"
              "static long demo_ioctl(struct file *file,\n"
              "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
              "\tstruct inode *inode = file->f_dentry->d_inode;\n\tlong ret;\n\n"
              "\tlock_kernel();\n\tif (cmd != DEMO_SET) {\n\t\tunlock_kernel();\n"
              "\t\treturn -ENOTTY;\n\t}\n\tret = demo_set(iminor(inode), arg);\n"
              "\tunlock_kernel();\n\treturn ret;\n}\n")


class PreprocessedTest(unittest.TestCase):
    def prove(self, new_i, old_i=LEGACY_I, source=NEW_SOURCE):
        expander = lockproof.PreprocessedExpander(new_i, old_i)
        return messages(lockproof.prove_each("drivers/char/demo.c", "", source,
                                             {"demo_ioctl": "demo_ioctl"}, BKL, expander))

    def test_a_correct_conversion_passes(self):
        self.assertEqual(self.prove(NEW_I), [])

    def test_lines_are_those_of_the_source_file(self):
        broken = NEW_I.replace("  unlock_kernel();\n  return -25;", "\n  return -25;")
        source = NEW_SOURCE.replace("\t\tunlock_kernel();\n\t\treturn -ENOTTY;",
                                    "\n\t\treturn -ENOTTY;")
        line = line_of(source, "return -ENOTTY")
        self.assertEqual(self.prove(broken, source=source),
                         [f"{line}: return at line {line} leaves the BKL held"])

    def test_only_the_main_files_code_is_read_on_its_own_lines(self):
        nested = (marker(0, "drv/demo.c") + marker(0, "<built-in>") + marker(1, "drv/demo.c") +
                  "int first;\n" + marker(1, "drv/demo.h", "1") + "int in_header;\n" +
                  marker(1, "include/linux/types.h", "1") + "# 7 \"not a marker\n" +
                  "int in_nested_header;\n" + marker(3, "drv/demo.h", "2") +
                  "int after_nested;\n" + marker(3, "drv/demo.c", "2") + "\nint third;\n")
        unit = PreprocessedUnit("drv/demo.c", nested)
        self.assertEqual([(t.text, t.line) for t in unit.tokens],
                         [("int", 1), ("first", 1), (";", 1), ("int", 4), ("third", 4),
                          (";", 4)])

    def test_without_the_legacy_output_nothing_is_proven(self):
        expander = lockproof.PreprocessedExpander(NEW_I)
        found = messages(lockproof.prove_each("drivers/char/demo.c", "", NEW_SOURCE,
                                              {"demo_ioctl": "demo_ioctl"}, BKL, expander))
        self.assertEqual(found, ["unprovable: no preprocessed output of the legacy file "
                                 "to compare with"])

    def test_a_lock_that_is_an_empty_macro_in_the_configuration_is_refused(self):
        hidden = NEW_I.replace(" lock_kernel();", " do { } while (0);") \
            .replace("unlock_kernel();", "do { } while (0);")
        found = self.prove(hidden)
        self.assertEqual(len(found), 1)
        self.assertIn("is a macro in this configuration's preprocessed output", found[0])


if __name__ == "__main__":
    unittest.main()

"""lockproof rejects a read moved out of the lock (issue 22, early_reads.py).

A pushdown runs the handler's declarations before the lock.  One whose
initializer reads shared state (`int users = dev->users;` before
`dev->users = users + 1;` under the lock) splits a read-modify-write the
BKL made one step.  The rule splits such an initializer (the declaration
stays, the assignment follows the lock); the proof must reject the
unsplit form on its own, with the file, line, the code and why.
"""

import re
import unittest

from lockproof_helpers import line_of, messages, prove
from test_lockproof_conversions import prove_case, rule_cases

# `lock(); NAME = VALUE;`: an assignment right after the lock ...
_AFTER_LOCK = re.compile(r"^(\t(?:lock_kernel\(\)|mutex_lock\(&\w+\));\n)\t(\w+) = ([^;\n]+);\n",
                         re.M)


def split_initializers(old: str, new: str):
    """(declaration, name, value, lock line) of each initializer the rule
    split: NEW assigns NAME = VALUE right after the lock, OLD declared NAME
    with that initializer and NEW declares it without."""
    for match in _AFTER_LOCK.finditer(new):
        name, value = match.group(2), match.group(3)
        body = new.rfind("\n{\n", 0, match.start())      # the function's own declarations
        declared = re.compile(r"^\t([^\n=;(]*[\s*]%s);\n" % re.escape(name), re.M).search(
            new, body, match.start())
        if declared and re.search(r"[\s*]%s = %s;" % (re.escape(name), re.escape(value)), old):
            yield declared, name, value, match


def mutants(old: str, new: str):
    """NEW with one split initializer put back before the lock, three ways:
    as the initializer, as a parenthesized initializer, as a statement
    before the lock.  Yields (spelling, mutant, the line to report)."""
    for declared, name, value, at in split_initializers(old, new):
        without = new[:at.start()] + at.group(1) + new[at.end():]
        head, tail = without[:declared.start()], without[declared.end():]
        decl = declared.group(0)[:-2]          # without ";\n"
        for spelling, text in (("initializer", f"{decl} = {value};\n"),
                               ("parenthesized", f"{decl} = ({value});\n")):
            yield spelling, head + text + tail, head.count("\n") + 1
        lock = without[:at.start()].count("\n") + 1
        lines = without.split("\n")
        lines.insert(lock - 1, f"\t{name} = {value};")
        yield "statement", "\n".join(lines), lock


class RuleSplitMutantsTest(unittest.TestCase):
    def test_every_split_initializer_put_back_is_rejected(self):
        count, names = 0, set()
        for case, expected, options in rule_cases():
            old, new = case.read_text(), expected.read_text()
            for spelling, mutant, line in mutants(old, new):
                count += 1
                names.add(expected.name)
                problems = [p for r in prove_case(case, old, mutant, options)
                            for p in r.problems]
                with self.subTest(case=expected.name, spelling=spelling, line=line):
                    here = [str(p) for p in problems if p.line == line]
                    self.assertTrue(here, f"not rejected; problems: {list(map(str, problems))}")
                    self.assertRegex(here[0], rf"^{re.escape(case.name)}:{line}: \w+: ")
                    # As the legacy initializer, or as code the conversion added.
                    self.assertRegex(here[0], r"(ran under the \w+ before and now runs before "
                                              r"(lock_kernel|mutex_lock)\(.*\) \(it "
                                              r"(reads|calls|dereferences) |is not in the "
                                              r"legacy handler and (now )?runs (before|without))")
        # The rule's split cases: auto_split_initializer, purity_parameter_members...
        self.assertGreaterEqual(count, 30)
        self.assertGreaterEqual(len(names), 4)


LEGACY = """#include "demo.h"
struct demo { int users; int count; int table[4]; struct demo *next; };
static int demo_total;
static int demo_levels[4];

static int demo_ioctl(struct inode *inode, struct file *file,
\t\t      unsigned int cmd, unsigned long arg)
{
\tstruct demo *dev = file->private_data;
\tint users = EXPR;

\tdev->users = users + 1;
\treturn 0;
}
"""
PUSHDOWN = """#include "demo.h"
struct demo { int users; int count; int table[4]; struct demo *next; };
static int demo_total;
static int demo_levels[4];

static long demo_ioctl(struct file *file,
\t\t       unsigned int cmd, unsigned long arg)
{
\tstruct inode *inode = file->f_dentry->d_inode;
\tstruct demo *dev = file->private_data;
\tint users = EXPR;

\tlock_kernel();
\tdev->users = users + 1;
\tunlock_kernel();
\treturn 0;
}
"""
HEADER = "#define DEMO_STATUS inb(0x300)\n#define DEMO_BASE 0x300\n#define DEMO_ID 7\n"


def pushdown(expr: str, legacy_extra: str = "", new_extra: str = "") -> list[str]:
    legacy = LEGACY.replace("EXPR", expr).replace("\treturn 0;", legacy_extra + "\treturn 0;")
    new = PUSHDOWN.replace("EXPR", expr).replace("\tunlock_kernel();",
                                                 new_extra + "\tunlock_kernel();")
    return messages(prove(legacy, new, {"demo_ioctl": "demo_ioctl"},
                          headers={"demo.h": HEADER}))


class EarlyReadsTest(unittest.TestCase):
    def test_shared_reads_before_the_lock_are_rejected_with_why(self):
        line = line_of(PUSHDOWN, "\tint users =")
        reads = {"dev->users": "reads dev->users",
                 "dev->next->count": "reads dev->next->count",
                 "file->f_pos": "reads file->f_pos",
                 "inode->i_size": "reads inode->i_size",
                 "file->f_dentry->d_inode->i_size": "reads file->f_dentry->d_inode->i_size",
                 "((struct demo *)file->private_data)->count":
                     "reads memory through a computed pointer",
                 "demo_total": "reads demo_total",
                 "demo_levels[cmd & 3]": "reads demo_levels[...]",
                 "dev->table[0]": "reads dev->table[...]",
                 "dev[0].users": "reads dev[...].users",
                 "*(int *)arg": "dereferences a pointer",
                 "(*dev).users": "dereferences a pointer",
                 "current->mm->map_count": "reads current->mm->map_count",
                 "dev->users + 1": "reads dev->users"}
        for expr, why in reads.items():
            with self.subTest(expr=expr):
                self.assertEqual(pushdown(expr), [
                    f"{line}: declaration `int users = {expr}` at line {line} ran under the "
                    f"BKL before and now runs before lock_kernel() (it {why}, which another "
                    "call may change in between: the BKL made that read and the handler's "
                    "writes one step)"])

    def test_calls_and_hardware_macros_before_the_lock_are_rejected(self):
        line = line_of(PUSHDOWN, "\tint users =")
        calls = {"demo_count(dev)": "demo_count", "DEMO_STATUS": "inb",
                 "demo_get(dev)->count": "demo_get", "inb(DEMO_BASE + 1)": "inb"}
        for expr, name in calls.items():
            with self.subTest(expr=expr):
                self.assertEqual(pushdown(expr), [
                    f"{line}: declaration at line {line} ran under the BKL before and now "
                    f"runs before lock_kernel() (it calls {name}())"])

    def test_what_no_other_call_changes_may_stay_before_the_lock(self):
        for expr in ("0", "-EINVAL", "DEMO_ID", "cmd & 3", "(int)arg", "sizeof(dev->users)",
                     "sizeof(*dev)", "iminor(inode)", "MINOR(inode->i_rdev)",
                     "file->f_flags & O_NONBLOCK", "(file->f_mode & FMODE_WRITE) != 0",
                     "dev != NULL", "&dev->users != NULL", "dev + 1 != NULL",
                     "container_of(inode->i_cdev, struct demo, users) != NULL",
                     "file->private_data != NULL", "current->pid", "_IOC_SIZE(cmd)",
                     "&demo_levels[2] != NULL", "(int)arg + DEMO_ID * 2"):
            with self.subTest(expr=expr):
                self.assertEqual(pushdown(expr), [])

    def test_a_member_the_handler_writes_is_not_stable(self):
        line = line_of(PUSHDOWN, "\tint users =")
        for expr, member, write in (
                ("file->f_flags & O_NONBLOCK", "file->f_flags", "\tfile->f_flags |= 1;\n"),
                ("file->private_data != NULL", "file->private_data",
                 "\tfile->private_data = NULL;\n"),
                ("inode->i_rdev", "inode->i_rdev", "\tinode->i_rdev++;\n")):
            with self.subTest(expr=expr):
                found = pushdown(expr, write, write)
                self.assertIn(f"{line}: declaration `int users = {expr}` at line "
                                 f"{line} ran under the BKL before and now runs before "
                                 f"lock_kernel() (it reads {member}, which another call may "
                                 "change in between: the BKL made that read and the "
                                 "handler's writes one step)", found)

    def test_a_read_moved_after_the_unlock_is_rejected(self):
        legacy = LEGACY.replace("EXPR", "0").replace("\treturn 0;", "\treturn dev->count;")
        new = PUSHDOWN.replace("EXPR", "0").replace(
            "\tunlock_kernel();\n\treturn 0;", "\tunlock_kernel();\n\treturn dev->count;")
        line = line_of(new, "return dev->count")
        self.assertEqual(messages(prove(legacy, new, {"demo_ioctl": "demo_ioctl"},
                                        headers={"demo.h": HEADER})), [
            f"{line}: return value `dev->count` at line {line} ran under the BKL "
            "before and now runs after unlock_kernel() (it reads dev->count, which another "
            "call may change in between: the BKL made that read and the handler's writes "
            "one step)"])


# A name left in the reading (a macro of a tree header, which stays
# unexpanded, an enumerator, a global) is a constant only when what defines
# it was read and is a constant expression; its spelling proves nothing.
BOARD = """\
#define BOARD_ID\t7
#define BOARD_MASK\t((BOARD_ID << 2) | 0x3)
#define BOARD_SIZE\tsizeof(struct demo)
#define BOARD_NAME\t"board"
#define BOARD_STATUS\treadl(board_base + 4)
#define BOARD_LEVEL\tboard_level
#define BOARD_COUNT\t(board_count + 1)
#define board_flags\t0x10
#ifdef CONFIG_BOARD_FIXED
#define BOARD_MODE\t2
#else
#define BOARD_MODE\tboard_mode
#endif
"""
ENUM = "enum board_kind { BOARD_PLAIN, BOARD_FAST = 4, board_slow };\n"


def pushdown_in_tree(expr: str) -> list[str]:
    tree = '#include "demo.h"\n#include <linux/board.h>\n' + ENUM
    legacy = LEGACY.replace("EXPR", expr).replace('#include "demo.h"\n', tree)
    new = PUSHDOWN.replace("EXPR", expr).replace('#include "demo.h"\n', tree)
    return messages(prove(legacy, new, {"demo_ioctl": "demo_ioctl"},
                          headers={"demo.h": HEADER, "../../include/linux/board.h": BOARD,
                                   "../../Makefile": "VERSION = 2\nPATCHLEVEL = 6\n"}))


class UnresolvedNamesTest(unittest.TestCase):
    def test_a_name_read_as_a_constant_may_stay_before_the_lock(self):
        for expr in ("BOARD_ID", "BOARD_MASK", "BOARD_SIZE + 1", "sizeof(BOARD_NAME)",
                     "board_flags", "BOARD_PLAIN", "BOARD_FAST | BOARD_ID", "board_slow",
                     "-ENOTTY", "cmd == BOARD_ID ? -EINVAL : 0"):
            with self.subTest(expr=expr):
                self.assertEqual(pushdown_in_tree(expr), [])

    def test_a_name_not_read_as_a_constant_is_a_read(self):
        line = line_of(PUSHDOWN, "\tint users =") + 2     # the #include and the enum
        for expr, name in (("BOARD_UNKNOWN", "BOARD_UNKNOWN"), ("BOARD_LEVEL", "BOARD_LEVEL"),
                           ("BOARD_COUNT * 2", "BOARD_COUNT"), ("BOARD_MODE", "BOARD_MODE"),
                           ("cmd & DEMO_UNREAD_MASK", "DEMO_UNREAD_MASK")):
            with self.subTest(expr=expr):
                self.assertEqual(pushdown_in_tree(expr), [
                    f"{line}: declaration `int users = {expr}` at line {line} ran "
                    f"under the BKL before and now runs before lock_kernel() (it reads "
                    f"{name}, a name not read as a constant, which another call may change "
                    "in between: the BKL made that read and the handler's writes one step)"])

    def test_a_hardware_macro_of_a_tree_header_is_a_read(self):
        line = line_of(PUSHDOWN, "\tint users =") + 2
        found = pushdown_in_tree("BOARD_STATUS & 1")
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith(f"{line}: declaration"), found)


if __name__ == "__main__":
    unittest.main()

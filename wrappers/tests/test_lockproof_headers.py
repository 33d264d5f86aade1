"""lockproof: the headers a handler's macros come from, found as the
compiler finds them.

A return hidden in a macro the proof did not read passes a pushdown that
leaves the lock held on that return.  Each class here has several
spellings: angle-bracket headers of the tree (2.6.9's include/asm-i386
and a later arch/x86/include), quoted headers found only through the
directory's kbuild include path, and a file included inside the handler's
body.  Each blind pushdown must be caught; the wrapper and the correct
pushdown must pass; and without the tree (or the Makefile) the same
pushdown is refused for another reason, the macro's name not read, so
the tests are not vacuous.  The handlers declare the driver's own helpers
(demo_command, demo_reset): a name whose declaration was not read is
refused on its own (test_lockproof_unread_names).
"""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework import lockproof
from ioctl_rework.ctext.include_search import candidates, search_path
from lockproof_helpers import BKL, line_of, messages

TOP_MAKEFILE = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 9\nEXTRAVERSION =\n"
REL = "drivers/char/demo/demo.c"


def prove_in_tree(files: dict[str, str], old: str, new: str, entries: dict[str, str],
                  rel: str = REL) -> list[str]:
    """Prove OLD -> NEW as REL of a tree holding FILES (path -> text)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(old)
        expander = lockproof.TextualExpander(root, rel)
        return messages(lockproof.prove_each(rel, old, new, entries, BKL, expander))


# The driver's own helpers, declared as a driver declares them.
HELPERS = "long demo_command(struct demo_dev *dev, unsigned int cmd, unsigned long arg);\n" \
          "int demo_reset(struct demo_dev *dev);\n\n"


def unread(new: str, check: str) -> list[str]:
    """The refusal of a pushdown that runs CHECK's macro without having read it."""
    line = line_of(new, f"\t{check};")
    name = check.split("(")[0]
    return [f"{line}: {name} at line {line} runs with the BKL held and may be a macro that "
            "returns: its definition was not read (not in the file, in a header found, or "
            "among the kernel interfaces known not to return)"]


def handler(include: str, check: str) -> str:
    """A legacy handler that includes INCLUDE and runs CHECK first."""
    return (f"#include <linux/fs.h>\n{include}\n\n{HELPERS}"
            "static int demo_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
            "\tstruct demo_dev *dev = file->private_data;\n\n"
            f"\t{check};\n\treturn demo_command(dev, cmd, arg);\n}}\n")


def blind_pushdown(legacy: str, check: str) -> str:
    """LEGACY pushed down by a reading that cannot see the return in CHECK."""
    return legacy.replace(
        "static int demo_ioctl(struct inode *inode, struct file *file,",
        "static long demo_ioctl(struct file *file,").replace(
        "\tstruct demo_dev *dev = file->private_data;\n\n",
        "\tstruct demo_dev *dev = file->private_data;\n\tlong ret;\n\n\tlock_kernel();\n").replace(
        "\treturn demo_command(dev, cmd, arg);",
        "\tret = demo_command(dev, cmd, arg);\n\tunlock_kernel();\n\treturn ret;")


def wrapper(legacy: str) -> str:
    return legacy.replace("static int demo_ioctl(struct inode *inode, struct file *file,",
                          "static int demo_ioctl(struct file *file,") + (
        "\nstatic long demo_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
        "\t\t\t       unsigned long arg)\n{\n\tlong ret;\n\n\tlock_kernel();\n"
        "\tret = demo_ioctl(file, cmd, arg);\n\tunlock_kernel();\n\treturn ret;\n}\n")


def caught(new: str, check: str, macros: str) -> list[str]:
    line = line_of(new, f"\t{check};")
    return [f"{line}: return at line {line} (in macro {macros}) leaves the BKL held"]


# Statement macros that hide a return, upper and lower case, as tree headers write them.
CHECKS = {
    "DEMO_CHECK": "#define DEMO_CHECK(d) do { if (!(d)->ready) return -ENODEV; } while (0)\n",
    "demo_check": "#define demo_check(d) \\\n\tdo { \\\n\t\tif (!(d)->ready) \\\n"
                  "\t\t\treturn -ENODEV; \\\n\t} while (0)\n",
    "DEMO_ASSERT": "#define __demo_bail(e) return (e)\n"
                   "#define DEMO_ASSERT(d) do { if (!(d)) __demo_bail(-EINVAL); } while (0)\n",
}


def guarded(name: str, body: str) -> str:
    guard = "_" + name.upper().replace("/", "_").replace(".", "_")
    return f"#ifndef {guard}\n#define {guard}\n{body}#endif\n"


class TreeHeaderTest(unittest.TestCase):
    LAYOUTS = {
        # include <X> -> the file of the tree that defines the macro
        "<linux/demo.h>": "include/linux/demo.h",
        "<sound/demo.h>": "include/sound/demo.h",
        "<asm/demo.h> (2.6.9)": "include/asm-i386/demo.h",
        "<asm/demo.h> (arch/x86)": "arch/x86/include/asm/demo.h",
    }

    def tree(self, header: str, body: str) -> dict[str, str]:
        files = {"Makefile": TOP_MAKEFILE, "include/linux/fs.h": guarded("fs", "struct file;\n"),
                 header: guarded(header, body)}
        if header.startswith("arch/"):
            files["arch/x86/Makefile"] = "# i386\n"
        return files

    def cases(self):
        for spelled, header in self.LAYOUTS.items():
            include = "#include " + spelled.split()[0]
            for name, body in CHECKS.items():
                check = f"{name}(dev)"
                yield spelled, header, include, name, body, check

    def test_a_pushdown_blind_to_a_tree_header_return_is_caught(self):
        for spelled, header, include, name, body, check in self.cases():
            with self.subTest(header=spelled, macro=name):
                old = handler(include, check)
                new = blind_pushdown(old, check)
                macros = "DEMO_ASSERT, from __demo_bail" if name == "DEMO_ASSERT" else name
                self.assertEqual(prove_in_tree(self.tree(header, body), old, new,
                                               {"demo_ioctl": "demo_ioctl"}),
                                 caught(new, check, macros))

    def test_the_wrapper_passes(self):
        for spelled, header, include, name, body, check in self.cases():
            with self.subTest(header=spelled, macro=name):
                old = handler(include, check)
                self.assertEqual(prove_in_tree(self.tree(header, body), old, wrapper(old),
                                               {"demo_ioctl": "demo_unlocked_ioctl"}), [])

    def test_outside_a_tree_angle_headers_are_not_read(self):
        # No top Makefile: the same files, the macro a name not read, which
        # the pushdown may not run under the lock (not vacuous: another finding).
        for spelled, header, include, name, body, check in self.cases():
            with self.subTest(header=spelled, macro=name):
                old = handler(include, check)
                files = self.tree(header, body)
                del files["Makefile"]
                new = blind_pushdown(old, check)
                self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                                 unread(new, check))

    def test_a_header_of_a_header_is_followed(self):
        files = {"Makefile": TOP_MAKEFILE,
                 "include/linux/demo.h": guarded("demo", "#include <linux/demo_check.h>\n"),
                 "include/linux/demo_check.h": guarded("demo_check", CHECKS["demo_check"])}
        old = handler("#include <linux/demo.h>", "demo_check(dev)")
        new = blind_pushdown(old, "demo_check(dev)")
        self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                         caught(new, "demo_check(dev)", "demo_check"))

    def test_an_exit_passed_to_a_tree_macro_is_read(self):
        # 2.6.9's snd_assert(expr, args...) runs ARGS when EXPR is false.
        body = ("#define __STRING(x) #x\n#define snd_printk(fmt, args...) printk(fmt, ##args)\n"
                "#define snd_assert(expr, args...) do {\\\n\tif (unlikely(!(expr))) {\\\n"
                "\t\tsnd_printk(\"BUG? (%s)\\n\", __STRING(expr));\\\n\t\targs;\\\n"
                "\t}\\\n} while (0)\n")
        check = "snd_assert(dev != NULL, return -ENXIO)"
        old = handler("#include <sound/core.h>", check)
        new = blind_pushdown(old, check)
        files = {"Makefile": TOP_MAKEFILE, "include/sound/core.h": guarded("core", body)}
        line = line_of(new, f"\t{check};")
        # The return is the handler's own token, passed in: no "(in macro ...)".
        self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                         [f"{line}: return at line {line} leaves the BKL held"])
        # Unread, the exit in its arguments is refused, never passed.
        del files["Makefile"]
        found = prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"})
        self.assertEqual(len(found), 1)
        self.assertIn("'return' inside an expression", found[0])

    def test_tree_macros_that_cannot_leave_stay_calls(self):
        # Defined per configuration, with loops of their own: no configuration
        # is walked for them, and the correct pushdown passes.
        body = ("#ifdef CONFIG_SMP\n#define demo_wait(d) do { while (!(d)->ready) "
                "cpu_relax(); if ((d)->gone) break; } while (0)\n#else\n"
                "#define demo_wait(d) do { } while (0)\n#endif\n"
                "#define demo_poll(d) ({ int __n = 0; for (;;) { if ((d)->ready) break; "
                "__n++; } __n; })\n")
        for check in ("demo_wait(dev)", "demo_poll(dev)"):
            with self.subTest(check=check):
                old = handler("#include <linux/demo.h>", check)
                new = blind_pushdown(old, check)
                files = {"Makefile": TOP_MAKEFILE, "include/linux/demo.h": guarded("demo", body)}
                self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                                 [])


class KbuildIncludeTest(unittest.TestCase):
    """`#include "common.h"` of drivers/char/demo/demo.c, found only in
    drivers/char/common through the directory's Makefile or Kbuild."""

    SPELLINGS = [
        ("Makefile", "obj-m += demo.o\nEXTRA_CFLAGS += -Idrivers/char/common\n"),
        ("Makefile", "EXTRA_CFLAGS\t:= -DDEMO -I $(TOPDIR)/drivers/char/common -O2\n"),
        ("Makefile", "ccflags-y += -I$(src)/../common\n"),
        ("Makefile", "ccflags-$(CONFIG_DEMO) += -I$(srctree)/drivers/char/common\n"),
        ("Kbuild", "obj-$(CONFIG_DEMO) += demo.o\nccflags-y := -Wall \\\n"
                   "\t-I$(srctree)/drivers/char/common\n"),
        ("Makefile", "CFLAGS_demo.o = -I$(obj)/../common\n"),
    ]

    def files(self, makefile: str, text: str) -> dict[str, str]:
        return {"Makefile": TOP_MAKEFILE, f"drivers/char/demo/{makefile}": text,
                "drivers/char/common/common.h": guarded("common", CHECKS["DEMO_CHECK"])}

    def test_a_pushdown_blind_to_a_header_on_the_kbuild_path_is_caught(self):
        old = handler('#include "common.h"', "DEMO_CHECK(dev)")
        new = blind_pushdown(old, "DEMO_CHECK(dev)")
        for makefile, text in self.SPELLINGS:
            with self.subTest(makefile=makefile, text=text):
                self.assertEqual(prove_in_tree(self.files(makefile, text), old, new,
                                               {"demo_ioctl": "demo_ioctl"}),
                                 caught(new, "DEMO_CHECK(dev)", "DEMO_CHECK"))

    def test_without_the_include_path_the_header_is_not_found(self):
        old = handler('#include "common.h"', "DEMO_CHECK(dev)")
        new = blind_pushdown(old, "DEMO_CHECK(dev)")
        files = self.files("Makefile", "obj-m += demo.o\n")
        self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                         unread(new, "DEMO_CHECK(dev)"))

    def test_an_unexpandable_include_flag_leaves_the_header_unread(self):
        # Default-deny: a directory the Makefile names through a variable
        # this reading cannot expand is not read, and its macros are names
        # not read, in every spelling.
        old = handler('#include "common.h"', "DEMO_CHECK(dev)")
        new = blind_pushdown(old, "DEMO_CHECK(dev)")
        for text in ("EXTRA_CFLAGS += -I$(COMMON_DIR)\n",
                     "ccflags-y += -I$(shell cd $(src)/.. && pwd)/common\n",
                     "CFLAGS_demo.o += -I$(BOARD)/hw/common\n"):
            with self.subTest(text=text):
                files = self.files("Makefile", text)
                self.assertEqual(prove_in_tree(files, old, new, {"demo_ioctl": "demo_ioctl"}),
                                 unread(new, "DEMO_CHECK(dev)"))

    def test_the_search_path_is_read_from_the_makefile(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for path, text in self.files("Makefile", "EXTRA_CFLAGS += -I$(PWD)/x "
                                         "-Idrivers/char/common -I../../../outside\n").items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text)
            (root / "include/asm-i386").mkdir(parents=True)
            search = search_path(root, REL)
        # An unknown variable and a directory outside the tree are not searched.
        self.assertEqual(search.kbuild, ("drivers/char/common",))
        self.assertEqual(search.system, ("include",))
        self.assertEqual(candidates(search, REL, "asm/io.h", angle=True),
                         ["drivers/char/common/asm/io.h", "include/asm/io.h",
                          "include/asm-i386/io.h"])
        self.assertEqual(candidates(search, REL, "common.h", angle=False),
                         ["drivers/char/demo/common.h", "drivers/char/common/common.h",
                          "include/common.h"])


class IncludedInBodyTest(unittest.TestCase):
    """A list of cases kept in a file and included inside the switch."""

    CASES = {
        "plain return": "case DEMO_RESET:\n\treturn demo_reset(dev);\n",
        "macro return": "case DEMO_RESET:\n\tDEMO_CHECK(dev);\n\tbreak;\n",
        "nested include": '#include "demo_more.h"\n',
    }

    def texts(self, cases: str) -> tuple[str, str, dict[str, str]]:
        old = ("#include <linux/fs.h>\n#include \"demo.h\"\n\n" + HELPERS +
               "static int demo_ioctl(struct inode *inode, struct file *file,\n"
               "\t\t      unsigned int cmd, unsigned long arg)\n{\n"
               "\tstruct demo_dev *dev = file->private_data;\n\n\tswitch (cmd) {\n"
               "#include \"demo_cases.h\"\n\tdefault:\n\t\tbreak;\n\t}\n\treturn 0;\n}\n")
        new = old.replace("static int demo_ioctl(struct inode *inode, struct file *file,",
                          "static long demo_ioctl(struct file *file,") \
            .replace("\n\tswitch (cmd) {", "\n\tlock_kernel();\n\tswitch (cmd) {") \
            .replace("\treturn 0;\n}", "\tunlock_kernel();\n\treturn 0;\n}")
        headers = {"drivers/char/demo/demo.h": CHECKS["DEMO_CHECK"],
                   "drivers/char/demo/demo_cases.h": cases,
                   "drivers/char/demo/demo_more.h": self.CASES["macro return"]}
        return old, new, headers

    def test_a_return_of_the_included_cases_is_caught(self):
        for what, cases in self.CASES.items():
            with self.subTest(what=what):
                old, new, headers = self.texts(cases)
                line = line_of(new, '#include "demo_cases.h"')
                found = prove_in_tree(headers, old, new, {"demo_ioctl": "demo_ioctl"})
                self.assertEqual(len(found), 1, found)
                self.assertTrue(found[0].startswith(f"{line}: return at line {line}"), found)
                self.assertTrue(found[0].endswith("leaves the BKL held"), found)

    def test_the_wrapper_passes(self):
        for what, cases in self.CASES.items():
            with self.subTest(what=what):
                old, _, headers = self.texts(cases)
                self.assertEqual(prove_in_tree(headers, old, wrapper(old),
                                               {"demo_ioctl": "demo_unlocked_ioctl"}), [])


if __name__ == "__main__":
    unittest.main()

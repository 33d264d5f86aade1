"""A driver converted outside a kernel tree reads the headers of the kernel
it is built against (--kernel-headers DIR), as kbuild finds
them for an out-of-tree module (ctext/include_search.py: kernel_dirs).
Before, outside a tree no <...> header was read: a macro of one that
forwards through ->ioctl went unseen, the lower driver was converted and
the forwarded call met a NULL .ioctl (red team: red_fwd_macro, notree
modes; issue 22)."""

import argparse
import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import settings
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert.summary import HandlerStatus
from ioctl_rework.ctext import include_search

from test_cli import run_main
from test_macro_forwarding import HEADER_SPELLINGS, LOWER, UPPER
from tiers import cover


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def convert_outside_tree(drivers: Path, kernel: Path | None, option="--kernel-headers"):
    """convert DRIVERS at 2.6.11, uncached, with OPTION KERNEL when given
    (--kdir: KERNEL built there), else --no-kernel-headers."""
    parser = argparse.ArgumentParser()
    convert.add_arguments(parser)
    given = [option, str(kernel)] if kernel else ["--no-kernel-headers"]
    args = parser.parse_args(["--target", "2.6.11", "--no-cache", *given, "--", str(drivers)])
    return convert.convert(convert.request_from_args(args))


def prepared(kdir: Path) -> Path:
    """KDIR with what --kdir wants of a configured and prepared build (empty files)."""
    for name in (".config", "include/generated/autoconf.h", "include/config/auto.conf",
                 "scripts/basic/fixdep"):
        write(kdir / name, "")
    return kdir


class KernelTestCase(unittest.TestCase):
    """A scratch directory holding a lone driver directory (drv/, no kernel
    Makefile above it) and a kernel source tree beside it (linux/)."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="kernel-headers-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.kernel = self.tmp / "linux"
        write(self.kernel / "Makefile", "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n")
        write(self.kernel / "include/linux/fs.h", "#ifndef FS_H\n#define FS_H\n#endif\n")
        self.drivers = self.tmp / "drv"
        self.drivers.mkdir()
        self.addCleanup(os.environ.pop, include_search.KERNEL_ENV, None)


class SearchTest(KernelTestCase):
    def read(self, text: str, source=None, build=None):
        write(self.drivers / "d.c", text)
        with include_search.kernel_used(source, build):
            return include_search.read_headers(self.drivers, "d.c")

    def test_a_header_of_each_kernel_include_directory_is_read(self):
        places = {"<linux/a.h>": "include/linux/a.h",
                  "<asm/b.h>": "arch/x86/include/asm/b.h",
                  "<uapi/linux/c.h>": "include/uapi/linux/c.h",
                  "<linux/d.h>": "include/uapi/linux/d.h",
                  "<asm/e.h>": "arch/x86/include/uapi/asm/e.h"}
        for include, at in places.items():
            with self.subTest(include=include):
                header = write(self.kernel / at, "#define X 1\n")
                found = self.read(f"#include {include}\n", self.kernel)
                self.assertIn(str(header), found.texts)
                self.assertEqual(found.unread, [])
                without = self.read(f"#include {include}\n")
                self.assertEqual((list(without.texts), without.unread),
                                 (["d.c"], [include[1:-1]]))

    def test_the_kernel_include_directory_comes_before_uapi(self):
        write(self.kernel / "include/uapi/linux/a.h", "#define UAPI 1\n")
        kernel_side = write(self.kernel / "include/linux/a.h", "#define KERNEL 1\n")
        found = self.read("#include <linux/a.h>\n", self.kernel)
        self.assertEqual(list(found.texts), ["d.c", str(kernel_side)])

    def test_a_header_includes_another_of_the_kernel(self):
        for inner in ("<asm/inner.h>", '"inner.h"'):
            with self.subTest(inner=inner):
                include_dir = "arch/x86/include/asm" if inner.startswith("<") else "include/linux"
                outer = write(self.kernel / "include/linux/outer.h", f"#include {inner}\n")
                deeper = write(self.kernel / include_dir / "inner.h", "#define INNER 1\n")
                found = self.read("#include <linux/outer.h>\n", self.kernel)
                self.assertEqual(list(found.texts), ["d.c", str(outer), str(deeper)])
                deeper.unlink()

    def test_a_closure_larger_than_a_6_1_drivers_is_read_whole(self):
        # 6.1's closure of a misc driver is 500-570 headers; 400 were read.
        for n in range(700):
            write(self.kernel / f"include/linux/h{n}.h", f"#include <linux/h{n + 1}.h>\n")
        write(self.kernel / "include/linux/h700.h", "#define LAST 1\n")
        found = self.read("#include <linux/h0.h>\n", self.kernel)
        self.assertEqual((len(found.texts), found.cut), (702, False))
        with include_search.kernel_used(self.kernel):
            cut = include_search.read_headers(self.drivers, "d.c", limit=10)
        self.assertEqual((len(cut.texts), cut.cut), (10, True))

    def test_an_o_directory_adds_its_generated_headers(self):
        build = self.tmp / "build"
        generated = write(build / "include/generated/autoconf.h", "#define CONFIG_X 1\n")
        asm = write(build / "arch/x86/include/generated/asm/g.h", "#define G 1\n")
        write(self.kernel / "arch/x86/include/asm/.keep", "")
        found = self.read("#include <generated/autoconf.h>\n#include <asm/g.h>\n",
                          self.kernel, build)
        self.assertEqual(list(found.texts), ["d.c", str(generated), str(asm)])

    def test_a_kernel_not_built_reads_the_asm_generic_headers_kbuild_would_wrap(self):
        # scripts/Makefile.asm-generic writes arch/x86/include/generated/asm/X.h
        # (#include <asm-generic/X.h>) for each mandatory-y the arch lacks and
        # each generic-y; a tree not built has none of them.
        write(self.kernel / "include/asm-generic/Kbuild",
              "mandatory-y += atomic.h\nmandatory-y += own.h\nmandatory-y += bug.h\n")
        write(self.kernel / "arch/x86/include/asm/Kbuild", "generic-y += export.h\n")
        write(self.kernel / "include/uapi/asm-generic/Kbuild", "mandatory-y += errno.h\n")
        for name in ("atomic.h", "own.h", "export.h", "unlisted.h"):
            write(self.kernel / "include/asm-generic" / name, f"/* generic {name} */\n")
        own = write(self.kernel / "arch/x86/include/asm/own.h", "/* the arch's own */\n")
        errno = write(self.kernel / "include/uapi/asm-generic/errno.h", "#define EPERM 1\n")
        generic = self.kernel / "include/asm-generic"
        cases = {"<asm/atomic.h>": str(generic / "atomic.h"),     # mandatory-y
                 "<asm/export.h>": str(generic / "export.h"),     # generic-y
                 "<asm/own.h>": str(own),                         # the arch has it
                 "<asm/errno.h>": str(errno)}                     # uapi mandatory-y
        for include, path in cases.items():
            with self.subTest(include=include):
                found = self.read(f"#include {include}\n", self.kernel)
                self.assertEqual(list(found.texts), ["d.c", path])
        for include in ("<asm/unlisted.h>", "<asm/bug.h>"):     # no wrapper; no file
            with self.subTest(include=include):
                self.assertEqual(self.read(f"#include {include}\n", self.kernel).unread,
                                 [include[1:-1]])
        # Built (its generated asm directory is there): kbuild's wrappers are read instead.
        build = self.tmp / "build"
        wrapper = write(build / "arch/x86/include/generated/asm/atomic.h",
                        "#include <asm-generic/atomic.h>\n")
        found = self.read("#include <asm/atomic.h>\n", self.kernel, build)
        self.assertEqual(list(found.texts), ["d.c", str(wrapper), str(generic / "atomic.h")])

    def test_a_2_6_tree_without_arch_include_reads_include_asm_i386(self):
        header = write(self.kernel / "include/asm-i386/io.h", "#define outb(v, p) 0\n")
        found = self.read("#include <asm/io.h>\n", self.kernel)
        self.assertEqual(list(found.texts), ["d.c", str(header)])

    def test_nothing_outside_the_kernel_include_directories_is_read(self):
        write(self.kernel / "secret.h", "#define SECRET 1\n")
        found = self.read("#include <../secret.h>\n#include <../../drv/d.c>\n", self.kernel)
        self.assertEqual((list(found.texts), found.unread),
                         (["d.c"], ["../secret.h", "../../drv/d.c"]))

    def test_a_driver_inside_a_tree_reads_its_own_tree(self):
        tree = self.tmp / "tree"
        write(tree / "Makefile", "VERSION = 2\nPATCHLEVEL = 6\n")
        write(tree / "include/linux/a.h", "#define TREE 1\n")
        write(self.kernel / "include/linux/a.h", "#define GIVEN 1\n")
        write(tree / "drivers/d.c", "#include <linux/a.h>\n")
        with include_search.kernel_used(self.kernel):
            found = include_search.read_headers(tree, "drivers/d.c")
        self.assertEqual(list(found.texts), ["drivers/d.c", "include/linux/a.h"])

    def test_kernel_used_gives_back_the_kernel_used_before(self):
        include_search.use_kernel(self.kernel)
        with include_search.kernel_used(self.tmp / "other"):
            self.assertEqual(include_search.given_kernel()[0], str(self.tmp / "other"))
        self.assertEqual(include_search.given_kernel(), (str(self.kernel), str(self.kernel)))
        include_search.use_kernel(None)
        self.assertIsNone(include_search.given_kernel())


class SettingsTest(KernelTestCase):
    def test_kernel_headers_wants_a_kernel_source_tree(self):
        for where in (self.drivers, self.tmp / "absent"):
            with self.subTest(where=where):
                with self.assertRaisesRegex(settings.SettingsError, "no include/linux"):
                    settings.kernel_headers(where, None)

    def o_directories(self):
        """The kernel built in O= directories: one with a source link, one
        whose Makefile includes the source's."""
        linked = self.tmp / "o-link"
        linked.mkdir()
        (linked / "source").symlink_to(self.kernel)
        included = self.tmp / "o-make"
        write(included / "Makefile", f"# generated\ninclude {self.kernel}/Makefile\n")
        return linked, included

    def test_an_o_directory_reads_the_source_it_was_built_from(self):
        for build in (*self.o_directories(), self.kernel):
            with self.subTest(build=build.name):
                kernel = settings.kernel_headers(None, build)
                self.assertEqual((kernel.source, kernel.build), (self.kernel.resolve(), build))

    def test_kernel_headers_wins_over_kdir(self):
        kernel = settings.kernel_headers(self.kernel, self.tmp / "elsewhere")
        self.assertEqual((kernel.source, kernel.given_as),
                         (self.kernel, f"--kernel-headers {self.kernel}"))

    def resolved(self, *given):
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--target", "2.6.11", *given, "--", str(self.drivers)])
        return settings.resolve(args, settings.KernelTree(None))

    def test_a_run_given_kdir_reads_its_kernels_headers(self):
        # The kernel built in place, and an O= directory of each kind.
        linked, included = self.o_directories()
        for build in (self.kernel, linked, included):
            with self.subTest(build=build.name):
                kernel = self.resolved("--kdir", str(build)).kernel
                self.assertEqual((kernel.source, kernel.build, kernel.given_as),
                                 (self.kernel.resolve(), build, f"--kdir {build}"))
        kernel = self.resolved("--kdir", str(linked), "--kernel-headers", str(self.kernel)).kernel
        self.assertEqual((kernel.source, kernel.build), (self.kernel, self.kernel))


class ConvertTest(KernelTestCase):
    """A lower and an upper driver outside a tree; the upper forwards
    through a macro of a header only the given kernel has."""

    def convert(self, include: str, kernel: bool, upper: str = UPPER):
        write(self.drivers / "lower.c", LOWER)
        write(self.drivers / "upper.c", upper % include)
        return convert_outside_tree(self.drivers, self.kernel if kernel else None)

    # Where the macro is: the header included, the file that defines
    # STACK_PASS (relative to the kernel) and what each header holds.
    PLACES = {
        "angle": ("<linux/stackhelp.h>", {"include/linux/stackhelp.h": "MACRO"}),
        "asm": ("<asm/stackhelp.h>", {"arch/x86/include/asm/stackhelp.h": "MACRO"}),
        "uapi": ("<linux/stackhelp.h>", {"include/uapi/linux/stackhelp.h": "MACRO"}),
        "nested": ("<linux/stack.h>", {"include/linux/stack.h": "#include <asm/stackhelp.h>\n",
                                       "arch/x86/include/asm/stackhelp.h": "MACRO"}),
        "nested quoted": ("<linux/stack.h>", {"include/linux/stack.h": '#include "stackhelp.h"\n',
                                              "include/linux/stackhelp.h": "MACRO"}),
        "2.6 asm-i386": ("<asm/stackhelp.h>", {"include/asm-i386/stackhelp.h": "MACRO"}),
    }

    def place(self, headers: dict, macro: str) -> str:
        """Writes HEADERS into the kernel; the path of the macro's header."""
        for at, text in headers.items():
            if text == "MACRO":
                write(self.kernel / at, "#ifndef STACK_H\n#define STACK_H\n" + macro + "#endif\n")
                where = str(self.kernel / at)
            else:
                write(self.kernel / at, text)
        return where

    def test_a_macro_of_the_given_kernel_denies_the_run_naming_itself(self):
        # dot_call takes four arguments.  make check: each place and each
        # spelling at least once; make test: every pair (tiers.cover).
        spellings = [(name, macro) for name, macro in HEADER_SPELLINGS.items()
                     if name != "dot_call"]
        for (place, (include, headers)), (name, macro) in cover(self.PLACES.items(), spellings):
            with self.subTest(place=place, spelling=name):
                shutil.rmtree(self.kernel / "include", ignore_errors=True)
                shutil.rmtree(self.kernel / "arch", ignore_errors=True)
                write(self.kernel / "include/linux/fs.h", "")
                where = self.place(headers, macro)
                result = self.convert(include, kernel=True)
                self.assertEqual(result.changes, {})
                self.assertTrue(result.failed)
                records = {h.handler: h for h in result.summary.handlers}
                for handler in ("lo_ioctl", "up_ioctl", "STACK_PASS"):
                    self.assertIs(records[handler].status, HandlerStatus.FAILED)
                    self.assertIn(f"macro STACK_PASS ({where}:3)", records[handler].reason)

    def test_a_macro_of_the_kdir_kernel_denies_the_run(self):
        # --kdir without --kernel-headers: the kernel built in place, and one
        # built in an O= directory whose generated headers hold the macro.
        built = prepared(self.tmp / "o-build")
        (built / "source").symlink_to(self.kernel)
        write(built / "Makefile", f"include {self.kernel}/Makefile\n")
        cases = {"in place": (prepared(self.kernel), "include/linux/stackhelp.h", self.kernel),
                 "O= generated": (built, "include/generated/uapi/linux/stackhelp.h", built)}
        for (case, (kdir, at, holder)), name in cover(cases.items(),
                                                      ("call", "pointer_call", "test_beside")):
            with self.subTest(case=case, spelling=name):
                write(holder / at, "#define STACK_H\n" + HEADER_SPELLINGS[name])
                write(self.drivers / "lower.c", LOWER)
                write(self.drivers / "upper.c", UPPER % "<linux/stackhelp.h>")
                result = convert_outside_tree(self.drivers, kdir, "--kdir")
                self.assertEqual(result.changes, {})
                records = {h.handler: h for h in result.summary.handlers}
                self.assertIs(records["up_ioctl"].status, HandlerStatus.FAILED)
                self.assertIn(f"macro STACK_PASS ({holder / at}:2)",
                              records["up_ioctl"].reason)
                (holder / at).unlink()

    def test_the_kernel_is_used_for_the_run_only(self):
        self.place(self.PLACES["angle"][1], HEADER_SPELLINGS["call"])
        self.assertTrue(self.convert("<linux/stackhelp.h>", kernel=True).failed)
        self.assertIsNone(include_search.given_kernel())

    def test_a_run_whose_headers_hold_no_forwarding_converts_as_without_them(self):
        quiet = UPPER.replace("return STACK_PASS(up_lower, cmd, arg);", "return -ENOTTY;")
        write(self.kernel / "include/linux/stackhelp.h", "#define STACK_NR 3\n")
        without = self.convert("<linux/stackhelp.h>", kernel=False, upper=quiet)
        with_kernel = self.convert("<linux/stackhelp.h>", kernel=True, upper=quiet)
        self.assertFalse(with_kernel.failed)
        self.assertEqual(sorted(with_kernel.changes), ["lower.c", "upper.c"])
        self.assertEqual(with_kernel.changes, without.changes)


if __name__ == "__main__":
    unittest.main()


class UnreadHeadersTest(KernelTestCase):
    """Outside a tree with no kernel given, a forwarding macro of a <...>
    header would go unseen (issue 22): such a run is refused before any
    work unless told to go on without a kernel (--no-kernel-headers), and
    then it warns."""

    def run_main(self, paths, *given):
        """(exit status, stderr) of convert PATHS; the diff goes to out.diff."""
        write(self.drivers / "lower.c", LOWER)
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        args = parser.parse_args(["--target", "2.6.11", "--no-cache", "-q",
                                  "-o", str(self.tmp / "out.diff"), *given, "--",
                                  *map(str, paths)])
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = convert.main(args)
        return status, err.getvalue()

    def outside(self):
        """Places outside a kernel tree: a directory, a file, a git work tree, a subdirectory."""
        repo = self.tmp / "repo"
        write(repo / "drivers/lower.c", LOWER)
        (repo / ".git").mkdir()
        return {"directory": [self.drivers], "file": [self.drivers / "lower.c"],
                "git work tree": [repo], "subdirectory of one": [repo / "drivers"]}

    def test_a_run_outside_a_tree_without_a_kernel_is_refused_before_any_work(self):
        for place, paths in self.outside().items():
            with self.subTest(place=place):
                status, said = self.run_main(paths)
                self.assertEqual(status, 2)
                self.assertIn("ioctl-rework convert: error: ", said)
                for option in ("--kernel-headers DIR", "--kdir KDIR", "--no-kernel-headers"):
                    self.assertIn(option, said)
                self.assertFalse((self.tmp / "out.diff").exists())

    def test_no_kernel_headers_runs_and_says_what_it_did_not_read(self):
        for place, paths in self.outside().items():
            with self.subTest(place=place):
                status, said = self.run_main(paths, "--no-kernel-headers",
                                             "--json", str(self.tmp / "out.json"))
                self.assertEqual(status, 0, said)
                self.assertIn("convert: warning: ", said)
                self.assertIn("no --kernel-headers was given", said)
                self.assertIn("lower.c", (self.tmp / "out.diff").read_text())
                # A reader of the summary alone learns it too (adv32).
                warned = json.loads((self.tmp / "out.json").read_text())["warnings"]
                self.assertEqual([w for w in warned if "no --kernel-headers was given" in w],
                                 [w for w in warned], warned)
                self.assertEqual(len(warned), 1, warned)
                self.assertIn(warned[0], said)
                (self.tmp / "out.diff").unlink()

    def test_no_kernel_headers_with_a_kernel_is_refused(self):
        status, said = self.run_main([self.drivers], "--no-kernel-headers", "--kdir",
                                     str(prepared(self.kernel)))
        self.assertEqual(status, 2)
        self.assertIn("--no-kernel-headers and --kdir", said)
        parser = argparse.ArgumentParser()
        convert.add_arguments(parser)
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            parser.parse_args(["--no-kernel-headers", "--kernel-headers", str(self.kernel),
                               str(self.drivers)])

    def test_a_kernel_given_or_a_tree_is_neither_refused_nor_warned(self):
        inside = self.kernel / "drivers" / "char"
        write(inside / "lower.c", LOWER)
        for given, paths in ((["--kernel-headers", str(self.kernel)], [self.drivers]),
                             (["--kdir", str(prepared(self.kernel))], [self.drivers]),
                             ([], [inside])):
            with self.subTest(given=given, paths=paths):
                status, said = self.run_main(paths, *given, "--json", str(self.tmp / "out.json"))
                self.assertEqual(status, 0, said)
                self.assertNotIn("no kernel was given", said)
                self.assertNotIn("--kernel-headers was given", said)
                self.assertEqual(json.loads((self.tmp / "out.json").read_text())["warnings"], [])


class DeniedBeforeAnyWorkTest(KernelTestCase):
    """convert and check outside a tree with no kernel given: exit 2, the
    options named, nothing run; a kernel given or the risk taken runs."""

    def setUp(self):
        super().setUp()
        write(self.drivers / "lower.c", LOWER)
        self.patch = write(self.tmp / "add.patch", "--- /dev/null\n+++ b/drv/lower.c\n"
                           f"@@ -0,0 +1,{LOWER.count(chr(10))} @@\n"
                           + "".join("+" + line + "\n" for line in LOWER.splitlines()))
        self.repo = self.tmp / "repo"
        write(self.repo / "drv/lower.c", LOWER)
        (self.repo / ".git").mkdir()

    def refusals(self):
        return {"convert a directory": ["convert", "--target", "2.6.11", str(self.drivers)],
                "convert a file": ["convert", "--target", "2.6.11", str(self.drivers / "lower.c")],
                "convert a git work tree": ["convert", "--target", "2.6.11", str(self.repo)],
                "check a bare patch": ["check", "--diff", str(self.patch)],
                "check a git work tree": ["check", "--git", "HEAD", "--tree", str(self.repo)]}

    def test_each_run_is_refused_naming_the_options(self):
        for target in ("ioctl_rework.convert.cli.convert", "ioctl_rework.check.cli.run_check"):
            patcher = mock.patch(target, side_effect=AssertionError(f"{target} ran"))
            patcher.start()
            self.addCleanup(patcher.stop)
        for name, argv in self.refusals().items():
            with self.subTest(name):
                status, out, err = run_main(argv)
                self.assertEqual((status, out), (2, ""), err)
                for option in ("--kernel-headers DIR", "--kdir KDIR", "--no-kernel-headers"):
                    self.assertIn(option, err)

    def test_check_runs_with_a_kernel_or_the_risk_taken(self):
        for given, warned in ((["--no-kernel-headers"], True),
                              (["--kernel-headers", str(self.kernel)], False)):
            with self.subTest(given=given):
                status, out, err = run_main(["check", "--diff", str(self.patch), *given])
                self.assertEqual(status, 1, err)
                self.assertIn("LEGACY_IOCTL", out)
                self.assertEqual("check: warning: " in err, warned, err)

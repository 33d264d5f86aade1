"""verify: the stage that checks a conversion before convert hands it out.

Without a kernel: KDIR's checks, the cache of legacy builds (a fake make),
which files go back together and with what reason (a fake builder), and
the lock proof as a gate on real runs of the rule is in test_verify_gate.py,
and the builds against the fixture kernel are in kernel-fixtures/run-proof.
"""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import cache as cache_mod
from ioctl_rework import lockproof
from ioctl_rework.convert import cli as convert
from ioctl_rework import settings
from ioctl_rework.convert import verification as verify
from ioctl_rework.convert.request import ConversionResult, ConvertRequest, VerifyOptions
from ioctl_rework.convert.summary import (FileRecord, FileStatus, HandlerRecord, HandlerStatus,
                                  Summary)
from ioctl_rework.verify.kbuild_records import CompileCommand
from ioctl_rework.verify.build import Builder, KdirError, KernelDir, ObjectBuild
from ioctl_rework.verify.diagnostics import Diagnostic

DATA = Path(__file__).resolve().parent / "test_data" / "verify"


def warning(file: str, text: str, line: int = 10) -> Diagnostic:
    return Diagnostic("gcc", file, line, 5, "f", "warning", text)


def prepared_kdir(root: Path) -> Path:
    """A directory with what a configured and prepared tree has (empty files)."""
    for name in ("Makefile", ".config", "include/generated/autoconf.h",
                 "include/config/auto.conf", "scripts/basic/fixdep"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("")
    return root


class KernelDirTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-kdir-"))
        self.addCleanup(shutil.rmtree, self.tmp)

    def refusal(self, path: Path) -> str:
        with self.assertRaises(KdirError) as caught:
            KernelDir.open(path)
        return str(caught.exception)

    def test_a_missing_directory(self):
        self.assertIn("not a directory", self.refusal(self.tmp / "nowhere"))

    def test_a_directory_without_a_makefile(self):
        self.assertIn("no Makefile", self.refusal(self.tmp))

    def test_a_tree_that_is_not_configured(self):
        (self.tmp / "Makefile").write_text("")
        self.assertIn("not configured (no .config)", self.refusal(self.tmp))

    def test_a_configured_tree_that_is_not_prepared_names_what_is_missing(self):
        prepared_kdir(self.tmp)
        (self.tmp / "scripts/basic/fixdep").unlink()
        message = self.refusal(self.tmp)
        self.assertIn("not prepared (no scripts/basic/fixdep)", message)
        self.assertIn("modules_prepare", message)

    def test_a_prepared_tree_is_accepted_and_its_configuration_is_in_its_fingerprint(self):
        first = KernelDir.open(prepared_kdir(self.tmp))
        (self.tmp / ".config").write_text("CONFIG_SMP=y\n")
        self.assertNotEqual(KernelDir.open(self.tmp).fingerprint, first.fingerprint)

    def test_convert_and_check_refuse_it_with_status_2(self):
        tree = self.tmp / "tree"
        shutil.copytree(DATA / "macros", tree)
        for command in (["convert", "--kdir", str(self.tmp), str(tree)],
                        ["check", "--fix", "--kdir", str(self.tmp), "--diff", "-"]):
            proc = subprocess.run([str(Path(convert.__file__).parents[2] / "ioctl-rework"),
                                   *command], capture_output=True, text=True, input="")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("no Makefile", proc.stderr)
            self.assertNotIn("Traceback", proc.stderr)


class FakeMakeBuilder(Builder):
    """make replaced: each source 'builds' with one warning, and its .cmd
    names the header it reads (in the copy) and one file outside it."""

    def __init__(self, *args, outside: Path, **kwargs):
        super().__init__(*args, **kwargs)
        self.outside = outside
        self.made: list[str] = []

    def _make(self, tree, directory, sources, mode):
        results = {}
        for source in sources:
            self.made.append(source)
            stem = Path(source).stem
            (tree / directory / f".{stem}.{'o' if mode.compile else 'i'}.cmd").write_text(
                f"source_x.o := {tree / source}\n\ndeps_x.o := \\\n"
                f"  {tree / directory / 'foo.h'} \\\n"
                f"    $(wildcard include/config/SMP) \\\n"
                f"  {self.outside} \\\n\nx.o: $(deps_x.o)\n")
            results[source] = ObjectBuild(source, (warning(source, "legacy"),), mode.compile,
                                          f"# 1 \"{source}\"\nint x;\n", compiled=mode.compile)
        return results


class BuildCacheTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-cache-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        (self.tree / "drv").mkdir(parents=True)
        (self.tree / "drv/foo.c").write_text('#include "foo.h"\n')
        (self.tree / "drv/foo.h").write_text("int foo;\n")
        self.outside = self.tmp / "kdir-header.h"
        self.outside.write_text("/* KDIR */\n")
        kdir = KernelDir(self.tmp, sparse=False, fingerprint="k")
        self.cache = cache_mod.Cache(self.tmp / "cache", "kdir")
        self.builder = FakeMakeBuilder(kdir, self.tree, self.cache, outside=self.outside)
        self.legacy = {"drv/foo.c": b'#include "foo.h"\n'}

    def build(self):
        return self.builder.build(self.legacy, ["drv/foo.c"], cached=True)["drv/foo.c"]

    def test_a_second_legacy_build_is_read_from_the_cache(self):
        first = self.build()
        second = self.build()
        self.assertEqual(self.builder.made, ["drv/foo.c"])
        self.assertTrue(second.cached)
        self.assertEqual((second.diagnostics, second.preprocessed),
                         (first.diagnostics, first.preprocessed))

    def test_a_changed_header_beside_it_builds_again(self):
        self.build()
        (self.tree / "drv/foo.h").write_text("long foo;\n")
        self.assertFalse(self.build().cached)
        self.assertEqual(len(self.builder.made), 2)

    def test_a_file_outside_the_copy_with_a_new_time_builds_again(self):
        self.build()
        os.utime(self.outside, ns=(1, 1))
        self.assertFalse(self.build().cached)

    def test_a_changed_source_builds_again(self):
        self.build()
        self.legacy["drv/foo.c"] = b'#include "foo.h"\nint more;\n'
        self.assertFalse(self.build().cached)

    def test_the_preprocessor_output_alone_is_cached_apart_from_the_compile(self):
        self.build()
        alone = self.builder.build(self.legacy, ["drv/foo.c"], cached=True, compile=False)
        self.assertFalse(alone["drv/foo.c"].cached)
        again = self.builder.build(self.legacy, ["drv/foo.c"], cached=True, compile=False)
        self.assertTrue(again["drv/foo.c"].cached)
        self.assertFalse(again["drv/foo.c"].compiled)
        self.assertEqual(len(self.builder.made), 2)

    def test_converted_texts_are_never_cached(self):
        self.builder.build(self.legacy, ["drv/foo.c"])
        self.builder.build(self.legacy, ["drv/foo.c"])
        self.assertEqual(len(self.builder.made), 2)


class FakeBuilder:
    """Builds nothing: each source's messages before and after are given.
    A compile that builds has a .i and a command; a failed one neither."""

    def __init__(self, before: dict, after: dict, failed_before=(), failed_after=()):
        self.before, self.after = before, after
        self.failed_before, self.failed_after = failed_before, failed_after
        self.calls = []

    def __call__(self, kdir, context, cache, jobs):
        return self

    def build(self, files, sources, cached=False, compile=True, commands=None):
        self.calls.append((dict(files), list(sources), cached, compile, dict(commands or {})))
        state = "old" if cached else "new"
        if not compile:
            return {s: ObjectBuild(s, (), False, f"/* {state} {s} alone */", compiled=False)
                    for s in sources}
        table, failed = (self.before, self.failed_before) if cached else \
            (self.after, self.failed_after)
        return {s: ObjectBuild(s, tuple(table.get(s, ())), s not in failed,
                               None if s in failed else f"/* {state} {s} compiled */",
                               command=None if s in failed else
                               CompileCommand(("gcc", "-c", "-o", "x.o", s), state))
                for s in sources}


def handler(file: str, name: str, other_files=(), status=HandlerStatus.CONVERTED):
    return HandlerRecord(file, 10, f"{name}_fops", name, status,
                         strategy="pushdown" if status is HandlerStatus.CONVERTED else None,
                         other_files=tuple(other_files))


class RevertTest(unittest.TestCase):
    """Which files go back together, and what the summary says, with a fake builder."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="verify-revert-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        summary = Summary(str(self.tmp), "2.6.9", {}, "spatch", 0.0)
        # a.c's handler is defined in a_ops.c; b.c stands alone; c.h is a header
        summary.handlers = [handler("a.c", "a_ioctl", ["a_ops.c"]), handler("b.c", "b_ioctl"),
                            handler("d.c", "d_ioctl", status=HandlerStatus.SKIPPED)]
        self.changes = {rel: (b"old " + rel.encode(), b"new " + rel.encode())
                        for rel in ("a.c", "a_ops.c", "b.c", "c.h")}
        summary.files = [FileRecord(rel, FileStatus.CONVERTED, None, f"diff of {rel}")
                         for rel in self.changes] + [FileRecord("d.c", FileStatus.UNCHANGED)]
        self.result = ConversionResult(summary, dict(self.changes))
        self.request = ConvertRequest((self.tmp,), settings.ConversionOptions.for_target(settings.DEFAULT_TARGET),
                                      self.tmp,
                                      verify=VerifyOptions(prove=False, kdir=KernelDir(
                                          self.tmp, False, "k")))

    def run_with(self, builder: FakeBuilder) -> verify.Verification:
        with mock.patch("ioctl_rework.verify.build.Builder", builder):
            found = verify.verify(self.request, self.result)
        verify.apply(found, self.result)
        return found

    def records(self):
        return ({f.file: f for f in self.result.summary.files},
                {h.handler: h for h in self.result.summary.handlers})

    def test_a_new_warning_in_one_file_puts_back_every_file_of_its_handler(self):
        self.run_with(FakeBuilder({}, {"a_ops.c": [warning("a_ops.c", "unused variable 'inode'")]}))
        self.assertEqual(sorted(self.result.changes), ["b.c", "c.h"])
        files, handlers = self.records()
        for rel in ("a.c", "a_ops.c"):
            self.assertIs(files[rel].status, FileStatus.FAILED)
            self.assertEqual(files[rel].diff, "")
            self.assertEqual(files[rel].reason, "not rewritten: the build (--kdir) of a_ops.c: "
                             "new in a_ops.c: a_ops.c:10:5: warning: unused variable 'inode'")
        self.assertIs(handlers["a_ioctl"].status, HandlerStatus.FAILED)
        self.assertIsNone(handlers["a_ioctl"].strategy)
        self.assertEqual(handlers["a_ioctl"].reason,
                         "the build (--kdir) failed: new in a_ops.c: a_ops.c:10:5: warning: "
                         "unused variable 'inode'; its files were left as they were")
        self.assertIs(handlers["b_ioctl"].status, HandlerStatus.CONVERTED)
        self.assertIs(files["b.c"].status, FileStatus.CONVERTED)
        self.assertTrue(self.result.failed)

    def test_a_warning_that_was_there_before_keeps_the_conversion(self):
        old = [warning("b.c", "comparison is always false", line=12)]
        moved = [warning("b.c", "comparison is always false", line=19)]
        self.run_with(FakeBuilder({"b.c": old}, {"b.c": moved}))
        self.assertEqual(sorted(self.result.changes), sorted(self.changes))
        self.assertFalse(self.result.failed)

    def calls(self, builder: FakeBuilder) -> dict[str, tuple]:
        """The builder's calls by what they made: "new compile", "new .i",
        "legacy compile", "legacy .i" -> (files, sources, commands)."""
        found = {}
        for files, sources, cached, compiled, commands in builder.calls:
            kind = f"{'legacy' if cached else 'new'} {'compile' if compiled else '.i'}"
            self.assertNotIn(kind, found)
            found[kind] = (files, sources, commands)
        return found

    def test_a_quiet_new_build_needs_only_the_legacy_preprocessor_output(self):
        builder = FakeBuilder({}, {})
        self.run_with(builder)
        calls = self.calls(builder)
        self.assertEqual(list(calls), ["new compile", "legacy compile", "new .i", "legacy .i"])
        converted, sources, _ = calls["new compile"]
        self.assertEqual(sources, ["a.c", "a_ops.c", "b.c"])
        self.assertEqual(converted["c.h"], b"new c.h")
        legacy, preprocessed, commands = calls["legacy .i"]
        self.assertEqual(preprocessed, ["a.c", "a_ops.c", "b.c"])
        self.assertEqual(legacy["a.c"], b"old a.c")
        # each with the command of its converted file's compile: no make
        self.assertEqual({rel: c.argv[-1] for rel, c in commands.items()},
                         {"a.c": "a.c", "a_ops.c": "a_ops.c", "b.c": "b.c"})
        self.assertEqual(calls["legacy compile"][1], [])
        self.assertEqual(calls["new .i"][1], [])

    def test_the_proof_reads_the_i_of_the_compile_that_was_judged(self):
        builder = FakeBuilder({}, {})
        with mock.patch("ioctl_rework.verify.build.Builder", builder):
            builds = verify._build(self.request, self.result, verify.Verification(),
                                   lambda rel, rejection: None)
        before, after = builds["b.c"]
        self.assertEqual(after.preprocessed, "/* new b.c compiled */")
        self.assertEqual(before.preprocessed, "/* old b.c alone */")

    def test_a_compile_that_failed_gets_its_i_from_the_preprocessor_alone(self):
        error = Diagnostic("gcc", "b.c", 3, 1, "", "error", "expected ';'")
        builder = FakeBuilder({"b.c": [error]}, {"b.c": [error]}, failed_before=["b.c"],
                              failed_after=["b.c"])
        with mock.patch("ioctl_rework.verify.build.Builder", builder):
            builds = verify._build(self.request, self.result, verify.Verification(),
                                   lambda rel, rejection: None)
        calls = self.calls(builder)
        self.assertEqual(calls["new .i"][1], ["b.c"])
        self.assertEqual(calls["legacy compile"][1], ["b.c"])
        # no compile of b.c recorded a command: its legacy .i is made by make
        self.assertEqual(calls["legacy .i"][1], ["a.c", "a_ops.c", "b.c"])
        self.assertEqual(sorted(calls["legacy .i"][2]), ["a.c", "a_ops.c"])
        before, after = builds["b.c"]
        self.assertEqual((before.preprocessed, after.preprocessed),
                         ("/* old b.c alone */", "/* new b.c alone */"))
        self.assertEqual((before.built, after.built), (False, False))
        self.assertEqual(after.diagnostics, (error,))

    def test_a_new_build_that_warns_is_compared_with_the_legacy_compile(self):
        builder = FakeBuilder({}, {"b.c": [warning("b.c", "comparison is always false")]})
        self.run_with(builder)
        calls = self.calls(builder)
        legacy, loud, _ = calls["legacy compile"]
        self.assertEqual(loud, ["b.c"])
        self.assertEqual(legacy["b.c"], b"old b.c")
        # its .i comes with its compile
        self.assertEqual(calls["legacy .i"][1], ["a.c", "a_ops.c"])

    def test_a_file_that_did_not_build_before_is_kept_with_a_note(self):
        error = Diagnostic("gcc", "b.c", 3, 1, "", "error", "linux/smp_lock.h: missing")
        self.run_with(FakeBuilder({"b.c": [error]}, {"b.c": [error]}, failed_before=["b.c"]))
        files, handlers = self.records()
        self.assertIs(files["b.c"].status, FileStatus.CONVERTED)
        self.assertIn("does not build against KDIR before the rewrite either "
                      "(b.c:3:1: error: linux/smp_lock.h: missing)", files["b.c"].reason)
        self.assertIs(handlers["b_ioctl"].status, HandlerStatus.CONVERTED)

    def test_a_header_no_build_reads_says_so(self):
        self.run_with(FakeBuilder({}, {}))
        files, _ = self.records()
        self.assertIn("no build read it", files["c.h"].reason)
        self.assertIsNone(files["b.c"].reason)

    def test_a_handler_sharing_a_file_with_a_rejected_one_says_whose_failure_it_was(self):
        self.result.summary.handlers.append(handler("b.c", "b2_ioctl"))
        found = verify.Verification({"b.c": verify.Rejection("b.c", "the lock proof",
                                                             "b.c:9: b_ioctl: leaves it held",
                                                             "b_ioctl")})
        verify.apply(found, self.result)
        _, handlers = self.records()
        self.assertTrue(handlers["b_ioctl"].reason.startswith("the lock proof failed: b.c:9"))
        self.assertEqual(handlers["b2_ioctl"].reason,
                         "left as it was with b_ioctl, whose files it shares: the lock proof "
                         "failed: b.c:9: b_ioctl: leaves it held")
        self.assertIs(handlers["d_ioctl"].status, HandlerStatus.SKIPPED)

    def test_with_kdir_the_proof_reads_the_preprocessed_files(self):
        builder = FakeBuilder({}, {})
        builder.build = lambda files, sources, cached=False, compile=True, commands=None: {
            s: ObjectBuild(s, (), True, f"# 1 \"{s}\"\n/* {'old' if cached else 'new'} */\n")
            for s in sources}
        self.request = ConvertRequest((self.tmp,), settings.ConversionOptions.for_target(settings.DEFAULT_TARGET),
                                      self.tmp,
                                      verify=VerifyOptions(kdir=KernelDir(self.tmp, False, "k")))
        with mock.patch("ioctl_rework.verify.build.Builder", builder), \
                mock.patch.object(lockproof, "prove_changes", return_value=[]) as prove:
            verify.verify(self.request, self.result)
        expander = prove.call_args.kwargs["preprocessed"]("a.c")
        self.assertTrue(expander.preprocessed)
        self.assertEqual((expander.old_text, expander.text),
                         ('# 1 "a.c"\n/* old */\n', '# 1 "a.c"\n/* new */\n'))
        self.assertIsNone(prove.call_args.kwargs["preprocessed"]("c.h"))

    def test_an_unchanged_file_including_a_rewritten_header_is_built_for_it(self):
        (self.tmp / "e.c").write_text('#include <linux/fs.h>\n#include "c.h"\n')
        (self.tmp / "f.c").write_text('#include "other.h"\n')
        builder = FakeBuilder({}, {"e.c": [warning("e.c", "conflicting types for 'c_ioctl'")]})
        self.run_with(builder)
        self.assertEqual(self.calls(builder)["new compile"][1], ["a.c", "a_ops.c", "b.c", "e.c"])
        files, _ = self.records()
        self.assertIs(files["c.h"].status, FileStatus.FAILED)
        self.assertIn("new in e.c: e.c:10:5: warning: conflicting types", files["c.h"].reason)
        self.assertIs(files["b.c"].status, FileStatus.CONVERTED)


if __name__ == "__main__":
    unittest.main()

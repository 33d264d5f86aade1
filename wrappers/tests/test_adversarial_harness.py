"""The adversarial measure's model VFS and harness can fail: fed a correct
conversion of bench/adversarial/selftest/st_legacy.c it finds nothing, and
fed hand-broken ones it finds the lock left held on one path, the hardware
read outside the lock, the lost update of a read moved out of the lock,
the sleep under a mutex that never lets the waking command run (while a
sleep under a mutex that needs no other command is no difference), and a
compat entry that answers a command differently; and the measure's search
for legacy entries left in compiled code finds them in every spelling."""

import shutil
import sys
import tempfile
import unittest
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "adversarial"
sys.path.insert(0, str(BENCH))
import vfsmodel  # noqa: E402
import measure  # noqa: E402

SELFTEST = BENCH / "selftest"


@unittest.skipUnless(shutil.which("gcc"), "gcc is not installed")
class HarnessFindsBrokenConversions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="adversarial-selftest-")
        cls.legacy = cls.run_build("st_legacy", "2.6.9")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def run_build(cls, name: str, kernel: str, *args: str,
                  legacy: str = "st_legacy") -> list[str]:
        source = SELFTEST / f"{name}.c"
        labels = {source: vfsmodel.command_labels(SELFTEST / f"{legacy}.c")}
        built = vfsmodel.build([source], labels, kernel, Path(cls.tmp.name) / name, [])
        if not built.ok:
            raise AssertionError(f"{name} did not build: {built.errors}")
        return vfsmodel.run(built.exe, *args)

    def problems(self, name: str, *args: str) -> list[str]:
        return vfsmodel.compare(self.legacy, self.run_build(name, "2.6.11", *args))

    def test_legacy_build_calls_every_command_with_the_bkl(self):
        self.assertIn("fops 0 entry=ioctl", self.legacy)
        calls = vfsmodel.parse(self.legacy)[1]
        # 4 commands of the driver and 3 unknown ones, 4 arguments each
        self.assertEqual(len(calls), 28)
        self.assertTrue(all(c.unlocked_hw == 0 and c.excess_bkl == 0 for c in calls))

    def test_header_gone_from_a_kernel_fails_its_build(self):
        # The model's headers are written at build time; <linux/smp_lock.h>
        # of st_legacy is gone at 6.1, as it is from the kernel since 2.6.39.
        source = SELFTEST / "st_legacy.c"
        built = vfsmodel.build([source], {source: []}, "6.1",
                               Path(self.tmp.name) / "st_legacy_6.1", [])
        self.assertFalse(built.ok)
        self.assertIn("smp_lock.h: #error \"linux/smp_lock.h does not exist on this kernel\"",
                      built.errors)

    def test_correct_conversion_matches(self):
        self.assertEqual(self.problems("st_good"), [])

    def test_lock_left_held_on_one_path(self):
        found = self.problems("st_leak")
        self.assertTrue(any("lock held at exit (bkl" in p and "cmd=7401 arg=3" in p for p in found), found)
        self.assertFalse(any("arg=user0" in p and "lock held" in p for p in found), found)

    def test_hardware_read_outside_the_lock(self):
        found = self.problems("st_unlocked_hw")
        self.assertTrue(any("hardware access(es) without the lock" in p for p in found), found)

    def test_read_moved_out_of_the_lock_loses_an_update(self):
        found = self.problems("st_rmw")
        # the racer's increment is lost: the legacy call returns 2 after it, this one 1
        self.assertTrue(any("cmd=7402" in p and "legacy ret=2" in p and "converted ret=1" in p
                            for p in found), found)

    def test_sleep_under_a_mutex_hangs(self):
        found = self.problems("st_mutex_poll")
        self.assertTrue(any("cmd=7403" in p and "abort=HANG" in p.split("| converted")[1]
                            for p in found if "| converted" in p), found)

    def test_other_commands_not_run_under_a_mutex_are_a_schedule(self):
        # BUSY_SEND spins on a hardware bit: the legacy call let other
        # commands run in its sleeps, the mutex conversion let none, and
        # its own events are the same; BUSY_WAIT needs BUSY_KICK to run
        legacy = self.run_build("st_busy_legacy", "2.6.9", legacy="st_busy_legacy")
        self.assertTrue(any("cmd=7501" in line and "{ " in line for line in legacy), legacy)
        found = vfsmodel.compare(legacy, self.run_build("st_busy_mutex", "2.6.11",
                                                        legacy="st_busy_legacy"))
        self.assertFalse(any("cmd=7501" in p for p in found), found)
        self.assertTrue(any("cmd=7502" in p for p in found), found)

    def test_a_different_own_event_is_not_hidden_by_the_schedule(self):
        legacy = "call 0 native cmd=1 arg=0 ret=1 abort=none trace=[R1/1=0 { other(2)=0 } W1/1=1 ] | excess=0,0 unbalanced=0 unlocked_hw=0"
        for converted in ("trace=[R1/1=0 W1/1=2 ]", "trace=[W1/1=1 ]", "trace=[R1/1=0 W1/1=1 W1/1=1 ]"):
            line = legacy.split("trace=")[0] + converted + " | excess=0,0 unbalanced=0 unlocked_hw=0"
            self.assertEqual(len(vfsmodel.compare([legacy], [line])), 1, converted)
        same = legacy.replace("{ other(2)=0 } ", "")
        self.assertEqual(vfsmodel.compare([legacy], [same]), [])
        # the converted call may not run others the legacy one did not
        self.assertEqual(len(vfsmodel.compare([same], [legacy])), 1)

    def test_compat_entry_is_held_to_the_legacy_calls(self):
        self.assertEqual(self.problems("st_good", "compat"), [])
        found = self.problems("st_compat_wrong", "compat")
        self.assertTrue(any("compat cmd=7402" in p and "converted ret=-515" in p for p in found), found)
        self.assertEqual(self.problems("st_compat_wrong"), [])   # the native entry is right

    def test_legacy_members_are_found_in_every_spelling(self):
        drivers = vfsmodel.TREE / "drivers" / "adv"
        self.assertEqual(vfsmodel.legacy_members([SELFTEST / "st_good.c"], []), [])
        self.assertEqual(vfsmodel.legacy_members([SELFTEST / "st_legacy.c"], []),
                         [("st_legacy.c", 46)])
        for name in ("adv_entry_macro.c", "adv_entry_cond.c", "adv_entry_gnu.c",
                     "adv_entry_runtime.c", "adv_entry_array.c"):
            with self.subTest(name):
                self.assertTrue(vfsmodel.legacy_members([drivers / name], []))
        # kept for old kernels only: not compiled where HAVE_UNLOCKED_IOCTL is set
        self.assertEqual(vfsmodel.legacy_members([drivers / "adv_multi_glue.c"], []), [])

    def test_kbuild_flags_of_the_object_and_its_directory_are_read(self):
        with tempfile.TemporaryDirectory(prefix="adversarial-flags-") as tmp:
            directory = Path(tmp)
            (directory / "Makefile").write_text(
                "EXTRA_CFLAGS += -I$(src)/inc -DST_ALL\n"
                "ccflags-y += -D ST_SPACED \\\n\t-DST_NEXT_LINE=4\n"
                "CFLAGS_st_flag.o := -DST_ONE=2 -UST_GONE\n"
                "CFLAGS_st_flag_other.o := -DST_OTHER\n")
            self.assertEqual(vfsmodel.kbuild_defines(directory / "st_flag.c"),
                             ["-DST_ALL", "-DST_SPACED", "-DST_NEXT_LINE=4",
                              "-DST_ONE=2", "-UST_GONE"])
            self.assertEqual(vfsmodel.kbuild_defines(directory / "st_flag_other.c"),
                             ["-DST_ALL", "-DST_SPACED", "-DST_NEXT_LINE=4", "-DST_OTHER"])
        self.assertEqual(vfsmodel.kbuild_defines(SELFTEST / "st_legacy.c"), [])

    def test_a_kbuild_flag_selects_the_branch_built(self):
        # CFLAGS_sly_kflag_return.o := -DSLY_STRICT: every call starts with
        # the busy register's read, which the branch without it does not make
        drivers = vfsmodel.TREE / "drivers" / "adv"
        source = drivers / "sly_kflag_return.c"
        built = vfsmodel.build([source], {source: vfsmodel.command_labels(source)}, "2.6.9",
                               Path(self.tmp.name) / "kflag", [])
        self.assertTrue(built.ok, built.errors)
        calls = vfsmodel.parse(vfsmodel.run(built.exe))[1]
        self.assertTrue(calls)
        self.assertTrue(all(c.behaviour.split("trace=[")[1].startswith("R2c1/1=")
                            for c in calls), calls[:2])
        self.assertTrue(vfsmodel.legacy_members([source], []))

    def test_a_module_is_classed_by_its_own_run_only(self):
        # Another module's run read this module's file, which names one of
        # its handlers (two drivers, one name), and recorded it outside or
        # failed: that says nothing of this module, whose own run converted it.
        entry = {"file": "st_good.c", "line": 46, "handler": "st_ioctl"}
        own = {"root": str(SELFTEST), "tokens": [],
               "handlers": [{**entry, "status": "converted", "strategy": "pushdown"}],
               "files": [{"file": "st_good.c", "status": "converted", "diff": "+"}]}
        for status in ("outside", "failed", "skipped"):
            with self.subTest(status):
                other = {"root": str(SELFTEST), "tokens": [], "files": [],
                         "handlers": [{**entry, "status": status,
                                       "reason": "an .ioctl entry of a file outside"}]}
                run = measure.Run(measure.MODES[0], SELFTEST, SELFTEST,
                                  {"root": str(SELFTEST)}, 0, "",
                                  summaries={"st_good": own, "st_other": other})
                module = measure.Module("st_good", ("st_good.c",))
                self.assertEqual(measure.classify_conversion(run, module)[0], "converted")
                self.assertEqual(measure.contradicted_records(run, module), [])
                # and the other module's own record still counts for it
                elsewhere = measure.Module("st_other", ("st_good.c",))
                if status != "outside":
                    self.assertTrue(measure.classify_conversion(run, elsewhere)[0]
                                    .startswith(("failed", "refused")))

    def test_a_header_its_own_run_records_belongs_to_the_module(self):
        # red34_hdr_body: the fops is in a header of the driver; its run
        # lists the header's entry, which is the module's, not a silent skip.
        tmp = Path(self.tmp.name) / "header-module"
        tmp.mkdir()
        (tmp / "st_hdr.h").write_text(
            "static int st_h_ioctl(struct inode *i, struct file *f, unsigned int c,"
            " unsigned long a)\n{\n\treturn 0;\n}\n"
            "static struct file_operations st_h_fops = {\n\t.ioctl = st_h_ioctl,\n};\n")
        (tmp / "st_hdr.c").write_text("#include <linux/fs.h>\n#include \"st_hdr.h\"\n")
        own = {"root": str(tmp), "tokens": [], "files": [],
               "handlers": [{"file": "st_hdr.h", "line": 6, "handler": "st_h_ioctl",
                             "status": "skipped", "reason": "an .ioctl entry in st_hdr.h"}]}
        run = measure.Run(measure.MODES[0], tmp, tmp, {"root": str(tmp)}, 0, "",
                          summaries={"st_hdr": own})
        module = measure.Module("st_hdr", ("st_hdr.c",))
        self.assertTrue(measure.classify_conversion(run, module)[0].startswith("refused"))
        silent = dict(own, handlers=[])
        run = measure.Run(measure.MODES[0], tmp, tmp, {"root": str(tmp)}, 0, "",
                          summaries={"st_hdr": silent})
        self.assertEqual(measure.classify_conversion(run, module)[0], "SILENT-SKIP")

    def test_compare_reports_a_missing_entry(self):
        converted = [line.replace("entry=ioctl", "entry=none") for line in self.legacy
                     if not line.startswith("call ")]
        found = vfsmodel.compare(self.legacy, converted)
        self.assertTrue(any("no ioctl entry left" in p for p in found), found)
        self.assertTrue(any("called in the legacy build only" in p for p in found), found)

    def test_an_entry_empty_before_is_not_missing_after(self):
        # .ioctl = NULL in the legacy fops: removing it loses nothing
        legacy = [line.replace("entry=ioctl", "entry=none") for line in self.legacy
                  if not line.startswith("call ")]
        self.assertEqual(vfsmodel.compare(legacy, legacy), [])

    def test_a_written_tree_header_is_built_against(self):
        # A run inside the tree may rewrite a header of the tree's include/
        # (an exported handler's prototype): the written driver is built
        # with that header, not with the model tree's.
        tmp = Path(self.tmp.name) / "header-tree"
        (tmp / "include" / "linux").mkdir(parents=True)
        (tmp / "include" / "linux" / "st_proto.h").write_text(
            "#define ST_PROTO_SEEN 1\n")
        source = tmp / "st_proto.c"
        source.write_text(SELFTEST.joinpath("st_good.c").read_text()
                          .replace("#include <linux/fs.h>",
                                   "#include <linux/fs.h>\n#include <linux/st_proto.h>"))
        self.assertFalse(vfsmodel.build([source], {source: []}, "2.6.11", tmp / "out1", []).ok)
        self.assertTrue(vfsmodel.build([source], {source: []}, "2.6.11", tmp / "out2", [],
                                       tmp).ok)


if __name__ == "__main__":
    unittest.main()

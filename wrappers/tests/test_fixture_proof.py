"""Tests for the transcript comparison (ioctl_rework.fixture.proof).

The transcripts in test_data/fixture/ have the shape the fixture kernel's
/init and test programs print: ttyS1 output split by `# fixture-run:`
markers, and the kernel console.
"""

import unittest
from pathlib import Path

from ioctl_rework.fixture import proof

DATA = Path(__file__).resolve().parent / "test_data" / "fixture"


def transcript(output: str, console: str = "converted-console.log") -> proof.Transcript:
    return proof.parse_transcript((DATA / output).read_text(), (DATA / console).read_text())


LEGACY = transcript("legacy-output.txt", "legacy-console.log")
COMPAT = proof.Expectation(compat=True)


class ParseTest(unittest.TestCase):
    def test_observations_of_both_programs(self):
        native = LEGACY.observations(proof.PROGRAM_64)
        self.assertEqual(len(native), 4)
        seen = native[("fx_minor", "FX_GET", "valid")]
        self.assertEqual((seen.ret, seen.errno, seen.bkl, seen.mutex, seen.ino, seen.minor,
                          seen.out), (0, "0", True, False, "12", "3", "2a000000"))
        self.assertEqual(LEGACY.runs[proof.PROGRAM_32].exit_status, 0)

    def test_unknown_cmd_lines(self):
        self.assertEqual(len(LEGACY.unknown_cmds), 3)
        first = LEGACY.unknown_cmds[0]
        self.assertEqual((first.comm, first.cmd, first.path),
                         ("ioctl-test-32", 0x80047801, "/dev/fx_minor"))

    def test_bkl_warning_lines(self):
        broken = transcript("converted-output.txt", "dropped-unlock-console.log")
        self.assertEqual(len(broken.bkl_warnings), 1)
        self.assertTrue(broken.bkl_warnings[0].startswith("fx_minor_ioctl returned"))

    def test_no_marker_is_an_error(self):
        with self.assertRaises(proof.TranscriptError):
            proof.parse_transcript("KTAP version 1\n1..0\n", "")

    def test_result_line_format(self):
        line = ("result: fx_buf FX_SETBUF short: ret=-1 errno=EFAULT bkl=0 mutex=1 "
                "ino=- minor=- out=-")
        seen = proof.parse_observation(line, proof.ktap.Status.OK)
        self.assertEqual((seen.device, seen.case, seen.errno, seen.mutex, seen.ino),
                         ("fx_buf", "short", "EFAULT", True, "-"))
        self.assertIsNone(proof.parse_observation("result: garbage", proof.ktap.Status.OK))


class LegacyTest(unittest.TestCase):
    def test_legacy_transcript_holds(self):
        self.assertEqual(proof.check_legacy(LEGACY), [])

    def test_unlogged_einval_is_caught(self):
        quiet = transcript("legacy-output.txt", "converted-console.log")
        failures = proof.check_legacy(quiet)
        self.assertEqual({f.key for f in failures},
                         {"fx_minor FX_GET valid", "fx_minor FX_GET badptr",
                          "fx_minor unknown unknown"})
        self.assertTrue(all("Unknown cmd" in f.message for f in failures))

    def test_32bit_program_must_run_the_64bit_cases(self):
        """The host never runs ioctl-test-32; the guest's run is where a
        different case list shows."""
        legacy = transcript("legacy-output.txt", "legacy-console.log")
        narrow = legacy.runs[proof.PROGRAM_32].observations
        dropped = next(iter(narrow))
        del narrow[dropped]
        failures = [f for f in proof.check_run(legacy) if f.key == proof.PROGRAM_32]
        self.assertEqual(len(failures), 1, failures)
        self.assertIn("ran other cases than ioctl-test-64", failures[0].message)
        self.assertIn(" ".join(dropped), failures[0].message)

    def test_unconverted_32bit_keys(self):
        self.assertEqual({k[0] for k in proof.unconverted_32bit(LEGACY)}, {"fx_minor"})


class CompareTest(unittest.TestCase):
    def test_compat_conversion_holds(self):
        self.assertEqual(proof.compare(LEGACY, transcript("converted-output.txt"), COMPAT), [])

    def test_without_compat_32bit_must_stay_einval(self):
        failures = proof.compare(LEGACY, transcript("converted-output.txt"), proof.Expectation())
        self.assertEqual({(f.what, f.key) for f in failures},
                         {("32-bit", "fx_minor FX_GET valid"), ("32-bit", "fx_minor FX_GET badptr"),
                          ("32-bit", "fx_minor unknown unknown")})

    def test_lost_bkl_is_named(self):
        failures = proof.compare(LEGACY, transcript("lost-bkl-output.txt"), COMPAT)
        self.assertEqual([(f.what, f.key) for f in failures],
                         [("64-bit", "fx_minor FX_GET badptr")])
        self.assertIn("lost the BKL", failures[0].message)

    def test_wrong_inode_is_named(self):
        failures = proof.compare(LEGACY, transcript("wrong-inode-output.txt"), COMPAT)
        self.assertEqual([str(f) for f in failures],
                         ["64-bit: fx_minor FX_GET valid: ino node of fx_minor -> another inode (2)",
                          "64-bit: fx_minor FX_GET valid: minor 3 -> 0"])

    def test_inode_numbers_may_differ_between_kernels(self):
        renumbered = (DATA / "converted-output.txt").read_text().replace("ino=12", "ino=40")
        moved = proof.parse_transcript(renumbered, (DATA / "converted-console.log").read_text())
        self.assertEqual(proof.compare(LEGACY, moved, COMPAT), [])

    def test_two_devices_on_one_inode_is_a_wrong_inode(self):
        shared = (DATA / "converted-output.txt").read_text().replace("ino=14", "ino=12")
        moved = proof.parse_transcript(shared, (DATA / "converted-console.log").read_text())
        failures = proof.compare(LEGACY, moved, COMPAT)
        self.assertIn("ino node of fx_compat -> node of fx_compat+fx_minor",
                      [f.message for f in failures])

    def test_bkl_left_held_is_named(self):
        broken = transcript("converted-output.txt", "dropped-unlock-console.log")
        failures = proof.compare(LEGACY, broken, COMPAT)
        self.assertEqual([(f.what, f.key) for f in failures], [("kernel log", "fx_minor_ioctl")])

    def test_mutex_mode_wants_a_mutex_where_the_bkl_was(self):
        mutex = transcript("mutex-output.txt")
        self.assertEqual(proof.compare(LEGACY, mutex, proof.Expectation(mutex=True, compat=True)),
                         [])
        failures = proof.compare(LEGACY, mutex, COMPAT)
        self.assertTrue(failures)
        self.assertTrue(all("lost the BKL" in f.message for f in failures))

    def test_enoioctlcmd_becomes_einval(self):
        before = proof.parse_observation(
            "result: d c x: ret=-1 errno=ENOIOCTLCMD bkl=1 mutex=0 ino=1 minor=- out=-",
            proof.ktap.Status.OK)
        after = proof.parse_observation(
            "result: d c x: ret=-1 errno=EINVAL bkl=1 mutex=0 ino=1 minor=- out=-",
            proof.ktap.Status.OK)
        self.assertEqual(proof._same_result(before, after, proof.Expectation()), [])
        self.assertEqual(proof._same_result(after, before, proof.Expectation()),
                         ["errno EINVAL -> ENOIOCTLCMD"])

    def test_truncated_run_fails(self):
        failures = proof.compare(LEGACY, transcript("truncated-output.txt"), COMPAT)
        messages = [str(f) for f in failures]
        self.assertIn("run: ioctl-test-32: did not finish (no exit status)", messages)
        self.assertIn("32-bit: fx_compat FX_SET valid: no result after conversion", messages)


class LeftAloneTest(unittest.TestCase):
    def test_devices_map_to_their_driver_file(self):
        stems = {"fx_minor", "fx_twin", "fx_split_main", "fx_split_ioctl", "fixture_observer"}
        self.assertEqual(proof.driver_of("fx_minor1", stems), "fx_minor")
        self.assertEqual(proof.driver_of("fx_twin_status", stems), "fx_twin")
        self.assertIn(proof.driver_of("fx_split", stems), {"fx_split_main", "fx_split_ioctl"})
        self.assertIsNone(proof.driver_of("fx_regs", stems))
        self.assertIsNone(proof.driver_of("fx_min", stems))

    def test_left_alone_driver_must_keep_legacy_behaviour(self):
        # Only fx_compat was converted; fx_minor was left alone, so its
        # 32-bit calls must still fail as before.
        left = proof.Expectation(compat=True, left_alone=frozenset({"fx_minor"}))
        failures = proof.compare(LEGACY, transcript("converted-output.txt"), left)
        self.assertEqual({f.key for f in failures},
                         {"fx_minor FX_GET valid", "fx_minor FX_GET badptr",
                          "fx_minor unknown unknown"})
        self.assertEqual(proof.compare(LEGACY, LEGACY, left), [])

    def test_left_alone_driver_keeps_the_bkl_in_mutex_mode(self):
        left = proof.Expectation(mutex=True, left_alone=frozenset({"fx_minor", "fx_compat"}))
        self.assertEqual(proof.compare(LEGACY, LEGACY, left), [])
        self.assertTrue(proof.compare(LEGACY, LEGACY, proof.Expectation(mutex=True)))


class BootedTest(unittest.TestCase):
    """Transcripts recorded from real boots of the fixture kernel."""

    LEGACY = transcript("booted-legacy-output.txt", "booted-legacy-console.log")
    MUTEX = transcript("booted-wrapper-mutex-output.txt", "booted-wrapper-mutex-console.log")
    # What `convert --strategy wrapper --lock mutex --compat` left alone there.
    LEFT_ALONE = frozenset({"fx_bkl", "fx_split_main", "fx_split_ioctl", "fx_ifdef"})

    def test_legacy_boot_is_2_6_11(self):
        self.assertEqual(proof.check_legacy(self.LEGACY), [])
        self.assertEqual(len(self.LEGACY.unknown_cmds), proof.UNKNOWN_CMD_LIMIT)
        self.assertGreater(len(proof.unconverted_32bit(self.LEGACY)), proof.UNKNOWN_CMD_LIMIT)

    def test_mutex_conversion_differs_only_in_the_compat_wrapper(self):
        expect = proof.Expectation(mutex=True, compat=True, left_alone=self.LEFT_ALONE)
        failures = proof.compare(self.LEGACY, self.MUTEX, expect)
        # fx_compat's own compat_ioctl still takes the BKL around the body
        # that 64-bit callers now run under the private mutex.
        self.assertEqual({(f.what, f.key.split()[0]) for f in failures}, {("32-bit", "fx_compat")})
        self.assertTrue(all("holds no mutex" in f.message for f in failures))

    def test_forgetting_what_was_left_alone_fails(self):
        failures = proof.compare(self.LEGACY, self.MUTEX,
                                 proof.Expectation(mutex=True, compat=True))
        self.assertIn("fx_bkl", {f.key.split()[0] for f in failures})


class SparseTest(unittest.TestCase):
    def test_context_imbalance_and_nothing_else(self):
        failures = proof.compare_sparse((DATA / "sparse-legacy.txt").read_text(),
                                        (DATA / "sparse-imbalance.txt").read_text())
        self.assertEqual([(f.key, f.message[:17]) for f in failures],
                         [("fx_minor.c", "context imbalance")])

    def test_new_warning(self):
        failures = proof.compare_sparse("", (DATA / "sparse-legacy.txt").read_text())
        self.assertEqual(len(failures), 1)
        self.assertTrue(failures[0].message.startswith("new warning: incorrect type"))


if __name__ == "__main__":
    unittest.main()

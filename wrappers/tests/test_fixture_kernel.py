"""Tests for configuring, packing and booting (ioctl_rework.fixture.kernel).

No kernel is built: the boot tests run a stand-in for qemu that prints
what a guest would, so each way a boot can go wrong is checked.
"""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.fixture import initramfs, kernel
from tiers import full_tier


class FakeQemu(kernel.QemuOperations):
    """Prints CONSOLE on stdout and OUTPUT to the ttyS1 file, then sleeps."""

    def __init__(self, console: str, output: str = "", sleep: float = 0, timeout: float = 5):
        super().__init__(timeout=timeout)
        self.script = (f"import sys, time\nsys.stdout.write({console!r})\n"
                       f"open(sys.argv[1], 'w').write({output!r})\ntime.sleep({sleep})\n")

    def command(self, bzimage, initramfs, output):
        return [sys.executable, "-c", self.script, str(output)]


BOOTED = "Linux version 6.1\nRun /init as init process\nfixture-init: done\n"


class BootTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def boot(self, qemu):
        return qemu.boot(self.dir / "bzImage", self.dir / "initramfs.cpio", self.dir / "run")

    def test_clean_boot(self):
        result = self.boot(FakeQemu(BOOTED.replace("\n", "\r\n"), "KTAP version 1\r\n"))
        self.assertEqual(result.output, "KTAP version 1\n")
        self.assertIn("fixture-init: done", result.console)
        self.assertTrue((self.dir / "run" / "console.log").exists())

    def test_panic_shows_the_panic_line(self):
        console = "Run /init as init process\nKernel panic - not syncing: Attempted to kill init!\n"
        with self.assertRaisesRegex(kernel.BootError, "crashed(.|\n)*Kernel panic - not syncing"):
            self.boot(FakeQemu(console))

    def test_hang_is_a_timeout_with_the_last_lines(self):
        with self.assertRaisesRegex(kernel.BootError, "did not finish within 1 s(.|\n)*stuck here"):
            self.boot(FakeQemu("stuck here\n", sleep=30, timeout=1))

    def test_stop_before_the_end(self):
        with self.assertRaisesRegex(kernel.BootError, "stopped before its tests finished"):
            self.boot(FakeQemu("Run /init as init process\nreboot: Restarting system\n"))


class ConfigTest(unittest.TestCase):
    def test_missing_options(self):
        fragment = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=4\n# comment\n"
        config = "CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n"
        self.assertEqual(kernel.missing_options(fragment, config),
                         ["# CONFIG_B is not set", "CONFIG_C=4"])

    def test_error_lines_pick_the_errors(self):
        log = "  CC fs/ioctl.o\nfs/ioctl.c:50:3: error: 'x' undeclared\nmake[1]: *** [fs] Error 1\n"
        self.assertEqual(kernel.error_lines(log).splitlines(),
                         ["fs/ioctl.c:50:3: error: 'x' undeclared"])
        self.assertEqual(kernel.error_lines("make: *** [vmlinux] Killed\n"),
                         "make: *** [vmlinux] Killed")


class InitramfsTest(unittest.TestCase):
    @unittest.skipUnless(Path("/bin/busybox").exists() and Path("/usr/bin/cpio").exists(),
                         "busybox-static and cpio are needed")
    def test_cpio_lists_what_was_packed(self):
        with tempfile.TemporaryDirectory() as tmp:
            program = Path(tmp) / "ioctl-test-64"
            program.write_bytes(b"\x7fELF fake")
            archive = initramfs.pack_initramfs(Path(tmp) / "initramfs.cpio", [program])
            listing = subprocess.run(["cpio", "-itv"], input=archive.read_bytes(),
                                     capture_output=True, check=True).stdout.decode()
        names = [line.split()[-1] for line in listing.splitlines()]
        self.assertEqual(names, ["dev", "dev/console", "bin", "proc", "sys", "tmp",
                                 "bin/busybox", "init", "ioctl-test-64"])
        console = next(line for line in listing.splitlines() if "dev/console" in line)
        self.assertTrue(console.startswith("crw"), console)

    @unittest.skipUnless(Path("/bin/busybox").exists() and kernel.TARBALL.exists(),
                         "busybox-static and linux-source-6.1 are needed")
    def test_packed_by_the_trees_gen_init_cpio_the_same_bytes_every_time(self):
        """With nothing unpacked (a clean clone), gen_init_cpio comes from the tarball."""
        with tempfile.TemporaryDirectory() as tmp:
            # Each build of it from the tarball is about 10 s of xz: make
            # check shares the one of the clone's cache (built there by
            # whichever test packs first: in a clean clone, from the
            # tarball too), make test builds its own (tiers.py).
            cache = Path(tmp) / "cache" if full_tier() else kernel.DEFAULT_CACHE
            program = Path(tmp) / "ioctl-test-64"
            program.write_bytes(b"\x7fELF fake")
            first = initramfs.pack_initramfs(Path(tmp) / "a.cpio", [program], cache=cache)
            self.assertTrue((cache / "tools" / "gen_init_cpio").exists())
            os.utime(program, (12345, 12345))
            second = initramfs.pack_initramfs(Path(tmp) / "b.cpio", [program], cache=cache)
            self.assertEqual(first.read_bytes(), second.read_bytes())
            self.assertFalse(list(Path(tmp).glob("*.d")))


class InstallDriversTest(unittest.TestCase):
    def test_only_changed_files_are_rewritten(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = kernel.LinuxSourceTree(Path(tmp) / "cache")
            tree.tree.mkdir(parents=True)
            source = Path(tmp) / "drivers"
            source.mkdir()
            (source / "Kbuild").write_text("obj-y += a.o\n")
            (source / "a.c").write_text("int a;\n")
            (source / "old.c").write_text("int old;\n")
            self.assertEqual(sorted(tree.install_drivers(source)), ["Kbuild", "a.c", "old.c"])
            (source / "old.c").unlink()
            (source / "a.c").write_text("int a2;\n")
            self.assertEqual(sorted(tree.install_drivers(source)), ["a.c", "old.c"])
            installed = tree.tree / kernel.TREE_DRIVERS
            self.assertFalse((installed / "old.c").exists())
            self.assertEqual(tree.install_drivers(source, "-DX"), ["Kbuild"])
            self.assertTrue((installed / "Kbuild").read_text().endswith("ccflags-y += -DX\n"))

    def test_not_a_driver_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = kernel.LinuxSourceTree(Path(tmp) / "cache")
            with self.assertRaisesRegex(kernel.FixtureError, "no Kbuild or Makefile"):
                tree.install_drivers(Path(tmp))


if __name__ == "__main__":
    unittest.main()

"""safe_write: every file is old or new, whatever happens while writing."""

import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest
from pathlib import Path
from unittest import mock

from ioctl_rework import safe_write

WRAPPERS = Path(__file__).resolve().parents[1]


class TreeCase(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="safe-write-"))
        self.tree = self.tmp / "tree"
        self.tree.mkdir()

    def tearDown(self):
        for path in self.tmp.rglob("*"):
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(self.tmp)

    def file(self, name: str, data: bytes = b"old\n", mode: int = 0o644) -> Path:
        path = self.tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.chmod(mode)
        return path

    def litter(self) -> list[str]:
        return sorted(p.name for p in self.tmp.rglob("*")
                      if p.name.endswith(safe_write.TEMP_SUFFIX) or p.name == safe_write.JOURNAL_NAME)


class WriteAtomicTest(TreeCase):
    def test_replaces_content_and_keeps_mode(self):
        path = self.file("run.sh", mode=0o751)
        safe_write.write_atomic(path, b"new\n", self.tree)
        self.assertEqual(path.read_bytes(), b"new\n")
        self.assertEqual(path.stat().st_mode & 0o7777, 0o751)
        self.assertEqual(self.litter(), [])

    def test_read_only_file_is_refused_and_untouched(self):
        path = self.file("ro.c", mode=0o444)
        with self.assertRaises(safe_write.ReadOnlyFile) as caught:
            safe_write.write_atomic(path, b"new\n", self.tree)
        self.assertIn("read-only", str(caught.exception))
        self.assertEqual(path.read_bytes(), b"old\n")

    def test_symlink_out_of_the_tree_is_never_written_through(self):
        outside = self.tmp / "outside.c"
        outside.write_bytes(b"outside\n")
        link = self.tree / "link.c"
        link.symlink_to(outside)
        with self.assertRaises(safe_write.SymlinkOutsideTree) as caught:
            safe_write.write_atomic(link, b"new\n", self.tree)
        self.assertIn("outside the tree", str(caught.exception))
        self.assertEqual(outside.read_bytes(), b"outside\n")
        self.assertTrue(link.is_symlink())

    def test_symlink_inside_the_tree_rewrites_its_target_and_stays_a_link(self):
        target = self.file("real.c")
        link = self.tree / "alias.c"
        link.symlink_to("real.c")
        safe_write.write_atomic(link, b"new\n", self.tree)
        self.assertTrue(link.is_symlink())
        self.assertEqual(target.read_bytes(), b"new\n")

    def test_disk_full_leaves_the_old_file_and_no_temporary(self):
        path = self.file("big.c", b"old content\n")
        real_write = os.write
        calls = []

        def write_then_fill(fd, data):
            # The first chunk lands, then the device is full: a real partial write.
            calls.append(len(data))
            if len(calls) > 1:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_write(fd, bytes(data[:100]))

        with mock.patch("os.write", write_then_fill):
            with self.assertRaises(safe_write.DiskFull) as caught:
                safe_write.write_atomic(path, b"x" * 100_000, self.tree)
        self.assertIn("No space left on device", str(caught.exception))
        self.assertEqual(path.read_bytes(), b"old content\n")
        self.assertEqual(self.litter(), [])

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("unshare"),
                         "needs root and unshare for a private small tmpfs")
    def test_disk_full_on_a_real_small_filesystem(self):
        script = textwrap.dedent(f"""
            import os, subprocess, sys
            sys.path.insert(0, {str(WRAPPERS)!r})
            from ioctl_rework import safe_write
            mnt = sys.argv[1]
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], check=True)
            path = os.path.join(mnt, "driver.c")
            open(path, "wb").write(b"old\\n" * 1000)
            try:
                safe_write.write_atomic(path, b"y" * 200_000, mnt)
            except safe_write.DiskFull as err:
                print("DiskFull", err)
            print("content", open(path, "rb").read() == b"old\\n" * 1000)
            print("entries", sorted(os.listdir(mnt)))
        """)
        mnt = self.tmp / "mnt"
        mnt.mkdir()
        proc = subprocess.run(["unshare", "-m", sys.executable, "-c", script, str(mnt)],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0 and "mount" in proc.stderr:
            self.skipTest("cannot mount a tmpfs here: " + proc.stderr.strip()[-200:])
        self.assertIn("DiskFull", proc.stdout, proc.stderr)
        self.assertIn("No space left on device", proc.stdout)
        self.assertIn("content True", proc.stdout)
        self.assertIn("entries ['driver.c']", proc.stdout)


class TransactionTest(TreeCase):
    def test_commit_makes_every_file_new(self):
        a, b = self.file("a.c"), self.file("sub/b.c")
        with safe_write.Transaction(self.tree) as tx:
            tx.stage(a, b"new a\n")
            tx.stage(b, b"new b\n")
            tx.commit()
        self.assertEqual((a.read_bytes(), b.read_bytes()), (b"new a\n", b"new b\n"))
        self.assertEqual(self.litter(), [])

    def test_an_error_while_staging_leaves_every_file_old(self):
        a, ro = self.file("a.c"), self.file("ro.c", mode=0o444)
        with self.assertRaises(safe_write.ReadOnlyFile):
            with safe_write.Transaction(self.tree) as tx:
                tx.stage(a, b"new a\n")
                tx.stage(ro, b"new ro\n")
                tx.commit()
        self.assertEqual((a.read_bytes(), ro.read_bytes()), (b"old\n", b"old\n"))
        self.assertEqual(self.litter(), [])

    def _killed_child(self, files: list[Path], pause_after_renames: int) -> None:
        """A process that commits FILES and is SIGKILLed after that many renames
        (or, with -1, after staging and before COMMIT)."""
        script = textwrap.dedent(f"""
            import os, sys, time
            sys.path.insert(0, {str(WRAPPERS)!r})
            from ioctl_rework import safe_write
            real_replace = os.replace
            done = []
            def slow_replace(a, b):
                real_replace(a, b)
                done.append(b)
                if len(done) == {pause_after_renames}:
                    print("renamed", flush=True)
                    time.sleep(60)
            os.replace = slow_replace
            tx = safe_write.Transaction(sys.argv[1]).__enter__()
            for name in sys.argv[2:]:
                tx.stage(name, b"new\\n")
            if {pause_after_renames} < 0:
                print("staged", flush=True)
                time.sleep(60)
            tx.commit()
        """)
        proc = subprocess.Popen([sys.executable, "-c", script, str(self.tree),
                                 *map(str, files)], stdout=subprocess.PIPE, text=True)
        line = proc.stdout.readline()
        self.assertIn(line.strip(), ("renamed", "staged"))
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def test_killed_before_commit_the_next_run_rolls_back(self):
        files = [self.file(f"f{i}.c") for i in range(3)]
        self._killed_child(files, -1)
        self.assertTrue(self.litter())  # the killed run left its temporaries
        self.assertEqual(safe_write.recover(self.tree), [])
        self.assertEqual([f.read_bytes() for f in files], [b"old\n"] * 3)
        self.assertEqual(self.litter(), [])

    def test_killed_during_the_renames_the_next_run_completes(self):
        files = [self.file(f"f{i}.c") for i in range(3)]
        self._killed_child(files, 1)
        contents = [f.read_bytes() for f in files]
        self.assertEqual(sorted(contents), [b"new\n", b"old\n", b"old\n"])
        completed = safe_write.recover(self.tree)
        self.assertEqual(len(completed), 2)
        self.assertEqual([f.read_bytes() for f in files], [b"new\n"] * 3)
        self.assertEqual(self.litter(), [])


def null_device(test: unittest.TestCase, directory: Path) -> Path:
    """A character device like /dev/null, made in DIRECTORY (never the real one)."""
    path = directory / "null"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        test.skipTest("mknod needs CAP_MKNOD")
    return path


class SpecialOutputTest(unittest.TestCase):
    """Outputs that are not regular files are written where they are: a
    device stays a device, a FIFO a FIFO, and nothing appears beside them.
    The device is made here with mknod, never the real /dev/null."""

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="special-output-"))
        self.addCleanup(shutil.rmtree, self.dir)

    def entries(self) -> list[str]:
        return sorted(p.name for p in self.dir.iterdir())

    def fifo_reader(self, path: Path) -> tuple[threading.Thread, list[bytes]]:
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(path.read_bytes()), daemon=True)
        reader.start()
        return reader, got

    def test_a_character_device_is_written_not_replaced(self):
        device = null_device(self, self.dir)
        before = os.stat(device)
        for write in (lambda: safe_write.write_atomic(device, b"report\n"),
                      lambda: safe_write.write_atomic(device, b"report\n", root=self.dir)):
            write()
            after = os.stat(device)
            self.assertTrue(stat.S_ISCHR(after.st_mode))
            self.assertEqual((after.st_ino, after.st_rdev), (before.st_ino, before.st_rdev))
            self.assertEqual(self.entries(), ["null"])
        safe_write.check_output(device)

    def test_a_fifo_is_written_for_its_reader_not_replaced(self):
        fifo = self.dir / "pipe"
        os.mkfifo(fifo)
        safe_write.check_output(fifo)           # must not open it: no reader yet
        reader, got = self.fifo_reader(fifo)
        safe_write.write_atomic(fifo, b"x" * 200_000)
        reader.join(10)
        self.assertEqual(got, [b"x" * 200_000])
        self.assertTrue(stat.S_ISFIFO(os.stat(fifo).st_mode))
        self.assertEqual(self.entries(), ["pipe"])

    def test_a_descriptor_of_ours_is_written_through_it(self):
        read_end, write_end = os.pipe()
        self.addCleanup(os.close, read_end)
        try:
            for name in (f"/dev/fd/{write_end}", f"/proc/self/fd/{write_end}"):
                with self.subTest(name):
                    safe_write.check_output(Path(name))
                    safe_write.write_atomic(Path(name), b"through\n")
                    self.assertEqual(os.read(read_end, 100), b"through\n")
        finally:
            os.close(write_end)
        with self.assertRaisesRegex(safe_write.WriteError, "not an open descriptor"):
            safe_write.check_output(Path(f"/dev/fd/{write_end}"))
        with self.assertRaisesRegex(safe_write.WriteError, "open for reading only"):
            safe_write.check_output(Path(f"/dev/fd/{read_end}"))

    def test_dev_stdout_redirected_to_a_file_keeps_that_file(self):
        log = self.dir / "log"
        log.write_bytes(b"before\n")
        inode = log.stat().st_ino
        script = ("import sys; from pathlib import Path; from ioctl_rework import safe_write; "
                  "print('printed', flush=True); "
                  "safe_write.write_atomic(Path('/dev/stdout'), b'written\\n')")
        with open(log, "ab") as out:
            subprocess.run([sys.executable, "-c", script], stdout=out, check=True,
                           env={**os.environ, "PYTHONPATH": str(WRAPPERS)})
        self.assertEqual(log.read_bytes(), b"before\nprinted\nwritten\n")
        self.assertEqual(log.stat().st_ino, inode)
        self.assertEqual(self.entries(), ["log"])

    def test_a_regular_file_is_still_replaced_atomically(self):
        path = self.dir / "report.json"
        path.write_bytes(b"old\n")
        inode = path.stat().st_ino
        safe_write.check_output(path)
        safe_write.write_atomic(path, b"new\n")
        self.assertEqual(path.read_bytes(), b"new\n")
        self.assertNotEqual(path.stat().st_ino, inode)     # renamed into place
        self.assertEqual(self.entries(), ["report.json"])

    def test_outputs_that_cannot_be_written_are_refused_before_writing(self):
        read_only = self.dir / "ro"
        read_only.write_bytes(b"keep\n")
        read_only.chmod(0o444)
        for path, said in ((self.dir, "is a directory"),
                           (self.dir / "none" / "out", "no such directory"),
                           (read_only, "read-only")):
            with self.subTest(path.name), self.assertRaisesRegex(safe_write.WriteError, said):
                safe_write.check_output(path)
        self.assertEqual(read_only.read_bytes(), b"keep\n")
        safe_write.check_output(self.dir / "new.json")     # a new file in a writable directory
        self.assertEqual(self.entries(), ["ro"])

    def test_an_output_directory_is_checked_as_far_as_it_exists(self):
        safe_write.check_output_dir(self.dir / "a" / "b")
        blocker = self.dir / "f"
        blocker.write_bytes(b"")
        with self.assertRaisesRegex(safe_write.WriteError, "is not a directory"):
            safe_write.check_output_dir(blocker / "series")


if __name__ == "__main__":
    unittest.main()

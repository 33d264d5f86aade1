"""A scratch directory whose run died, watchdog and all, is removed by the
next run, and no other directory is (scratch_dirs)."""

import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

from test_check_hostile import LEGACY, Workspace, _alive
from test_check_repo import ENTRY

from ioctl_rework import scratch_dirs

PREFIX = "ioctl-rework-check."


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


class SweepTest(unittest.TestCase):
    def setUp(self):
        self.parent = Path(tempfile.mkdtemp(prefix="scratch-dirs-test."))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(self.parent)])

    def scratch(self, name: str, owner: str | None) -> Path:
        path = self.parent / name
        path.mkdir()
        (path / "file").write_text("left by a run\n")
        if owner is not None:
            (path / scratch_dirs.OWNER).write_text(owner)
        return path

    def test_only_directories_of_dead_owners_go(self):
        me = os.getpid()
        started = scratch_dirs._start_time(me)
        dead = self.scratch(PREFIX + "dead", f"{_dead_pid()} 12345\n")
        reused = self.scratch(PREFIX + "reused", f"{me} {int(started) - 1}\n")
        alive = self.scratch(PREFIX + "alive", f"{me} {started}\n")
        unowned = self.scratch(PREFIX + "unowned", None)
        garbled = self.scratch(PREFIX + "garbled", "not a record\n")
        other = self.scratch("ioctl-rework-audit-x", f"{_dead_pid()} 1\n")
        removed = scratch_dirs.sweep(PREFIX, self.parent)
        self.assertEqual(sorted(p.name for p in removed), [dead.name, reused.name])
        self.assertFalse(dead.exists())
        self.assertFalse(reused.exists(), "a pid reused by another process is not the owner")
        for kept in (alive, unowned, garbled, other):
            self.assertTrue(kept.exists(), kept.name)

    def test_a_symbolic_link_is_never_followed(self):
        target = self.scratch("elsewhere", f"{_dead_pid()} 1\n")
        (self.parent / (PREFIX + "link")).symlink_to(target)
        self.assertEqual(scratch_dirs.sweep(PREFIX, self.parent), [])
        self.assertTrue((target / "file").exists())

    def test_owned_directory_names_its_owner_and_goes(self):
        with scratch_dirs.owned_directory(PREFIX, self.parent) as tmp:
            record = (Path(tmp) / scratch_dirs.OWNER).read_text().split()
            self.assertEqual(int(record[0]), os.getpid())
            self.assertFalse(scratch_dirs.owner_gone(Path(tmp)))
        self.assertFalse(Path(tmp).exists())


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(") ", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


class WatchdogKilledTest(unittest.TestCase):
    """check and its watchdog both get SIGKILL: the scratch directory stays
    behind, and the next check removes it."""

    def test_next_check_removes_it(self):
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-scratch.") as tmp:
            ws = Workspace(Path(tmp)).init()
            ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
            pids = ws.root / "pids"
            fake = ws.root / "spatch"
            fake.write_text("#!/bin/sh\ncase \"$*\" in *--version*) "
                            "echo 'spatch version 1.1.1'; exit 0;; esac\n"
                            f"echo $$ >> {pids}\nexec sleep 600\n")
            fake.chmod(0o755)
            proc = subprocess.Popen([sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                                     "--git", "HEAD"],
                                    cwd=ws.tree, env={**ws.env, "SPATCH": str(fake)},
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                deadline = time.monotonic() + 300
                while time.monotonic() < deadline and not pids.exists():
                    time.sleep(0.2)
                self.assertTrue(pids.exists(), "the fake spatch never started")
                watchdogs = [p for p in _children(proc.pid)
                             if b"-c" in Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")]
                self.assertEqual(len(watchdogs), 1, "check's watchdog not found")
                os.kill(watchdogs[0], signal.SIGKILL)
                proc.kill()
                proc.wait(timeout=60)
            finally:
                for pid in (int(p) for p in pids.read_text().split()) if pids.exists() else ():
                    if _alive(pid):
                        os.killpg(pid, signal.SIGKILL)
            left = list((ws.root / "tmp").iterdir())
            self.assertEqual(len(left), 1, "the killed check left no scratch directory: "
                                           "this test no longer tests anything")
            ws.commit("a change", {"README": "another line\n"})
            subprocess.run([sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                            "--git", "HEAD"],
                           cwd=ws.tree, env=ws.env, capture_output=True, timeout=300)
            self.assertEqual(list((ws.root / "tmp").iterdir()), [])


if __name__ == "__main__":
    unittest.main()

"""Tests for ioctl_rework.hook: installing the pre-commit hook in real repositories.

Commits that the hook accepts or rejects because of their content are in
test_check.py (HookCommitTest); these tests are about never losing a hook.
"""

import os
import unittest

from ioctl_rework import hook
from test_check_repo import GitRepo


class InstallTest(unittest.TestCase):
    def setUp(self):
        self.repo = GitRepo()
        self.addCleanup(self.repo.__exit__)
        self.hooks = self.repo.path / ".git" / "hooks"

    def test_fresh_install_writes_an_executable_hook_running_check_staged(self):
        installed = hook.install(self.repo.path)
        self.assertEqual(installed.path, self.hooks / "pre-commit")
        self.assertIsNone(installed.chained)
        self.assertTrue(os.access(installed.path, os.X_OK))
        text = installed.path.read_text()
        self.assertTrue(text.startswith("#!/bin/sh\n"))
        self.assertIn(str(hook.ENTRY_SCRIPT) + " check --staged", text)
        self.assertEqual([p.name for p in self.hooks.iterdir() if p.name.startswith(".")], [])

    def test_second_install_changes_nothing(self):
        first = hook.install(self.repo.path).path.read_text()
        again = hook.install(self.repo.path)
        self.assertTrue(again.already)
        self.assertEqual(again.path.read_text(), first)
        self.assertFalse((self.hooks / ("pre-commit" + hook.CHAINED_SUFFIX)).exists())

    def test_existing_hook_is_chained_and_still_runs_first(self):
        old = self.hooks / "pre-commit"
        old.write_text("#!/bin/sh\necho 'old hook says no' >&2\nexit 3\n")
        old.chmod(0o755)
        installed = hook.install(self.repo.path)
        self.assertEqual(installed.chained, self.hooks / ("pre-commit" + hook.CHAINED_SUFFIX))
        self.assertEqual(installed.chained.read_text(),
                         "#!/bin/sh\necho 'old hook says no' >&2\nexit 3\n")
        self.repo.write("README", "text\n")
        self.repo.git("add", "README")
        commit = self.repo.git("commit", "-q", "-m", "x", check=False)
        self.assertEqual(commit.returncode, 1)          # git reports any hook failure as 1
        self.assertIn("old hook says no", commit.stderr)
        self.assertEqual(self.repo.git("rev-list", "--all").stdout, "")

    def test_non_executable_hook_is_refused_and_left_alone(self):
        old = self.hooks / "pre-commit"
        old.write_text("echo mine\n")
        old.chmod(0o644)
        with self.assertRaises(hook.HookError) as caught:
            hook.install(self.repo.path)
        self.assertIn("not an executable", str(caught.exception))
        self.assertIn("check --staged", str(caught.exception))
        self.assertEqual(old.read_text(), "echo mine\n")

    def test_symlinked_hook_is_refused(self):
        target = self.repo.path / "managed-hook"
        target.write_text("#!/bin/sh\n")
        (self.hooks / "pre-commit").symlink_to(target)
        with self.assertRaises(hook.HookError) as caught:
            hook.install(self.repo.path)
        self.assertIn("symlink", str(caught.exception))
        self.assertTrue((self.hooks / "pre-commit").is_symlink())

    def test_earlier_chain_is_never_overwritten(self):
        for name in ("pre-commit", "pre-commit" + hook.CHAINED_SUFFIX):
            (self.hooks / name).write_text(f"#!/bin/sh\n# {name}\n")
            (self.hooks / name).chmod(0o755)
        with self.assertRaises(hook.HookError):
            hook.install(self.repo.path)
        self.assertEqual((self.hooks / "pre-commit").read_text(), "#!/bin/sh\n# pre-commit\n")

    def test_core_hooks_path_is_honoured(self):
        self.repo.git("config", "core.hooksPath", "githooks")
        installed = hook.install(self.repo.path)
        self.assertEqual(installed.path.resolve(),
                         (self.repo.path / "githooks" / "pre-commit").resolve())

    def test_not_a_repository(self):
        plain = self.repo.path.parent / "plain"
        plain.mkdir()
        with self.assertRaises(hook.HookError):
            hook.install(plain)


class CommandLineTest(unittest.TestCase):
    def test_install_hook_option(self):
        with GitRepo() as repo:
            first = repo.run_cli("check", "--install-hook")
            self.assertEqual(first.returncode, 0, first.stderr)
            self.assertIn("installed the ioctl-rework pre-commit hook", first.stdout)
            foreign = repo.path / ".git" / "hooks" / "pre-commit"
            foreign.write_text("echo someone else's\n")
            foreign.chmod(0o644)
            refused = repo.run_cli("check", "--install-hook")
            self.assertEqual(refused.returncode, 2)
            self.assertIn("ioctl-rework check:", refused.stderr)


if __name__ == "__main__":
    unittest.main()

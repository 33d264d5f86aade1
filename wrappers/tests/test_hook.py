"""Tests for ioctl_rework.check.hook: installing the pre-commit hook in real repositories.

Commits that the hook accepts or rejects because of their content are in
test_check.py (HookCommitTest); these tests are about never losing a hook.
"""

import os
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework.check import hook
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


class EntryPointTest(unittest.TestCase):
    """Which command the hook runs, for each way ioctl-rework can be installed."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        self.package = self.root / "share" / "ioctl_rework"
        self.package.mkdir(parents=True)
        self.script = self.root / "share" / "ioctl-rework"
        self.bin = self.root / "bin"
        self.bin.mkdir()

    def layout(self, install=paths.Install.SHARE):
        return paths.Layout(install, self.package, self.package.parent)

    def python(self, imports: Path | None) -> str:
        """A stand-in interpreter that imports ioctl_rework from IMPORTS (or fails)."""
        fake = self.root / "python"
        fake.write_text("#!/bin/sh\n" + (f"echo {imports}\n" if imports else "exit 1\n"))
        fake.chmod(0o755)
        return str(fake)

    def which(self, name):
        found = self.bin / name
        return str(found) if found.exists() else None

    def test_the_installed_command_on_path(self):
        self.script.write_text("#!/bin/sh\n")
        (self.bin / "ioctl-rework").symlink_to(self.script)
        entry = hook.find_entry_point(self.layout(), self.which, self.python(self.package))
        self.assertEqual(entry.argv, ("ioctl-rework",))

    def test_python_m_when_the_interpreter_imports_this_package(self):
        python = self.python(self.package)
        entry = hook.find_entry_point(self.layout(paths.Install.PACKAGE), self.which, python)
        self.assertEqual(entry.argv, (python, "-m", "ioctl_rework"))

    def test_another_installation_on_path_is_not_ours(self):
        self.script.write_text("#!/bin/sh\n")
        (self.bin / "ioctl-rework").write_text("#!/bin/sh\n# some other copy\n")
        python = self.python(self.root / "elsewhere")
        entry = hook.find_entry_point(self.layout(paths.Install.CLONE), self.which, python)
        self.assertEqual(entry.argv, (str(self.script),))
        self.assertIn("install ioctl-rework", entry.note)

    def test_nothing_runnable_is_an_error(self):
        with self.assertRaisesRegex(hook.HookError, "not on PATH"):
            hook.find_entry_point(self.layout(paths.Install.PACKAGE), self.which,
                                  self.python(None))


class CommandLineTest(unittest.TestCase):
    def test_the_kernel_options_given_go_into_the_hooks_command(self):
        # Outside a kernel tree check needs one of them: the hook, run by git,
        # is given none but these.
        for given, command in ((("--no-kernel-headers",), "check --staged --no-kernel-headers\n"),
                               (("--kernel-headers", "linux"),
                                "check --staged --kernel-headers {repo}/linux\n"),
                               (("--kdir", "/b w"), "check --staged --kdir '/b w'\n")):
            with self.subTest(given=given), GitRepo() as repo:
                installed = repo.run_cli("check", "--install-hook", *given)
                self.assertEqual(installed.returncode, 0, installed.stderr)
                text = (repo.path / ".git" / "hooks" / "pre-commit").read_text()
                self.assertTrue(text.endswith(" " + command.format(repo=repo.path)), text)

    def test_a_hook_outside_a_kernel_tree_with_no_kernel_refuses_naming_the_options(self):
        with GitRepo() as repo:
            repo.commit("base", {"README": "a tree\n"})
            hook.install(repo.path)
            repo.write("drivers/x.c", "int x;\n")
            repo.git("add", "-A")
            commit = repo.git("commit", "-q", "-m", "x", check=False)
            self.assertNotEqual(commit.returncode, 0)
            self.assertIn("--no-kernel-headers", commit.stderr)
            self.assertEqual(repo.git("rev-list", "--count", "HEAD").stdout.strip(), "1")

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

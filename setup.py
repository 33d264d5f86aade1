"""Ships the rules and kernel-fixtures/ as package data of ioctl_rework.

In a clone they sit beside wrappers/ (ioctl_rework.paths finds them there);
a wheel carries them as ioctl_rework/data/semantic-patches and
ioctl_rework/data/kernel-fixtures, which importlib.resources finds.
Everything else is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.o", "*.orig", "*.rej")


class BuildPyWithData(build_py):
    """build_py, then the data copied into the built package."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "ioctl_rework" / "data"
        if target.exists():
            shutil.rmtree(target)
        # The rules and whatever else sits beside them: the macro file, the
        # Python package the rules import (not their tests/).
        rules = target / "semantic-patches"
        rules.mkdir(parents=True)
        for rule in sorted((HERE / "semantic-patches").iterdir()):
            if rule.is_file():
                shutil.copy2(rule, rules / rule.name)
            elif (rule / "__init__.py").is_file():
                shutil.copytree(rule, rules / rule.name, ignore=SKIP)
        shutil.copytree(HERE / "kernel-fixtures", target / "kernel-fixtures", ignore=SKIP)


setup(cmdclass={"build_py": BuildPyWithData})

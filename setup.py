"""Installs the SmPL rules where ioctl_rework.rules looks for them.

rules.RULES_DIR is the directory `semantic-patches` two levels above the
package (the repository layout).  Installed, the package is in
PREFIX/lib/pythonX.Y/{site,dist}-packages, so the rules go to
PREFIX/lib/pythonX.Y/semantic-patches.  Everything else is in pyproject.toml.
"""

import sys
from pathlib import Path

from setuptools import setup

RULES = sorted(str(p) for p in Path("semantic-patches").glob("*.cocci"))
setup(data_files=[(f"lib/python{sys.version_info.major}.{sys.version_info.minor}"
                   "/semantic-patches", RULES)])

"""Where ioctl-rework finds its data and writes its output: the one place
that knows how it was installed.

The data are the rules (semantic-patches/*.cocci, with the macro file
macros.h) and kernel-fixtures/.
They are found, beside the package, in one of three layouts:

  clone         REPO/wrappers/ioctl_rework     data in REPO
  make install  PREFIX/share/ioctl-rework/ioctl_rework
                                               data in PREFIX/share/ioctl-rework
  pip install   .../site-packages/ioctl_rework data in ioctl_rework/data
                                               (package data, importlib.resources)

Output never goes beside an installed package: caches and the fixture
kernel live under $XDG_CACHE_HOME/ioctl-rework (~/.cache/ioctl-rework).  A
clone keeps its fixture kernel in REPO/build/fixture, as `make` does.
"""

import enum
import functools
import importlib.resources
import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "ioctl_rework"
RULES = "semantic-patches"
FIXTURES = "kernel-fixtures"
# Overrides the fixture kernel's cache directory (the Makefile sets it).
FIXTURE_CACHE_ENV = "IOCTL_REWORK_FIXTURE_CACHE"


class DataError(Exception):
    """The rules and fixtures are not where this installation keeps them."""


class Install(enum.Enum):
    CLONE = "clone"
    SHARE = "make install"
    PACKAGE = "pip install"


@dataclass(frozen=True)
class Layout:
    install: Install
    package: Path              # the ioctl_rework directory
    data: Path                 # holds semantic-patches/ and kernel-fixtures/

    @property
    def repo(self) -> Path | None:
        """The clone's top directory; None when installed."""
        return self.data if self.install is Install.CLONE else None


def _package_dir() -> Path:
    root = importlib.resources.files(PACKAGE)
    if not isinstance(root, Path):
        raise DataError(f"{PACKAGE} is installed in an archive; the rules must be files "
                        "spatch can read (install it with pip or make install)")
    return root


def find_layout(package: Path) -> Layout:
    """The layout of the installation whose package directory is PACKAGE."""
    candidates = ((Install.PACKAGE, package / "data"), (Install.SHARE, package.parent),
                  (Install.CLONE, package.parent.parent))
    for install, data in candidates:
        if install is Install.CLONE and package.parent.name != "wrappers":
            continue
        if (data / RULES).is_dir() and (data / FIXTURES).is_dir():
            return Layout(install, package, data)
    raise DataError(f"{package}: no {RULES}/ and {FIXTURES}/ beside it (looked in "
                    + ", ".join(str(data) for _, data in candidates) + ")")


@functools.cache
def layout() -> Layout:
    return find_layout(_package_dir())


def rules_dir() -> Path:
    return layout().data / RULES


def fixtures_dir() -> Path:
    return layout().data / FIXTURES


def cache_home() -> Path:
    """$XDG_CACHE_HOME/ioctl-rework: the caches of audit, convert and check."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ioctl-rework"


def fixture_cache() -> Path:
    """The fixture kernel's source, objects and boots."""
    if os.environ.get(FIXTURE_CACHE_ENV):
        return Path(os.environ[FIXTURE_CACHE_ENV])
    repo = layout().repo
    return repo / "build" / "fixture" if repo else cache_home() / "fixture"


def fixture_cache_help() -> str:
    """How --help names the default of fixture_cache(), without this machine's paths."""
    return (f"${FIXTURE_CACHE_ENV}, else build/fixture in a clone, "
            "else $XDG_CACHE_HOME/ioctl-rework/fixture")


def display(path: Path) -> str:
    """PATH for a message: relative to the data directory when inside it."""
    try:
        return str(Path(path).relative_to(layout().data))
    except ValueError:
        return str(path)

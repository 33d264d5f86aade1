"""After an in-place conversion for a modern target: build the driver
directory against KDIR as an external module (`make -C KDIR M=DIR`) and
say what still stops it, next to the API drift the conversion leaves
(api_drift).  Nothing here changes a source file; the build leaves its
objects (and the .ko to insmod) in DIR, as the user's own build would.
"""

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import children
from ioctl_rework.verify import api_drift
from ioctl_rework import settings

MAKE_TIMEOUT = 1800
_ERROR = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<message>.*)$")
_MODPOST = re.compile(r"^ERROR: modpost: (?P<message>.*)$")


@dataclass(frozen=True)
class BuildError:
    file: str                      # relative to the driver directory, or "modpost"
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: error: {self.message}" if self.line else \
            f"{self.file}: {self.message}"


@dataclass(frozen=True)
class PortReport:
    directory: Path
    kdir: Path
    target: settings.Target
    status: int                    # make's exit status
    modules: tuple[str, ...]       # the .ko files built, relative to DIRECTORY
    errors: tuple[BuildError, ...]
    drift: tuple[api_drift.Finding, ...]
    log: str

    @property
    def builds(self) -> bool:
        return self.status == 0 and not self.errors

    def lines(self) -> list[str]:
        """The report as the CLI prints it."""
        out = [f"build: make -C {self.kdir} M={self.directory} modules: "
               + ("ok" if self.builds else f"failed ({len(self.errors)} error(s))")]
        out += [f"  {error}" for error in self.errors]
        if self.builds and self.modules:
            out.append("  then: " + "; ".join(f"insmod {self.directory / m}" for m in self.modules))
        elif not self.errors and not self.builds:
            out += ["  " + line for line in self.log.strip().splitlines()[-10:]]
        if self.drift:
            out.append(f"API drift for {self.target} the conversion does not fix "
                       f"({len(self.drift)}; listed, not changed):")
            out += [f"  {finding}" for finding in self.drift]
        return out


def parse_errors(log: str, directory: Path) -> list[BuildError]:
    """Compiler and modpost errors of LOG, files relative to DIRECTORY, each once."""
    found: list[BuildError] = []
    for raw in log.splitlines():
        text = raw.strip()
        match = _ERROR.match(text)
        if match:
            path = Path(match["file"])
            name = str(path.relative_to(directory)) if path.is_absolute() and \
                path.is_relative_to(directory) else match["file"]
            error = BuildError(name, int(match["line"]), match["message"])
        elif _MODPOST.match(text):
            error = BuildError("modpost", 0, _MODPOST.match(text)["message"])
        else:
            continue
        if error not in found:
            found.append(error)
    return found


def build_and_report(directory: Path, kdir: Path, target: settings.Target,
                     jobs: int = 2) -> PortReport:
    directory, kdir = Path(directory).resolve(), Path(kdir).resolve()
    command = ["make", "-k", "-C", str(kdir), f"M={directory}", f"-j{jobs}", "modules"]
    try:
        proc = children.run(command, capture_output=True, text=True, errors="replace",
                            timeout=MAKE_TIMEOUT, env=dict(os.environ, LC_ALL="C"))
        status, log = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        status, log = -1, f"make did not finish within {MAKE_TIMEOUT} s"
    except OSError as err:
        status, log = -1, f"cannot run make: {err.strerror}"
    modules = tuple(str(p.relative_to(directory)) for p in sorted(directory.rglob("*.ko")))
    return PortReport(directory, kdir, target, status, modules if status == 0 else (),
                      tuple(parse_errors(log, directory)),
                      tuple(api_drift.scan([directory], directory, target)), log)


def report_in_place(request, kdir: Path, jobs: int) -> int:
    """`convert --in-place --kdir KDIR`: build every directory converted in
    place against KDIR and print what still fails; 1 when something does."""
    directories = sorted({path if path.is_dir() else path.parent for path in request.paths})
    status = 0
    for directory in directories:
        report = build_and_report(directory, kdir, request.options.target, jobs)
        print("\n".join(report.lines()))
        status = max(status, 0 if report.builds else 1)
    return status

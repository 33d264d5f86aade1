"""The semantic patches as the wrappers see them: where they are, which
options they take, and what their report mode says.

Everything the rules decide (convert or refuse, which strategy, whether the
handler uses the inode) is decided in SmPL; this module only maps typed
options to spatch arguments and parses the report lines back into values.
"""

import enum
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework import paths
from ioctl_rework.spatch import installation, macro_builtins

RULES_DIR = paths.rules_dir()
CONVERSION_RULE = RULES_DIR / "ioctl_to_unlocked_ioctl.cocci"
# Hints for spatch's parser about kernel macros; every run passes it.
MACRO_FILE = RULES_DIR / "macros.h"

MODES = ("patch", "report", "context", "org")


class TargetError(ValueError):
    """A kernel version that cannot be read or understood."""


class Strategy(enum.Enum):
    AUTO = "auto"
    PUSHDOWN = "pushdown"
    WRAPPER = "wrapper"


class LockMode(enum.Enum):
    BKL = "bkl"
    MUTEX = "mutex"


@dataclass(frozen=True, order=True)
class Target:
    """The kernel a conversion is written for."""

    version: tuple[int, int, int]

    @classmethod
    def parse(cls, text: str) -> "Target":
        match = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?(?:[-.+~].*)?", text.strip())
        if not match:
            raise TargetError(f"not a kernel version: {text!r} (want e.g. 2.6.20 or 6.1)")
        major, minor, sub = match.groups()
        return cls((int(major), int(minor), int(sub or 0)))

    @classmethod
    def from_makefile(cls, tree: Path) -> "Target":
        makefile = Path(tree) / "Makefile"
        try:
            text = makefile.read_text(errors="replace")
        except OSError as err:
            raise TargetError(f"{makefile}: cannot read the kernel version: {err.strerror}") from err
        fields = {}
        for name in ("VERSION", "PATCHLEVEL", "SUBLEVEL"):
            match = re.search(rf"^{name}\s*=\s*(\d+)\s*$", text, re.MULTILINE)
            if not match:
                raise TargetError(f"{makefile}: no {name} line; pass --target VERSION")
            fields[name] = int(match.group(1))
        return cls((fields["VERSION"], fields["PATCHLEVEL"], fields["SUBLEVEL"]))

    def __str__(self) -> str:
        return "%d.%d.%d" % self.version

    @property
    def inode_style(self) -> str:
        """How a handler reaches the inode from its file on this kernel."""
        if self.version >= (3, 9, 0):
            return "file_inode"
        if self.version >= (2, 6, 20):
            return "f_path"
        return "f_dentry"

    @property
    def has_bkl(self) -> bool:
        # 2.6.39 removed the BKL (and <linux/smp_lock.h>).
        return self.version < (2, 6, 39)

    @property
    def has_legacy_ioctl(self) -> bool:
        # 2.6.36 removed file_operations.ioctl: from then on
        # "#ifdef HAVE_UNLOCKED_IOCTL" is always true (and 5.9 removed the
        # macro, so left in place it would pick the legacy branch).
        return self.version < (2, 6, 36)

    @property
    def default_lock(self) -> "LockMode":
        return LockMode.BKL if self.has_bkl else LockMode.MUTEX

    @property
    def classifies_compat_by_default(self) -> bool:
        # A target without the legacy .ioctl is a port to a current kernel:
        # its 32-bit callers get .compat_ioctl wherever the classifier proves it.
        return not self.has_legacy_ioctl


DEFAULT_TARGET = Target((6, 1, 0))


@dataclass(frozen=True)
class ConversionOptions:
    strategy: Strategy = Strategy.AUTO
    lock: LockMode = LockMode.BKL
    target: Target = DEFAULT_TARGET
    multi_kernel: bool = False
    # Classify each converted handler and add .compat_ioctl where it is
    # proven right (ioctl_rework.compat); never the rule's blanket -D compat.
    compat: bool = False
    handlers: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()  # left legacy: convert found a file that cannot follow
    # With auto: handlers whose pushdown the verify stage rejected get the
    # wrapper (-D wrapper_for=a,b), and are proven again.
    wrapper_for: tuple[str, ...] = ()

    @classmethod
    def for_target(cls, target: Target, **fields) -> "ConversionOptions":
        """The options for TARGET: its lock (the private mutex without a BKL)
        and, on a target without the legacy .ioctl, the compat classification
        (not for --multi-kernel output, whose entry is conditional), unless
        FIELDS say otherwise."""
        compat = target.classifies_compat_by_default and not fields.get("multi_kernel", False)
        return cls(**{"lock": target.default_lock, "target": target, "compat": compat, **fields})

    @property
    def resolves_have_ioctl(self) -> bool:
        """Whether HAVE_UNLOCKED_IOCTL/HAVE_COMPAT_IOCTL conditionals are
        resolved to their true branch (have_ioctl.py): no legacy .ioctl
        on the target, and no output that keeps one for older kernels."""
        return not self.target.has_legacy_ioctl and not self.multi_kernel

    def spatch_args(self, mode: str) -> list[str]:
        if mode not in MODES:
            raise ValueError(f"unknown spatch mode {mode!r}")
        args = ["-D", mode]
        if self.strategy is not Strategy.AUTO:
            args += ["-D", self.strategy.value]
        if self.lock is LockMode.MUTEX:
            args += ["-D", "mutex"]
            if not self.target.has_bkl:
                args += ["-D", "no_bkl"]
        if self.target.inode_style != "file_inode":
            args += ["-D", "inode_" + self.target.inode_style]
        if self.multi_kernel:
            args += ["-D", "multi_kernel"]
        if self.handlers:
            args += ["-D", "handlers=" + ",".join(self.handlers)]
        if self.kept:
            args += ["-D", "keep=" + ",".join(self.kept)]
        if self.wrapper_for:
            args += ["-D", "wrapper_for=" + ",".join(self.wrapper_for)]
        return args

    def warnings(self) -> list[str]:
        """Option combinations that are allowed but almost certainly wrong."""
        found = []
        if self.lock is LockMode.BKL and not self.target.has_bkl:
            found.append(f"--lock bkl on {self.target}: that kernel has no BKL "
                         "(removed in 2.6.39); the output will not build there")
        if not self.compat and self.target.classifies_compat_by_default and not self.multi_kernel:
            found.append(f"--no-compat on {self.target}: no .compat_ioctl is added, so 32-bit "
                         "callers of the converted drivers get ENOTTY even where the compat "
                         "classifier would prove compat_ptr_ioctl or the handler itself right")
        return found


def rule_options(rule: Path) -> list[str]:
    """The spatch options a rule's header asks for (`// Options: ...`)."""
    for line in Path(rule).read_text().splitlines():
        if line.startswith("// Options:"):
            return line.split(":", 1)[1].split()
    return []


class MacroFileMissing(RuntimeError):
    """The macro file is not beside the rules: spatch would only warn and
    parse less, so no run starts without it."""


def require_macro_file(path: Path | None = None) -> Path:
    """PATH (default MACRO_FILE), which must exist."""
    path = Path(path or MACRO_FILE)
    if not path.is_file():
        raise MacroFileMissing(f"{path}: the macro file is missing; reinstall the rules")
    return path


def spatch_options(rule: Path, macro_file: Path | None = None) -> list[str]:
    """Everything spatch is given for RULE besides the mode and the files:
    the options the rule's header asks for, the macro file (MACRO_FILE
    unless another is named) and the builtins that let it decide
    (macro_builtins.py).  The one place a command line gets them."""
    macros = require_macro_file(macro_file)
    builtins = macro_builtins.builtins_for(macros, installation.standard_h())
    return [*rule_options(rule), "--macro-file", str(macros),
            *(["--macro-file-builtins", str(builtins)] if builtins else [])]


def spatch_environment(rule: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """ENVIRON (the process's own unless given) with the directory of RULE
    first on PYTHONPATH, then that of ioctl_rework: the Python of a rule
    imports its logic from a package beside it (semantic-patches/ioctl_rule/),
    which imports the C-text helpers of ioctl_rework.ctext.  The one place an
    environment for spatch is made."""
    env = dict(os.environ if environ is None else environ)
    rules_dir = str(Path(rule).resolve().parent)
    # The rule's package also imports ioctl_rework.ctext (include_search):
    # the directory that holds this package goes on the path too.
    wrappers_dir = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([rules_dir, wrappers_dir,
                                         *filter(None, [env.get("PYTHONPATH")])])
    return env


def rules_digest(rules_dir: Path = RULES_DIR) -> str:
    """A hash of every rule file, of their Python packages and of the macro
    file, for cache keys."""
    digest = hashlib.sha256()
    packages = [path for init in rules_dir.glob("*/__init__.py") for path in init.parent.glob("*.py")]
    for path in sorted([*rules_dir.glob("*.cocci"), *rules_dir.glob("*.h"), *packages]):
        digest.update(str(path.relative_to(rules_dir)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def macros_digest(macro_file: Path | None = None) -> str:
    """A hash of the macro file, for the cache keys of a single rule."""
    return hashlib.sha256(require_macro_file(macro_file).read_bytes()).hexdigest()


@dataclass(frozen=True)
class HandlerDecision:
    """One `.ioctl` fops entry, as the rule's report mode judged it."""

    file: str
    line: int
    fops: str
    handler: str
    convert: bool
    strategy: str | None
    # Why it is left alone, or why auto chose the wrapper.
    reason: str | None
    uses_inode: bool
    returns_enoioctlcmd: bool


# The start of every line the conversion rule prints about one entry.  The
# fops is a structure's name or, for a run-time assignment, the expression
# assigned to ("ops", "dev->fops", "f[1]"); a handler named through a macro
# is shown as the call ("DRM(ioctl)").
ENTRY_LINE = (r"^(?P<file>.+?):(?P<line>\d+): (?P<fops>[^\s:]+): "
              r"\.ioctl = (?P<handler>\w+(?:\([^()]*\))?): ")
_REPORT_LINE = re.compile(
    ENTRY_LINE +
    r"(?:convert \((?P<details>[^)]*)\)(?:: (?P<why>.*))?|left alone: (?P<refusal>.*))$")


class ChangeKind(enum.Enum):
    REMOVED_ENTRY = "removed-entry"        # a NULL or dead .ioctl
    DELETED_HANDLER = "deleted-handler"    # static, and only dead entries named it
    CHANGED_CALLER = "changed-caller"      # a direct call loses the inode argument


@dataclass(frozen=True)
class OtherChange:
    """A change the conversion makes besides converting a handler."""

    file: str
    line: int
    kind: ChangeKind
    handler: str
    where: str              # the fops of an entry, the function of a call
    reason: str


REMOVE_LINE = re.compile(ENTRY_LINE + r"remove \((?P<reason>.*)\)$")
_DELETE_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<handler>\w+): "
                          r"delete the handler: (?P<reason>.*)$")
_CALL_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<handler>\w+): "
                        r"change the call in (?P<where>\w+): (?P<reason>.*)$")


def parse_changes(stdout: str) -> list[OtherChange]:
    """Read the lines of the conversion rule's report mode about entries it
    removes, handlers it deletes and calls it changes."""
    found = []
    for line in stdout.splitlines():
        for pattern, kind in ((REMOVE_LINE, ChangeKind.REMOVED_ENTRY),
                              (_DELETE_LINE, ChangeKind.DELETED_HANDLER),
                              (_CALL_LINE, ChangeKind.CHANGED_CALLER)):
            match = pattern.match(line)
            if match:
                fields = match.groupdict()
                found.append(OtherChange(fields["file"], int(fields["line"]), kind,
                                         fields["handler"],
                                         fields.get("fops") or fields.get("where") or "",
                                         fields["reason"]))
                break
    return found


def parse_report(stdout: str) -> list[HandlerDecision]:
    """Read the decision lines of the conversion rule's report mode."""
    decisions = []
    for line in stdout.splitlines():
        match = _REPORT_LINE.match(line)
        if not match:
            continue
        details = [d.strip() for d in (match["details"] or "").split(",") if d.strip()]
        refusal = match["refusal"]
        decisions.append(HandlerDecision(
            file=match["file"], line=int(match["line"]), fops=match["fops"],
            handler=match["handler"], convert=refusal is None,
            strategy=details[0] if details else None,
            reason=refusal if refusal is not None else match["why"],
            uses_inode="uses inode" in details,
            returns_enoioctlcmd="returns -ENOIOCTLCMD" in details
            or "-ENOIOCTLCMD" in (refusal or "")))
    return decisions

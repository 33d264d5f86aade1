"""What a run is for, resolved once: the kernel tree, the target version,
the conversion options, the outputs, the cache and the parallelism.

Every subcommand turns its arguments into one frozen Settings value here
(resolve) before it does any work, and hands that value (or the parts it
needs) to its stages; no stage reads a Makefile or picks a default of its
own.  Whatever cannot be right is refused here, at once, with the reason:
a version no kernel had, a conversion for a kernel without
.unlocked_ioctl, an option that goes with another one missing, an output
that cannot be written.
"""

import enum
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ioctl_rework import safe_write


class SettingsError(ValueError):
    """Arguments that cannot make a run: a usage error (exit 2)."""


class TargetError(SettingsError):
    """A kernel version that cannot be read, or that no kernel had."""


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
    def has_unlocked_ioctl(self) -> bool:
        # 2.6.11 added file_operations.unlocked_ioctl and .compat_ioctl.
        return self.version >= (2, 6, 11)

    @property
    def default_lock(self) -> LockMode:
        return LockMode.BKL if self.has_bkl else LockMode.MUTEX

    @property
    def classifies_compat_by_default(self) -> bool:
        # A target without the legacy .ioctl is a port to a current kernel:
        # its 32-bit callers get .compat_ioctl wherever the classifier proves it.
        return not self.has_legacy_ioctl

    @property
    def known(self) -> bool:
        """Whether a kernel of this version was released (or is of a series
        this release of the tool knows: see SERIES)."""
        major, minor, sub = self.version
        last = SERIES.get((major, minor))
        return last is not None and (last is ANY_SUBLEVEL or sub <= last)


# The series a version may name, with the last sublevel of each that
# counted as a version (2.6.39 was the last 2.6; from 3.0 the third number
# is a stable update, any number).  2.0 to 2.4 and 1.x are real but
# older than .unlocked_ioctl, so they are known only to be refused as
# targets.  The 6.x bound is this tool's horizon: Linus ends a major near
# .20 (3.19, 4.20, 5.19); raise LAST_6X, or add 7.x, when a kernel past it
# is released.
ANY_SUBLEVEL = object()
LAST_6X = 20
SERIES = {
    **{(1, minor): ANY_SUBLEVEL for minor in range(0, 4)},
    **{(2, minor): ANY_SUBLEVEL for minor in range(0, 6)},
    (2, 6): 39,
    **{(3, minor): ANY_SUBLEVEL for minor in range(0, 20)},
    **{(4, minor): ANY_SUBLEVEL for minor in range(0, 21)},
    **{(5, minor): ANY_SUBLEVEL for minor in range(0, 20)},
    **{(6, minor): ANY_SUBLEVEL for minor in range(0, LAST_6X + 1)},
}

# What a run without a tree (or a tree without a version) is judged for:
# the kernel the fixture proves conversions on.
DEFAULT_TARGET = Target((6, 1, 0))
FIRST_UNLOCKED = Target((2, 6, 11))

MODES = ("patch", "report", "context", "org")


@dataclass(frozen=True, kw_only=True)
class ConversionOptions:
    """How the rule converts.  The target, and what it decides (the lock,
    the compat classification), have no defaults: build these with
    for_target(), which takes them from the target, or through resolve()."""

    target: Target
    lock: LockMode
    # Classify each converted handler and add .compat_ioctl where it is
    # proven right (ioctl_rework.compat); never the rule's blanket -D compat.
    compat: bool
    strategy: Strategy = Strategy.AUTO
    multi_kernel: bool = False
    handlers: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()  # left legacy: convert found a file that cannot follow
    # With auto: handlers whose pushdown the verify stage rejected get the
    # wrapper (-D wrapper_for=a,b), and are proven again.
    wrapper_for: tuple[str, ...] = ()
    # --lock mutex, a file of a kbuild module whose other files convert too:
    # the module's one mutex (-D module_mutex=NAME), defined in this file
    # when module_mutex_home, declared extern otherwise (convert/modules.py).
    module_mutex: str = ""
    module_mutex_home: bool = False

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

    @property
    def forwards_to_legacy(self) -> bool:
        """Whether a forwarded call keeps a fallback to the legacy .ioctl: the
        target still has it (a lower driver outside the run is on it), or the
        output keeps it for older kernels."""
        return self.target.has_legacy_ioctl or self.multi_kernel

    def as_summary(self) -> dict:
        """These options as a run's summary records them (its "options")."""
        return {"strategy": self.strategy.value, "lock": self.lock.value,
                "target": str(self.target), "multi_kernel": self.multi_kernel,
                "compat": self.compat}

    def forwarding_args(self, mode: str) -> list[str]:
        """The forwarding rule's options (f_op_ioctl_forwarding.cocci) for
        these options, in MODE: what convert writes is what audit reports."""
        if mode not in MODES:
            raise ValueError(f"unknown spatch mode {mode!r}")
        return ["-D", mode] + (["-D", "multi_kernel"] if self.multi_kernel else []) \
            + (["-D", "legacy_ioctl"] if self.forwards_to_legacy else [])

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
        if self.module_mutex and self.lock is LockMode.MUTEX:
            args += ["-D", "module_mutex=" + self.module_mutex]
            if self.module_mutex_home:
                args += ["-D", "module_mutex_home"]
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


# ---------------------------------------------------------------- trees

@dataclass(frozen=True)
class KernelTree:
    """The kernel tree a path is in, and its version, read once."""

    root: Path | None                   # None: the path is in no kernel tree
    version: Target | None = None       # None: no tree, or its Makefile names none


def tree_version(directory: Path) -> Target | None:
    """The version DIRECTORY's top Makefile names, or None."""
    try:
        return Target.from_makefile(directory)
    except TargetError:
        return None


# What a KDIR was prepared for: the truth for an out-of-tree module built
# with `make -C KDIR M=...` (a configured tree, an O= directory whose
# Makefile only includes the source's, /lib/modules/RELEASE/build); a tree
# never prepared still has its top Makefile.
KDIR_RELEASE_FILES = ("include/config/kernel.release", "include/generated/utsrelease.h")


def kdir_target(kdir: Path) -> Target:
    """The Target KDIR builds modules for; TargetError when it cannot tell."""
    kdir = Path(kdir)
    if not kdir.is_dir():
        raise TargetError(f"{kdir}: --kdir is not a directory")
    for name in KDIR_RELEASE_FILES:
        path = kdir / name
        if path.is_file():
            text = path.read_text(errors="replace").strip()
            # utsrelease.h: #define UTS_RELEASE "6.1.0-fixture"
            release = text.split('"')[1] if '"' in text else text
            return Target.parse(release)
    try:
        return Target.from_makefile(kdir)
    except TargetError as err:
        raise TargetError(f"{kdir}: not a prepared kernel (no {KDIR_RELEASE_FILES[0]}) and "
                          f"{err}") from err


@dataclass(frozen=True)
class KernelHeaders:
    """The kernel a driver outside a tree is built against, whose headers
    are read as kbuild finds them: its source tree, and the directory it
    was built in (the source itself, or its O= directory)."""

    source: Path
    build: Path
    given_as: str                       # the option that named it, for messages


def kdir_source(kdir: Path) -> Path:
    """The source tree of the kernel built in KDIR: KDIR itself or, for an
    O= directory, its `source` link or the tree its Makefile includes."""
    kdir = Path(os.path.abspath(kdir))
    if (kdir / "source").is_dir():
        return (kdir / "source").resolve()
    try:
        head = (kdir / "Makefile").read_text(errors="replace")[:4096]
    except OSError:
        return kdir
    included = re.search(r"^include\s+([^\s$]+)/Makefile\s*$", head, re.M)
    if included and Path(included.group(1)).is_dir():
        return Path(os.path.abspath(included.group(1)))
    return kdir


def kernel_headers(headers: Path | None, kdir: Path | None) -> KernelHeaders | None:
    """The KernelHeaders of --kernel-headers HEADERS or else --kdir KDIR;
    SettingsError for a directory that holds no kernel headers."""
    if headers is not None:
        source = Path(os.path.abspath(headers))
        if not (source / "include" / "linux").is_dir():
            raise SettingsError(f"--kernel-headers {headers}: no include/linux in it; give "
                                "the top of a kernel source tree")
        return KernelHeaders(source, source, f"--kernel-headers {headers}")
    if kdir is not None:
        return KernelHeaders(kdir_source(kdir), Path(os.path.abspath(kdir)), f"--kdir {kdir}")
    return None


def unread_headers_warning(where) -> str:
    """What a run outside a kernel tree with no kernel given cannot see:
    the <...> headers its files include, where a macro may forward
    through ->ioctl (issue 22)."""
    return (f"{where} is in no kernel tree and no --kernel-headers was given: the <...> "
            "headers its drivers include are not read, so a macro of one that calls through "
            "->ioctl (forwarding to a driver this run converts, whose .ioctl becomes NULL) is "
            "not seen; pass the kernel they are built against (--kernel-headers DIR, its "
            "source tree, or --kdir KDIR) instead of --no-kernel-headers")


def unread_headers_refusal(where) -> str:
    """Why such a run is refused before any work (default-deny: what it
    cannot read it cannot prove safe), naming the options that let it run."""
    return (f"{where} is in no kernel tree and no kernel was given, so the <...> headers its "
            "drivers include would not be read and a macro of one that calls through ->ioctl "
            "would go unseen: pass the kernel they are built against, --kernel-headers DIR "
            "(its source tree) or --kdir KDIR (its build), or --no-kernel-headers to run "
            "without its headers and accept that risk")


def find_tree(path: Path) -> KernelTree:
    """The kernel tree PATH is in: the nearest directory with MAINTAINERS
    or a top Makefile that sets VERSION."""
    path = Path(path).resolve()
    for directory in [path, *path.parents] if path.is_dir() else path.parents:
        version = tree_version(directory)
        if version is not None or (directory / "MAINTAINERS").is_file():
            return KernelTree(directory, version)
    return KernelTree(None)


# ---------------------------------------------------------------- the run

@dataclass(frozen=True)
class Settings:
    """One run's settings, resolved once by resolve()."""

    tree: KernelTree
    target: Target
    target_from: str                    # where the version came from, for messages
    conversion: ConversionOptions
    outputs: tuple[Path, ...] = ()      # every path the run writes, checked writable
    jobs: int = 1
    cache_dir: Path | None = None       # None: --no-cache
    warnings: tuple[str, ...] = field(default=())
    kernel: KernelHeaders | None = None  # whose headers a run outside a tree reads
    # --no-kernel-headers: outside a tree, run without a kernel's headers.
    unread_headers_accepted: bool = False

    def cache(self, namespace: str):
        from ioctl_rework.cache import Cache
        return Cache(self.cache_dir, namespace)


def default_jobs() -> int:
    """The cores this process may run on (a container's or taskset's share)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def conversion_target(version: Target) -> Target:
    """The target for converting a tree of VERSION: itself, or the first
    kernel with .unlocked_ioctl for an older tree (2.6.9's source converted
    for 2.6.11: the same inode and lock spellings)."""
    return max(version, FIRST_UNLOCKED)


def validated(target: Target, source: str, multi_kernel: bool, converts: bool) -> Target:
    """TARGET, refused when no kernel had that version or, for a conversion,
    when it has no .unlocked_ioctl to convert to (unless the output keeps
    the legacy .ioctl for it, --multi-kernel)."""
    if not target.known:
        raise TargetError(f"{source}: {target} is not a Linux version (2.6.0 to 2.6.39, "
                          f"3.0 to 3.19, 4.0 to 4.20, 5.0 to 5.19, 6.0 to 6.{LAST_6X})")
    if converts and not target.has_unlocked_ioctl and not multi_kernel:
        raise TargetError(f"{source}: {target} has no .unlocked_ioctl (it came in "
                          f"{FIRST_UNLOCKED}), so a conversion for it would not build there; "
                          f"pass --target {FIRST_UNLOCKED} or later, or --multi-kernel to keep "
                          ".ioctl for it under #ifndef HAVE_UNLOCKED_IOCTL")
    return target


def resolve_target(text: str | None, tree: KernelTree, *, kdir: Path | None = None,
                   fallback: Target | None = DEFAULT_TARGET, multi_kernel: bool = False,
                   converts: bool = True) -> tuple[Target, str]:
    """The target and where it came from: TEXT (--target, unless "auto"),
    else KDIR's kernel, else the tree's Makefile, else FALLBACK (None: a
    tree without a version is an error)."""
    if text and text != "auto":
        return validated(Target.parse(text), "--target", multi_kernel, converts), "--target"
    if kdir is not None:
        source = f"--kdir {kdir}"
        return validated(kdir_target(kdir), source, multi_kernel, converts), source
    if tree.version is not None:
        source = f"{tree.root}/Makefile"
        return validated(tree.version, source, multi_kernel, converts), source
    if fallback is None:
        where = tree.root or "the input"
        raise TargetError(f"{where}: no kernel version (no top Makefile with VERSION "
                          "above it); outside a kernel tree, pass --target VERSION")
    return fallback, "the default target"


def check_outputs(paths) -> tuple[Path, ...]:
    """PATHS (None left out), each refused now when it cannot be written."""
    checked = []
    for path in paths:
        if path is None:
            continue
        try:
            safe_write.check_output(Path(path))
        except safe_write.WriteError as err:
            raise SettingsError(str(err)) from err
        checked.append(Path(path))
    return tuple(checked)


def conversion_from_args(args, target: Target) -> ConversionOptions:
    """The conversion options the target group's arguments ask for (see
    options.add_target_group), the rest from TARGET."""
    chosen = {}
    if getattr(args, "lock", None):
        chosen["lock"] = LockMode(args.lock)
    if getattr(args, "compat", None) is not None:
        chosen["compat"] = args.compat
    if getattr(args, "strategy", None):
        chosen["strategy"] = Strategy(args.strategy)
    return ConversionOptions.for_target(
        target, multi_kernel=bool(getattr(args, "multi_kernel", False)), **chosen)


def resolve(args, tree: KernelTree, *, kdir: Path | None = None,
            fallback: Target | None = DEFAULT_TARGET, converts: bool = True,
            outputs=()) -> Settings:
    """ARGS (the shared option groups of options.py) resolved for a run in
    TREE: the target, the conversion options, the outputs checked, the
    cache and the jobs.  Raises SettingsError (TargetError) on what cannot
    make a run."""
    multi_kernel = bool(getattr(args, "multi_kernel", False))
    target, source = resolve_target(getattr(args, "target", None), tree, kdir=kdir,
                                    fallback=fallback, multi_kernel=multi_kernel,
                                    converts=converts)
    conversion = conversion_from_args(args, target)
    # The kernel a driver outside a tree is built against is the one whose
    # headers it includes: --kdir's, unless --kernel-headers names them.
    kdir = kdir if kdir is not None else getattr(args, "kdir", None)
    accepted = bool(getattr(args, "no_kernel_headers", False))
    if accepted and kdir is not None:
        raise SettingsError(f"--no-kernel-headers and --kdir {kdir}: the headers of KDIR's "
                            "kernel are read; give one of the two")
    kernel = kernel_headers(getattr(args, "kernel_headers", None), kdir)
    cache_dir = None
    if not getattr(args, "no_cache", False):
        from ioctl_rework.cache import default_directory
        cache_dir = getattr(args, "cache_dir", None) or default_directory()
    return Settings(tree=tree, target=target, target_from=source, conversion=conversion,
                    outputs=check_outputs(outputs), jobs=getattr(args, "jobs", None) or 1,
                    cache_dir=cache_dir, warnings=tuple(conversion.warnings()),
                    kernel=kernel, unread_headers_accepted=accepted)

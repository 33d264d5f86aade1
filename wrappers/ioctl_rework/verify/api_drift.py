"""Kernel API drift that stops an old driver building on a new kernel,
outside the ioctl path: found and listed, never fixed.

The conversion changes only the ioctl path.  A 2.6-era driver usually
meets other removed or changed interfaces too; each entry of DRIFTS names
one, the kernel version that changed it and what replaced it, and scan()
lists every use with its file and line, for the target the user ports to.
Matching is on code (comments and strings blanked), by pattern: a finding
is a place to look at, which the build (convert --kdir) confirms.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ioctl_rework.ctext import spans as c_spans
from ioctl_rework import settings


@dataclass(frozen=True)
class Drift:
    what: str                      # the old interface, as a reader knows it
    pattern: re.Pattern
    changed_in: settings.Target       # the first kernel without it (or with the new form)
    instead: str                   # what replaced it
    # Whether a match really is the old form (code of the file, the match).
    confirm: Callable[[str, re.Match], bool] | None = None


def _drift(what: str, pattern: str, version: str, instead: str, confirm=None) -> Drift:
    return Drift(what, re.compile(pattern), settings.Target.parse(version), instead, confirm)


def _passes_file_operations(code: str, match: re.Match) -> bool:
    """proc_create(name, mode, parent, &ops...): ops is a struct file_operations here."""
    ops = match.group("ops")
    return bool(re.search(rf"\bstruct\s+file_operations\s+{re.escape(ops)}\b", code))


# Only changes whose version is known for certain; ordered by version.
DRIFTS = (
    _drift("INIT_WORK() with three arguments", r"\bINIT_WORK\s*\([^,()]*(?:\([^()]*\))?[^,()]*,"
           r"[^,()]*,", "2.6.20", "INIT_WORK(work, func); the function gets the work_struct"),
    _drift("the BKL (<linux/smp_lock.h>)", r"#\s*include\s*<linux/smp_lock\.h>", "2.6.39",
           "a driver-private mutex (the conversion does this for .ioctl)"),
    _drift("lock_kernel()/unlock_kernel()", r"\b(?:un)?lock_kernel\s*\(", "2.6.39",
           "a driver-private mutex"),
    _drift("kernel_locked()", r"\bkernel_locked\s*\(", "2.6.39", "lockdep_assert_held() on "
           "the driver's own lock"),
    _drift("__devinit/__devexit/__devexit_p()", r"\b__dev(?:init|exit|initdata|exit_p)\b", "3.8",
           "nothing: drop the annotation"),
    _drift("create_proc_entry()", r"\bcreate_proc_entry\s*\(", "3.10",
           "proc_create() (with struct proc_ops since 5.6)"),
    _drift("file->f_dentry", r"->\s*f_dentry\b", "3.19", "file->f_path.dentry, or file_inode(file)"),
    _drift("init_timer()", r"\binit_timer\s*\(", "4.15",
           "timer_setup(timer, callback, flags); the callback gets the timer_list"),
    _drift("access_ok() with a type argument", r"\baccess_ok\s*\(\s*VERIFY_(?:READ|WRITE)\b",
           "5.0", "access_ok(addr, size)"),
    _drift("proc_create() with struct file_operations",
           r"\bproc_create(?:_data)?\s*\([^,;]*,[^,;]*,[^,;]*,\s*&?\s*(?P<ops>\w+)", "5.6",
           "struct proc_ops (.proc_read, .proc_write, ...)", _passes_file_operations),
    _drift("ioremap_nocache()", r"\bioremap_nocache\s*\(", "5.6", "ioremap()"),
    _drift("HAVE_UNLOCKED_IOCTL/HAVE_COMPAT_IOCTL", r"\bHAVE_(?:UNLOCKED|COMPAT)_IOCTL\b", "5.9",
           "nothing: the conditionals are always true (the conversion resolves plain ones)"),
    _drift("class_create() with a module owner", r"\bclass_create\s*\(\s*THIS_MODULE\s*,", "6.4",
           "class_create(name)"),
    _drift("pci_alloc_consistent()/pci_free_consistent()",
           r"\bpci_(?:alloc|free)_consistent\s*\(", "5.18",
           "dma_alloc_coherent()/dma_free_coherent() on &pdev->dev"),
)


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    drift: Drift
    text: str                      # the source line, stripped

    def __str__(self) -> str:
        return (f"{self.file}:{self.line}: {self.drift.what}: changed in "
                f"{self.drift.changed_in}; use {self.drift.instead}")


def scan_text(text: str, file: str, target: settings.Target) -> list[Finding]:
    """Every use in TEXT of an interface TARGET no longer has, in line order."""
    code = c_spans.code_only(text)
    lines = text.split("\n")
    found = []
    for drift in DRIFTS:
        if target < drift.changed_in:
            continue
        for match in drift.pattern.finditer(code):
            if drift.confirm and not drift.confirm(code, match):
                continue
            line = code.count("\n", 0, match.start()) + 1
            found.append(Finding(file, line, drift, lines[line - 1].strip()))
    return sorted(found, key=lambda f: (f.line, f.drift.changed_in.version))


def scan(paths: list[Path], root: Path, target: settings.Target) -> list[Finding]:
    """scan_text over the .c and .h files under PATHS (names relative to ROOT)."""
    files = []
    for path in paths:
        path = Path(path)
        files += sorted(p for p in path.rglob("*") if p.suffix in (".c", ".h") and p.is_file()) \
            if path.is_dir() else [path]
    found = []
    for file in files:
        text = file.read_bytes().decode("utf-8", "surrogateescape")
        found += scan_text(text, str(file.relative_to(root)) if file.is_relative_to(root)
                           else str(file), target)
    return found

"""The kernel a KDIR is: the target of a conversion for an out-of-tree
module built with `make -C KDIR M=...`.

KDIR is what module builds are pointed at: a configured source tree, an
O= object directory (whose Makefile only includes the source's), or
/lib/modules/RELEASE/build.  The release it was prepared for is the truth
(include/config/kernel.release, written by `make prepare`); a source tree
that was never prepared still has its top Makefile.
"""

from pathlib import Path

from ioctl_rework import settings

RELEASE_FILES = ("include/config/kernel.release", "include/generated/utsrelease.h")


def target_of(kdir: Path) -> settings.Target:
    """The Target KDIR builds modules for; TargetError when it cannot tell."""
    kdir = Path(kdir)
    if not kdir.is_dir():
        raise settings.TargetError(f"{kdir}: --kdir is not a directory")
    for name in RELEASE_FILES:
        path = kdir / name
        if path.is_file():
            text = path.read_text(errors="replace").strip()
            # utsrelease.h: #define UTS_RELEASE "6.1.0-fixture"
            release = text.split('"')[1] if '"' in text else text
            return settings.Target.parse(release)
    try:
        return settings.Target.from_makefile(kdir)
    except settings.TargetError as err:
        raise settings.TargetError(f"{kdir}: not a prepared kernel (no {RELEASE_FILES[0]}) and "
                                f"{err}") from err

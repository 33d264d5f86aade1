"""ioctl-rework: move Linux drivers from .ioctl to .unlocked_ioctl/.compat_ioctl."""

__version__ = "0.1.0"

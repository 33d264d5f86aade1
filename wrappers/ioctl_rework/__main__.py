"""`python3 -m ioctl_rework` is the same as the `ioctl-rework` command."""

import sys

from ioctl_rework.cli import main

sys.exit(main())

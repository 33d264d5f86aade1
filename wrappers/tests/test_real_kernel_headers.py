"""The fixture drivers converted against the real headers of the kernel
they are built for (Debian's 6.1 with the shims, fixture/headers_tree.py)
convert exactly as without them.  The header analyses meet there what no
hand-written chain holds: on main 06baaf7 every 6.1 driver was refused
(module_init through __define_initcall_stub, whose `int __init __stub(void)`
was read as a call of its parameter), which broke make demo and the kernel
proofs' --kdir checks.  Run in make test (IOCTL_REWORK_TEST_FULL): the
extraction and the conversion cost about a minute."""

import os
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.fixture import headers_tree
from ioctl_rework.fixture.kernel import DRIVERS_DIR

from test_kernel_headers import convert_outside_tree

# A driver per module_init spelling the fixtures use: module_misc_device,
# module_init, and a header shared by two files.
DRIVERS = ("fx_bkl.c", "fx_enoioctl.c", "fx_split_main.c", "fx_split_ioctl.c", "fx_split.h")


@unittest.skipUnless(os.environ.get("IOCTL_REWORK_TEST_FULL") and headers_tree.TARBALL.is_file(),
                     "make test only, with linux-source-6.1 installed")
class RealHeadersTest(unittest.TestCase):
    def test_the_fixture_drivers_convert_as_without_the_headers(self):
        kernel = headers_tree.headers_tree()
        tmp = Path(tempfile.mkdtemp(prefix="real-headers-"))
        self.addCleanup(shutil.rmtree, tmp)
        drivers = tmp / "drivers"
        drivers.mkdir()
        for name in DRIVERS:
            shutil.copy(DRIVERS_DIR / name, drivers / name)
        if (DRIVERS_DIR / "include").is_dir():
            shutil.copytree(DRIVERS_DIR / "include", drivers / "include")
        with_headers = convert_outside_tree(drivers, kernel)
        without = convert_outside_tree(drivers, None)
        self.assertEqual([(h.handler, h.reason) for h in with_headers.summary.handlers
                          if h.status.name == "FAILED"], [])
        self.assertEqual(sorted(with_headers.changes), sorted(without.changes))
        self.assertEqual(with_headers.changes, without.changes)
        self.assertTrue(with_headers.changes)


if __name__ == "__main__":
    unittest.main()

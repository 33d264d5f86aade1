"""The fixture kernel's headers alone (fixture/headers_tree.py): include/
and arch/x86/include/ of the tarball with the shims applied, made once per
tarball and shims, without the rest of the tree.  A small tarball of its
own stands in for linux-source-6.1 (the real one: 18 s, 57 MB)."""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.fixture.headers_tree import headers_tree

FILES = {
    "Makefile": "VERSION = 6\nPATCHLEVEL = 1\n",
    "include/linux/fs.h": "struct file_operations {\n\tint (*read)(void);\n};\n",
    "arch/x86/include/asm/io.h": "#define outb(v, p) 0\n",
    "fs/ioctl.c": "int vfs_ioctl(void)\n{\n\treturn 0;\n}\n",
    "drivers/char/mem.c": "/* not a header */\n",
}
PATCH = """\
The legacy member, for the fixture drivers.

--- a/include/linux/fs.h
+++ b/include/linux/fs.h
@@ -1,3 +1,4 @@
 struct file_operations {
 \tint (*read)(void);
+\tint (*ioctl)(void);
 };
--- a/fs/ioctl.c
+++ b/fs/ioctl.c
@@ -1,4 +1,4 @@
 int vfs_ioctl(void)
 {
-\treturn 0;
+\treturn 1;
 }
"""


class HeadersTreeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="headers-tree-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        source = self.tmp / "unpacked" / "linux-source-6.1"
        for rel, text in FILES.items():
            (source / rel).parent.mkdir(parents=True, exist_ok=True)
            (source / rel).write_text(text)
        self.tarball = self.tmp / "linux-source-6.1.tar.xz"
        subprocess.run(["tar", "-cJf", str(self.tarball), "-C", str(self.tmp / "unpacked"),
                        "linux-source-6.1"], check=True)
        self.shims = self.tmp / "shims"
        (self.shims / "new/include/linux").mkdir(parents=True)
        (self.shims / "new/include/linux/smp_lock.h").write_text("#define lock_kernel()\n")
        (self.shims / "patches").mkdir()
        (self.shims / "patches/legacy.patch").write_text(PATCH)
        (self.shims / "patches/series").write_text("legacy.patch\n")

    def make(self, log=None) -> Path:
        return headers_tree(self.tmp / "cache", self.tarball, self.shims, log)

    def test_the_headers_are_there_shimmed_and_nothing_else(self):
        tree = self.make()
        self.assertIn("int (*ioctl)(void);", (tree / "include/linux/fs.h").read_text())
        self.assertTrue((tree / "include/linux/smp_lock.h").is_file())
        self.assertTrue((tree / "arch/x86/include/asm/io.h").is_file())
        self.assertFalse((tree / "drivers").exists())

    def test_made_once_then_again_when_a_shim_changes(self):
        said = []
        self.make(said.append)
        self.make(said.append)
        self.assertEqual(len(said), 1)
        (self.shims / "new/include/linux/smp_lock.h").write_text("#define lock_kernel() 1\n")
        tree = self.make(said.append)
        self.assertEqual(len(said), 2)
        self.assertEqual((tree / "include/linux/smp_lock.h").read_text(),
                         "#define lock_kernel() 1\n")


if __name__ == "__main__":
    unittest.main()

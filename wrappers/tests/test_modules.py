"""Kbuild composite modules as convert reads them (convert/modules.py):
the spellings of a module's objects, the Makefile or Kbuild that names
them (the file's directory or one above it), which files of a run share
one mutex, and the name it gets."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.convert import modules


class MembersTest(unittest.TestCase):
    def test_every_spelling_of_a_composite_object_in_order(self):
        for text in ("fm-objs := fb.o fa.o\n",
                     "obj-m += fm.o\nfm-y := fb.o\nfm-y += fa.o\n",
                     "fm-y := fb.o\nfm-$(CONFIG_FM_A) += fa.o\n",
                     "fm-objs := fb.o \\\n\tfa.o\n",
                     "fm-y\t+= fb.o # the core\n# fm-y += fz.o\nfm-y += fa.o fb.o\n"):
            with self.subTest(text=text):
                self.assertEqual(modules.members(text), {"fm": ["fb.o", "fa.o"]})

    def test_kbuild_variables_are_no_modules(self):
        text = ("obj-y += a.o\nobj-$(CONFIG_X) += b.o\nlib-y += c.o\nhostprogs-y := d.o\n"
                "ccflags-y := -Iinclude\nsubdir-ccflags-y += -DX\n")
        self.assertEqual(modules.members(text), {})


class ModuleOfTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(self.enterContext(tempfile.TemporaryDirectory()))

    def write(self, files: dict[str, str]) -> None:
        for rel, text in files.items():
            (self.root / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.root / rel).write_text(text)

    def test_makefile_kbuild_and_a_directory_above(self):
        for makefile, text, rel, sources in (
                ("drv/Makefile", "fm-objs := fb.o fa.o\n", "drv/fa.c", ("drv/fb.c", "drv/fa.c")),
                ("drv/Kbuild", "fm-y += fa.o fb.o\n", "drv/fb.c", ("drv/fa.c", "drv/fb.c")),
                ("drv/Makefile", "fm-y := core.o sub/fa.o \\\n\tsub/fb.o\n", "drv/sub/fb.c",
                 ("drv/core.c", "drv/sub/fa.c", "drv/sub/fb.c"))):
            with self.subTest(makefile=makefile, text=text):
                self.write({makefile: text})
                self.assertEqual(modules.module_of(self.root, rel),
                                 modules.Module("fm", makefile, sources))
                (self.root / makefile).unlink()

    def test_not_a_composite(self):
        self.write({"drv/Makefile": "obj-m += fa.o\nfa-y := fa.o\nfm-y := sub/fb.o fc.o\n"})
        self.assertIsNone(modules.module_of(self.root, "drv/fa.c"))     # one object, its own
        self.assertIsNone(modules.module_of(self.root, "drv/fb.c"))     # fm has sub/fb.o
        self.assertIsNone(modules.module_of(self.root, "drv/fm.h"))
        self.assertIsNone(modules.module_of(self.root, "other/fc.c"))


class PlanTest(unittest.TestCase):
    def setUp(self):
        self.root = Path(self.enterContext(tempfile.TemporaryDirectory()))
        for rel, text in {"Makefile": "fm-objs := fc.o fb.o fa.o\nobj-m += lone.o\n",
                          "fa.c": '#include "fm.h"\n', "fb.c": "int fb;\n",
                          "fc.c": "int fc;\n", "lone.c": "int lone;\n",
                          "fm.h": "extern int fm_ioctl_mutex;\n"}.items():
            (self.root / rel).write_text(text)

    def test_files_of_one_module_share_a_name_free_in_the_module_and_its_headers(self):
        found = modules.plan(self.root, {"fa.c", "fb.c", "lone.c"}, set())
        self.assertEqual(sorted(found.mutexes), ["fa.c", "fb.c"])
        mutex = found.mutexes["fa.c"]
        # fm.h, which fa.c includes, has fm_ioctl_mutex: the next name.
        self.assertEqual(mutex.name, "fm_ioctl_mutex2")
        self.assertEqual(mutex.files, ("fb.c", "fa.c"))     # the Makefile's order
        self.assertIs(found.mutexes["fb.c"], mutex)
        self.assertEqual(found.refused, {})

    def test_one_file_of_a_module_keeps_its_private_mutex(self):
        found = modules.plan(self.root, {"fa.c", "lone.c"}, set())
        self.assertEqual(found, modules.ModulePlan({}, {}))

    def test_a_module_split_across_shards_is_refused_in_words(self):
        found = modules.plan(self.root, {"fa.c"}, {"fb.c"})
        self.assertEqual(found.mutexes, {})
        self.assertIn("another shard (fb.c)", found.refused["fa.c"])
        self.assertNotIn("fb.c", found.refused)       # the other shard says it of its own


if __name__ == "__main__":
    unittest.main()

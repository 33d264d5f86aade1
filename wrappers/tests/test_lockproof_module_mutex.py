"""The lock proof and one mutex per kbuild module (lockproof/module_mutex.py):
a module whose two files take its mutex, one defining it and the other
declaring it, proves; mutants of it, each a slip a conversion could make,
are rejected: a file that locks a private mutex of its own, a file that
declares nothing, two definitions, none, a static one."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework import lockproof
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.convert.summary import FileRecord, FileStatus, Summary
from ioctl_rework.patches import unified

LEGACY = """#include <linux/fs.h>
#include "fm.h"

static int {name}_ioctl(struct inode *inode, struct file *file,
\t\tunsigned int cmd, unsigned long arg)
{{
\tif (cmd != 1)
\t\treturn -ENOTTY;
\tfm_total += arg;
\treturn 0;
}}

static struct file_operations {name}_fops = {{
\t.ioctl = {name}_ioctl,
}};
"""
CONVERTED = """#include <linux/fs.h>
#include <linux/mutex.h>
#include "fm.h"

{storage}

static long {name}_ioctl(struct file *file,
\t\tunsigned int cmd, unsigned long arg)
{{
\tmutex_lock(&{lock});
\tif (cmd != 1) {{
\t\tmutex_unlock(&{lock});
\t\treturn -ENOTTY;
\t}}
\tfm_total += arg;
\tmutex_unlock(&{lock});
\treturn 0;
}}

static struct file_operations {name}_fops = {{
\t.unlocked_ioctl = {name}_ioctl,
}};
"""
NAME = "fm_ioctl_mutex"
HOME = f"DEFINE_MUTEX({NAME});"
EXTERN = f"extern struct mutex {NAME};"


def pair(fa: tuple[str, str], fb: tuple[str, str]) -> dict[str, tuple[str, str]]:
    """The module's two files: (storage line, mutex locked) of each."""
    return {rel: (LEGACY.format(name=rel[:2]),
                  CONVERTED.format(name=rel[:2], storage=storage, lock=lock))
            for rel, (storage, lock) in (("fa.c", fa), ("fb.c", fb))}


class ModuleMutexProofTest(unittest.TestCase):
    def prove(self, texts: dict[str, tuple[str, str]]) -> dict[str, bool]:
        """Whether each file's handler proves with the module's mutex as its lock."""
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "fm.h").write_text("extern int fm_total;\n")
            proofs = lockproof.prove_changes(
                Path(tmp), {rel: (old.encode(), new.encode()) for rel, (old, new) in texts.items()},
                lambda rel: lockproof.LockCalls.mutex(NAME))
        return {item.file: item.proof.proven for item in proofs}

    def test_the_module_mutex_defined_once_and_declared_proves(self):
        for texts in (pair((HOME, NAME), (EXTERN, NAME)), pair((EXTERN, NAME), (HOME, NAME))):
            self.assertEqual(lockproof.module_problems(NAME, texts), [])
            self.assertEqual(self.prove(texts), {"fa.c": True, "fb.c": True})

    def test_a_file_that_locks_its_own_mutex_is_rejected(self):
        texts = pair((HOME, NAME), ("static DEFINE_MUTEX(fb_mutex);", "fb_mutex"))
        self.assertEqual(self.prove(texts), {"fa.c": True, "fb.c": False})
        problems = lockproof.module_problems(NAME, texts)
        self.assertEqual({p.file for p in problems}, {"fb.c"})
        messages = " / ".join(p.message for p in problems)
        self.assertIn("defines a mutex of its own, fb_mutex", messages)
        self.assertIn("takes fb_mutex, not its module's fm_ioctl_mutex", messages)

    def test_a_file_that_declares_its_own_extern_mutex_is_rejected(self):
        texts = pair((HOME, NAME), ("extern struct mutex fb_lock;", "fb_lock"))
        self.assertFalse(self.prove(texts)["fb.c"])
        self.assertTrue(lockproof.module_problems(NAME, texts))

    def test_each_wrong_definition_of_the_module_mutex_is_rejected(self):
        for texts, words in (
                (pair((HOME, NAME), (HOME, NAME)), "defines the module's mutex fm_ioctl_mutex again"),
                (pair((EXTERN, NAME), (EXTERN, NAME)), "no file of the module defines"),
                (pair((f"static {HOME}", NAME), (EXTERN, NAME)), "static"),
                (pair((HOME, NAME), ("", NAME)), "neither declares nor defines")):
            with self.subTest(words=words):
                problems = lockproof.module_problems(NAME, texts)
                self.assertTrue(problems)
                self.assertIn(words, " / ".join(p.message for p in problems))


class ProveSummaryTest(unittest.TestCase):
    """`ioctl-rework prove --summary` of a mutex-mode run: the rewritten
    files of one module (by its Makefile) are held to the module's mutex."""

    def prove(self, texts: dict[str, tuple[str, str]]):
        from test_cli import run_main
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp, "tree")
            tree.mkdir()
            (tree / "Makefile").write_text("obj-m += fm.o\nfm-objs := fa.o fb.o\n")
            (tree / "fm.h").write_text("extern int fm_total;\n")
            summary = Summary(root=str(tree), target="3.9", options={"lock": "mutex"},
                              spatch_version="1.1.1", started=0.0)
            for rel, (old, new) in texts.items():
                (tree / rel).write_text(old)
                summary.files.append(FileRecord(rel, FileStatus.CONVERTED, None,
                                                unified.git_diff(rel, old.encode(), new.encode())))
            summary_mod.write(summary, Path(tmp, "run.json"))
            return run_main(["prove", "--no-cache", "--summary", str(Path(tmp, "run.json")),
                             str(tree)])

    def test_the_module_proves_and_a_mutant_does_not(self):
        self.assertEqual(self.prove(pair((HOME, NAME), (EXTERN, NAME)))[:2], (0, ""))
        status, out, _ = self.prove(pair((HOME, NAME), ("static DEFINE_MUTEX(fb_mutex);",
                                                        "fb_mutex")))
        self.assertEqual(status, 1)
        self.assertIn("fb.c:", out)
        self.assertNotIn("fa.c:", out)
        self.assertIn("fb_mutex, not its module's fm_ioctl_mutex", out)


if __name__ == "__main__":
    unittest.main()

"""api_drift: other API drift listed with file, line and the kernel that
changed it, for the target only, and never in comments or strings."""

import tempfile
import unittest
from pathlib import Path

from ioctl_rework.verify import api_drift
from ioctl_rework import settings

MODERN = settings.Target.parse("6.1")

OLD_DRIVER = """#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/proc_fs.h>

static struct file_operations pot_proc_fops = { .read = pot_read };
static struct timer_list pot_timer;

static int __devinit pot_probe(struct pci_dev *pdev)
{
\tstruct inode *inode = pot_file->f_dentry->d_inode;

\tinit_timer(&pot_timer);
\tINIT_WORK(&pot_work, pot_poll, pdev);
\tif (!access_ok(VERIFY_WRITE, pot_buf, 4))
\t\treturn -EFAULT;
\tproc_create("pot", 0444, NULL, &pot_proc_fops);
\treturn 0;
}
"""


class Scan(unittest.TestCase):
    def findings(self, text, target=MODERN):
        return [(f.line, f.drift.what, str(f.drift.changed_in))
                for f in api_drift.scan_text(text, "pot.c", target)]

    def test_each_drift_with_its_line_and_version(self):
        self.assertEqual(self.findings(OLD_DRIVER), [
            (2, "the BKL (<linux/smp_lock.h>)", "2.6.39"),
            (8, "__devinit/__devexit/__devexit_p()", "3.8.0"),
            (10, "file->f_dentry", "3.19.0"),
            (12, "init_timer()", "4.15.0"),
            (13, "INIT_WORK() with three arguments", "2.6.20"),
            (14, "access_ok() with a type argument", "5.0.0"),
            (16, "proc_create() with struct file_operations", "5.6.0"),
        ])

    def test_only_what_the_target_lacks(self):
        self.assertEqual(self.findings(OLD_DRIVER, settings.Target.parse("3.10")), [
            (2, "the BKL (<linux/smp_lock.h>)", "2.6.39"),
            (8, "__devinit/__devexit/__devexit_p()", "3.8.0"),
            (13, "INIT_WORK() with three arguments", "2.6.20"),
        ])
        self.assertEqual(self.findings(OLD_DRIVER, settings.Target.parse("2.6.11")), [])

    def test_new_forms_are_not_findings(self):
        text = """static const struct proc_ops pot_proc_ops = { .proc_read = pot_read };
void f(void)
{
\tINIT_WORK(&pot_work, pot_poll);
\ttimer_setup(&pot_timer, pot_tick, 0);
\tif (!access_ok(pot_buf, 4))
\t\treturn;
\tproc_create("pot", 0444, NULL, &pot_proc_ops);
\tinode = file_inode(file);
}
"""
        self.assertEqual(self.findings(text), [])

    def test_class_create_lost_its_owner_in_6_4(self):
        text = "void f(void)\n{\n\tc = class_create(THIS_MODULE, \"pot\");\n" \
               "\td = class_create(\"pot\");\n}\n"
        self.assertEqual(self.findings(text, settings.Target.parse("6.12")), [
            (3, "class_create() with a module owner", "6.4.0")])
        self.assertEqual(self.findings(text), [])          # 6.1 still takes the owner

    def test_comments_and_strings_are_not_code(self):
        text = '/* init_timer(&t) was here; file->f_dentry too */\nchar *s = "lock_kernel()";\n'
        self.assertEqual(self.findings(text), [])

    def test_scan_names_files_relative_to_the_root(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "sub").mkdir()
            (root / "sub" / "pot.c").write_text("void f(void) { lock_kernel(); }\n")
            (root / "README").write_text("lock_kernel()\n")
            found = api_drift.scan([root], root, MODERN)
        self.assertEqual([str(f) for f in found], [
            "sub/pot.c:1: lock_kernel()/unlock_kernel(): changed in 2.6.39; "
            "use a driver-private mutex"])


if __name__ == "__main__":
    unittest.main()

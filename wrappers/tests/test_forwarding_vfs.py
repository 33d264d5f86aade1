"""Sites of a forwarding run that deny nothing (convert/forwarding.py,
convert/vfs_dispatch.py): the VFS's own ioctl dispatch, listed and left as
it is; and a comparison of f_op->ioctl with a named function, which
refuses only that handler.  Any other site that cannot follow still
leaves the whole run.  Fixture trees are written here, several spellings
each."""

import shutil
import unittest

from ioctl_rework.convert import vfs_dispatch
from ioctl_rework.convert.summary import HandlerStatus

from test_forwarding import HAVE_SPATCH, HEAD, LOWER, ConvertRun

TTY = HEAD + """int tty_like_ioctl(struct inode *inode, struct file *file,
\t\t   unsigned int cmd, unsigned long arg)
{
\treturn cmd == 5 ? 0 : -ENOIOCTLCMD;
}

static struct file_operations tty_like_fops = {
\t.owner\t\t= THIS_MODULE,
\t.ioctl\t\t= tty_like_ioctl,
};
"""

# `f_op->ioctl != h` as ioctl32 helpers of the time spell it.
COMPARISONS = {
    "plain.c": "\tif (file->f_op->ioctl != tty_like_ioctl)\n\t\treturn -EINVAL;\n",
    "equal.c": "\tif (file->f_op->ioctl == tty_like_ioctl)\n\t\treturn 0;\n\treturn -EINVAL;\n",
    "reversed.c": "\tif (tty_like_ioctl != file->f_op->ioctl)\n\t\treturn -EINVAL;\n",
    "parens.c": "\tif ((file->f_op->ioctl) != (tty_like_ioctl))\n\t\treturn -EINVAL;\n",
    "address.c": "\tif (&tty_like_ioctl != file->f_op->ioctl)\n\t\treturn -EINVAL;\n",
}


def checker(body: str) -> str:
    return HEAD + """extern int tty_like_ioctl(struct inode *, struct file *, unsigned int,
\t\t\t  unsigned long);

static int is_tty_file(struct file *file)
{
""" + body + "\treturn 0;\n}\n"


# The VFS of a 2.6 kernel, written here: the entry point, a static helper
# only it calls, the compat entry's test, and the SYSCALL_DEFINE spelling.
VFS_IOCTL = HEAD + """static int do_file_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
\tstruct inode *inode = filp->f_dentry->d_inode;

\tif (filp->f_op && filp->f_op->ioctl)
\t\treturn filp->f_op->ioctl(inode, filp, cmd, arg);
\treturn -ENOTTY;
}

asmlinkage long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
\tstruct file *filp = fget(fd);
\tint error = -EBADF;

\tif (!filp)
\t\treturn error;
\tif (S_ISREG(filp->f_dentry->d_inode->i_mode))
\t\terror = do_file_ioctl(filp, cmd, arg);
\telse if (filp->f_op && filp->f_op->ioctl)
\t\terror = filp->f_op->ioctl(filp->f_dentry->d_inode, filp, cmd, arg);
\tfput(filp);
\treturn error;
}
"""
VFS_COMPAT = HEAD + """asmlinkage long compat_sys_ioctl(unsigned int fd, unsigned int cmd,
\t\t\t\tunsigned long arg)
{
\tstruct file *filp = fget(fd);
\tint error = -EBADF;

\tif (!filp)
\t\treturn error;
\tif (!filp->f_op || !filp->f_op->ioctl)
\t\terror = sys_ioctl(fd, cmd, arg);
\tfput(filp);
\treturn error;
}
"""
VFS_SYSCALL_DEFINE = HEAD + """static long vfs_ioctl(struct file *filp, unsigned int cmd,
\t\t      unsigned long arg)
{
\tif (!filp->f_op || !filp->f_op->ioctl)
\t\treturn -ENOTTY;
\treturn filp->f_op->ioctl(filp->f_path.dentry->d_inode, filp, cmd, arg);
}

SYSCALL_DEFINE3(ioctl, unsigned int, fd, unsigned int, cmd, unsigned long, arg)
{
\tstruct file *filp = fget(fd);
\tlong error = vfs_ioctl(filp, cmd, arg);

\tfput(filp);
\treturn error;
}
"""


class DispatchFunctionsTest(unittest.TestCase):
    def test_the_entry_points_and_the_helpers_only_they_call(self):
        self.assertEqual(vfs_dispatch.functions("fs/ioctl.c", VFS_IOCTL),
                         {"sys_ioctl", "do_file_ioctl"})
        self.assertEqual(vfs_dispatch.functions("fs/compat.c", VFS_COMPAT),
                         {"compat_sys_ioctl"})
        self.assertEqual(vfs_dispatch.functions("fs/ioctl.c", VFS_SYSCALL_DEFINE),
                         {"vfs_ioctl", "SYSCALL_DEFINE3"})

    def test_only_in_fs_itself(self):
        for rel in ("drivers/char/ioctl.c", "fs/ext2/ioctl.c", "ioctl.c"):
            self.assertEqual(vfs_dispatch.functions(rel, VFS_IOCTL), set(), rel)

    def test_a_helper_used_otherwise_is_no_dispatch(self):
        # Its address escapes: a driver may call it with any file.
        escaped = VFS_IOCTL + "\nvoid *ioctl_helper_table[] = { do_file_ioctl };\n"
        self.assertEqual(vfs_dispatch.functions("fs/ioctl.c", escaped), {"sys_ioctl"})
        exported = VFS_IOCTL.replace("static int do_file_ioctl", "int do_file_ioctl")
        self.assertEqual(vfs_dispatch.functions("fs/ioctl.c", exported), {"sys_ioctl"})
        other = VFS_IOCTL.replace("sys_ioctl", "my_ioctl_entry")
        self.assertEqual(vfs_dispatch.functions("fs/ioctl.c", other), set())


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class NarrowedDenyTest(ConvertRun):
    def run_tree(self, files: dict[str, str]):
        return self.run_convert_tree(files, "--target", "2.6.11")

    def run_convert_tree(self, files: dict[str, str], *extra: str):
        from test_convert import parse_args
        from ioctl_rework.convert import cli as convert
        from test_forwarding import CACHE
        tree = self.tmp / "tree"
        shutil.rmtree(tree, ignore_errors=True)
        for rel, text in files.items():
            (tree / rel).parent.mkdir(parents=True, exist_ok=True)
            (tree / rel).write_text(text)
        # Forwarding in the files of the run, not in a kernel's headers.
        args = parse_args(["--cache-dir", str(CACHE), "-j", "2", "-q", "--no-kernel-headers",
                           *extra, "--", str(tree)])
        return convert.convert(convert.request_from_args(args))

    def test_a_comparison_refuses_only_the_handler_it_names(self):
        for name, body in COMPARISONS.items():
            with self.subTest(spelling=name):
                result = self.run_tree({"drivers/low.c": LOWER, "drivers/tty.c": TTY,
                                        f"arch/ia32/{name}": checker(body)})
                self.assertIn("drivers/low.c", result.changes)
                self.assertNotIn("drivers/tty.c", result.changes)
                records = {h.handler: h for h in result.summary.handlers}
                self.assertEqual(records["low_ioctl"].status, HandlerStatus.CONVERTED)
                tty = records["tty_like_ioctl"]
                self.assertNotEqual(tty.status, HandlerStatus.CONVERTED)
                self.assertIn(f"arch/ia32/{name}:", tty.reason)
                site = records["is_tty_file"]
                self.assertEqual(site.status, HandlerStatus.SKIPPED)
                self.assertIn("compares ->ioctl with tty_like_ioctl, which the run leaves "
                              "legacy", site.reason)
                self.assertEqual(site.line, 9)

    def test_a_test_that_names_no_function_still_denies_the_run(self):
        body = "\tif (!file->f_op->ioctl || file->f_op->ioctl != tty_like_ioctl)\n" \
               "\t\treturn -EINVAL;\n"
        result = self.run_tree({"drivers/low.c": LOWER, "drivers/tty.c": TTY,
                                "arch/ia32/mixed.c": checker(body)})
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        low = next(h for h in result.summary.handlers if h.handler == "low_ioctl")
        self.assertIn("arch/ia32/mixed.c:9 (is_tty_file)", low.reason)
        self.assertIn("could not be converted", low.reason)

    def test_the_vfs_dispatch_is_listed_and_denies_nothing(self):
        for layout in ({"fs/ioctl.c": VFS_IOCTL, "fs/compat.c": VFS_COMPAT},
                       {"fs/ioctl.c": VFS_SYSCALL_DEFINE}):
            with self.subTest(files=sorted(layout)):
                result = self.run_tree({"drivers/low.c": LOWER, **layout})
                self.assertFalse(result.failed, [h.reason for h in result.summary.handlers
                                                 if h.status is HandlerStatus.FAILED])
                self.assertEqual(sorted(result.changes), ["drivers/low.c"])
                listed = [(h.file, h.line) for h in result.summary.handlers
                          if h.reason and h.reason.startswith(vfs_dispatch.REASON)]
                every = sorted((rel, number) for rel, text in layout.items()
                               for number, line in enumerate(text.split("\n"), 1)
                               if "->ioctl" in line)
                self.assertEqual(sorted(set(listed)), every)

    def test_the_same_code_outside_fs_denies_the_run(self):
        result = self.run_tree({"drivers/low.c": LOWER, "drivers/misc/compat.c": VFS_COMPAT})
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})

    def test_a_forwarding_helper_in_a_dispatch_file_denies_the_run(self):
        escaped = VFS_IOCTL + "\nvoid *ioctl_helper_table[] = { do_file_ioctl };\n"
        result = self.run_tree({"drivers/low.c": LOWER, "fs/ioctl.c": escaped})
        self.assertTrue(result.failed)
        self.assertEqual(result.changes, {})
        low = next(h for h in result.summary.handlers if h.handler == "low_ioctl")
        self.assertIn("fs/ioctl.c:8 (do_file_ioctl)", low.reason)


if __name__ == "__main__":
    unittest.main()

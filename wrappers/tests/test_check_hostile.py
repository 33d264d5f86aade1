"""A hostile set for `check` (issue 23): patches, mails and ranges written to
slip a legacy .ioctl past it, several spellings of every way the issue lists.

Every case must fail closed: exit 1 with an ERROR of the kinds it names
(LEGACY_IOCTL where check can see the entry, NOT_CHECKED where it cannot
read enough), or exit 2 with a one-line message.  None may exit 0 (a false
negative), print a traceback, or write anywhere but check's scratch
directory: each run gets a TMPDIR, HOME and XDG_CACHE_HOME of its own, and
afterwards TMPDIR is empty and nothing else in the case's directory has
changed.  A check stopped by SIGTERM or SIGINT leaves no child behind.

The fixed inputs are in test_data/check_hostile/; what git must make
(commits, ranges, SHA-256 and shallow repositories, format-patch mails) is
made here, and MIME mails with the standard library's email package.
"""

import base64
import os
import quopri
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

from test_check_repo import ENTRY, GIT_ENV, fixture
from tiers import full_tier_only

from ioctl_rework import paths
from ioctl_rework.verify.build import KdirError, KernelDir

DATA = Path(__file__).resolve().parent / "test_data" / "check_hostile"
LEGACY = fixture("legacy_driver.c")
CLEAN = fixture("clean_driver.c")
MULTI = (DATA / "multi_kernel.c").read_text()
BY_VERSION = (DATA / "by_version.c").read_text()
LONG_FOPS = (DATA / "long_fops.c").read_text()
ENTRY_LINE = "\t.ioctl\t= thermo_ioctl,\n"
# legacy_driver.c without its legacy entry: what a patch turns into LEGACY.
NO_ENTRY = LEGACY.replace(ENTRY_LINE, "")

LEGACY_IOCTL, NOT_CHECKED, EXIT_2 = "LEGACY_IOCTL", "NOT_CHECKED", "exit 2"
# In a case's outcomes: the compiler decides (check --kdir): LEGACY_IOCTL,
# and no code left NOT_CHECKED.
BY_GCC = "decided by gcc"


class Workspace:
    """One case's directory: a repository (tree/), files/, and the HOME,
    XDG_CACHE_HOME and TMPDIR check runs with."""

    def __init__(self, root: Path):
        self.root = root
        self.tree = root / "tree"
        self.files = root / "files"
        for d in (self.tree, self.files, root / "tmp", root / "home", root / "cache"):
            d.mkdir()
        self.env = {**os.environ, **GIT_ENV, "HOME": str(root / "home"),
                    "XDG_CACHE_HOME": str(root / "cache"), "TMPDIR": str(root / "tmp")}

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return subprocess.run(["git", *args], cwd=cwd or self.tree, env=self.env, text=True,
                              capture_output=True, check=True).stdout

    def init(self, *args: str) -> "Workspace":
        self.git("init", "-q", "-b", "main", *args)
        self.commit("base", {"README": "a tree\n"})
        return self

    def commit(self, message: str, files: dict[str, str | None] = (),
               links: dict[str, str] = ()) -> str:
        for name, text in dict(files).items():
            path = self.tree / name
            if text is None:
                path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        for name, target in dict(links).items():
            (self.tree / name).parent.mkdir(parents=True, exist_ok=True)
            (self.tree / name).symlink_to(target)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def write(self, name: str, data: str | bytes) -> Path:
        path = self.files / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return path

    def patch_of(self, *args: str, back_to: str | None = None) -> Path:
        """`git format-patch --stdout ARGS` in a file; the tree is then put
        back at BACK_TO, so that --tree is the tree the patch applies to."""
        text = self.git("format-patch", "--stdout", *args)
        if back_to:
            self.git("checkout", "-q", back_to)
        return self.write("case.patch", text)

    def diff_of(self, *args: str, back_to: str | None = None) -> Path:
        text = self.git("diff", *args)
        if back_to:
            self.git("checkout", "-q", back_to)
        return self.write("case.diff", text)


# The cases: each builds its input in a Workspace and returns check's
# arguments (run in the tree), with the outcomes that count as failing closed.

def _legacy_from_entry(ws):
    ws.init()
    ws.commit("add thermo without ioctl", {"drivers/misc/thermo.c": NO_ENTRY})
    return ws.commit("thermo: an ioctl", {"drivers/misc/thermo.c": LEGACY})


def case_unidiff_zero_with_tree(ws):
    _legacy_from_entry(ws)
    patch = ws.diff_of("-U0", "HEAD~1", "HEAD", back_to="HEAD~1")
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_unidiff_zero_bare(ws):
    _legacy_from_entry(ws)
    patch = ws.diff_of("-U0", "HEAD~1", "HEAD")
    return ["--diff", str(patch)], {LEGACY_IOCTL, NOT_CHECKED}


def case_unidiff_zero_inside_a_long_file(ws):
    # With -U0 and no --unidiff-zero, git apply puts the hunk at the end.
    ws.init()
    ws.commit("pluvio", {"drivers/misc/pluvio.c": LONG_FOPS})
    ws.commit("pluvio: legacy", {"drivers/misc/pluvio.c": LONG_FOPS.replace(
        "\t.unlocked_ioctl\t= pluvio_unlocked,", "\t.ioctl\t\t= pluvio_ioctl,")})
    patch = ws.diff_of("-U0", "HEAD~1", "HEAD", back_to="HEAD~1")
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def _new_legacy_mail(ws) -> str:
    ws.init()
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    return ws.git("format-patch", "--stdout", "-1")


def case_mail_with_crlf_headers_and_lf_body(ws):
    mail = _new_legacy_mail(ws)
    head, body = mail.split("\n\n", 1)
    patch = ws.write("mixed.mbox", head.replace("\n", "\r\n") + "\r\n\r\n" + body)
    return ["--diff", str(patch)], {LEGACY_IOCTL}


def case_mail_with_every_other_line_crlf(ws):
    lines = _new_legacy_mail(ws).split("\n")
    mixed = "\n".join(line + ("\r" if i % 2 and line else "") for i, line in enumerate(lines))
    return ["--diff", str(ws.write("alternating.mbox", mixed))], {LEGACY_IOCTL}


def case_mail_all_crlf_on_stdin(ws):
    mail = _new_legacy_mail(ws).replace("\n", "\r\n")
    return ["--diff", "-", "<", str(ws.write("crlf.mbox", mail))], {LEGACY_IOCTL}


def _mime(ws, attach) -> Path:
    mail = _new_legacy_mail(ws)
    diff = mail[mail.index("diff --git"):]
    message = MIMEMultipart()
    message["From"] = "Check Test <check@example.org>"
    message["Subject"] = "[PATCH] thermo: a sensor"
    message["Date"] = "Sun, 16 Jan 2005 12:00:00 +0000"
    message.attach(MIMEText("A new sensor driver; the patch is attached.\n"))
    message.attach(attach(diff))
    return ws.write("mime.eml", message.as_bytes())


def case_mime_diff_in_a_base64_attachment(ws):
    def attach(diff):
        part = MIMEApplication(diff.encode(), "octet-stream")
        part.add_header("Content-Disposition", "attachment", filename="thermo.patch")
        return part
    return ["--diff", str(_mime(ws, attach))], {LEGACY_IOCTL}


def case_mime_diff_in_a_base64_text_part(ws):
    def attach(diff):
        part = MIMEText(diff, "x-diff", "utf-8")       # utf-8 text is base64-encoded
        return part
    return ["--diff", str(_mime(ws, attach))], {LEGACY_IOCTL}


def case_mime_quoted_printable_body(ws):
    mail = _new_legacy_mail(ws)
    head, body = mail.split("\n\n", 1)
    encoded = quopri.encodestring(body.encode()).decode()
    head += ("\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8"
             "\nContent-Transfer-Encoding: quoted-printable")
    return ["--diff", str(ws.write("qp.mbox", head + "\n\n" + encoded))], {LEGACY_IOCTL}


def case_mime_whole_body_base64(ws):
    mail = _new_legacy_mail(ws)
    head, body = mail.split("\n\n", 1)
    encoded = base64.encodebytes(body.encode()).decode()
    head += ("\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8"
             "\nContent-Transfer-Encoding: base64")
    return ["--diff", str(ws.write("b64.mbox", head + "\n\n" + encoded))], {LEGACY_IOCTL}


def case_context_diff_after_unified(ws):
    ws.init()
    return ["--diff", str(DATA / "context_diff_after_unified.patch")], {EXIT_2}


def case_normal_diff_after_unified(ws):
    ws.init()
    return ["--diff", str(DATA / "normal_diff_after_unified.patch")], {EXIT_2}


def case_indented_diff_after_unified(ws):
    ws.init()
    return ["--diff", str(DATA / "indented_diff_after_unified.patch")], {EXIT_2}


def case_mbox_adds_legacy_then_converts(ws):
    ws.init()
    start = ws.git("rev-parse", "HEAD").strip()
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("convert thermo", {"drivers/misc/thermo.c": CLEAN})
    patch = ws.patch_of(f"{start}..HEAD", back_to=start)
    return ["--diff", str(patch)], {LEGACY_IOCTL}


def case_mbox_adds_legacy_then_converts_with_tree(ws):
    ws.init()
    start = ws.git("rev-parse", "HEAD").strip()
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("convert thermo", {"drivers/misc/thermo.c": CLEAN})
    patch = ws.patch_of(f"{start}..HEAD", back_to=start)
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_mbox_second_mail_adds_the_entry(ws):
    ws.init()
    start = ws.git("rev-parse", "HEAD").strip()
    ws.commit("add thermo", {"drivers/misc/thermo.c": NO_ENTRY})
    ws.commit("thermo: an ioctl", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("thermo: comment", {"drivers/misc/thermo.c": "/* thermo */\n" + LEGACY})
    return ["--diff", str(ws.patch_of(f"{start}..HEAD"))], {LEGACY_IOCTL}


def _section_lie(ws, lie: str) -> Path:
    ws.init()
    ws.commit("pluvio", {"drivers/misc/pluvio.c": LONG_FOPS})
    ws.commit("pluvio: legacy", {"drivers/misc/pluvio.c": LONG_FOPS.replace(
        "\t.unlocked_ioctl\t= pluvio_unlocked,", "\t.ioctl\t\t= pluvio_ioctl,")})
    text = ws.git("format-patch", "--stdout", "-1")
    text = re.sub(r"^(@@ [^@]* @@).*$", rf"\1 {lie}", text, flags=re.M)
    return ws.write("lie.patch", text)


def case_hunk_header_names_another_structure(ws):
    patch = _section_lie(ws, "static struct tty_operations pluvio_tty_ops = {")
    return ["--diff", str(patch)], {LEGACY_IOCTL, NOT_CHECKED}


def case_hunk_header_names_a_function(ws):
    patch = _section_lie(ws, "static int __init pluvio_init(void)")
    return ["--diff", str(patch)], {LEGACY_IOCTL, NOT_CHECKED}


# Files the patch brings in without hunks.

def case_rename_txt_to_c_in_a_commit(ws):
    ws.init()
    ws.commit("notes", {"drivers/misc/thermo.txt": LEGACY})
    ws.git("mv", "drivers/misc/thermo.txt", "drivers/misc/thermo.c")
    ws.git("commit", "-q", "-m", "build it")
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def _inc_renamed(ws) -> str:
    ws.init()
    base = ws.commit("an include", {"drivers/misc/thermo.inc": LEGACY})
    ws.git("mv", "drivers/misc/thermo.inc", "drivers/misc/thermo.c")
    ws.git("commit", "-q", "-m", "build it")
    return base


def case_rename_inc_to_c_patch_with_tree(ws):
    base = _inc_renamed(ws)
    patch = ws.patch_of("-M", "-1", back_to=base)
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_rename_inc_to_c_bare(ws):
    _inc_renamed(ws)
    return ["--diff", str(ws.patch_of("-M", "-1"))], {NOT_CHECKED}


def _copied(ws) -> str:
    ws.init()
    base = ws.commit("thermo from long ago", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("a second thermo", {"drivers/misc/thermo2.c": LEGACY})
    return base


def case_copy_c_to_c_patch_with_tree(ws):
    base = _copied(ws)
    patch = ws.diff_of("-C", "-C", "HEAD~1", "HEAD", back_to=base)
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_copy_c_to_c_bare(ws):
    _copied(ws)
    return ["--diff", str(ws.diff_of("-C", "-C", "HEAD~1", "HEAD"))], {NOT_CHECKED}


def case_copy_c_to_c_in_a_commit(ws):
    _copied(ws)
    return ["--git", "HEAD"], {LEGACY_IOCTL}


INCLUDER = ('// SPDX-License-Identifier: GPL-2.0\n#include <linux/module.h>\n'
            '#include "{name}"\nMODULE_LICENSE("GPL");\n')


def case_new_c_includes_a_new_inc(ws):
    ws.init()
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo.inc"),
                         "drivers/misc/thermo.inc": LEGACY})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_new_c_includes_an_inc_of_the_tree(ws):
    ws.init()
    ws.commit("an include", {"drivers/misc/thermo.inc": LEGACY})
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo.inc")})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_new_c_includes_a_header_of_the_tree(ws):
    ws.init()
    ws.commit("a header", {"drivers/misc/thermo_fops.h": LEGACY})
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo_fops.h")})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_new_c_includes_through_a_harmless_header(ws):
    ws.init()
    ws.commit("includes", {"drivers/misc/thermo.inc": LEGACY,
                           "drivers/misc/thermo.h": '#include "thermo.inc"\n'})
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo.h")})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_new_c_includes_an_inc_patch_with_tree(ws):
    ws.init()
    base = ws.commit("an include", {"drivers/misc/thermo.inc": LEGACY})
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo.inc")})
    patch = ws.patch_of("-1", back_to=base)
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_new_c_includes_an_inc_bare(ws):
    ws.init()
    ws.commit("an include", {"drivers/misc/thermo.inc": LEGACY})
    ws.commit("thermo", {"drivers/misc/thermo.c": INCLUDER.format(name="thermo.inc")})
    return ["--diff", str(ws.patch_of("-1"))], {NOT_CHECKED}


def case_new_symlink_to_a_txt_in_a_commit(ws):
    ws.init()
    ws.commit("notes", {"drivers/misc/thermo.txt": LEGACY})
    ws.commit("build it", links={"drivers/misc/thermo.c": "thermo.txt"})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_new_symlink_patch_with_tree(ws):
    ws.init()
    base = ws.commit("notes", {"drivers/misc/thermo.txt": LEGACY})
    ws.commit("build it", links={"drivers/misc/thermo.c": "thermo.txt"})
    patch = ws.patch_of("-1", back_to=base)
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


def case_new_symlink_bare(ws):
    ws.init()
    ws.commit("notes", {"drivers/misc/thermo.txt": LEGACY})
    ws.commit("build it", links={"drivers/misc/thermo.c": "thermo.txt"})
    return ["--diff", str(ws.patch_of("-1"))], {NOT_CHECKED}


# Ranges.

def case_sha256_commit(ws):
    ws.init("--object-format=sha256")
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


def case_sha256_range_commit_by_commit(ws):
    ws.init("--object-format=sha256")
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("readme", {"README": "sensors\n"})
    return ["--git", "HEAD~2..HEAD"], {LEGACY_IOCTL}


def case_sha256_abbreviated_ids(ws):
    ws.init("--object-format=sha256")
    start = ws.git("rev-parse", "--short=9", "HEAD").strip()
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
    ws.commit("readme", {"README": "sensors\n"})
    end = ws.git("rev-parse", "--short=17", "HEAD").strip()
    return ["--git", f"{start}..{end}"], {LEGACY_IOCTL}


def _shallow(ws, depth: int) -> None:
    origin = ws.root / "origin"
    origin.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=origin, env=ws.env, check=True)
    for message, files in (("base", {"README": "x\n", "drivers/misc/baro.c": CLEAN}),
                           ("readme", {"README": "y\n"}),
                           ("add thermo", {"drivers/misc/thermo.c": LEGACY})):
        for name, text in files.items():
            (origin / name).parent.mkdir(parents=True, exist_ok=True)
            (origin / name).write_text(text)
        subprocess.run(["git", "add", "-A"], cwd=origin, env=ws.env, check=True)
        subprocess.run(["git", "commit", "-q", "-m", message], cwd=origin, env=ws.env,
                       check=True)
    ws.tree.rmdir()
    subprocess.run(["git", "clone", "-q", f"--depth={depth}", f"file://{origin}",
                    str(ws.tree)], env=ws.env, check=True, capture_output=True)


def case_shallow_clone_boundary(ws):
    _shallow(ws, 1)
    return ["--git", "HEAD"], {EXIT_2}


def case_shallow_clone_range_inside_its_history(ws):
    _shallow(ws, 2)
    return ["--git", "HEAD~1..HEAD"], {LEGACY_IOCTL}


# The preprocessor: a multi-kernel driver's legacy branch made live.

def _multi(ws, changed: str, how: str = "--git") -> list[str]:
    ws.init()
    base = ws.commit("hygro2", {"drivers/misc/hygro2.c": MULTI})
    ws.commit("hygro2: tweak", {"drivers/misc/hygro2.c": changed})
    if how == "--git":
        return ["--git", "HEAD"]
    patch = ws.patch_of("-1", back_to=base)
    return ["--diff", str(patch)] + (["--tree", str(ws.tree)] if how == "tree" else [])


def case_have_unlocked_ioctl_test_renamed(ws):
    return _multi(ws, MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL",
                                    "#ifdef HAVE_UNLOCKED_IOCTL_IN_THIS_DRIVER")), {LEGACY_IOCTL}


def case_have_unlocked_ioctl_undefined(ws):
    return _multi(ws, MULTI.replace("#include <linux/uaccess.h>\n",
                                    "#include <linux/uaccess.h>\n#undef HAVE_UNLOCKED_IOCTL\n")
                  ), {LEGACY_IOCTL}


def case_have_unlocked_ioctl_test_made_if_0(ws):
    return _multi(ws, MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL", "#if 0")), {LEGACY_IOCTL}


def case_have_unlocked_ioctl_test_inverted(ws):
    return _multi(ws, MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL",
                                    "#ifndef HAVE_UNLOCKED_IOCTL")), {LEGACY_IOCTL}


def case_conditional_around_the_entries_removed(ws):
    changed = MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL\n\t.unlocked", "\t.unlocked")
    changed = changed.replace("#else\n\t.ioctl\t\t= hygro2_ioctl,\n#endif",
                              "\t.ioctl\t\t= hygro2_ioctl,")
    return _multi(ws, changed), {LEGACY_IOCTL}


def case_have_unlocked_ioctl_renamed_patch_with_tree(ws):
    return _multi(ws, MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL", "#ifdef HAVE_UNLOCKED_X"),
                  "tree"), {LEGACY_IOCTL}


def case_have_unlocked_ioctl_renamed_bare(ws):
    return _multi(ws, MULTI.replace("#ifdef HAVE_UNLOCKED_IOCTL", "#ifdef HAVE_UNLOCKED_X"),
                  "bare"), {LEGACY_IOCTL, NOT_CHECKED}


def case_have_unlocked_ioctl_undefined_bare(ws):
    return _multi(ws, MULTI.replace("#include <linux/uaccess.h>\n",
                                    "#include <linux/uaccess.h>\n#undef HAVE_UNLOCKED_IOCTL\n"),
                  "bare"), {LEGACY_IOCTL, NOT_CHECKED}


def case_kernel_version_redefined(ws):
    ws.init()
    ws.commit("anemo2", {"drivers/misc/anemo2.c": BY_VERSION})
    ws.commit("anemo2: old kernels only", {"drivers/misc/anemo2.c": BY_VERSION.replace(
        "#include <linux/version.h>\n", "#include <linux/version.h>\n#undef LINUX_VERSION_CODE\n"
        "#define LINUX_VERSION_CODE 0\n")})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


# Spellings gcc accepts.

def _legacy_spelled(ws, entry: str, before: str = "") -> list[str]:
    ws.init()
    text = LEGACY.replace(ENTRY_LINE, entry).replace("static int thermo_value;",
                                                     before + "static int thermo_value;")
    ws.commit("add thermo", {"drivers/misc/thermo.c": text})
    return ["--git", "HEAD"]


def case_line_splice_in_the_member(ws):
    return _legacy_spelled(ws, "\t.io\\\nctl\t= thermo_ioctl,\n"), {LEGACY_IOCTL, NOT_CHECKED}


def case_member_named_by_a_macro(ws):
    return _legacy_spelled(ws, "\t.OLD_OP\t= thermo_ioctl,\n", "#define OLD_OP ioctl\n"), \
        {LEGACY_IOCTL, NOT_CHECKED}


def case_member_pasted_by_a_macro(ws):
    return _legacy_spelled(ws, "\t.PASTE(io, ctl)\t= thermo_ioctl,\n",
                           "#define PASTE(a, b) a##b\n"), {LEGACY_IOCTL, NOT_CHECKED}


def case_entry_written_by_a_macro(ws):
    return _legacy_spelled(ws, "\tOLD_ENTRY(thermo_ioctl),\n",
                           "#define OLD_ENTRY(h) .ioctl = h\n"), {LEGACY_IOCTL, NOT_CHECKED}


def _fops_by_a_macro_of(ws, header: str, include: str, member: str = "ioctl",
                        more: str = "") -> list[str]:
    """A commit adding HEADER (with DEFINE_OLD_FOPS, its entry .MEMBER, and
    MORE), then one adding thermo.c, whose fops is that macro's."""
    ws.init()
    ws.commit("a fops macro", {header: (
        "#define DEFINE_OLD_FOPS(name, handler) \\\n"
        f"\tstatic const struct file_operations name = {{ .{member} = handler }}\n{more}")})
    text = LEGACY.replace("static const struct file_operations thermo_fops = {\n"
                          "\t.owner\t= THIS_MODULE,\n" + ENTRY_LINE + "};\n",
                          "DEFINE_OLD_FOPS(thermo_fops, thermo_ioctl);\n")
    text = text.replace("#include <linux/fs.h>\n", f"#include <linux/fs.h>\n#include {include}\n")
    ws.commit("add thermo", {"drivers/misc/thermo.c": text})
    return ["--git", "HEAD"]


def case_fops_macro_of_a_header_in_the_tree(ws):
    return _fops_by_a_macro_of(ws, "include/linux/oldfops.h", "<linux/oldfops.h>"), \
        {LEGACY_IOCTL, NOT_CHECKED}


# The same spellings and more, with the compiler as the last word (check
# --kdir, check/compiler.py): gcc must name each as LEGACY_IOCTL, not leave
# it NOT_CHECKED.  They need a configured and prepared kernel whose fs.h
# has the legacy member (the fixture kernel's O= directory: run-proof runs
# them against it; IOCTL_REWORK_TEST_KDIR names another), and are skipped
# without one.

def _test_kdir() -> Path | None:
    named = os.environ.get("IOCTL_REWORK_TEST_KDIR")
    kdir = Path(named) if named else paths.fixture_cache() / "obj"
    try:
        return KernelDir.open(kdir).path
    except KdirError:
        if named:
            raise
        return None


TEST_KDIR = _test_kdir()


def _with_kdir(build):
    def case(ws):
        if TEST_KDIR is None:
            raise unittest.SkipTest("no prepared KDIR (make fixture-build, or set "
                                    "IOCTL_REWORK_TEST_KDIR)")
        args, allowed = build(ws)
        return [*args, "--kdir", str(TEST_KDIR)], allowed | {BY_GCC}
    return case


@_with_kdir
def case_kdir_line_splice_in_the_member(ws):
    return _legacy_spelled(ws, "\t.io\\\nctl\t= thermo_ioctl,\n"), {LEGACY_IOCTL}


@_with_kdir
def case_kdir_member_pasted_by_a_macro(ws):
    return _legacy_spelled(ws, "\t.PASTE(io, ctl)\t= thermo_ioctl,\n",
                           "#define PASTE(a, b) a##b\n"), {LEGACY_IOCTL}


@_with_kdir
def case_kdir_member_named_by_a_macro(ws):
    return _legacy_spelled(ws, "\t.OLD_OP\t= thermo_ioctl,\n", "#define OLD_OP i\\\noctl\n"), \
        {LEGACY_IOCTL}


@_with_kdir
def case_kdir_entry_written_by_a_pasting_macro(ws):
    return _legacy_spelled(ws, "\tOLD_ENTRY(thermo_ioctl),\n",
                           "#define OLD_ENTRY(h) .io ## ctl = h\n"), {LEGACY_IOCTL}


@_with_kdir
def case_kdir_member_set_at_run_time_through_a_macro(ws):
    ws.init()
    text = LEGACY.replace(ENTRY_LINE, "").replace(
        "static const struct file_operations thermo_fops", "static struct file_operations "
        "thermo_fops").replace("static int thermo_value;",
                               "#define SET_OLD(f, h) ((f)->OLD_OP = (h))\n"
                               "#define OLD_OP io ## ctl\nstatic int thermo_value;")
    text = text.replace("static int __init thermo_init(void)\n{\n",
                        "static int __init thermo_init(void)\n{\n"
                        "\tSET_OLD(&thermo_fops, thermo_ioctl);\n")
    ws.commit("add thermo", {"drivers/misc/thermo.c": text})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


@_with_kdir
def case_kdir_fops_macro_of_an_unchanged_header_beside_it(ws):
    return _fops_by_a_macro_of(ws, "drivers/misc/oldfops.h", '"oldfops.h"', "OLD_MEMBER",
                               "#define OLD_MEMBER i##octl\n"), {LEGACY_IOCTL}


@_with_kdir
def case_kdir_fops_macro_of_a_header_the_patch_adds_under_include(ws):
    ws.init()
    text = NO_ENTRY.replace("\t.owner\t= THIS_MODULE,\n",
                            "\t.owner\t= THIS_MODULE,\n\tLEGACY_ENTRY(thermo_ioctl)\n")
    text = text.replace("#include <linux/fs.h>\n", "#include <linux/fs.h>\n"
                        "#include <linux/legacy_entry.h>\n")
    ws.commit("add thermo", {"drivers/misc/thermo.c": text, "include/linux/legacy_entry.h":
                             "#define LEGACY_ENTRY(h) .\\\nioctl = h,\n"})
    return ["--git", "HEAD"], {LEGACY_IOCTL}


@_with_kdir
def case_kdir_patch_file_with_tree(ws):
    ws.init()
    ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY.replace(
        ENTRY_LINE, "\t.OLD_OP\t= thermo_ioctl,\n").replace(
        "static int thermo_value;", "#define OLD_OP i\\\noctl\nstatic int thermo_value;")})
    patch = ws.patch_of("-1", back_to="HEAD~1")
    return ["--diff", str(patch), "--tree", str(ws.tree)], {LEGACY_IOCTL}


# Structures that hold a file_operations (the rule's side is issue 23
# section 3; check must not pass them).

def _shaped(ws, fops: str) -> list[str]:
    ws.init()
    text = LEGACY.replace("static const struct file_operations thermo_fops = {\n"
                          "\t.owner\t= THIS_MODULE,\n" + ENTRY_LINE + "};\n", fops)
    text = text.replace("&thermo_fops", "thermo_fopsp")
    ws.commit("add thermo", {"drivers/misc/thermo.c": text})
    return ["--git", "HEAD"]


def case_fops_embedded_in_a_driver_structure(ws):
    return _shaped(ws, "static struct thermo_driver {\n\tint minor;\n"
                       "\tstruct file_operations fops;\n} thermo_driver = {\n\t.minor = 1,\n"
                       "\t.fops = {\n\t\t.owner = THIS_MODULE,\n\t\t.ioctl = thermo_ioctl,\n"
                       "\t},\n};\n#define thermo_fopsp (&thermo_driver.fops)\n"), \
        {LEGACY_IOCTL, NOT_CHECKED}


def case_fops_compound_literal(ws):
    return _shaped(ws, "static const struct file_operations *thermo_fopsp =\n"
                       "\t&(const struct file_operations) {\n\t\t.owner = THIS_MODULE,\n"
                       "\t\t.ioctl = thermo_ioctl,\n\t};\n"), {LEGACY_IOCTL, NOT_CHECKED}


def case_fops_device_table(ws):
    return _shaped(ws, "static const struct file_operations thermo_table[] = {\n"
                       "\t{ .owner = THIS_MODULE, .ioctl = thermo_ioctl },\n"
                       "\t{ .owner = THIS_MODULE },\n};\n"
                       "#define thermo_fopsp (&thermo_table[0])\n"), {LEGACY_IOCTL, NOT_CHECKED}


def case_parenthesised_handler(ws):
    return _legacy_spelled(ws, "\t.ioctl\t= (thermo_ioctl),\n"), {LEGACY_IOCTL, NOT_CHECKED}


# Resources and malformed input.

def case_hunk_claims_line_100_million(ws):
    ws.init()
    return ["--diff", str(DATA / "claims_line_100m.patch")], {NOT_CHECKED}


def case_hunk_claims_line_100_million_with_tree(ws):
    ws.init()
    ws.commit("thermo", {"drivers/misc/thermo.c": NO_ENTRY})
    return ["--diff", str(DATA / "claims_line_100m.patch"), "--tree", str(ws.tree)], \
        {NOT_CHECKED}


def case_patch_over_the_size_limit(ws):
    _legacy_from_entry(ws)
    patch = ws.patch_of("-1")
    return ["--diff", str(patch), "--max-patch-size", "100"], {NOT_CHECKED}


def case_commit_over_the_size_limit(ws):
    _legacy_from_entry(ws)
    return ["--git", "HEAD", "--max-patch-size", "200"], {NOT_CHECKED}


def _fixed(name: str):
    def case(ws):
        ws.init()
        return ["--diff", str(DATA / name)], {EXIT_2}
    return case


case_bad_octal_escape = _fixed("bad_octal_escape.patch")
case_octal_escape_over_377 = _fixed("octal_escape_over_377.patch")
case_truncated_hunk = _fixed("truncated_hunk.patch")
case_hunk_without_file_header = _fixed("hunk_without_file_header.patch")
case_cover_letter_only = _fixed("cover_letter_only.mbox")


def case_binary_noise(ws):
    ws.init()
    noise = bytes((i * 97 + 13) % 256 for i in range(4096))
    return ["--diff", str(ws.write("noise.bin", noise))], {EXIT_2}


CASES = {name[len("case_"):]: build for name, build in sorted(globals().items())
         if name.startswith("case_")}

# make check's budget (bench/make_check.md): each case is a check process
# of its own, about a second of cpu.  These run under make test only; each
# is another input form of a way that the case named beside it, kept in
# make check, takes through the same reader (tiers.full_tier_only).
FULL_TIER_CASES = {
    "unidiff_zero_with_tree": "unidiff_zero_inside_a_long_file",
    "mail_with_crlf_headers_and_lf_body": "mail_with_every_other_line_crlf",
    "mime_diff_in_a_base64_text_part": "mime_diff_in_a_base64_attachment",
    "mime_whole_body_base64": "mime_diff_in_a_base64_attachment",
    "normal_diff_after_unified": "context_diff_after_unified",
    "indented_diff_after_unified": "context_diff_after_unified",
    "mbox_adds_legacy_then_converts": "mbox_adds_legacy_then_converts_with_tree",
    "hunk_header_names_another_structure": "hunk_header_names_a_function",
    "rename_inc_to_c_patch_with_tree": "rename_inc_to_c_bare",
    "copy_c_to_c_patch_with_tree": "copy_c_to_c_bare",
    "new_c_includes_an_inc_of_the_tree": "new_c_includes_a_new_inc",
    "new_c_includes_an_inc_patch_with_tree": "new_c_includes_a_new_inc",
    "new_c_includes_an_inc_bare": "new_c_includes_a_new_inc",
    "new_symlink_patch_with_tree": "new_symlink_bare",
    "sha256_commit": "sha256_range_commit_by_commit",
    "shallow_clone_range_inside_its_history": "shallow_clone_boundary",
    "have_unlocked_ioctl_test_renamed": "have_unlocked_ioctl_renamed_bare",
    "have_unlocked_ioctl_renamed_patch_with_tree": "have_unlocked_ioctl_renamed_bare",
    "have_unlocked_ioctl_undefined_bare": "have_unlocked_ioctl_undefined",
    "hunk_claims_line_100_million": "hunk_claims_line_100_million_with_tree",
    "commit_over_the_size_limit": "patch_over_the_size_limit",
}


def _snapshot(root: Path) -> dict[str, tuple]:
    """Every path under ROOT but tmp/, with what a write would change."""
    found = {}
    for directory, dirs, files in os.walk(root):
        rel = os.path.relpath(directory, root)
        if rel == "tmp" or rel.startswith("tmp" + os.sep):
            dirs[:] = []
            continue
        for name in files + [d for d in dirs if os.path.islink(os.path.join(directory, d))]:
            path = os.path.join(directory, name)
            st = os.lstat(path)
            found[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns, st.st_mode)
        found[rel + "/"] = (os.lstat(directory).st_mtime_ns,)
    return found


def _allowed(key: str) -> bool:
    """The two files check keeps across runs, made from the rules and
    spatch (never from the input), once, in the user's cache: the macro
    builtins spatch reads, from its standard.h and the rules' macro file
    (spatch/macro_builtins.py), and the copy of the conversion rule that
    names its parts by absolute path (spatch/rule_parts.py)."""
    return key in ("cache/", "cache/ioctl-rework/", "cache/ioctl-rework/builtins/",
                   "cache/ioctl-rework/rules/") or \
        re.fullmatch(r"cache/ioctl-rework/builtins/standard-\w+\.h", key) is not None or \
        re.fullmatch(r"cache/ioctl-rework/rules/ioctl_to_unlocked_ioctl-\w+\.cocci", key) is not None


def run_check(ws: Workspace, args: list[str], extra_env: dict | None = None,
              timeout: int = 600) -> subprocess.CompletedProcess:
    stdin = None
    if "<" in args:
        at = args.index("<")
        stdin, args = Path(args[at + 1]).read_bytes(), args[:at]
    # The workspace is no kernel tree: without a kernel named (--kdir), no headers.
    kernel = [] if {"--kdir", "--kernel-headers"} & set(args) else ["--no-kernel-headers"]
    return subprocess.run([sys.executable, str(ENTRY), "check", *kernel, *args], cwd=ws.tree,
                          env={**ws.env, **(extra_env or {})}, input=stdin,
                          capture_output=True, check=False, timeout=timeout)


class HostileSetTest(unittest.TestCase):
    """One test per case; see the module doc for what each must do."""

    def check_case(self, build) -> None:
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-hostile.") as tmp:
            ws = Workspace(Path(tmp))
            args, allowed = build(ws)
            before = _snapshot(ws.root)
            proc = run_check(ws, args)
            out = proc.stdout.decode(errors="replace")
            err = proc.stderr.decode(errors="replace")
            said = f"check {' '.join(args)}: exit {proc.returncode}\n{out}\n{err}"
            self.assertNotIn("Traceback", out + err, said)
            self.assertIn(proc.returncode, (1, 2), "a false negative: " + said)
            if proc.returncode == 2:
                self.assertIn(EXIT_2, allowed, said)
                self.assertEqual(out, "", said)
                self.assertRegex(err, r"^ioctl-rework check: \S", said)
            else:
                found = set(re.findall(r"^ERROR:(\w+):", out, re.M))
                self.assertTrue(found & allowed, f"want one of {sorted(allowed)}: " + said)
                if BY_GCC in allowed:
                    self.assertEqual(found, {LEGACY_IOCTL}, said)
            self.assertEqual(list((ws.root / "tmp").iterdir()), [],
                             "check left files in its TMPDIR: " + said)
            after = _snapshot(ws.root)
            changed = sorted(k for k in set(before) | set(after)
                             if before.get(k) != after.get(k) and not _allowed(k))
            self.assertEqual(changed, [], "check wrote outside its scratch directory: "
                             + said)

    def test_the_set_is_large_enough(self):
        self.assertGreaterEqual(len(CASES), 40)


    def test_each_case_of_make_test_only_names_one_make_check_keeps(self):
        self.assertLessEqual(set(FULL_TIER_CASES), set(CASES))
        self.assertFalse(set(FULL_TIER_CASES.values()) & set(FULL_TIER_CASES))
        self.assertLessEqual(set(FULL_TIER_CASES.values()), set(CASES))


for _name, _build in CASES.items():
    _test = lambda self, build=_build: self.check_case(build)
    if _name in FULL_TIER_CASES:
        _test = full_tier_only(f"as {FULL_TIER_CASES[_name]}")(_test)
    setattr(HostileSetTest, f"test_{_name}", _test)


class BoundedTest(unittest.TestCase):
    def test_a_hunk_claiming_line_100_million_costs_what_the_patch_costs(self):
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-hostile.") as tmp:
            ws = Workspace(Path(tmp)).init()
            probe = ("import resource, subprocess, sys, time\n"
                     "start = time.monotonic()\n"
                     "subprocess.run(sys.argv[1:], capture_output=True)\n"
                     "print(time.monotonic() - start,"
                     " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
            proc = subprocess.run([sys.executable, "-c", probe, sys.executable, str(ENTRY),
                                   "check", "--no-kernel-headers",
"--diff", str(DATA / "claims_line_100m.patch")],
                                  cwd=ws.tree, env=ws.env, capture_output=True, text=True,
                                  check=True, timeout=600)
        seconds, kilobytes = proc.stdout.split()
        # A rebuilt file of 100,000,000 lines would take gigabytes and minutes.
        self.assertLess(int(kilobytes), 300_000, proc.stdout)
        self.assertLess(float(seconds), 120, proc.stdout)


class SignalTest(unittest.TestCase):
    """SIGTERM and SIGINT stop a check at once: every child killed (a fake
    spatch that never ends, with a child of its own), the scratch
    directory removed.  After SIGKILL, which check cannot catch, its
    watchdog does both (children.py)."""

    def stop_with(self, signum: int) -> None:
        with tempfile.TemporaryDirectory(prefix="ioctl-rework-hostile.") as tmp:
            ws = Workspace(Path(tmp)).init()
            ws.commit("add thermo", {"drivers/misc/thermo.c": LEGACY})
            pids = ws.root / "pids"
            fake = ws.root / "spatch"
            fake.write_text("#!/bin/sh\ncase \"$*\" in *--version*) "
                            "echo 'spatch version 1.1.1'; exit 0;; esac\n"
                            f"echo $$ >> {pids}\nsleep 600 &\necho $! >> {pids}\nwait\n")
            fake.chmod(0o755)
            proc = subprocess.Popen([sys.executable, str(ENTRY), "check", "--no-kernel-headers",
                                     "--git", "HEAD"],
                                    cwd=ws.tree, env={**ws.env, "SPATCH": str(fake)},
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and (
                    not pids.exists() or len(pids.read_text().split()) < 2):
                time.sleep(0.2)
            self.assertTrue(pids.exists(), "the fake spatch never started")
            time.sleep(0.5)
            started = time.monotonic()
            proc.send_signal(signum)
            out, err = proc.communicate(timeout=60)
            took = time.monotonic() - started
            children = [int(p) for p in pids.read_text().split()]
            # The watchdog acts once check's end closes its pipe: give it a moment.
            while time.monotonic() < started + 20 and (
                    any(_alive(p) for p in children) or any((ws.root / "tmp").iterdir())):
                time.sleep(0.1)
            alive = [p for p in children if _alive(p)]
            for pid in alive:                   # leave nothing behind, even on failure
                os.kill(pid, signal.SIGKILL)
            self.assertNotIn(b"Traceback", err)
            if signum == signal.SIGKILL:
                self.assertEqual(proc.returncode, -signum, err)
            else:
                self.assertEqual(proc.returncode, 128 + signum, err)
                self.assertIn(f"stopped by {signal.Signals(signum).name}".encode(), err)
            self.assertLess(took, 20)
            self.assertEqual(alive, [], f"children left running: {alive}")
            self.assertEqual(list((ws.root / "tmp").iterdir()), [])

    def test_sigterm(self):
        self.stop_with(signal.SIGTERM)

    def test_sigint(self):
        self.stop_with(signal.SIGINT)

    def test_sigkill(self):
        self.stop_with(signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


if __name__ == "__main__":
    unittest.main()

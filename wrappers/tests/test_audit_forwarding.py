"""audit lists the forwarding sites (calls and tests through a file's
->ioctl, f_op_ioctl_forwarding.cocci): file:line, the expression, and what
convert will do with each, in every format that lists findings."""

import csv
import io
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework import settings
from ioctl_rework.audit import formats
from ioctl_rework.audit import scan as audit
from ioctl_rework.audit.findings import Kind
from ioctl_rework.audit.report import read_forwarding_report
from ioctl_rework.cache import Cache
from ioctl_rework.spatch import runner as spatch

HAVE_SPATCH = shutil.which(spatch.SPATCH) is not None

STACK = """#include <linux/fs.h>

static int up_ioctl(struct inode *inode, struct file *file,
\t\t    unsigned int cmd, unsigned long arg)
{
\tstruct file *lower = file->private_data;

\tif (!lower->f_op || !lower->f_op->ioctl)
\t\treturn -ENOTTY;
\treturn lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);
}

static struct file_operations up_fops = {
\t.ioctl\t\t= up_ioctl,
};
"""
# No file_operations named: only the call says the file matters.
RELAY = """int relay_to(struct file *lower, struct inode *inode,
\t     unsigned int cmd, unsigned long arg)
{
\treturn lower->f_op->ioctl(inode, lower, cmd, arg);
}
"""
PROBE = """#include <linux/fs.h>

int can_forward(struct file *lower)
{
\treturn lower->f_op->ioctl != NULL;
}
"""


class ReadForwardingReportTest(unittest.TestCase):
    def test_each_line_is_a_site_with_what_convert_does(self):
        found = read_forwarding_report(
            "a.c:10: up_ioctl: forward: calls ->unlocked_ioctl\n"
            "a.c:8: up_ioctl: forward: tests ->unlocked_ioctl\n"
            "b.c:4: relay_to: forward: passes inode, not the inode of lower, which "
            "->unlocked_ioctl cannot pass on: refused; convert it by hand\n"
            "noise that is no report line\n")
        self.assertEqual([(f.file, f.line, f.kind, f.handler, f.effort) for f in found],
                         [("a.c", 10, Kind.FORWARDING, "up_ioctl", "auto-forward"),
                          ("a.c", 8, Kind.FORWARDING, "up_ioctl", "auto-forward"),
                          ("b.c", 4, Kind.FORWARDING, "relay_to", "manual")])
        self.assertIn("convert leaves every file of its run as it was", found[2].reason)
        self.assertEqual(found[0].reason, "calls ->unlocked_ioctl")


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class AuditForwardingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="audit-forwarding-"))
        for name, text in (("stack.c", STACK), ("relay.c", RELAY), ("probe.c", PROBE)):
            (cls.tmp / name).write_text(text)
        cls.result = audit.audit([cls.tmp], jobs=2, cache=Cache(None), compat_classes=False)
        cls.sites = sorted((Path(f.file).name, f.line, f.handler, f.effort, f.expression)
                           for f in cls.result.findings if f.kind is Kind.FORWARDING)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_every_site_with_its_expression_and_effort(self):
        self.assertEqual(self.sites, [
            ("probe.c", 5, "can_forward", "manual", "return lower->f_op->ioctl != NULL;"),
            ("relay.c", 4, "relay_to", "manual",
             "return lower->f_op->ioctl(inode, lower, cmd, arg);"),
            ("stack.c", 8, "up_ioctl", "auto-forward",
             "if (!lower->f_op || !lower->f_op->ioctl)"),
            ("stack.c", 10, "up_ioctl", "auto-forward",
             "return lower->f_op->ioctl(lower->f_dentry->d_inode, lower, cmd, arg);"),
        ])

    def render(self, fmt: str) -> str:
        return formats.render([self.result], fmt).decode()

    def test_text(self):
        lines = self.render("text").splitlines()
        relay = next(line for line in lines if "relay.c:4:" in line)
        self.assertIn("forwarding: relay_to: `return lower->f_op->ioctl(inode, lower, cmd, "
                      "arg);` [manual: passes inode", relay)
        stack = next(line for line in lines if "stack.c:8:" in line)
        self.assertIn("[auto-forward: tests ->unlocked_ioctl]", stack)

    def test_json(self):
        tree = json.loads(self.render("json"))["trees"][0]
        self.assertEqual(tree["counts"]["forwarding"], 4)
        sites = [f for f in tree["findings"] if f["kind"] == "forwarding"]
        self.assertEqual(sorted((Path(f["file"]).name, f["line"], f["expression"])
                                for f in sites)[0],
                         ("probe.c", 5, "return lower->f_op->ioctl != NULL;"))

    def test_csv(self):
        rows = list(csv.DictReader(io.StringIO(self.render("csv"))))
        sites = sorted((Path(r["file"]).name, r["line"], r["effort"], r["expression"])
                       for r in rows if r["kind"] == "forwarding")
        self.assertEqual(sites[1], ("relay.c", "4", "manual",
                                    "return lower->f_op->ioctl(inode, lower, cmd, arg);"))

    def test_sarif(self):
        run = json.loads(self.render("sarif"))["runs"][0]
        self.assertIn("forwarding", [r["id"] for r in run["tool"]["driver"]["rules"]])
        sites = [r for r in run["results"] if r["ruleId"] == "forwarding"]
        self.assertEqual(len(sites), 4)
        self.assertEqual({r["level"] for r in sites}, {"warning"})
        self.assertTrue(any("`return lower->f_op->ioctl(inode, lower, cmd, arg);`"
                            in r["message"]["text"] for r in sites))

    def test_html_and_markdown(self):
        page = self.render("html")
        self.assertIn("<th>expression</th>", page.replace(' class="sortable"', ""))
        self.assertIn("return lower-&gt;f_op-&gt;ioctl(inode, lower, cmd, arg);", page)
        self.assertIn("| return lower-\\>f\\_op-\\>ioctl\\(inode, lower, cmd, arg\\); | manual |",
                      self.render("markdown"))


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class AuditForwardingLegacyTargetTest(unittest.TestCase):
    """On a target that still has .ioctl convert writes the fallback (the
    forwarding rule's -D legacy_ioctl): audit reports what convert writes
    there, not what it writes for a target without .ioctl."""

    def audit(self, target: str):
        with tempfile.TemporaryDirectory(prefix="audit-forwarding-") as tmp:
            (Path(tmp) / "stack.c").write_text(STACK)
            result = audit.audit([Path(tmp)], jobs=1, cache=Cache(None), compat_classes=False,
                                 target=settings.Target.parse(target))
        return sorted((f.line, f.effort, f.reason) for f in result.findings
                      if f.kind is Kind.FORWARDING)

    def test_legacy_target_reports_the_fallback(self):
        for target in ("2.6.11", "2.6.20", "2.6.35"):
            with self.subTest(target=target):
                self.assertEqual(self.audit(target), [
                    (8, "auto-forward", "tests ->unlocked_ioctl or ->ioctl"),
                    (10, "auto-forward", "calls ->unlocked_ioctl through forward_ioctl(), or "
                     "->ioctl under the BKL where the lower fops has no ->unlocked_ioctl")])

    def test_target_without_ioctl_reports_the_plain_call(self):
        for target in ("2.6.36", "6.1"):
            with self.subTest(target=target):
                self.assertEqual(self.audit(target), [
                    (8, "auto-forward", "tests ->unlocked_ioctl"),
                    (10, "auto-forward", "calls ->unlocked_ioctl")])


if __name__ == "__main__":
    unittest.main()

"""The small things of audit's reports: what MAINTAINERS says is kept and
shown as written, file names are escaped or encoded, files follow the umask."""

import csv
import io
import json
import os
import stat
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import formats
from ioctl_rework.audit.scan import AuditResult, SkippedFile
from ioctl_rework.audit.findings import Finding, Kind
from ioctl_rework.audit.formats import charts
from ioctl_rework.patches.maintainers import Maintainers, parse

DATA = Path(__file__).resolve().parent / "test_data" / "audit"


def result_with(file: str, subsystem: str = "CHAR DRIVERS",
                maintainers: tuple[str, ...] = ()) -> AuditResult:
    finding = Finding(file=file, line=33, kind=Kind.LEGACY_IOCTL, struct="thermo_fops",
                      handler="thermo_ioctl", subsystem=subsystem, maintainers=maintainers,
                      effort="auto-pushdown")
    return AuditResult([finding], [SkippedFile(file, "spatch timed out after 120 s")],
                       None, "2.6.30")


class OldMaintainersTest(unittest.TestCase):
    def test_p_lines_are_kept_with_their_address(self):
        sections = parse((DATA / "MAINTAINERS-2.6").read_text())
        self.assertEqual([s.contacts for s in sections], [
            ("Phil Blundell <philb@example.org>", "linux-parport@example.org"),
            ("Wim Van Sebroeck <wim@example.org>",)])

    def test_a_2_6_30_section_with_f_lines_names_its_people(self):
        text = ("WATCHDOG DEVICE DRIVERS\nP:\tWim Van Sebroeck\nM:\twim@example.org\n"
                "L:\twatchdog@example.org\nF:\tdrivers/watchdog/\nS:\tMaintained\n\n"
                "OLD DRIVER\nP:\tOne Person\nP:\tAnother Person\nM:\tboth@example.org\n"
                "F:\tdrivers/char/old.c\n")
        maintainers = Maintainers(parse(text))
        (section,) = maintainers.lookup("drivers/watchdog/wdt.c")
        self.assertEqual(section.contacts, ("Wim Van Sebroeck <wim@example.org>",
                                            "watchdog@example.org"))
        # Names and addresses that do not pair up are all kept, as written.
        (section,) = maintainers.lookup("drivers/char/old.c")
        self.assertEqual(section.contacts, ("One Person", "Another Person", "both@example.org"))


class EscapedTest(unittest.TestCase):
    TITLE = "*_ROBUST <FOO> [BAR] $2$ `X` | #1"

    def test_markdown_shows_maintainers_text_as_written(self):
        text = formats.render([result_with("drivers/char/a|b_c.c", self.TITLE)],
                              "markdown").decode()
        row = next(line for line in text.splitlines() if "thermo" in line)
        self.assertEqual(row, "| `drivers/char/a\\|b_c.c` | 33 | legacy-ioctl | thermo\\_fops | "
                              "thermo\\_ioctl |  | auto-pushdown |  | \\*\\_ROBUST \\<FOO\\> "
                              "\\[BAR\\] \\$2\\$ \\`X\\` \\| \\#1 |")

    def test_html_escapes_maintainers_text(self):
        page = formats.render([result_with("drivers/char/x.c", "<script>alert(1)</script>",
                                           ("A <a@example.org>",))], "html").decode()
        self.assertNotIn("<script>alert", page)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt;", page)
        self.assertIn("A &lt;a@example.org&gt;", page)

    def test_chart_labels_are_not_mathtext(self):
        self.assertEqual(charts._plain("$2$ LINES"), "\\$2\\$ LINES")
        png = charts.subsystem_chart([("$2$ $\\frac{", {k: 1 for k in Kind})], "$x")
        self.assertTrue(png.startswith(b"\x89PNG"))

    def test_a_newline_in_a_file_name_is_escaped_in_every_text_format(self):
        results = [result_with("drivers/char/two\nlines.c")]
        for fmt in ("text", "markdown", "html"):
            with self.subTest(fmt):
                out = formats.render(results, fmt).decode().replace("&quot;", '"')
                self.assertIn('"drivers/char/two\\nlines.c"', out)
                self.assertNotIn("two\nlines", out)
        doc = json.loads(formats.render(results, "json"))
        self.assertEqual(doc["trees"][0]["findings"][0]["file"], "drivers/char/two\nlines.c")
        # CSV quotes a cell itself: the name stays plain (issue 24), one row still.
        rows = list(csv.DictReader(io.StringIO(formats.render(results, "csv").decode())))
        self.assertEqual([row["file"] for row in rows], ["drivers/char/two\nlines.c"])

    def test_sarif_uris_are_percent_encoded(self):
        name = os.fsdecode(b"drivers/char/caf\xe9 two.c")
        doc = json.loads(formats.render([result_with(name)], "sarif"))
        run = doc["runs"][0]
        self.assertEqual(run["results"][0]["locations"][0]["physicalLocation"]
                         ["artifactLocation"]["uri"], "drivers/char/caf%E9%20two.c")
        notification = run["invocations"][0]["toolExecutionNotifications"][0]
        self.assertEqual(notification["locations"][0]["physicalLocation"]
                         ["artifactLocation"]["uri"], "drivers/char/caf%E9%20two.c")


class UmaskTest(unittest.TestCase):
    def test_output_files_follow_the_umask(self):
        for mask, mode in ((0o022, 0o644), (0o027, 0o640), (0o077, 0o600)):
            with self.subTest(oct(mask)), tempfile.TemporaryDirectory() as tmp:
                old = os.umask(mask)
                try:
                    formats.write([result_with("drivers/char/x.c")], "text",
                                  Path(tmp) / "report.txt")
                finally:
                    os.umask(old)
                self.assertEqual(stat.S_IMODE((Path(tmp) / "report.txt").stat().st_mode), mode)

    def test_a_rewritten_report_keeps_its_mode(self):
        with tempfile.TemporaryDirectory() as tmp:
            report = Path(tmp) / "report.txt"
            report.write_text("old\n")
            report.chmod(0o664)
            formats.write([result_with("drivers/char/x.c")], "text", report)
            self.assertEqual(stat.S_IMODE(report.stat().st_mode), 0o664)


if __name__ == "__main__":
    unittest.main()

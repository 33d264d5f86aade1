"""Tests for the report formats and the trend, on hand-made audit results."""

import csv
import io
import json
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import formats
from ioctl_rework.audit import trend
from ioctl_rework.audit.scan import AuditResult, SkippedFile
from ioctl_rework.audit.findings import Finding, Kind

OLD_TREE, NEW_TREE = Path("/trees/linux-2.6.9"), Path("/trees/linux-2.6.11")


def _finding(file, line, kind, handler, **extra) -> Finding:
    base = {"struct": handler.replace("ioctl", "fops"), "subsystem": "CHAR DRIVERS",
            "maintainers": ("C <c@example.org>", "char@example.org")}
    base.update(extra)
    return Finding(file=file, line=line, kind=kind, handler=handler, **base)


def two_versions() -> list[AuditResult]:
    old = AuditResult([
        _finding("drivers/char/lp.c", 600, Kind.LEGACY_IOCTL, "lp_ioctl",
                 effort="auto-pushdown", uses_inode=True),
        _finding("drivers/char/rtc.c", 800, Kind.LEGACY_IOCTL, "rtc_ioctl",
                 effort="manual", reason="the inode parameter is written at line 790"),
        _finding("sound/oss/dsp.c", 90, Kind.LEGACY_IOCTL, "dsp_ioctl",
                 effort="auto-wrapper", subsystem="OSS", maintainers=()),
    ], [SkippedFile("drivers/char/big.c", "spatch timed out after 120 s")],
        OLD_TREE, "2.6.9")
    new = AuditResult([
        # rtc moved 12 lines down: still the same finding.
        _finding("drivers/char/rtc.c", 812, Kind.LEGACY_IOCTL, "rtc_ioctl",
                 effort="manual", reason="the inode parameter is written at line 802"),
        _finding("sound/oss/dsp.c", 91, Kind.LEGACY_IOCTL, "dsp_ioctl",
                 effort="auto-wrapper", subsystem="OSS", maintainers=()),
        _finding("drivers/char/lp.c", 610, Kind.MISSING_COMPAT, "lp_ioctl"),
        _finding("drivers/char/lp.c", 560, Kind.BKL_IN_UNLOCKED, "lp_ioctl"),
    ], [], NEW_TREE, "2.6.11")
    return [old, new]


class TrendTest(unittest.TestCase):
    def setUp(self):
        self.trend = trend.build(two_versions())

    def test_counts_per_version(self):
        self.assertEqual([row.label for row in self.trend.rows], ["2.6.9", "2.6.11"])
        self.assertEqual(self.trend.rows[0].counts[Kind.LEGACY_IOCTL], 3)
        self.assertEqual(self.trend.rows[1].counts[Kind.LEGACY_IOCTL], 2)
        self.assertEqual(self.trend.rows[1].counts[Kind.MISSING_COMPAT], 1)
        self.assertEqual(self.trend.rows[1].total, 4)

    def test_new_and_fixed_match_by_file_and_handler(self):
        change = self.trend.changes[0]
        self.assertEqual((change.before, change.after), ("2.6.9", "2.6.11"))
        self.assertEqual([(f.kind, f.file) for f in change.fixed],
                         [(Kind.LEGACY_IOCTL, "drivers/char/lp.c")])
        self.assertEqual(sorted(f.kind.value for f in change.new),
                         ["bkl-in-unlocked", "missing-compat"])

    def test_by_subsystem(self):
        table = trend.by_subsystem(two_versions()[0].findings)
        self.assertEqual([name for name, _ in table], ["CHAR DRIVERS", "OSS"])
        self.assertEqual(table[0][1][Kind.LEGACY_IOCTL], 2)


class FormatTest(unittest.TestCase):
    def render(self, fmt: str, results=None) -> str:
        return formats.render(results or two_versions(), fmt).decode()

    def test_text(self):
        text = self.render("text")
        self.assertIn("drivers/char/lp.c:600: legacy-ioctl: lp_fops: .ioctl = lp_ioctl "
                      "[auto-pushdown; uses inode]", text)
        self.assertIn("CHAR DRIVERS (2)\n  C <c@example.org>, char@example.org", text)
        self.assertIn("drivers/char/big.c: skipped: spatch timed out after 120 s", text)
        self.assertIn("2.6.9 -> 2.6.11: 2 new, 1 fixed", text)
        # legacy-ioctl, missing-compat, bkl-in-unlocked, enoioctlcmd-unlocked, forwarding, total
        self.assertRegex(text, r"\n2\.6\.9 +3 +0 +0 +0 +0 +3\n")

    def test_json_round_trip(self):
        value = json.loads(self.render("json"))
        self.assertEqual([t["version"] for t in value["trees"]], ["2.6.9", "2.6.11"])
        first = Finding.from_json(value["trees"][0]["findings"][0])
        self.assertEqual(first, two_versions()[0].findings[0])
        self.assertEqual(value["trend"]["changes"][0]["fixed"][0]["handler"], "lp_ioctl")

    def test_sarif_is_the_same_after_from_json(self):
        from ioctl_rework.audit.report import load_json
        with tempfile.TemporaryDirectory() as tmp:
            saved = Path(tmp) / "audit.json"
            saved.write_text(self.render("json"))
            self.assertEqual(self.render("sarif", load_json(saved)), self.render("sarif"))

    def test_csv_names_are_plain_and_compat_columns_are_there(self):
        odd = AuditResult([_finding('drivers/char/a "b",c.c', 1, Kind.MISSING_COMPAT, "h",
                                    compat_class="translated", compat_detail="d",
                                    compat_source="fs/compat_ioctl.c:3 HANDLE_IOCTL")],
                          [], Path("/trees/linux-2.6.20"), "2.6.20")
        row = next(csv.DictReader(io.StringIO(self.render("csv", [odd]))))
        self.assertEqual(row["file"], 'drivers/char/a "b",c.c')
        self.assertEqual((row["compat_class"], row["compat_source"], row["tree"]),
                         ("translated", "fs/compat_ioctl.c:3 HANDLE_IOCTL", "linux-2.6.20"))

    def test_two_trees_of_one_version_are_told_apart(self):
        a = AuditResult([], [], Path("/trees/linux-2.6.18"), "2.6.18")
        b = AuditResult([], [], Path("/trees/linux-2.6.18-vendor"), "2.6.18")
        built = trend.build([a, b])
        self.assertEqual([row.label for row in built.rows],
                         ["2.6.18 (linux-2.6.18)", "2.6.18 (linux-2.6.18-vendor)"])
        self.assertEqual((built.changes[0].before, built.changes[0].after),
                         ("2.6.18 (linux-2.6.18)", "2.6.18 (linux-2.6.18-vendor)"))
        self.assertIn("2.6.18 (linux-2.6.18) -> 2.6.18 (linux-2.6.18-vendor)",
                      self.render("text", [a, b]))

    def test_two_trees_of_one_version_and_directory_name_are_told_apart(self):
        # /a/linux and /b/linux, or one tree audited twice (before and after
        # a change): the directory name alone does not tell them apart.
        for names in (("linux", "linux"), ("linux-2.6.18", "linux-2.6.18")):
            with self.subTest(names):
                a = AuditResult([], [], Path("/a", names[0]), "2.6.18")
                b = AuditResult([], [], Path("/b", names[1]), "2.6.18")
                c = AuditResult([], [], Path("/c/linux-2.6.20"), "2.6.20")
                built = trend.build([a, b, c])
                labels = [row.label for row in built.rows]
                self.assertEqual(len(set(labels)), 3, labels)
                self.assertEqual(labels, [f"2.6.18 ({names[0]}, 1st)",
                                          f"2.6.18 ({names[1]}, 2nd)", "2.6.20"])
                self.assertIn(f"2.6.18 ({names[0]}, 1st) -> 2.6.18 ({names[1]}, 2nd)",
                              self.render("text", [a, b, c]))

    def test_csv(self):
        rows = list(csv.DictReader(io.StringIO(self.render("csv"))))
        self.assertEqual(len(rows), 7)
        self.assertEqual(rows[0]["version"], "2.6.9")
        self.assertEqual(rows[0]["uses_inode"], "yes")
        self.assertEqual(rows[0]["maintainers"], "C <c@example.org>; char@example.org")

    def test_markdown(self):
        text = self.render("markdown")
        self.assertIn("| 2.6.9 | 3 | 0 | 0 | 0 | 0 | 3 |", text)   # forwarding: 0
        self.assertIn("| `drivers/char/rtc.c` | 812 | legacy-ioctl |", text)

    def test_sarif(self):
        value = json.loads(self.render("sarif"))
        self.assertEqual(value["version"], "2.1.0")
        self.assertEqual(len(value["runs"]), 2)
        run = value["runs"][0]
        self.assertEqual([r["id"] for r in run["tool"]["driver"]["rules"]],
                         [k.value for k in Kind])
        result = run["results"][0]
        self.assertEqual(result["ruleId"], "legacy-ioctl")
        location = result["locations"][0]["physicalLocation"]
        self.assertEqual(location["artifactLocation"], {"uri": "drivers/char/lp.c",
                                                        "uriBaseId": "SRCROOT"})
        self.assertEqual(location["region"]["startLine"], 600)
        # No machine path: SRCROOT is the viewer's checkout.
        self.assertNotIn("originalUriBaseIds", run)
        self.assertNotIn("file://", self.render("sarif"))
        # rtc moved between versions but keeps its fingerprint.
        prints = [{r["locations"][0]["physicalLocation"]["region"]["startLine"]:
                   r["partialFingerprints"]["ioctlReworkIdentity/v1"] for r in run["results"]}
                  for run in value["runs"]]
        self.assertEqual(prints[0][800], prints[1][812])
        notes = run["invocations"][0]["toolExecutionNotifications"]
        self.assertEqual(notes[0]["message"]["text"], "skipped: spatch timed out after 120 s")

    def test_reports_name_trees_by_version_never_by_path(self):
        for fmt in ("text", "json", "csv", "markdown", "html"):
            with self.subTest(fmt):
                self.assertNotIn("/trees/", self.render(fmt))
        self.assertIn("== linux 2.6.9: 3 findings", self.render("text"))
        self.assertEqual([t["tree"] for t in json.loads(self.render("json"))["trees"]],
                         ["linux-2.6.9", "linux-2.6.11"])
        # Without a version, the directory's name.
        unversioned = AuditResult([], [], Path("/trees/vendor-kernel"))
        self.assertIn("== vendor-kernel: 0 findings", self.render("text", [unversioned]))
        self.assertIn("## vendor-kernel", self.render("markdown", [unversioned]))

    def test_single_tree_has_no_trend(self):
        text = self.render("text", two_versions()[:1])
        self.assertNotIn("== trend", text)
        self.assertNotIn("trend", json.loads(self.render("json", two_versions()[:1])))

    def test_json_reloads_into_the_same_report(self):
        from ioctl_rework.audit import scan as audit
        with tempfile.TemporaryDirectory() as tmp:
            saved = Path(tmp) / "audit.json"
            formats.write(two_versions(), "json", saved)
            again = audit.load_json(saved)
            self.assertEqual(formats.render(again, "text"), formats.render(two_versions(), "text"))
            saved.write_text("{}")
            with self.assertRaises(audit.AuditError):
                audit.load_json(saved)

    def test_write_is_atomic_and_reports_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            target = Path(tmp) / "report.json"
            formats.write(two_versions(), "json", target)
            self.assertEqual(json.loads(target.read_text())["tool"], "ioctl-rework")
            self.assertEqual([p.name for p in Path(tmp).iterdir()], ["report.json"])
            with self.assertRaises(formats.OutputError):
                formats.write(two_versions(), "json", Path(tmp) / "missing" / "r.json")


if __name__ == "__main__":
    unittest.main()

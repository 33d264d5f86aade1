"""Every spelling of a legacy entry, through audit, convert and check.

test_data/spellings/ holds one small driver per spelling (written for these
tests); `/* entry */` marks each legacy entry.  The three stages must see
the same entries: audit reports each as legacy-ioctl, convert converts it
or refuses it with a reason (and a second run over its output finds
nothing new and fails nothing), and check calls each one an
ERROR:LEGACY_IOCTL.
"""

import os
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import scan as audit
from ioctl_rework.convert import cli as convert
from ioctl_rework.convert import summary as summary_mod
from ioctl_rework.cache import Cache
from ioctl_rework.audit.findings import Effort, Kind
from ioctl_rework.convert.summary import HandlerStatus
from test_check_repo import GitRepo
from test_convert import parse_args

DATA = Path(__file__).resolve().parent / "test_data" / "spellings"
RULE_TESTS = Path(__file__).resolve().parents[2] / "semantic-patches" / "tests"
HAVE_SPATCH = shutil.which(os.environ.get("SPATCH", "spatch")) is not None

# file -> (fops as reported, handler as reported, converted?), per entry.
CONVERTED, REFUSED = True, False
EXPECTED = {
    "address.c": [("addr_fops", "addr_ioctl", CONVERTED)],
    "cast.c": [("cast_fops", "cast_ioctl", CONVERTED)],
    "array.c": [("arr_fops", "arr_ioctl", CONVERTED)],
    "typedef.c": [("tdef_fops", "tdef_ioctl", CONVERTED)],
    "runtime.c": [("ops", "rt_ioctl", CONVERTED)],
    "unlocked_shape.c": [("shape_fops", "shape_ioctl", CONVERTED)],
    "positional.c": [("pos_fops", "pos_ioctl", REFUSED)],
    "macro.c": [("mac_fops", "MAC(ioctl)", REFUSED)],
    "else_branch.c": [("two_fops", "two_ioctl", CONVERTED), ("two_fops", "two_ioctl", CONVERTED)],
}
REASONS = {
    "positional.c": "positional initializer",
    "macro.c": "named through a macro",
}
# audit runs the rule once per file: the entries convert reaches by one
# run per branch (convert_branches.py) are manual there, with this reason.
AUDIT_MANUAL = {"else_branch.c": "which spatch does not read"}


def entry_lines(path: Path) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if "/* entry */" in line]


def expected_entries() -> set[tuple]:
    """(file, line, fops, handler) of every marked entry."""
    found = set()
    for name, entries in EXPECTED.items():
        lines = entry_lines(DATA / name)
        assert len(lines) == len(entries), name
        found |= {(name, line, fops, handler)
                  for line, (fops, handler, _) in zip(lines, entries)}
    return found


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class SpellingsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="spellings-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.tree = self.tmp / "tree"
        shutil.copytree(DATA, self.tree)

    def audit_entries(self) -> dict[tuple, object]:
        result = audit.audit([self.tree], jobs=2, cache=Cache(None))
        self.assertEqual([s for s in result.skipped if not s.partial], [])
        return {(Path(f.file).name, f.line, f.struct, f.handler): f
                for f in result.findings if f.kind is Kind.LEGACY_IOCTL}

    def convert(self, *argv: str):
        # A scratch directory, no kernel tree: run without a kernel's headers.
        args = parse_args(["--no-cache", "--target", "2.6.20", "--no-kernel-headers", *argv, "--",
                           str(self.tree)])
        request = convert.request_from_args(args)
        result = convert.convert(request)
        if request.output is convert.Output.IN_PLACE:
            convert.write_in_place(result, request.root)
        return result

    def test_audit_reports_every_spelling_as_legacy_ioctl(self):
        found = self.audit_entries()
        self.assertEqual(set(found), expected_entries())
        for (name, line, fops, handler), finding in found.items():
            converted = dict((h, c) for _, h, c in EXPECTED[name])[handler]
            with self.subTest(file=name, line=line):
                if name in AUDIT_MANUAL:
                    self.assertEqual(finding.effort, Effort.MANUAL.value)
                    self.assertIn(AUDIT_MANUAL[name], finding.reason)
                elif converted:
                    self.assertIn(finding.effort, (Effort.AUTO_PUSHDOWN.value,
                                                   Effort.AUTO_WRAPPER.value))
                else:
                    self.assertEqual(finding.effort, Effort.MANUAL.value)
                    self.assertIn(REASONS[name], finding.reason)

    def test_convert_converts_or_refuses_every_spelling_and_a_rerun_finds_nothing_new(self):
        first = self.convert("--in-place")
        records = {(h.file, h.line, h.fops, h.handler): h for h in first.summary.handlers}
        self.assertEqual(set(records), expected_entries())
        for (name, line, _, handler), record in records.items():
            converted = dict((h, c) for _, h, c in EXPECTED[name])[handler]
            with self.subTest(file=name, line=line):
                if converted:
                    self.assertEqual(record.status, HandlerStatus.CONVERTED, record.reason)
                else:
                    self.assertEqual(record.status, HandlerStatus.SKIPPED)
                    self.assertIn(REASONS[name], record.reason)
        # No .ioctl entry is left in a converted file, and no cast either.
        for name, entries in EXPECTED.items():
            text = (self.tree / name).read_text()
            if all(converted for _, _, converted in entries):
                self.assertNotRegex(text, r"(?<!\w)ioctl\s*[=:]", name)
                self.assertNotIn("(void *)", text)
                self.assertRegex(text, r"unlocked_ioctl\s*= \w+[,;]")
        self.assertIn("->unlocked_ioctl = rt_ioctl;", (self.tree / "runtime.c").read_text())
        self.assertIn("ret = shape_ioctl(file, cmd, arg);",
                      (self.tree / "unlocked_shape.c").read_text())
        # A second run over the output: the refusals again, nothing else, no failure.
        converted_text = {p.name: p.read_bytes() for p in self.tree.iterdir()}
        second = self.convert("--in-place")
        self.assertEqual({p.name: p.read_bytes() for p in self.tree.iterdir()}, converted_text)
        again = {(h.file, h.line, h.fops, h.handler): h.status for h in second.summary.handlers}
        refused = {key for key in expected_entries()
                   if not dict((h, c) for _, h, c in EXPECTED[key[0]])[key[3]]}
        self.assertEqual(again, {key: HandlerStatus.SKIPPED for key in refused})
        self.assertEqual([f for f in second.summary.files if f.status.value == "failed"], [])
        # And audit agrees: only the refused entries are left.
        self.assertEqual(set(self.audit_entries()), refused)

    def test_check_calls_every_spelling_a_legacy_ioctl_error(self):
        with GitRepo() as repo:
            repo.commit("base", {"README": "a tree\n"})
            repo.commit("add drivers", {f"drivers/misc/{p.name}": p.read_text()
                                        for p in sorted(DATA.iterdir())})
            out = repo.run_cli("check", "--git", "HEAD")
        self.assertEqual(out.returncode, 1, out.stderr)
        shown = set(re.findall(r"^ERROR:LEGACY_IOCTL: .*\n#\d+: FILE: drivers/misc/([\w.]+):(\d+):",
                               out.stdout, re.M))
        self.assertEqual(shown, {(name, str(line)) for name, line, _, _ in expected_entries()})


@unittest.skipUnless(HAVE_SPATCH, "spatch is not installed")
class OtherChangesTest(unittest.TestCase):
    """Removed dead entries, deleted handlers and changed callers are in
    the JSON summary and in the text a person reads."""

    def test_summary_lists_what_changes_besides_handlers(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "tree"
            tree.mkdir()
            # The rule's own case (its report is dead_handler_and_callers_report.report.res;
            # the lines are its, one below the prototype of the helper it calls).
            case = RULE_TESTS / "dead_handler_and_callers_report.c"
            (tree / "sensor.c").write_text(case.read_text())
            args = parse_args(["--no-cache", "--target", "2.6.11", "--no-kernel-headers", "--",
                               str(tree)])
            result = convert.convert(convert.request_from_args(args))
        found = {(c.kind, c.line, c.handler, c.where) for c in result.summary.changes}
        self.assertEqual(found, {
            ("removed-entry", 47, "sensor_ioctl", "sensor_fops"),
            ("removed-entry", 52, "sensor_old_ioctl", "sensor_old_fops"),
            ("deleted-handler", 16, "sensor_ioctl", ""),
            ("changed-caller", 40, "valve_ioctl", "valve_compat_ioctl"),
        })
        data = summary_mod.to_json(result.summary)
        self.assertEqual(data["totals"]["changes"],
                         {"changed-caller": 1, "deleted-handler": 1, "removed-entry": 2})
        self.assertEqual(summary_mod.from_json(data).changes, result.summary.changes)
        text = summary_mod.text_report(result.summary)
        self.assertIn("deleted-handler: sensor.c:16: sensor_ioctl", text)
        self.assertIn("changed-caller: sensor.c:40: valve_ioctl (valve_compat_ioctl)", text)
        self.assertIn("removed-entry: sensor.c:47: sensor_ioctl (sensor_fops)", text)


if __name__ == "__main__":
    unittest.main()

"""Tests for the KTAP parser (ioctl_rework.fixture.ktap)."""

import unittest

from ioctl_rework.fixture import ktap

NESTED = """\
KTAP version 1
1..2
    KTAP version 1
    1..2
    # measured: 3
    ok 1 - first
    not ok 2 - second # SKIP no device
ok 1 - group
# before two
not ok 2 - two
"""


class ParseTest(unittest.TestCase):
    def test_nested_results_and_diagnostics(self):
        doc = ktap.parse(NESTED)
        self.assertEqual(doc.errors, [])
        self.assertEqual(doc.plan, 2)
        self.assertEqual([t.name for t in doc.tests], ["group", "two"])
        group = doc.tests[0]
        self.assertEqual([t.name for t in group.subtests], ["first", "second"])
        self.assertEqual(group.subtests[0].diagnostics, ["measured: 3"])
        self.assertIs(group.subtests[1].status, ktap.Status.SKIP)
        self.assertEqual(group.subtests[1].directive, "SKIP no device")
        self.assertEqual(doc.tests[1].diagnostics, ["before two"])
        self.assertIs(doc.tests[1].status, ktap.Status.NOT_OK)
        self.assertFalse(doc.passed)

    def test_walk_visits_every_result(self):
        names = [t.name for t in ktap.parse(NESTED).walk()]
        self.assertEqual(names, ["group", "first", "second", "two"])

    def test_text_before_the_version_line_is_ignored(self):
        doc = ktap.parse("noise\n[ 1.0] kernel says hi\nKTAP version 1\n1..1\nok 1 - a\n")
        self.assertEqual(doc.errors, [])
        self.assertTrue(doc.passed)

    def test_short_run_is_an_error(self):
        doc = ktap.parse("KTAP version 1\n1..3\nok 1 - a\n")
        self.assertEqual(doc.errors, ["end of output: planned 3 tests, saw 1"])
        self.assertFalse(doc.passed)

    def test_wrong_number_is_an_error(self):
        doc = ktap.parse("KTAP version 1\n1..2\nok 1 - a\nok 3 - b\n")
        self.assertIn("test number 3, expected 2", doc.errors[0])

    def test_output_that_stops_inside_a_subtest(self):
        doc = ktap.parse("KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n  ok 1 - a\n")
        self.assertTrue(any("inside a subtest" in e for e in doc.errors))
        self.assertEqual([t.name for t in doc.tests], ["a"])

    def test_no_version_line(self):
        self.assertEqual(ktap.parse("ok 1 - a\n").errors, ["no KTAP version line"])

    def test_bail_out(self):
        doc = ktap.parse("KTAP version 1\n1..2\nok 1 - a\nBail out! no devices\nok 2 - b\n")
        self.assertEqual(doc.bail_out, "no devices")
        self.assertEqual(len(doc.tests), 1)
        self.assertFalse(doc.passed)

    def test_carriage_returns_from_a_serial_line(self):
        doc = ktap.parse("KTAP version 1\r\n1..1\r\nok 1 - a\r\n")
        self.assertEqual((doc.errors, doc.tests[0].name), ([], "a"))

    def test_todo_directive(self):
        doc = ktap.parse("KTAP version 1\n1..1\nnot ok 1 - a # TODO later\n")
        self.assertIs(doc.tests[0].status, ktap.Status.TODO)
        self.assertTrue(doc.passed)


if __name__ == "__main__":
    unittest.main()

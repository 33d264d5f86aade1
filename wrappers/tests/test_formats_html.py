"""The html report in a real browser: headless Chromium renders it, and the
screenshot must show the tables and the charts; a click on a header must
sort the table."""

import html.parser
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ioctl_rework.audit import formats
from ioctl_rework.audit.formats.charts import COLOURS
from ioctl_rework.audit.findings import Kind

from test_formats import two_versions

CHROMIUM = shutil.which("chromium")


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def chromium(page: Path, *args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", *args, page.as_uri()],
            capture_output=True, text=True, timeout=120, check=False)


def pixels_near(image, rgb: tuple[int, int, int], tolerance: int = 6) -> int:
    """How many pixels of IMAGE (an RGB(A) float array) are close to RGB."""
    import numpy
    colour = numpy.array(rgb) / 255.0
    distance = numpy.abs(image[:, :, :3] - colour).max(axis=2)
    return int((distance <= tolerance / 255.0).sum())


class _Tables(html.parser.HTMLParser):
    """Cell texts of each table, by table id."""

    def __init__(self):
        super().__init__()
        self.tables, self.current, self.cell = {}, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.current = self.tables.setdefault(dict(attrs).get("id"), [])
        elif tag == "tr" and self.current is not None:
            self.current.append([])
        elif tag in ("td", "th") and self.current is not None:
            self.cell = ""

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.current[-1].append(self.cell)
            self.cell = None
        elif tag == "table":
            self.current = None


@unittest.skipUnless(_have_matplotlib(), "python3-matplotlib is not installed (make deps)")
class HtmlContentTest(unittest.TestCase):
    def test_self_contained(self):
        page = formats.render(two_versions(), "html").decode()
        self.assertEqual(page.count("data:image/png;base64,"), 3)   # trend + 2 subsystem
        self.assertNotIn("http://", page.replace("https://", ""))
        self.assertNotIn("<link", page)
        self.assertNotIn(" src=\"http", page)

    def test_compat_columns_and_a_table_that_fits_the_page(self):
        from dataclasses import replace
        results = two_versions()
        results[1].findings[2] = replace(results[1].findings[2], compat_class="translated",
                                         compat_detail="the table translates X",
                                         compat_source="fs/compat_ioctl.c:3 HANDLE_IOCTL")
        page = formats.render(results, "html").decode()
        self.assertIn("<th>compat class</th><th>compat reason</th><th>decided by</th>", page)
        self.assertIn("<td>translated</td><td>the table translates X</td>"
                      "<td>fs/compat_ioctl.c:3 HANDLE_IOCTL</td>", page)
        # Wide tables sit in a scroll box and wrap their cells.
        self.assertIn('<div class="scroll"><table class="sortable findings" id="findings-1">',
                      page)
        self.assertIn("overflow-wrap: anywhere", page)


@unittest.skipUnless(CHROMIUM and _have_matplotlib(), "chromium or matplotlib missing (make deps)")
class HtmlInBrowserTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.page = Path(cls.tmp.name) / "audit.html"
        formats.write(two_versions(), "html", cls.page)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_screenshot_shows_table_and_chart(self):
        from matplotlib import image
        shot = Path(self.tmp.name) / "shot.png"
        proc = chromium(self.page, f"--screenshot={shot}", "--window-size=1200,1600",
                        "--hide-scrollbars")
        self.assertTrue(shot.exists(), proc.stderr[-800:])
        picture = image.imread(str(shot))
        self.assertEqual(picture.shape[:2], (1600, 1200))
        # Table headers are drawn in their background colour...
        self.assertGreater(pixels_near(picture, (0xdd, 0xe4, 0xee)), 2000)
        # ...and the trend chart's legacy-ioctl bars in theirs.
        red = tuple(int(COLOURS[Kind.LEGACY_IOCTL][i:i + 2], 16) for i in (1, 3, 5))
        self.assertGreater(pixels_near(picture, red, tolerance=10), 1000)

    def test_header_click_sorts(self):
        # Simulate the reader's click on "line" of the 2.6.11 findings table.
        clicked = Path(self.tmp.name) / "clicked.html"
        clicked.write_text(self.page.read_text().replace(
            "</body>", "<script>document.querySelectorAll('#findings-1 th')[1].click();"
                       "document.querySelectorAll('#findings-1 th')[1].click();</script></body>"))
        proc = chromium(clicked, "--dump-dom")
        tables = _Tables()
        tables.feed(proc.stdout)
        rows = tables.tables.get("findings-1")
        self.assertIsNotNone(rows, proc.stderr[-800:])
        lines = [int(row[1]) for row in rows[1:]]
        self.assertEqual(lines, [812, 610, 560, 91])    # two clicks: descending
        self.assertEqual(tables.tables["trend"][1][:2], ["2.6.9", "3"])


if __name__ == "__main__":
    unittest.main()

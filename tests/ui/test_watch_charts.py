"""The Watch tab's charts (issue 26): painted with QPainter, cheap for every sample, right for odd curves."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys

from PySide6.QtGui import QImage

from explorer.ui.watch_charts import Chart, Line, WatchCharts, log_ticks, nice_ticks, reduced, tick_text


def test_ticks_are_round_numbers_covering_the_range() -> None:
    assert nice_ticks(0.0, 1.0) == [0.0, 0.25, 0.5, 0.75, 1.0]
    ticks = nice_ticks(-3.2, 97.0)
    assert ticks[0] >= -3.2 and ticks[-1] <= 97.0 and 3 <= len(ticks) <= 8
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ticks)}
    assert steps == {25.0}
    assert 0.0 in nice_ticks(-1.0, 1.0)  # never -1.1e-17
    assert nice_ticks(2.0, 2.0) == [2.0] and nice_ticks(math.nan, 1.0) == []
    assert log_ticks(0.5, 2e6) == [1.0, 100.0, 1e4, 1e6] and log_ticks(0.5, 200.0) == [1.0, 10.0, 100.0]
    assert tick_text(1e6, log=True) == "1e6" and tick_text(0.0) == "0" and tick_text(12345678.0) == "1.2e+07"


def test_a_long_curve_is_reduced_to_its_pixel_columns_and_keeps_its_spike() -> None:
    xs = [i * 0.25 for i in range(10_000)]
    ys: list[float | None] = [1.0] * 10_000
    ys[7_777] = 1e6  # one exploding step among 10,000
    ys[5_000] = None  # a NaN sample: a gap
    runs = reduced(xs, ys, 200)
    assert len(runs) == 2  # broken at the gap
    kept = [p for run in runs for p in run]
    assert len(kept) <= 4 * 201 and any(y == 1e6 for _, y in kept)
    assert kept[0] == (0.0, 1.0) and kept[-1] == (xs[-1], 1.0)
    assert reduced([0.0, 1.0], [1.0, 2.0], 200) == [[(0.0, 1.0), (1.0, 2.0)]]  # short curves untouched


def test_charts_paint_odd_curves(qtbot) -> None:
    charts = WatchCharts()
    qtbot.addWidget(charts)
    charts.resize(600, 300)
    odd = [
        Chart("loss", [Line([0.0, 0.25, 0.5], [1.0, None, math.inf], "#0072B2")], note="NaN or Inf"),
        Chart("‖w‖", [Line([0.0], [3.0], "#0072B2")], right="gradient", right_color="#D55E00"),
        Chart("lr", [Line([0.0, 1.0, 2.0], [1e-3, 1e-1, 1e3], "#0072B2"), Line([0.0, 1.0], [0.0, -1.0], "#999999",
                                                                                  dashed=True)], log=True),
        Chart("flat", [Line([1.0, 1.0], [0.0, 0.0], "#0072B2")]),
        Chart("nothing", [Line([], [], "#0072B2")]),
        Chart("histogram of w", bars=(0.0, 1.0, [1, 0, 3])),
        Chart("empty histogram", bars=(0.0, 1.0, [0, 0])),
    ]
    charts.set_charts(odd, "seconds since the run started")
    image = QImage(charts.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    charts.render(image)
    colors = {image.pixelColor(x, y).name() for x in range(600) for y in range(300)}
    assert {"#0072b2", "#d55e00"} <= colors  # the curves and the note were painted


def test_the_watch_tab_does_not_import_matplotlib() -> None:
    """Its charts cost milliseconds: no figure layout on the GUI thread for every sample (was 250-300 ms)."""
    code = ("import sys\nfrom PySide6.QtWidgets import QApplication\napp = QApplication([])\n"
            "import explorer.ui.watch_panel\nprint('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr

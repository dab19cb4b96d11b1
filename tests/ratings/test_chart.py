from hypothesis import given
from hypothesis import strategies as st

from ratings.core.chart import history_chart


def test_no_history_no_chart():
    assert history_chart([]) is None


def test_chart_starts_at_1500_and_marks_every_match():
    chart = history_chart([("01.03.", 1510.0), ("08.03.", 1490.0), ("15.03.", 1525.5)], width=600, height=220)
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    assert len(points) == 4 and len(chart.dots) == 3
    assert points[0][0] == 48.0 and points[-1][0] == 592.0  # left margin to right margin
    assert chart.baseline_y == points[0][1]  # the line starts on the 1500 baseline
    higher, lower = chart.dots[2], chart.dots[1]
    assert higher[1] < lower[1]  # a higher rating is drawn higher up
    assert [label for _x, label in chart.x_labels] == ["01.03.", "08.03.", "15.03."]


@given(st.lists(st.floats(800, 2500), min_size=1, max_size=300))
def test_every_point_lies_inside_the_plot(ratings):
    chart = history_chart([(str(i), r) for i, r in enumerate(ratings)])
    for x, y, _label, _value in chart.dots:
        assert 48.0 <= x <= chart.width - 8 and 8.0 <= y <= chart.height - 24
    assert len(chart.x_labels) <= 6

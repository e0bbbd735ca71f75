"""Figures fit for a paper (issue 24): what can be tested of them.

- no interval below zero on a log axis (the percentile bootstrap lies within the samples);
- one legend entry per label, also when sweeps are overlaid;
- no two tick labels' bounding boxes overlap (rendered with Agg, compared with
  ``get_window_extent``), on the narrow log ranges where matplotlib's default minor labels
  collide;
- titles and legends without internal ids;
- PNG, PDF and SVG by the file's suffix; a missing theorem constant is an error naming it.
"""

from __future__ import annotations

import csv
import io
import itertools

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import dptheory
from dptheory import plotting, registry
from dptheory.errors import UsageError


# ----------------------------------------------------------------------------- helpers
def _render(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def tick_label_boxes(fig):
    """Window extents of every visible, non-empty tick label, per axis."""
    renderer = _render(fig)
    out = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            boxes = [t.get_window_extent(renderer) for t in
                     axis.get_ticklabels(which="both")
                     if t.get_visible() and t.get_text().strip()
                     and ax.get_window_extent(renderer).expanded(1.5, 1.5).overlaps(
                         t.get_window_extent(renderer))]
            out.append((ax, axis, boxes))
    return out


def overlapping(boxes):
    return [(a, b) for a, b in itertools.combinations(boxes, 2) if a.overlaps(b)]


def all_texts(fig):
    texts = [fig._suptitle.get_text() if fig._suptitle else ""]
    for ax in fig.axes:
        texts += [ax.get_title(loc) for loc in ("left", "center", "right")]
        if ax.get_legend():
            texts += [t.get_text() for t in ax.get_legend().get_texts()]
    for leg in fig.legends:
        texts += [t.get_text() for t in leg.get_texts()]
    return texts


def legend_labels(fig):
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for leg in legends for t in leg.get_texts()]


def internal_ids():
    return [*registry.items(), *registry.algorithms()]


@pytest.fixture(scope="module")
def two_variable_sweep():
    return dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}),
                          {"n": [64, 128, 256], "eps": [0.5, 1.0]}, reps=6,
                          fixed={"delta": 0.0}, theorem="zhang2017.thm2.eps", progress=False)


# ----------------------------------------------------------------------------- intervals
def test_bootstrap_interval_stays_above_zero_where_normal_interval_does_not():
    # one large replicate among small ones: mean - 1.96 se is negative (computed by hand:
    # mean 2.5008, sd = 4.99893..., se 2.49947, mean - 1.96 se = -2.398)
    s = [0.001, 0.001, 0.001, 10.0]
    mean, se = np.mean(s), np.std(s, ddof=1) / 2
    assert mean - 1.96 * se < 0
    m, lo, hi = plotting.mean_interval(s)
    assert m == pytest.approx(2.50075)
    # a percentile interval of resampled means lies within [min, max] of the samples
    assert 0.001 <= lo <= m <= hi <= 10.0


def test_quantile_interval_brackets_the_sample_quantile():
    # 1..100: the 0.9-quantile (linear interpolation) is 1 + 0.9 * 99 = 90.1; resampled
    # quantiles stay within [min, max]
    s = np.arange(1.0, 101.0)
    q, lo, hi = plotting.quantile_interval(s, 0.9)
    assert q == pytest.approx(90.1)
    assert 1.0 <= lo < q < hi <= 100.0
    assert plotting.quantile_interval([3.0], 0.9) == (3.0, 3.0, 3.0)


def test_sweep_figure_intervals_never_below_zero_on_log_axis(two_variable_sweep):
    ax = two_variable_sweep.plot()
    assert ax.get_yscale() == "log"
    for bars in ax.containers:
        _, _, (ycol,) = bars.lines
        for seg in ycol.get_segments():
            assert np.all(seg[:, 1] > 0), seg


def test_log_axis_dropped_when_an_interval_reaches_zero():
    recs = [{"n": n, "m": v} for n in (10, 100) for v in (0.0, 0.0, 1.0)]
    ax = plotting.sweep_figure(recs, x="n", metric="m")
    assert ax.get_yscale() == "linear"


# ----------------------------------------------------------------------------- grouping
def test_two_variable_sweep_one_line_and_one_bound_per_group(two_variable_sweep):
    ax = two_variable_sweep.plot()
    assert len(ax.containers) == 2                       # one measured line per eps
    bounds = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert len(bounds) == 2                              # one bound per eps
    for bars in ax.containers:                           # each line sorted in n, no sawtooth
        xs = bars.lines[0].get_xdata()
        assert list(xs) == sorted(xs) and len(xs) == 3
    labels = legend_labels(ax.figure)
    assert r"$\epsilon$ = 0.5" in labels and r"$\epsilon$ = 1" in labels
    assert ax.get_xlabel() == "$n$"


def test_col_panels(two_variable_sweep):
    axes = two_variable_sweep.plot(x="n", hue=None, col="eps")
    assert [a.get_title() for a in axes] == [r"$\epsilon$ = 0.5", r"$\epsilon$ = 1"]


def test_unaccounted_varied_name_is_an_error():
    recs = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}),
                          {"n": [64, 128], "eps": [1.0], "delta": [0.0]}, reps=2,
                          progress=False)
    with pytest.raises(ValueError, match="also varies"):
        recs.plot(ax=plotting.new_axes())


# ----------------------------------------------------------------------------- legend
def test_unique_legend_labels_when_overlaid():
    ax = plotting.new_axes()
    for eps in (0.5, 1.0):
        r = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                           reps=3, fixed={"eps": eps, "delta": 0.0},
                           theorem="zhang2017.thm2.eps", progress=False)
        r.plot(ax=ax)
        r.plot(ax=ax)                                   # the same sweep twice: no new entry
    labels = legend_labels(ax.figure)
    assert len(labels) == len(set(labels)) == 4
    assert sum(r"$\epsilon$ = 0.5" in s for s in labels) == 2    # the parameter is named


# ----------------------------------------------------------------------------- ticks
@pytest.mark.parametrize("lo, hi", [(0.031, 0.07), (2.1, 9.0), (130, 900), (0.4, 3.0),
                                    (1e-4, 1e3)])
def test_no_overlapping_tick_labels_on_log_axes(lo, hi):
    ys = np.geomspace(lo, hi, 5)
    recs = [{"n": n, "m": y} for n, y in zip([64, 128, 256, 512, 1024], ys)]
    ax = plotting.sweep_figure(recs, x="n", metric="m")
    found = tick_label_boxes(ax.figure)
    for _, axis, boxes in found:
        assert not overlapping(boxes), (lo, hi, axis)
    yboxes = [b for _, axis, b in found if axis is ax.yaxis][0]
    assert len(yboxes) >= 2                             # still readable: at least two labels


def test_tick_overlap_check_has_power():
    # matplotlib's defaults on a narrow log range label minor ticks; on a short axis those
    # labels collide, and the check above sees it
    fig = Figure(figsize=(4, 1.2))
    ax = fig.add_subplot()
    ax.plot([1, 2], [0.031, 0.07])
    ax.set_yscale("log")
    found = tick_label_boxes(fig)
    assert any(overlapping(boxes) for _, axis, boxes in found if axis is ax.yaxis)


# ----------------------------------------------------------------------------- titles
def test_titles_and_legends_name_no_internal_id(two_variable_sweep):
    texts = all_texts(two_variable_sweep.plot().figure)
    ids = internal_ids()
    assert texts and not [t for t in texts for i in ids if i in t]
    assert any("6 replicates" in t for t in texts)          # the parameter line
    assert any("Theorem 2" in t for t in texts)


# ----------------------------------------------------------------------------- formats
@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"),
                                           (".svg", b"<?xml")])
def test_save_formats(tmp_path, suffix, magic):
    ax = plotting.sweep_figure([{"n": 10, "m": 1.0}, {"n": 100, "m": 0.5}], x="n", metric="m")
    path = plotting.save(ax.figure, tmp_path / f"f{suffix}")
    assert open(path, "rb").read(5).startswith(magic)


def test_save_refuses_unknown_suffix(tmp_path):
    with pytest.raises(ValueError, match="must end in one of"):
        plotting.save(Figure(), tmp_path / "f.jpg")


# ----------------------------------------------------------------------------- no fallback
def test_missing_constant_is_an_error_naming_it():
    # wang2020 Theorem 2's bound needs alpha and zeta, which logistic regression does not
    # certify (the pairing with zhang2017's algorithm only serves to make such a bound)
    with pytest.raises(UsageError, match=r"needs alpha, w20_zeta"):
        dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64]}, reps=2,
                       fixed={"eps": 1.0, "delta": 1e-5}, theorem="wang2020.thm2",
                       progress=False)


def test_stated_rate_only_when_asked_and_labelled():
    r = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                       reps=2, fixed={"eps": 1.0, "delta": 0.0}, theorem="zhang2017.thm2.eps",
                       constants="stated-rate", progress=False)
    labels = legend_labels(r.plot().figure)
    assert any("stated rate" in s and "constants set to 1" in s for s in labels)
    assert not any("bound of" in s for s in labels)
    # a stated rate that needs a value nothing gives is an error too, not an empty plot
    with pytest.raises(UsageError, match="stated rate of wang2020.thm2 cannot be drawn"):
        dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64]}, reps=2,
                       fixed={"eps": 1.0, "delta": 1e-5}, theorem="wang2020.thm2",
                       constants="stated-rate", progress=False)
    with pytest.raises(UsageError, match="constants must be one of"):
        dptheory.sweep("zhang2017.alg1", "logistic-ridge", {"n": [64]}, constants="ones")


def test_constants_given_with_at_draw_the_bound():
    r = dptheory.sweep("zhang2017.alg1", ("logistic-ridge", {"d": 3}), {"n": [64, 128]},
                       reps=2, fixed={"eps": 1.0, "delta": 1e-5}, theorem="wang2020.thm2",
                       at={"alpha": 0.5, "w20_zeta": 0.1}, progress=False)
    assert all(row["bound"] > 0 for row in r.summary())


# ----------------------------------------------------------------------------- csv
def test_to_csv_without_pandas(two_variable_sweep, tmp_path):
    text = two_variable_sweep.to_csv(tmp_path / "s.csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(two_variable_sweep.records) == 3 * 2 * 6
    first = two_variable_sweep.records[0]
    assert float(rows[0]["excess_risk"]) == pytest.approx(first["excess_risk"], rel=1e-12)
    assert (tmp_path / "s.csv").read_text() == text

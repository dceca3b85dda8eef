"""kbo.plot in the user's units: a study with a log float, an int and a categorical is drawn per parameter (a log
axis for the log float, integer ticks, the choices as categories), plus the contour and model-fit figures and the
convergence chart's log and clipped axes."""
import math

import matplotlib
import numpy as np
import pytest

import kbo
import kbo.plot

matplotlib.use("Agg")

SPACE = {"C": kbo.Float(1e-2, 1e3, log=True), "degree": kbo.Int(1, 6),
         "kernel": kbo.Categorical(["rbf", "poly", "sigmoid"])}


def objective(p):
    return ((math.log10(p["C"]) - 1.27) ** 2 + 0.04 * (p["degree"] - 3) ** 2
            + {"rbf": 0.0, "poly": 0.3, "sigmoid": 1.0}[p["kernel"]])


@pytest.fixture(scope="module")
def res():
    return kbo.minimize(objective, SPACE, init=8, iters=10, seed=1)


def test_slices_per_parameter_in_the_users_units(res):
    fig = kbo.plot.slices(res)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["C", "degree", "kernel"]
    assert axes[0].get_xscale() == "log"
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["rbf", "poly", "sigmoid"]
    # The C slice's grid is C itself (from 0.01 to 1000), not ln C.
    mean = {ln.get_label(): ln for ln in axes[0].lines}["mean"]
    assert mean.get_xdata()[0] == pytest.approx(1e-2) and mean.get_xdata()[-1] == pytest.approx(1e3)
    # The trials of the categorical are at their choice's position.
    dots = {c.get_label(): c for c in axes[2].collections}["trials"].get_offsets()
    assert sorted(set(np.asarray(dots)[:, 0])) <= [0.0, 1.0, 2.0]


def test_parallel_coordinates_and_importances_have_one_axis_per_parameter(res):
    ax = kbo.plot.parallel_coordinates(res).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["C (log)", "degree", "kernel", "value"]
    assert {t.get_text() for t in ax.texts} >= {"rbf", "poly", "sigmoid", "0.01", "1e+03"}
    ax = kbo.plot.importances(res).axes[0]
    assert sorted(t.get_text() for t in ax.get_yticklabels()) == ["C", "degree", "kernel"]


def test_contour_and_model_fit(res):
    view = res.study.view()
    fig = kbo.plot.contour(res)
    first = view["analysis"]["contours"][0]["names"]
    assert fig.axes[0].get_xlabel() == first[0] and fig.axes[0].get_ylabel() == first[1]
    fig = kbo.plot.contour(res, "C", "kernel")
    assert fig.axes[0].get_xscale() == "log"
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["rbf", "poly", "sigmoid"]
    with pytest.raises(kbo.InputError, match="no contour of"):
        kbo.plot.contour(res, "C", "nope")
    fig = kbo.plot.model_fit(res)
    assert "within ± 2 std" in fig.axes[0].get_title()
    n = len(view["analysis"]["model_fit"]["observed"])
    assert n == res.states.count("complete")


def test_convergence_log_and_clipped_axes():
    values = [1e6, 2e6] + [1.0 + 0.1 * k for k in range(10)]
    study = kbo.Study(bounds=[(0.0, 1.0)])
    for i, v in enumerate(values):
        study.tell([i / 12], v)
    ax = kbo.plot.convergence(study).axes[0]  # auto: clipped, the two first values on the edge
    by_label = {c.get_label(): c for c in ax.collections}
    assert len(by_label["value"].get_offsets()) == 10
    assert [k for k in by_label if k.startswith("beyond")] and ax.get_ylim()[1] < 10
    assert kbo.plot.convergence(study, yscale="log").axes[0].get_yscale() == "log"
    assert kbo.plot.convergence(study, yscale="linear").axes[0].get_ylim()[1] > 1e6
    with pytest.raises(kbo.InputError, match="yscale"):
        kbo.plot.convergence(study, yscale="symlog")

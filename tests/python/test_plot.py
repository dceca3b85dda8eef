"""kbo.plot on matplotlib (Agg): each function returns a Figure whose drawn data are the study's."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.figure  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import kbo  # noqa: E402
import kbo.plot  # noqa: E402

GRID = 41  # kbo::kGridPoints


@pytest.fixture(scope="module")
def result():
    # x1 is ignored by the objective, so its importance must come out ~0.
    return kbo.minimize(lambda x: float((x[0] - 0.3) ** 2), [(0, 1), (0, 1)], init=6, iters=6, seed=4)


def test_convergence_draws_every_value_and_a_monotone_best_so_far(result):
    s = result.study
    t = s.ask()
    s.tell_failed(t, "crashed")
    s.ask()  # one pending trial
    fig = kbo.plot.convergence(s, yscale="linear")  # every value as it is (auto may clip the worst)
    assert isinstance(fig, matplotlib.figure.Figure)
    ax = fig.axes[0]
    collections = {c.get_label(): c for c in ax.collections}
    values = collections["value"].get_offsets()
    done = [tr for tr in s.trials if tr.state == "complete"]
    assert len(values) == len(done) == 12
    np.testing.assert_array_equal(values[:, 1], [tr.value for tr in done])
    best = ax.lines[0].get_ydata()
    assert ax.lines[0].get_label() == "best so far"
    assert np.all(np.diff(best) <= 0) and best[-1] == min(tr.value for tr in done)
    # the failed and the pending trial, on the worst edge of the observed values
    failed, pending = collections["failed"].get_offsets(), collections["pending"].get_offsets()
    assert failed.tolist() == [[12, max(tr.value for tr in done)]] and len(pending) == 1
    # a Result plots the same values
    fig2 = kbo.plot.convergence(result, yscale="linear")
    assert len({c.get_label(): c for c in fig2.axes[0].collections}["value"].get_offsets()) == 12


def test_slices_draw_the_gp_through_the_best_trial(result):
    fig = kbo.plot.slices(result)
    view = result.study.view()
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["x0", "x1"]
    for j, ax in enumerate(axes):
        lines = {ln.get_label(): ln for ln in ax.lines}
        s = view["analysis"]["slices"][j]
        assert len(lines["mean"].get_xdata()) == GRID
        np.testing.assert_allclose(lines["mean"].get_ydata(), s["mean"])
        np.testing.assert_allclose(lines["partial dependence"].get_ydata(), s["partial_dependence"])
        dots = {c.get_label(): c for c in ax.collections}["trials"].get_offsets()
        assert len(dots) == sum(t["state"] == "complete" for t in view["trials"])
    # The objective's minimum is at x0 = 0.3: the x0 slice's mean is lowest near there.
    s0 = view["analysis"]["slices"][0]
    assert abs(s0["x"][int(np.argmin(s0["mean"]))] - 0.3) < 0.1


def test_importances_find_the_coordinate_the_objective_uses(result):
    fig = kbo.plot.importances(result)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    fanova = {c.get_label(): c for c in ax.containers}["fANOVA main effect"]
    widths = dict(zip(labels, [b.get_width() for b in fanova]))
    assert set(widths) == {"x0", "x1"}
    assert widths["x0"] > 0.9 and widths["x1"] < 0.05


def test_parallel_coordinates_one_line_per_complete_trial(result):
    fig = kbo.plot.parallel_coordinates(result)
    ax = fig.axes[0]
    n_complete = sum(t.state == "complete" for t in result.study.trials)
    trial_lines = [ln for ln in ax.lines if len(ln.get_xdata()) == 3]
    assert len(trial_lines) == n_complete
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x0", "x1", "value"]
    # every point is scaled into [0, 1] on its axis (bounds for parameters, observed range for the value)
    ys = np.array([ln.get_ydata() for ln in trial_lines])
    assert ys.min() >= 0 and ys.max() <= 1 and ys[:, 2].min() == 0 and ys[:, 2].max() == 1


def test_plots_of_a_stored_study_and_errors(tmp_path, run_cli):
    url = f"sqlite:{tmp_path / 's.db'}"
    run_cli("optimize", "--problem", "branin", "--init", 3, "--iters", 0, "--storage", url, "--study", "b", "--json")
    s = kbo.Study(url, "b")
    assert len(kbo.plot.convergence(s).axes[0].collections[0].get_offsets()) == 3
    one = kbo.Study(bounds=[(0, 1)])
    one.tell(one.ask(), 1.0)
    with pytest.raises(kbo.InputError, match="at least 2 complete trials"):
        kbo.plot.importances(one)
    fig = kbo.plot.slices(one)  # no model yet: the trials only, and the title says why
    assert "no model" in fig.texts[0].get_text() and not fig.axes[0].lines
    with pytest.raises(kbo.InputError, match="expected a kbo.Study"):
        kbo.plot.convergence([1, 2, 3])

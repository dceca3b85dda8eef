"""`kbo report` and `kbo dashboard` in a real browser (headless Chromium): every chart is drawn with the expected
number of points, the report fetches nothing, and the dashboard redraws when a trial is told."""
import json
import math

from viewer_support import PAINTED, browser, cli, dashboard, make_study, rendered, show, wait_for  # noqa: F401

GRID = 41  # kbo::kGridPoints: points of each GP slice


def check_views(driver, study):
    """Every view of `study` (a `kbo show --json` object) drawn in the open page, with the expected counts."""
    dim = len(study["trials"][0]["x"])
    r = wait_for(driver, lambda r: r.get("n_trials") == study["n_trials"], what="the study views")
    assert r["study"] == study["study"]
    assert r["convergence"] == {"values": study["n_complete"], "best_so_far": study["n_complete"],
                                "failed": study["n_failed"], "pending": study["n_pending"]}
    assert (r["parallel"]["lines"], r["parallel"]["axes"]) == (study["n_complete"], dim + 1)
    assert r["parallel"]["axis_types"] == ["value"] * dim  # a box space: plain value axes
    assert (r["slices"]["charts"], r["slices"]["model_curves"], r["slices"]["mean_points"]) == (dim, dim, dim * GRID)
    assert r["slices"]["x_axes"] == ["value"] * dim and r["slices"]["boxes"] == 0
    assert r["importance"]["bars"] == dim
    assert r["table"]["rows"] == study["n_trials"] and r["table"]["columns"] == study_columns(study)
    # One line per numeric diagnostic the trials' info carries (the noise inference's evidence and level, say).
    assert r["research"] == {"info_series": len(info_series(study))}
    # The best-so-far line is monotone (minimising) and ends at the study's best value.
    best = driver.execute_script(
        "return window.kboCharts['chart-convergence'].getOption().series[1].data.map(p => p[1])")
    assert all(b <= a for a, b in zip(best, best[1:])) and best[-1] == study["best_value"]
    # Each chart painted its canvas (a blank canvas has no pixel with alpha > 0).
    painted = driver.execute_script(PAINTED)
    expected = {"chart-convergence", "chart-parallel", "chart-importance"} | {f"slice-{j}" for j in range(dim)}
    assert expected <= set(painted), painted
    assert all(painted[c] > 2000 for c in expected), painted
    return r


def info_series(study):
    """The dotted paths of finite numbers in the trials' info objects (booleans are not plotted)."""
    paths = set()

    def walk(obj, prefix):
        for k, v in obj.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                paths.add(prefix + k)
            elif isinstance(v, dict):
                walk(v, prefix + k + ".")

    for t in study["trials"]:
        if isinstance(t.get("info"), dict):
            walk(t["info"], "")
    return paths


def study_columns(study):
    """Columns of the trial table: id, state, value, the parameters, duration, worker, failure reason, and
    the model's trial info when some trial has it (the noise inference's verdict at a full refit, say)."""
    has_info = any(isinstance(t.get("info"), dict) for t in study["trials"])
    return 6 + len(study["trials"][0]["x"]) + (1 if has_info else 0)


def test_report_renders_every_view_offline(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'r.db'}"
    make_study(kbo_bin, url)
    study = show(kbo_bin, url, "b")
    assert (study["n_failed"], study["n_pending"]) == (1, 1)
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "b", "-o", out)
    browser.get(out.as_uri())
    check_views(browser, study)
    # Offline: the page loaded no resource besides itself (scripts and data are inline).
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    # The trial table sorts: by value ascending the best trial comes first, failed/pending last.
    browser.execute_script("document.querySelector('th[data-key=value]').click()")
    r = rendered(browser)
    assert r["table"] == dict(r["table"], sorted_by="value", descending=False)
    first = browser.execute_script("return document.querySelector('#trial-table tbody tr td').textContent")
    assert int(first) == study["best_trial"]
    states = browser.execute_script(
        "return [...document.querySelectorAll('#trial-table tbody tr')].slice(-2).map(r => r.className)")
    assert sorted(s.split()[0] for s in states) == ["failed", "pending"]
    # The failure reason is in the table.
    assert "simulator crashed" in browser.find_element("id", "trial-table").text
    # Per-trial strategy diagnostics (a trial's `info`, e.g. A-GP-UCB's g(t)), when a study stores them: each
    # numeric key becomes a line over the trials and the table gets an info column.
    r = browser.execute_script("""
        const view = JSON.parse(document.getElementById('kbo-data').textContent).view;
        view.trials.forEach((t, i) => { if (i >= 4) t.info = {g: 1 + 0.1 * i, beta: 4, kernel: 'matern52'}; });
        window.kboRender(view);
        return window.kboRendered;""")
    assert r["research"] == {"info_series": 2} and r["table"]["columns"] == 6 + len(study["trials"][0]["x"]) + 1
    series = browser.execute_script(
        "return window.kboCharts['chart-info'].getOption().series.map(s => [s.name, s.data.length])")
    assert series == [["beta", study["n_trials"] - 4], ["g", study["n_trials"] - 4]]


def test_dashboard_lists_studies_and_redraws_when_a_trial_is_told(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'd.db'}"
    pending = make_study(kbo_bin, url, "b")
    make_study(kbo_bin, url, "other", iters=1)
    with dashboard(kbo_bin, "--storage", url, "--study", "b") as (proc, base):
        browser.get(base)
        before = show(kbo_bin, url, "b")
        r = check_views(browser, before)
        assert r["studies"] == 2
        names = browser.execute_script("return [...document.querySelectorAll('nav#studies a')].map(a => a.firstChild.textContent)")
        assert names == ["b", "other"]
        updates = r["updates"]
        # A worker reports the pending trial while the page is open: the page redraws with one more value.
        cli(kbo_bin, "tell", "--storage", url, "--study", "b", "--trial", pending, "--value", 0.25)
        r = wait_for(browser, lambda r: r["convergence"]["values"] == before["n_complete"] + 1, timeout=10,
                     what="the dashboard after `kbo tell`")
        assert r["updates"] > updates and r["convergence"]["pending"] == 0 and r["table"]["rows"] == before["n_trials"]
        best = browser.execute_script(
            "return window.kboCharts['chart-convergence'].getOption().series[1].data.map(p => p[1])")
        assert best[-1] == min(before["best_value"], 0.25)
        check_views(browser, show(kbo_bin, url, "b"))
        # Choosing the other study in the list shows it.
        browser.execute_script("document.querySelectorAll('nav#studies a')[1].click()")
        other = show(kbo_bin, url, "other")
        wait_for(browser, lambda r: r["study"] == "other", what="the second study")
        check_views(browser, other)
        assert proc.poll() is None


def test_report_plots_the_schedule_of_an_adaptive_study(tmp_path, kbo_bin, browser):
    # A user's A-GP-UCB study: each BO trial stores info.agpucb = {g, g_eff, h, beta_sqrt}; the research view
    # plots each as a line over exactly the trials that carry it.
    url = f"sqlite:{tmp_path / 'a.db'}"
    cli(kbo_bin, "optimize", "--problem", "branin", "--strategy", "agpucb", "--init", 3, "--iters", 5, "--seed", 1,
        "--storage", url, "--study", "a")
    study = show(kbo_bin, url, "a")
    carrying = [t for t in study["trials"] if "agpucb" in (t.get("info") or {})]
    assert len(carrying) == 5
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "a", "-o", out)
    browser.get(out.as_uri())
    r = wait_for(browser, lambda r: r.get("n_trials") == study["n_trials"], what="the adaptive study")
    assert r["research"] == {"info_series": 4}
    series = browser.execute_script(
        "return window.kboCharts['chart-info'].getOption().series.map(s => [s.name, s.data])")
    assert [name for name, _ in series] == ["agpucb.beta_sqrt", "agpucb.g", "agpucb.g_eff", "agpucb.h"]
    g = dict(series)["agpucb.g"]
    assert [p[0] for p in g] == [t["id"] for t in carrying]
    assert [p[1] for p in g] == [t["info"]["agpucb"]["g"] for t in carrying]

"""The report and the dashboard speak the user's parameters (headless Chromium): a study with a log float, an int
and a 3-choice categorical shows its best point as the user's values, no axis or label in the encoding (no
"log C", no "kernel=rbf"), one importance bar per parameter, a categorical axis, a contour of the model and a
leave-one-out model-fit chart.

With KBO_SCREENSHOTS=DIR set, the views are also saved there as PNG files (docs/guide/ holds the ones the guide
shows: `KBO_SCREENSHOTS=docs/guide/img PYTHONPATH=build/python python3 -m pytest tests/python/test_viewer_decoded.py`).
"""
import json
import math
import os
import pathlib
import re
import time

import kbo
from viewer_support import PAINTED, browser, cli, dashboard, rendered, wait_for  # noqa: F401

SPACE = {"C": kbo.Float(1e-2, 1e3, log=True), "degree": kbo.Int(1, 6),
         "kernel": kbo.Categorical(["rbf", "poly", "sigmoid"])}


def objective(p):
    """An SVC-like validation error: best at C ≈ 18.6 (log10 1.27), degree 3, the rbf kernel."""
    return ((math.log10(p["C"]) - 1.27) ** 2 + 0.04 * (p["degree"] - 3) ** 2
            + {"rbf": 0.0, "poly": 0.3, "sigmoid": 1.0}[p["kernel"]])


def make_svc_like_study(url):
    return kbo.minimize(objective, SPACE, storage=url, study="svc", init=8, iters=14, seed=1)


def best_text(best_params):
    """`name = value` as the page formats numbers (6 significant digits)."""
    def fmt(v):
        return v if isinstance(v, str) else str(float(f"{v:.6g}")).removesuffix(".0") if isinstance(v, float) else str(v)
    return [f"{k} = {fmt(v)}" for k, v in best_params.items()]


ENCODED_LABEL = re.compile(r"\blog (C|degree|kernel)\b|\b(kernel)=(rbf|poly|sigmoid)\b")  # "log C", "kernel=rbf"


def visible_labels(driver):
    """Every axis name and category label the charts were given, and the page's text."""
    labels = driver.execute_script("""
        const out = [];
        for (const c of Object.values(window.kboCharts)) {
          const o = c.getOption();
          for (const key of ['xAxis', 'yAxis', 'parallelAxis'])
            for (const a of o[key] || []) { if (a.name) out.push(String(a.name)); for (const d of a.data || []) out.push(String(d.value ?? d)); }
          for (const t of o.title || []) if (t.text) out.push(String(t.text));
        }
        return out;""")
    return labels, driver.find_element("tag name", "body").text


def check_decoded(driver, res):
    r = wait_for(driver, lambda r: r.get("contour", {}).get("cells", 0) > 0, what="the decoded views")
    # The best point as the user's values, in the header and in the study summary.
    header = driver.find_element("id", "best").text
    summary = driver.find_element("id", "summary-list").text
    for item in best_text(res.best_params):
        assert item in header, (item, header)
        assert item in summary, (item, summary)
    assert list(res.best_params) == ["C", "degree", "kernel"]
    # No label in the encoding anywhere.
    labels, text = visible_labels(driver)
    for s in labels + [text]:
        assert not ENCODED_LABEL.search(s), s
    # One parallel-coordinates axis, slice and importance bar per parameter; the categorical on a category
    # axis, the log float on a log axis.
    assert r["parallel"]["axes"] == 4 and r["parallel"]["axis_types"] == ["log", "value", "category"]
    assert r["slices"]["charts"] == 3 and r["slices"]["x_axes"] == ["log", "value", "category"]
    assert r["slices"]["boxes"] == 3  # a box of the observed values for every choice
    assert r["importance"]["bars"] == 3
    bars = driver.execute_script("return window.kboCharts['chart-importance'].getOption().yAxis[0].data")
    assert sorted(bars) == ["C", "degree", "kernel"]
    # The log axis's tick labels are C's own values (powers of ten within [1e-2, 1e3]), not logarithms.
    ticks = driver.execute_script("""
        const c = window.kboCharts['slice-0'];
        const axis = c.getModel().getComponent('xAxis', 0).axis;
        return axis.getTicksCoords().map(t => axis.scale.getLabel({value: t.tickValue}));""")
    assert any(t in ("0.1", "1", "10", "100") for t in ticks), ticks
    # A contour (the two most important parameters first) and the model-fit chart.
    assert r["contour"]["pairs"] == 3 and r["contour"]["cells"] >= 3 * 6
    assert r["model_fit"]["points"] == res.states.count("complete")
    painted = driver.execute_script(PAINTED)
    for chart in ("chart-contour", "chart-modelfit", "chart-parallel", "chart-importance", "slice-2"):
        assert painted.get(chart, 0) > 2000, (chart, painted)
    return r


def save_views(driver, name):
    """Element screenshots of the header, the slices, the contour and the model fit (KBO_SCREENSHOTS)."""
    out = os.environ.get("KBO_SCREENSHOTS")
    if not out:
        return
    pathlib.Path(out).mkdir(parents=True, exist_ok=True)
    driver.set_window_size(1100, 5000)  # every section inside the viewport
    driver.execute_script("for (const c of Object.values(window.kboCharts)) c.resize();")
    time.sleep(0.5)
    for section in ("summary", "slices", "contour", "modelfit"):
        element = driver.find_element("id", section)
        path = pathlib.Path(out) / f"{name}-{section}.png"
        element.screenshot(str(path))


def test_report_shows_the_users_parameters(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'svc.db'}"
    res = make_svc_like_study(url)
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "svc", "-o", out)
    browser.get(out.as_uri())
    check_decoded(browser, res)
    # The user picks another pair for the contour.
    browser.execute_script("""
        const s = document.getElementById('contour-y'); s.value = [...s.options].map(o => o.value)
          .find(v => v !== document.getElementById('contour-x').value && v !== s.value);
        s.dispatchEvent(new Event('change'));""")
    r = rendered(browser)
    assert {r["contour"]["x"], r["contour"]["y"]} != set(), r["contour"]
    # The convergence chart's value axis: log on request.
    browser.execute_script("""
        const s = document.getElementById('convergence-scale'); s.value = 'log'; s.dispatchEvent(new Event('change'));""")
    r = rendered(browser)
    positive = all(v > 0 for v in res.values[~__import__('numpy').isnan(res.values)])
    assert r["convergence_axis"]["mode"] == ("log" if positive else "linear")
    browser.execute_script("""
        const s = document.getElementById('convergence-scale'); s.value = 'auto'; s.dispatchEvent(new Event('change'));""")
    save_views(browser, "report-typed")


def test_dashboard_shows_the_users_parameters(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'svc.db'}"
    res = make_svc_like_study(url)
    with dashboard(kbo_bin, "--storage", url, "--study", "svc") as (proc, base):
        browser.get(base)
        check_decoded(browser, res)


def test_clipped_convergence_axis_keeps_the_first_bad_trials_off_the_chart(tmp_path, kbo_bin, browser):
    # Two catastrophic first trials (1e6) and small values after: 'auto' clips, and the count is published.
    url = f"sqlite:{tmp_path / 'c.db'}"
    study = kbo.Study(url, "c", [(0.0, 1.0)])
    for i, v in enumerate([1e6, 2e6] + [1.0 + 0.1 * k for k in range(10)]):
        study.tell([i / 12], v)
    out = tmp_path / "c.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "c", "-o", out)
    browser.get(out.as_uri())
    r = wait_for(browser, lambda r: "convergence_axis" in r, what="the convergence chart")
    assert r["convergence_axis"] == {"mode": "clipped", "clipped": 2}
    y_max = browser.execute_script("return window.kboCharts['chart-convergence'].getOption().yAxis[0].max")
    assert y_max < 10

"""A study with several objectives in `kbo report` and `kbo dashboard` (headless Chromium): the Pareto front is
drawn (a scatter for 2 objectives, parallel coordinates for 3) with exactly the brute-force non-dominated trials
on it, and the hypervolume against trials equals an exact hypervolume of each prefix of the trials."""
import itertools
import sys

import pytest

from viewer_support import PAINTED, browser, cli, dashboard, show, wait_for  # noqa: F401

# Objectives (all minimised): a convex 2-objective front on [0, 1]^2, a spherical 3-objective one on [0, 1]^3 (the
# third coordinate moves points off the front, so both studies have dominated trials).
OBJECTIVE = r"""
import json, math, sys
x = [float(v) for v in sys.argv[2:]]
if sys.argv[1] == "2":
    out = [x[0], (1 - x[0]) ** 2 + x[1]]
else:
    a, b = x[0] * math.pi / 2, x[1] * math.pi / 2
    g = 1 + 2 * x[2]
    out = [g * math.cos(a) * math.cos(b), g * math.cos(a) * math.sin(b), g * math.sin(a)]
print(json.dumps({"values": out}))
"""


def make_study(kbo_bin, tmp_path, url, k, name):
    script = tmp_path / "objective.py"
    script.write_text(OBJECTIVE)
    cli(kbo_bin, "optimize", "--bounds", ",".join(["0:1"] * k), "--directions", ",".join(["minimize"] * k), "--init", 8,
        "--iters", 6, "--seed", 2, "--objective", f"{sys.executable} {script} {k} {{x}}", "--storage", url,
        "--study", name)
    return show(kbo_bin, url, name)


def non_dominated_ids(study):
    """Brute force: the complete trials no other complete trial weakly beats in every objective and strictly in one."""
    done = [t for t in study["trials"] if t["state"] == "complete"]
    dominated = lambda a, b: all(p <= q for p, q in zip(b, a)) and any(p < q for p, q in zip(b, a))  # b dominates a
    return sorted(t["id"] for t in done if not any(dominated(t["values"], u["values"]) for u in done))


def exact_hypervolume(points, ref):
    """Minimised points: the volume of the union of the boxes [p, ref], by inclusion-exclusion over subsets."""
    boxes = [p for p in points if all(a < r for a, r in zip(p, ref))]
    total = 0.0
    for size in range(1, len(boxes) + 1):
        for subset in itertools.combinations(boxes, size):
            corner = [max(c) for c in zip(*subset)]
            vol = 1.0
            for c, r in zip(corner, ref):
                vol *= max(0.0, r - c)
            total += (-1) ** (size + 1) * vol
    return total


def check_objective_views(driver, study, k):
    r = wait_for(driver, lambda r: r.get("n_trials") == study["n_trials"] and "pareto" in r,
                 what="the multi-objective views")
    front = non_dominated_ids(study)
    assert 0 < len(front) < study["n_complete"]  # both kinds of point are drawn
    assert r["pareto"] == {"objectives": k, "kind": "scatter" if k == 2 else "parallel", "front": len(front),
                           "dominated": study["n_complete"] - len(front)}
    series = driver.execute_script(
        "return window.kboCharts['chart-pareto'].getOption().series.map(s => [s.name, s.data.map(d => d.id)])")
    assert series[0][0] == "dominated" and series[1][0] == "Pareto front"
    assert sorted(series[1][1]) == front
    assert sorted(series[0][1]) == sorted(set(t["id"] for t in study["trials"]) - set(front))
    # Hypervolume against trials: each point is the exact hypervolume of the trials up to it, from the study's
    # reference point, and the last is the study's hypervolume.
    history = driver.execute_script("return window.kboCharts['chart-hypervolume'].getOption().series[0].data")
    ref = study["hypervolume"]["reference_point"]
    by_id = sorted(study["trials"], key=lambda t: t["id"])
    assert history[0][0] == by_id[0]["id"] and history[-1][0] == by_id[-1]["id"]
    for trial_id, hv in history:
        prefix = [t["values"] for t in by_id if t["id"] <= trial_id]
        assert hv == pytest.approx(exact_hypervolume(prefix, ref), rel=1e-9, abs=1e-12)
    assert history[-1][1] == pytest.approx(study["hypervolume"]["value"], rel=1e-12)
    assert all(b[1] >= a[1] for a, b in zip(history, history[1:])), history
    assert r["hypervolume"]["points"] == len(history)
    painted = driver.execute_script(PAINTED)
    assert painted["chart-pareto"] > 2000 and painted["chart-hypervolume"] > 2000, painted
    assert driver.execute_script("return document.getElementById('pareto').hidden") is False


@pytest.mark.parametrize("k", [2, 3])
def test_report_draws_the_front_and_the_hypervolume(tmp_path, kbo_bin, browser, k):
    url = f"sqlite:{tmp_path / 'm.db'}"
    study = make_study(kbo_bin, tmp_path, url, k, "m")
    assert study["n_complete"] == 14 and study["directions"] == ["minimize"] * k
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "m", "-o", out)
    browser.get(out.as_uri())
    check_objective_views(browser, study, k)


def test_dashboard_draws_the_front_and_hides_it_for_one_objective(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'd.db'}"
    study = make_study(kbo_bin, tmp_path, url, 3, "three")
    cli(kbo_bin, "optimize", "--problem", "branin", "--init", 4, "--iters", 1, "--seed", 1, "--storage", url,
        "--study", "single")
    with dashboard(kbo_bin, "--storage", url, "--study", "three") as (proc, base):
        browser.get(base)
        check_objective_views(browser, study, 3)
        # A study with one objective has neither view.
        browser.execute_script("[...document.querySelectorAll('nav#studies a')].find(a => a.firstChild.textContent "
                               "=== 'single').click()")
        r = wait_for(browser, lambda r: r["study"] == "single", what="the one-objective study")
        assert "pareto" not in r and "hypervolume" not in r
        assert browser.execute_script("return document.getElementById('pareto').hidden") is True
        assert proc.poll() is None

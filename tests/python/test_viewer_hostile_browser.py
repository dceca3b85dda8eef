"""The report and the dashboard in headless Chromium with hostile stored text and under their own
Content-Security-Policy: the charts render, the text is shown literally, no script of the study's runs, and a
large study's sample is announced on the page."""
import json

from test_viewer_hardening import HOSTILE, make_large_study
from viewer_support import PAINTED, browser, cli, dashboard, make_study, show, wait_for  # noqa: F401


def csp_violations(driver):
    """Console messages about the Content-Security-Policy (an inline script or fetch it blocked)."""
    try:
        logs = driver.get_log("browser")
    except Exception:  # a driver without log access: the render checks still hold
        return []
    return [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]]


def tell_hostile(kbo_bin, url):
    asked = json.loads(cli(kbo_bin, "ask", "--storage", url, "--study", "b").stdout)
    cli(kbo_bin, "tell", "--storage", url, "--study", "b", "--trial", asked["trial"], "--failed", HOSTILE)


def check_rendered_literally(driver, study):
    r = wait_for(driver, lambda r: r.get("n_trials") == study["n_trials"], what="the study views")
    assert r["convergence"]["failed"] == study["n_failed"] == 2 and r["table"]["rows"] == study["n_trials"]
    painted = driver.execute_script(PAINTED)
    assert all(painted[c] > 2000 for c in ("chart-convergence", "chart-parallel", "slice-0")), painted
    cells = driver.execute_script(
        "return [...document.querySelectorAll('#trial-table td')].map(td => td.textContent)")
    assert HOSTILE in cells  # shown as the text it is
    # The stored text added no element: the page's three scripts, no alert, nothing else.
    assert driver.execute_script("return document.scripts.length") == 3
    assert not csp_violations(driver)


def test_report_with_markup_in_a_failure_reason_renders_and_shows_it_literally(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'r.db'}"
    make_study(kbo_bin, url)
    tell_hostile(kbo_bin, url)
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "b", "-o", out)
    browser.get(out.as_uri())
    check_rendered_literally(browser, show(kbo_bin, url, "b"))
    # The report carries its policy in a <meta>: inline scripts only by hash, nothing fetched.
    csp = browser.execute_script(
        "return document.querySelector('meta[http-equiv=Content-Security-Policy]').content")
    assert "connect-src 'none'" in csp and csp.count("'sha256-") == 2


def test_dashboard_renders_under_its_csp_header_with_markup_in_the_study(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'd.db'}"
    make_study(kbo_bin, url)
    tell_hostile(kbo_bin, url)
    with dashboard(kbo_bin, "--storage", url, "--study", "b") as (proc, base):
        browser.get(base)
        check_rendered_literally(browser, show(kbo_bin, url, "b"))
        r = wait_for(browser, lambda r: r.get("polls", 0) >= 1, what="a poll of the API")
        assert r["studies"] == 1


def test_a_large_study_says_on_the_page_that_it_shows_a_sample(tmp_path, kbo_bin, browser):
    url = f"sqlite:{tmp_path / 'big.db'}"
    make_large_study(kbo_bin, url, 1500)
    out = tmp_path / "report.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "big", "-o", out, "--max-trials", 300)
    browser.get(out.as_uri())
    r = wait_for(browser, lambda r: r.get("n_trials") == 1503, what="the large study")
    note = browser.find_element("id", "shown-note")
    assert note.is_displayed() and note.text.startswith(f"Showing {r['shown']} of 1503 trials")
    assert r["shown"] <= 300 and r["table"]["rows"] == r["shown"]
    # A study that fits is shown whole, without the note.
    small = f"sqlite:{tmp_path / 's.db'}"
    make_study(kbo_bin, small)
    cli(kbo_bin, "report", "--storage", small, "--study", "b", "-o", out)
    browser.get(out.as_uri())
    wait_for(browser, lambda r: r.get("n_trials") == 9, what="the small study")
    assert not browser.find_element("id", "shown-note").is_displayed()

#!/usr/bin/python3
"""Takes the screenshots of docs/guide/viewing.md: one per view of `kbo report` and one of `kbo dashboard`.

    scripts/guide-screenshots.py [build/kbo] [docs/guide/img]

Runs a Hartmann-6 study (5 Sobol + 25 BO trials, seed 1) plus a failed and a pending trial in a temporary
SQLite file, writes its report, and photographs each section in headless Chromium (python3-selenium,
chromium-driver; scripts/install-deps.sh installs them). Takes about 20 s."""
import json
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "python"))
from viewer_support import CHROMEDRIVER, CHROMIUM, dashboard  # noqa: E402

root = pathlib.Path(__file__).resolve().parent.parent
kbo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root / "build" / "kbo").resolve()
out = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else root / "docs" / "guide" / "img").resolve()
out.mkdir(parents=True, exist_ok=True)


def run(*args):
    return subprocess.run([str(kbo), *map(str, args)], check=True, capture_output=True, text=True).stdout


def wait_rendered(driver, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if driver.execute_script("return !!(window.kboRendered && window.kboRendered.updates)"):
            return
        time.sleep(0.1)
    raise RuntimeError("the page did not render")


from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    url = f"sqlite:{tmp}/guide.db"
    run("optimize", "--problem", "hartmann6", "--init", 5, "--iters", 25, "--storage", url, "--study", "hartmann6",
        "--seed", 1, "--json")
    t = json.loads(run("ask", "--storage", url, "--study", "hartmann6"))
    run("tell", "--storage", url, "--study", "hartmann6", "--trial", t["trial"], "--failed", "simulation diverged")
    run("ask", "--storage", url, "--study", "hartmann6")
    run("optimize", "--problem", "branin", "--init", 5, "--iters", 10, "--storage", url, "--study", "branin",
        "--seed", 2, "--json")
    report = pathlib.Path(tmp) / "report.html"
    run("report", "--storage", url, "--study", "hartmann6", "-o", report)

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,3000", "--hide-scrollbars",
                "--force-device-scale-factor=1"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(report.as_uri())
        wait_rendered(driver)
        for view in ("convergence", "parallel", "slices", "importance", "research", "trials"):
            driver.find_element("id", view).screenshot(str(out / f"report-{view}.png"))
            print(out / f"report-{view}.png")
        with dashboard(kbo, "--storage", url, "--study", "hartmann6") as (_, base):
            driver.set_window_size(1200, 900)
            driver.get(base)
            wait_rendered(driver)
            time.sleep(0.5)
            driver.save_screenshot(str(out / "dashboard.png"))
            print(out / "dashboard.png")
    finally:
        driver.quit()

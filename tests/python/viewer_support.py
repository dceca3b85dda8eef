"""Helpers of the report/dashboard tests: a small stored study made with the CLI, a running dashboard, and a
headless Chromium (Debian's chromium + chromium-driver through python3-selenium)."""
import contextlib
import json
import os
import pathlib
import shutil
import subprocess
import time

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def cli(kbo_bin, *args, check=True):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    p = subprocess.run([str(kbo_bin), *map(str, args)], capture_output=True, text=True, env=env, timeout=120)
    if check:
        assert p.returncode == 0, f"kbo {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr}"
    return p


def make_study(kbo_bin, url, name="b", iters=3):
    """Branin, 4 Sobol + `iters` BO trials, then one failed trial and one pending (asked) trial. No end-game: its
    local steps store per-trial info, and this study is the one without (other tests cover the info views)."""
    cli(kbo_bin, "optimize", "--problem", "branin", "--init", 4, "--iters", iters, "--storage", url, "--study", name,
        "--seed", 3, "--json", "--options", '{"bo": {"endgame_fraction": 0}}')
    failed = json.loads(cli(kbo_bin, "ask", "--storage", url, "--study", name).stdout)
    cli(kbo_bin, "tell", "--storage", url, "--study", name, "--trial", failed["trial"], "--failed", "simulator crashed")
    pending = json.loads(cli(kbo_bin, "ask", "--storage", url, "--study", name).stdout)
    return pending["trial"]


def show(kbo_bin, url, name):
    return json.loads(cli(kbo_bin, "show", "--storage", url, "--study", name, "--json").stdout)


@contextlib.contextmanager
def dashboard(kbo_bin, *args):
    """A `kbo dashboard --port 0 ARGS` process; yields (process, base URL) from its startup line."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    p = subprocess.Popen([str(kbo_bin), "dashboard", "--port", "0", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
        assert line.startswith("kbo dashboard: http://127.0.0.1:"), (line, p.stderr.read() if p.poll() else "")
        yield p, line.split()[2]
    finally:
        if p.poll() is None:
            p.terminate()
            p.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if not (pathlib.Path(CHROMIUM).exists() and pathlib.Path(CHROMEDRIVER).exists()):
        pytest.skip("headless Chromium not installed (scripts/install-deps.sh installs chromium, chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,2000",
                "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def rendered(driver):
    """The page's window.kboRendered (what each view drew), or None before the first render."""
    return driver.execute_script("return window.kboRendered && window.kboRendered.updates ? window.kboRendered : null")


def wait_for(driver, predicate, timeout=15.0, what="the page"):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        last = rendered(driver)
        if last is not None and predicate(last):
            return last
        time.sleep(0.1)
    raise AssertionError(f"{what} did not render as expected within {timeout} s; last: {json.dumps(last)}")


# Painted pixels (alpha > 0) of every chart's canvas, by chart id.
PAINTED = """
const out = {};
for (const [id, c] of Object.entries(window.kboCharts)) {
  const cv = c.getDom().querySelector('canvas');
  if (!cv) { out[id] = -1; continue; }
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
  out[id] = n;
}
return out;
"""

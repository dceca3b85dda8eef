"""`kbo report` and `kbo dashboard` as a user runs them: the files and endpoints they produce, bad input (one
line, exit 2), Ctrl-C, and that neither ever writes to the storage."""
import hashlib
import json
import re
import signal
import socket
import subprocess
import urllib.error
import urllib.request

from viewer_support import cli, dashboard, make_study, show


def page_data(html: str) -> dict:
    m = re.search(r'<script id="kbo-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "no inline data"
    return json.loads(m.group(1))


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_report_is_one_self_contained_file_with_the_study(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}")
    before = digest(db)
    out = tmp_path / "report.html"
    p = cli(kbo_bin, "report", "--storage", db, "--study", "b", "-o", out)
    assert p.stdout.startswith(f"kbo report: wrote {out} (study 'b', 9 trials,")
    html = out.read_text()
    # Nothing is fetched at view time: no external script, stylesheet or image in the markup (the inline
    # scripts are the only scripts; the browser test checks that no resource is loaded at all).
    markup = re.sub(r"<script[^>]*>.*?</script>", "", html, flags=re.S)
    assert markup.count("<script") == 0 and html.count("<script") == 3
    assert not re.search(r'<(link|img|iframe)\b', markup) and "@import" not in markup
    data = page_data(html)
    assert data["mode"] == "report"
    view = data["view"]
    study = show(kbo_bin, f"sqlite:{db}", "b")
    assert [t["id"] for t in view["trials"]] == [t["id"] for t in study["trials"]]
    assert view["best_value"] == study["best_value"] and view["config"]["seed"] == 3
    a = view["analysis"]
    assert a["model"]["ok"] and [p["name"] for p in a["parameters"]] == ["x0", "x1"]
    assert len(a["slices"]) == 2 and len(a["slices"][0]["mean"]) == 41
    # fANOVA shares are fractions of the model's variance.
    shares = [p["fanova"] for p in a["importance"]]
    assert all(0 <= s <= 1 for s in shares) and sum(shares) + a["interactions"] == __import__("pytest").approx(1.0)
    assert digest(db) == before  # read-only
    # --out, the bench commands' name for their output, writes the same report.
    out2 = tmp_path / "report2.html"
    p = cli(kbo_bin, "report", "--storage", db, "--study", "b", "--out", out2)
    assert p.stdout.startswith(f"kbo report: wrote {out2} (study 'b', 9 trials,")
    assert page_data(out2.read_text())["view"]["trials"] == view["trials"]


def test_report_bad_input_is_one_line_and_exit_2(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}", iters=1)
    cases = [
        (["report", "--storage", db, "--study", "nope", "-o", tmp_path / "r.html"], "nope"),
        (["report", "--storage", tmp_path / "missing.db", "--study", "b", "-o", tmp_path / "r.html"], "missing.db"),
        (["report", "--storage", db, "--study", "b", "-o", tmp_path / "no" / "dir" / "r.html"], "cannot write"),
        (["report", "--study", "b", "-o", tmp_path / "r.html"], "--storage is required"),
    ]
    for args, needle in cases:
        p = cli(kbo_bin, *args, check=False)
        assert p.returncode == 2, (args, p.stderr)
        assert needle in p.stderr and p.stderr.count("\n") == 1, (args, p.stderr)
    assert not (tmp_path / "missing.db").exists()


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def test_dashboard_serves_page_and_json_reads_only_and_stops_on_ctrl_c(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}")
    before = digest(db)
    with dashboard(kbo_bin, "--storage", db) as (proc, base):
        status, ctype, body = get(base)
        assert status == 200 and ctype.startswith("text/html")
        assert page_data(body.decode())["mode"] == "live"
        status, _, body = get(base + "api/studies")
        studies = json.loads(body)
        assert [s["name"] for s in studies] == ["b"] and studies[0]["n_trials"] == 9 and studies[0]["n_pending"] == 1
        for _ in range(2):  # the second answer reuses the cached fit and is the same
            status, ctype, body = get(base + "api/view?study=b")
            assert status == 200 and ctype == "application/json"
        view = json.loads(body)
        assert view["n_trials"] == 9 and view["analysis"]["model"]["ok"]
        try:
            get(base + "api/view?study=nope")
            raise AssertionError("an unknown study must be a 404")
        except urllib.error.HTTPError as e:
            assert e.code == 404 and "nope" in json.loads(e.read())["error"]
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0 and "stopped" in out, (proc.returncode, out, err)
    assert digest(db) == before  # read-only: not one byte of the database changed


def test_dashboard_port_in_use_and_bad_input_exit_2(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}", iters=1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        p = subprocess.run([str(kbo_bin), "dashboard", "--storage", str(db), "--port", str(port)], capture_output=True,
                           text=True, timeout=30)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and f"{port}" in p.stderr and "in use" in p.stderr, p.stderr
    for args, needle in [(["--storage", db, "--port", "70000"], "65535"),
                         (["--storage", db, "--study", "nope"], "nope"),
                         (["--storage", tmp_path / "missing.db"], "missing.db"),
                         ([], "--storage is required")]:
        p = subprocess.run([str(kbo_bin), "dashboard", *map(str, args)], capture_output=True, text=True, timeout=30)
        assert p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1, (args, p.stderr)

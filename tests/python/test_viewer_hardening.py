"""`kbo report` and `kbo dashboard` against hostile input: stored text that looks like markup, requests for another
Host (DNS rebinding), clients that connect and stall, and studies too large to send whole."""
import http.client
import json
import random
import re
import socket
import time

from viewer_support import cli, dashboard, make_study, show

# A failure reason that used to blank the whole report: "<!--<script>" puts the HTML parser in a state where
# the data block's own "</script>" no longer ends it. The rest covers the other ways text could leave a block.
HOSTILE = "<!--<script> x </script><script>alert(1)</script> & &amp; > \u2028\u2029 -->"


def data_block(html):
    m = re.search(r'<script id="kbo-data" type="application/json">(.*?)</script>', html, re.S)
    assert m, "no data block"
    return m.group(1)


def test_the_data_block_escapes_every_markup_character_and_reads_back_exactly(tmp_path, kbo_bin):
    url = f"sqlite:{tmp_path / 's.db'}"
    make_study(kbo_bin, url, iters=1)
    asked = json.loads(cli(kbo_bin, "ask", "--storage", url, "--study", "b").stdout)
    cli(kbo_bin, "tell", "--storage", url, "--study", "b", "--trial", asked["trial"], "--failed", HOSTILE)
    out = tmp_path / "r.html"
    cli(kbo_bin, "report", "--storage", url, "--study", "b", "-o", out)
    html = out.read_text(encoding="utf-8")
    block = data_block(html)
    # Not one character that HTML could read as markup, nor a raw line separator, is left in the block...
    assert not set("<>&\u2028\u2029") & set(block)
    assert html.count("<script") == 3  # ...so the stored text opened no element: data, ECharts, viewer
    # ...and a JSON parser reads exactly the stored text back.
    reasons = [t.get("reason") for t in json.loads(block)["view"]["trials"]]
    assert HOSTILE in reasons
    assert [t for t in show(kbo_bin, url, "b")["trials"] if t.get("reason") == HOSTILE]


def request(base, path="/", host=None, method="GET"):
    """(status, headers, body) of one request with an explicit Host header."""
    hostport = base.split("//")[1].rstrip("/")
    h, p = hostport.split(":")
    conn = http.client.HTTPConnection(h, int(p), timeout=10)
    conn.putrequest(method, path, skip_host=True)
    if host is not None:
        conn.putheader("Host", host)
    conn.endheaders()
    r = conn.getresponse()
    out = r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    conn.close()
    return out


SECURITY_HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")


def test_dashboard_answers_only_its_own_host_and_sends_security_headers(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}", iters=1)
    with dashboard(kbo_bin, "--storage", db, "--allow-host", "dash.example.org",
                   "--allow-host", "Proxy.Example:8443") as (proc, base):
        port = base.rstrip("/").rsplit(":", 1)[1]
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", "dash.example.org",
                     f"dash.example.org:{port}", "proxy.example:8443"):
            status, headers, body = request(base, "/api/studies", host)
            assert status == 200 and json.loads(body)[0]["name"] == "b", (host, status, body)
        # DNS rebinding: the attacker's name (pointed at 127.0.0.1) is in Host; so are other ports and no Host.
        for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.1", f"127.0.0.1:{int(port) + 1}",
                     "proxy.example:443", "localhost.attacker.example", f"dash.example.org.evil:{port}", "", None):
            for path in ("/", "/api/studies", "/api/view?study=b"):
                status, headers, body = request(base, path, host)
                assert status == 403, (host, path, status)
                assert body.count(b"\n") == 1 and b"--allow-host" in body and b'"trials"' not in body
                assert all(h in headers for h in SECURITY_HEADERS), headers
        # Every answer carries the headers: the page, the API, an unknown study, an unknown path.
        for path, code in (("/", 200), ("/api/view?study=b", 200), ("/api/view?study=nope", 404), ("/nope", 404)):
            status, headers, _ = request(base, path, f"127.0.0.1:{port}")
            assert status == code
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp
            assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]  # scripts only by hash
            assert csp.count("'sha256-") == 2


def test_a_malformed_allow_host_or_max_trials_is_refused_in_one_line(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}", iters=1)
    for bad in ("", "a b", "http://x.example", "x.example:99999", "x.example:", "[zz]:80"):
        p = cli(kbo_bin, "dashboard", "--storage", db, "--port", "0", "--allow-host", bad, check=False)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--allow-host" in p.stderr, (bad, p.stderr)
    for command in (["dashboard", "--port", "0"], ["report", "-o", tmp_path / "r.html"]):
        for bad in ("-1", "many"):
            p = cli(kbo_bin, *command, "--storage", db, "--study", "b", "--max-trials", bad, check=False)
            assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--max-trials" in p.stderr, (bad, p.stderr)


def test_idle_and_half_sent_connections_do_not_hold_up_a_request(tmp_path, kbo_bin):
    db = tmp_path / "s.db"
    make_study(kbo_bin, f"sqlite:{db}", iters=1)
    with dashboard(kbo_bin, "--storage", db) as (proc, base):
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        stalled = []
        try:
            for _ in range(8):  # connected, sent nothing
                stalled.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            for _ in range(60):  # half a request: the blank line that ends the headers never comes
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(f"GET /api/studies HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
                stalled.append(s)
            time.sleep(0.3)
            # A generous limit (the stalled connections are closed by the server after seconds, so only a
            # request queued behind them would take longer); the benchmark measures the actual latency.
            status, _, body = request(base, "/api/studies", f"127.0.0.1:{port}")
            assert status == 200 and json.loads(body)[0]["name"] == "b"
        finally:
            for s in stalled:
                s.close()


def make_large_study(kbo_bin, url, n, pending=3, seed=5):
    """`n` complete Branin-box trials imported from CSV, then `pending` asked trials."""
    rng = random.Random(seed)
    csv = ["x0,x1,value"] + [f"{rng.uniform(-5, 10)!r},{rng.uniform(0, 15)!r},{rng.uniform(0, 100)!r}"
                             for _ in range(n)]
    path = url.split(":", 1)[1] + ".csv"
    with open(path, "w") as f:
        f.write("\n".join(csv) + "\n")
    cli(kbo_bin, "import", "--storage", url, "--study", "big", "--problem", "branin", "--csv", path)
    for _ in range(pending):
        cli(kbo_bin, "ask", "--storage", url, "--study", "big", "--strategy", "random")


def check_sample(view, full, cap):
    """A capped view: the counts and best of the whole study, at most `cap` trials listed, among them every
    improvement of the best value so far, the best trial, every pending trial and the newest ones."""
    ids = [t["id"] for t in view["trials"]]
    assert view["n_shown"] == len(ids) == cap and ids == sorted(ids)
    for k in ("n_trials", "n_complete", "n_failed", "n_pending", "best_value", "best_trial"):
        assert view[k] == full[k], k
    improvements, best = [], None
    for t in full["trials"]:
        if t["state"] == "complete" and (best is None or t["value"] < best):
            best = t["value"]
            improvements.append(t["id"])
    assert set(improvements) | {full["best_trial"]} <= set(ids)
    assert {t["id"] for t in full["trials"] if t["state"] == "pending"} <= set(ids)
    assert ids[-cap // 4:] == [t["id"] for t in full["trials"]][-cap // 4:]
    # The rest is spread over the whole study: every tenth of it is represented.
    n = full["n_trials"]
    assert all(any(k * n // 10 <= i < (k + 1) * n // 10 for i in ids) for k in range(10))
    listed = {t["id"]: t for t in view["trials"]}
    assert all(listed[t["id"]] == t for t in full["trials"] if t["id"] in listed)  # each as `kbo show` has it


def test_views_of_a_large_study_list_a_sample_and_say_so(tmp_path, kbo_bin):
    url = f"sqlite:{tmp_path / 'big.db'}"
    make_large_study(kbo_bin, url, 3000)
    full = show(kbo_bin, url, "big")
    out = tmp_path / "r.html"
    p = cli(kbo_bin, "report", "--storage", url, "--study", "big", "-o", out, "--max-trials", 400)
    assert "3003 trials" in p.stdout and "lists 400 of them" in p.stdout, p.stdout
    check_sample(json.loads(data_block(out.read_text()))["view"], full, 400)
    cli(kbo_bin, "report", "--storage", url, "--study", "big", "-o", out, "--max-trials", 0)
    assert json.loads(data_block(out.read_text()))["view"]["n_shown"] == 3003
    with dashboard(kbo_bin, "--storage", url, "--max-trials", 500) as (proc, base):
        host = base.split("//")[1].rstrip("/")
        status, _, body = request(base, "/api/view?study=big", host)
        assert status == 200
        view = json.loads(body)
        check_sample(view, full, 500)
        # More than 250 complete trials: the model is fitted in the background, no view waits for it.
        deadline = time.monotonic() + 300
        while not view["analysis"]["model"]["ok"]:
            assert "being fitted" in view["analysis"]["model"]["reason"]
            assert time.monotonic() < deadline, "the background fit never finished"
            time.sleep(0.5)
            view = json.loads(request(base, "/api/view?study=big", host)[2])
        assert view["analysis"]["model"]["n_points"] == 1000  # kbo::kMaxModelPoints, the newest
        check_sample(view, full, 500)
        status, _, body = request(base, "/api/studies", host)
        assert json.loads(body) == [{"name": "big", "direction": "minimize", "n_trials": 3003, "n_complete": 3000,
                                     "n_failed": 0, "n_pending": 3, "best_value": full["best_value"]}]
        # A trial told later is seen (the cache follows the storage).
        pending = [t["id"] for t in full["trials"] if t["state"] == "pending"][0]
        cli(kbo_bin, "tell", "--storage", url, "--study", "big", "--trial", pending, "--value", -1)
        status, _, body = request(base, "/api/view?study=big", host)
        view = json.loads(body)
        assert view["n_complete"] == 3001 and view["best_value"] == -1 and view["best_trial"] == pending
        assert pending in [t["id"] for t in view["trials"]]

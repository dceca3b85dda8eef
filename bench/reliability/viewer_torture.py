"""The torture parts of `kbo report` and `kbo dashboard` (run by torture.py; docs/bench/reliability.md):

  dashboard-host    requests with another Host (DNS rebinding), each on the page and the API: answered = silent
                    acceptance; the allowed ones must be answered; every answer must carry the security headers
  report-markup     stored texts that look like markup (failure reasons): each report's data block must read back
                    exactly and hold the page's three scripts only, else it is garbled
  dashboard-stall   idle, half-sent and trickling connections held open while a normal request is made: a request
                    not answered within 10 s is a hang
  dashboard-large   a 100,000-trial study: peak memory and view latency (dashboard_bench.py), with the limits
                    300 MiB and 1 s (CPU time per view) counted as over_budget when exceeded
"""
import html.parser
import json
import os
import re
import socket
import time

import dashboard_bench

MARKUP = [
    "<!--<script> x",
    "</script><script>alert(1)</script>",
    "</SCRIPT >",
    "<\\/script>",
    "<!--",
    "-->",
    "<![CDATA[ ]]>",
    "<svg onload=alert(1)>",
    "<img src=x onerror=alert(1)>",
    "&lt;script&gt; &amp; &#60;",
    "\u2028\u2029 line separators",
    "{{DATA}} {{ECHARTS}} {{VIEWER_JS}} {{TITLE}}",
    "\"}]}</script>",
    "<style>body{display:none}</style>",
    "<meta http-equiv=refresh content=0;url=http://attacker.example>",
    "<base href=http://attacker.example/>",
]
HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options")


def _ensure(tally, *keys):
    for k in keys:
        tally.counts.setdefault(k, 0)


class _Scripts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"


def report_markup(kbo, work, tally):
    _ensure(tally, "garbled")
    db = work / "markup.db"
    storage = f"sqlite:{db}"
    dashboard_bench.run(kbo, "optimize", "--problem", "branin", "--strategy", "random", "--iters", 4, "--storage",
                        storage, "--study", "m")
    for text in MARKUP:
        asked = json.loads(dashboard_bench.run(kbo, "ask", "--storage", storage, "--study", "m"))
        dashboard_bench.run(kbo, "tell", "--storage", storage, "--study", "m", "--trial", asked["trial"], "--failed",
                            text)
    out = work / "markup.html"
    dashboard_bench.run(kbo, "report", "--storage", storage, "--study", "m", "-o", out)
    page = out.read_text(encoding="utf-8")
    parser = _Scripts()
    parser.feed(page)
    m = re.search(r'<script id="kbo-data" type="application/json">(.*?)</script>', page, re.S)
    reasons = {t.get("reason") for t in json.loads(m.group(1))["view"]["trials"]} if m else set()
    garbled = [t for t in MARKUP if t not in reasons]
    if parser.scripts != 3 or not m or set("<>&") & set(m.group(1)):
        garbled.append(f"page structure: {parser.scripts} script elements")
    for g in garbled:
        tally.add("garbled", note=f"report-markup: {g!r} not read back intact")
    return {"texts": len(MARKUP), "intact": len(MARKUP) - len([g for g in garbled if g in MARKUP]),
            "script_elements": parser.scripts, "garbled": len(garbled)}


def _request(port, path, host):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = f"GET {path} HTTP/1.1\r\n" + (f"Host: {host}\r\n" if host is not None else "") + "Connection: close\r\n\r\n"
    s.sendall(head.encode("latin-1"))
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {ln.split(":", 1)[0].strip().lower() for ln in lines[1:] if ":" in ln}
    return status, headers, body


def dashboard_host(kbo, work, tally):
    _ensure(tally, "missing_headers", "refused_good_hosts")
    db = work / "host.db"
    dashboard_bench.make_study(kbo, db, 10)
    result = {"bad_hosts_tried": 0, "refused": 0, "good_hosts_tried": 0, "answered": 0}
    with dashboard_bench.dashboard(kbo, db, "--allow-host", "dash.example.org") as (proc, port):
        # (Spaces around a header value are not part of it in HTTP: "127.0.0.1:PORT " is the good host.)
        good = [f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", "dash.example.org",
                f"dash.example.org:{port}", f"127.0.0.1:{port} "]
        bad = ["attacker.example", f"attacker.example:{port}", "127.0.0.1", "localhost", f"127.0.0.1:{port + 1}",
               f"0.0.0.0:{port}", f"[::1]:{port}", f"127.0.0.2:{port}", f"localhost.attacker.example:{port}",
               f"dash.example.org.attacker.example:{port}", f"attacker.example:{port}@127.0.0.1",
               f"127.0.0.1:{port}.attacker.example", "a" * 300, "", None,
               f"127.0.0.1:{port}, attacker.example", f"2130706433:{port}", f"127.1:{port}",
               f"[::ffff:127.0.0.1]:{port}"]
        for host in good + bad:
            for path in ("/", "/api/studies", "/api/view?study=big"):
                status, headers, body = _request(port, path, host)
                if set(HEADERS) - headers:
                    tally.add("missing_headers", note=f"dashboard-host: {host!r} {path} lacks {set(HEADERS) - headers}")
                if host in good:
                    result["good_hosts_tried"] += 1
                    result["answered"] += status == 200
                    if status != 200:
                        tally.add("refused_good_hosts", note=f"dashboard-host: {host!r} {path} got {status}")
                else:
                    result["bad_hosts_tried"] += 1
                    result["refused"] += status in (400, 403, 421)
                    if status == 200:
                        tally.add("silent_acceptances", note=f"dashboard-host: {host!r} {path} was answered")
    return result


def dashboard_stall(kbo, work, tally, rounds=3):
    db = work / "stall.db"
    dashboard_bench.make_study(kbo, db, 10)
    result = {"rounds": rounds, "idle": 8, "half_sent": 60, "trickling": 20, "answered": 0, "latency_s": []}
    with dashboard_bench.dashboard(kbo, db) as (proc, port):
        for _ in range(rounds):
            socks = []
            try:
                for _ in range(result["idle"]):
                    socks.append(socket.create_connection(("127.0.0.1", port), timeout=10))
                for _ in range(result["half_sent"]):
                    s = socket.create_connection(("127.0.0.1", port), timeout=10)
                    s.sendall(f"GET /api/studies HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
                    socks.append(s)
                trickle = []
                for _ in range(result["trickling"]):
                    s = socket.create_connection(("127.0.0.1", port), timeout=10)
                    s.sendall(b"GET /api/studies HTTP/1.1\r\n")
                    trickle.append(s)
                socks += trickle
                time.sleep(0.5)
                for s in trickle:  # a byte every half second keeps each read alive
                    try:
                        s.sendall(b"X")
                    except OSError:
                        pass
                try:
                    sec, status, _ = dashboard_bench.get(port, "/api/studies", timeout=10)
                    result["answered"] += status == 200
                    result["latency_s"].append(round(sec, 3))
                except (socket.timeout, TimeoutError, OSError) as e:
                    tally.add("hangs", note=f"dashboard-stall: a request was not answered within 10 s ({e})")
            finally:
                for s in socks:
                    s.close()
            time.sleep(1.0)
        if proc.poll() is not None:
            tally.add("crashes", note=f"dashboard-stall: the dashboard exited ({proc.returncode})")
    return result


def dashboard_large(kbo, work, tally, trials):
    _ensure(tally, "over_budget")
    out = dashboard_bench.large_study(kbo, work, trials, views=3)
    if out["peak_rss_mib"] > 300:
        tally.add("over_budget", note=f"dashboard-large: peak RSS {out['peak_rss_mib']} MiB > 300 MiB")
    # Latency as the CPU time each view cost (wall time on a shared machine measures the other jobs).
    cpu = out["view_repeated"]["cpu_s"] + [out["view_first"]["cpu_s"], out["view_after_tell"]["cpu_s"]]
    for sec in cpu:
        if sec > 1.0:
            tally.add("over_budget", note=f"dashboard-large: a view cost {sec} s of CPU > 1 s "
                                          f"(load {os.getloadavg()[0]:.1f})")
    return out


def run_parts(only, kbo, work, tally, report, dashboard_trials=100000):
    """Runs the parts of this file named in `only` into `report`."""
    if "dashboard-host" in only:
        report["dashboard_host"] = dashboard_host(kbo, work, tally)
    if "report-markup" in only:
        report["report_markup"] = report_markup(kbo, work, tally)
    if "dashboard-stall" in only:
        report["dashboard_stall"] = dashboard_stall(kbo, work, tally)
    if "dashboard-large" in only:
        report["dashboard_large"] = dashboard_large(kbo, work, tally, dashboard_trials)


PARTS = "dashboard-host,report-markup,dashboard-stall,dashboard-large"

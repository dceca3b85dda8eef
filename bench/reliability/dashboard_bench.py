#!/usr/bin/env python3
"""`kbo dashboard` under load (docs/bench/reliability.md, "Dashboard"): a large study's views and stalled clients.

    bench/reliability/dashboard_bench.py [--kbo build/kbo] [--trials 100000] [--views 5] [--out DIR]

large study: a SQLite study of --trials complete trials (imported from CSV) and one pending trial; the dashboard's
  peak resident memory (VmHWM of /proc/PID/status) and the latency of /api/studies and /api/view, as wall time and
  as the CPU time the dashboard spent on the request (outside its background fit thread; on a loaded machine the
  CPU time is the better estimate of a quiet machine's latency): the first view (reads the study; the model is
  fitted in the background), repeated views, and a view after a trial was told (the study changed).
stalled clients: the latency of /api/studies on a small study unloaded and with 8 idle connections and 60
  half-sent requests open, measured alternately in the same run (median of 5 each) and given as a ratio.

Writes DIR/dashboard.json and prints Markdown rows. Python standard library only."""
import argparse
import contextlib
import http.client
import json
import os
import pathlib
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


def run(kbo, *args):
    p = subprocess.run([kbo, *map(str, args)], capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        raise RuntimeError(f"kbo {' '.join(map(str, args))}: {p.stderr.strip()}")
    return p.stdout


def make_study(kbo, db, n, seed=0):
    """`n` complete trials on Branin's box (random points and values) and one pending trial."""
    rng = random.Random(seed)
    csv = db.with_suffix(".csv")
    with open(csv, "w") as f:
        f.write("x0,x1,value\n")
        for _ in range(n):
            f.write(f"{rng.uniform(-5, 10)!r},{rng.uniform(0, 15)!r},{rng.uniform(0, 300)!r}\n")
    run(kbo, "import", "--storage", db, "--study", "big", "--problem", "branin", "--csv", csv)
    return json.loads(run(kbo, "ask", "--storage", db, "--study", "big", "--strategy", "random"))["trial"]


@contextlib.contextmanager
def dashboard(kbo, db, *extra):
    p = subprocess.Popen([kbo, "dashboard", "--port", "0", "--storage", str(db), *extra], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    try:
        line = p.stdout.readline()
        if not line.startswith("kbo dashboard: http://"):
            raise RuntimeError(f"dashboard did not start: {line} {p.stderr.read() if p.poll() is not None else ''}")
        yield p, int(line.split()[2].rstrip("/").rsplit(":", 1)[1])
    finally:
        p.terminate()
        p.wait(timeout=30)


def get(port, path, timeout=120):
    """(seconds, status, body bytes) of one GET."""
    t0 = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", path)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return time.monotonic() - t0, r.status, body


def memory(pid):
    """(VmHWM, VmRSS) in MiB."""
    fields = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        fields[k] = v.strip()
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmHWM", "VmRSS"))


def cpu_seconds(pid):
    """(CPU seconds of the process, of its background model-fit thread "kbo-fit"): utime + stime."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(path):
        fields = pathlib.Path(path).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick

    fit = 0.0
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            if (task / "comm").read_text().strip() == "kbo-fit":
                fit += stat(task / "stat")
        except OSError:
            pass
    return stat(f"/proc/{pid}/stat"), fit


def timed(proc, port, path):
    """(wall seconds, CPU seconds of the dashboard outside its fit thread, status, body) of one GET: the CPU
    time is what the request cost, whatever else the machine runs."""
    c0, f0 = cpu_seconds(proc.pid)
    sec, status, body = get(port, path)
    c1, f1 = cpu_seconds(proc.pid)
    return round(sec, 3), round((c1 - c0) - (f1 - f0), 3), status, body


def large_study(kbo, work, trials, views):
    db = work / "big.db"
    t0 = time.monotonic()
    pending = make_study(kbo, db, trials)
    made = time.monotonic() - t0
    out = {"trials": trials + 1, "create_seconds": round(made, 1)}
    with dashboard(kbo, db) as (proc, port):
        out["rss_at_start_mib"] = round(memory(proc.pid)[1], 1)
        sec, cpu, status, body = timed(proc, port, "/api/studies")
        assert status == 200 and json.loads(body)[0]["n_trials"] == trials + 1
        out["studies_first"] = {"wall_s": sec, "cpu_s": cpu}
        sec, cpu, status, body = timed(proc, port, "/api/view?study=big")
        assert status == 200
        out["view_first"] = {"wall_s": sec, "cpu_s": cpu}
        t0 = time.monotonic()
        while not json.loads(body)["analysis"]["model"]["ok"]:  # the background fit (views do not wait)
            time.sleep(0.5)
            body = get(port, "/api/view?study=big")[2]
        out["model_ready_after_s"] = round(time.monotonic() - t0, 1)
        rep = [timed(proc, port, "/api/view?study=big")[:2] for _ in range(views)]
        out["view_repeated"] = {"wall_s": [w for w, _ in rep], "cpu_s": [c for _, c in rep]}
        view = json.loads(get(port, "/api/view?study=big")[2])
        out["view_bytes"] = len(json.dumps(view))
        out["n_shown"] = view["n_shown"]
        sec, cpu, _, _ = timed(proc, port, "/api/studies")
        out["studies_repeated"] = {"wall_s": sec, "cpu_s": cpu}
        # The study changes: a trial is told, so the next view reads it again (and queues a refit).
        run(kbo, "tell", "--storage", db, "--study", "big", "--trial", pending, "--value", -1)
        sec, cpu, status, body = timed(proc, port, "/api/view?study=big")
        assert status == 200 and json.loads(body)["best_value"] == -1
        out["view_after_tell"] = {"wall_s": sec, "cpu_s": cpu}
        hwm, rss = memory(proc.pid)
        out["peak_rss_mib"], out["rss_after_mib"] = round(hwm, 1), round(rss, 1)
    return out


def stalled_clients(kbo, work, idle=8, half=60, rounds=5):
    db = work / "small.db"
    make_study(kbo, db, 20, seed=1)
    with dashboard(kbo, db) as (proc, port):
        get(port, "/api/studies")  # warm the cache
        unloaded, loaded, answered = [], [], 0
        for _ in range(rounds):
            unloaded.append(get(port, "/api/studies", timeout=60)[0])
            socks = []
            try:
                for _ in range(idle):
                    socks.append(socket.create_connection(("127.0.0.1", port), timeout=10))
                for _ in range(half):
                    s = socket.create_connection(("127.0.0.1", port), timeout=10)
                    s.sendall(f"GET /api/studies HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
                    socks.append(s)
                time.sleep(0.2)
                sec, status, _ = get(port, "/api/studies", timeout=60)
                answered += status == 200
                loaded.append(sec)
            finally:
                for s in socks:
                    s.close()
            time.sleep(0.5)
    mu, ml = statistics.median(unloaded), statistics.median(loaded)
    return {"idle": idle, "half_sent": half, "rounds": rounds, "answered": answered,
            "unloaded_median_s": round(mu, 4), "loaded_median_s": round(ml, 4), "ratio": round(ml / mu, 2),
            "loaded_max_s": round(max(loaded), 4)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kbo", default=str(HERE.parents[1] / "build" / "kbo"))
    ap.add_argument("--trials", type=int, default=100000)
    ap.add_argument("--views", type=int, default=5)
    ap.add_argument("--out", default="dashboard-bench-out")
    args = ap.parse_args()
    kbo = str(pathlib.Path(args.kbo).resolve())
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kbo_dashboard_bench_") as tmp:
        work = pathlib.Path(tmp)
        report = {"load_before": os.getloadavg(), "large": large_study(kbo, work, args.trials, args.views),
                  "stalled": stalled_clients(kbo, work), "load_after": os.getloadavg()}
    (out / "dashboard.json").write_text(json.dumps(report, indent=1))
    big, st = report["large"], report["stalled"]
    print(f"| large study ({big['trials']} trials, SQLite) | peak RSS {big['peak_rss_mib']} MiB (after: "
          f"{big['rss_after_mib']} MiB); view wall/CPU s: first {big['view_first']}, repeated "
          f"{big['view_repeated']}, after a tell {big['view_after_tell']}; /api/studies first "
          f"{big['studies_first']}, repeated {big['studies_repeated']}; model ready "
          f"{big['model_ready_after_s']} s after the first view; {big['n_shown']} trials listed, "
          f"{big['view_bytes']} bytes |")
    print(f"| stalled clients ({st['idle']} idle + {st['half_sent']} half-sent) | {st['answered']} of {st['rounds']} "
          f"answered; median {st['loaded_median_s']} s vs {st['unloaded_median_s']} s unloaded (ratio "
          f"{st['ratio']}), max {st['loaded_max_s']} s |")
    print(f"load average before/after: {report['load_before']} / {report['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

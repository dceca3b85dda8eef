#!/usr/bin/env python3
"""Torture test of the kbo CLI (docs/bench/reliability.md): kill -9 during optimize, ask and tell; many
workers on one study (SQLite and PostgreSQL); hundreds of malformed inputs. It counts what must stay zero:
completed trials lost, trials duplicated, crashes, hangs and malformed inputs silently accepted.

    bench/reliability/torture.py [--kbo build/kbo] [--out DIR]
        [--only kill9-optimize,kill9-asktell,workers,malformed,regressions,stale-kill]
        [--kills 100] [--stale-kills 200] [--workers 16] [--trials 1000] [--pg-bin DIR] [--seed 0]
        [--frozen-limit 60] [--freeze 75] [--dashboard-trials 100000]
    (--only also takes the report/dashboard parts of viewer_torture.py: dashboard-host, report-markup,
     dashboard-stall, dashboard-large)

Writes DIR/reliability.json and prints a Markdown summary. Python standard library only."""
import argparse
import json
import os
import pathlib
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

import viewer_torture

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import regressions  # noqa: E402  (the cases of defects found under torture)

# The objective: reads {"trial": id, "x": [...]} on stdin, sleeps a little, appends "id value" to a ledger
# (what was evaluated) and prints the value. The ledger lets the check tell evaluated from recorded.
OBJECTIVE = """#!/usr/bin/env python3
import json, os, sys, time
msg = json.load(sys.stdin)
x = msg["x"]
time.sleep(float(os.environ.get("TORTURE_SLEEP", "0.02")))
v = sum((xi - 0.3) ** 2 for xi in x)
with open(os.environ["TORTURE_LEDGER"], "a") as f:
    f.write(f"{msg['trial']} {v!r}\\n")
print(v)
"""


def run(cmd, timeout=60, env=None, **kw):
    """(returncode, stdout, stderr, hung) of a command; a command past `timeout` is killed and counted hung."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, **kw)
        return p.returncode, p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        text = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, text(e.stdout), text(e.stderr), True


def show(kbo, storage, study):
    rc, out, err, hung = run([kbo, "show", "--storage", storage, "--study", study, "--json"], timeout=120)
    if rc != 0:
        raise RuntimeError(f"kbo show failed ({rc}): {err.strip()}")
    return json.loads(out)


def complete_trials(snapshot):
    return {t["id"]: (tuple(t["x"]), t["value"]) for t in snapshot["trials"] if t["state"] == "complete"}


class Tally:
    def __init__(self):
        self.counts = {"lost": 0, "duplicated": 0, "crashes": 0, "hangs": 0, "silent_acceptances": 0}
        self.notes = []

    def add(self, key, n=1, note=None):
        self.counts[key] += n
        if note and len(self.notes) < 50:
            self.notes.append(note)


def is_crash(rc):
    return rc is not None and (rc < 0 or rc >= 128 and rc not in (130, 143))


def check_monotone(before, after, tally, where):
    """Every trial complete in `before` is still complete, with the same point and value, in `after`."""
    for tid, xv in before.items():
        if after.get(tid) != xv:
            tally.add("lost", note=f"{where}: trial {tid} was complete {xv}, now {after.get(tid)}")


def check_no_duplicates(snapshot, tally, where):
    ids = [t["id"] for t in snapshot["trials"]]
    if len(ids) != len(set(ids)):
        tally.add("duplicated", len(ids) - len(set(ids)), f"{where}: repeated trial ids")


def sqlite_integrity(path, tally, where):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        tally.add("lost", note=f"{where}: integrity_check: {result}")


def kill9_optimize(kbo, work, kills, rng, tally):
    """kill -9 of `kbo optimize` at random moments, each followed by the same command (resume)."""
    db = work / "k9o.db"
    storage, study = f"sqlite:{db}", "k9o"
    env = dict(os.environ, TORTURE_LEDGER=str(work / "k9o.ledger"))
    cmd = [kbo, "optimize", "--objective", str(work / "objective.py"), "--bounds", "0:1,0:1,0:1", "--iters",
           str(kills + 20), "--storage", storage, "--study", study]
    before = {}
    for k in range(kills):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        time.sleep(rng.uniform(0.05, 0.6))
        p.send_signal(signal.SIGKILL)
        p.wait()
        if db.exists():
            after = complete_trials(show(kbo, storage, study))
            check_monotone(before, after, tally, f"kill9-optimize #{k}")
            before = after
    rc, out, err, hung = run(cmd, timeout=600, env=env)
    if hung:
        tally.add("hangs", note="kill9-optimize: final resume hung")
    elif rc != 0:
        tally.add("crashes" if is_crash(rc) else "lost", note=f"kill9-optimize: final resume exit {rc}: {err.strip()[-300:]}")
    final = show(kbo, storage, study)
    check_monotone(before, complete_trials(final), tally, "kill9-optimize final")
    check_no_duplicates(final, tally, "kill9-optimize")
    sqlite_integrity(db, tally, "kill9-optimize")
    return {"kills": kills, "trials": len(final["trials"]), "complete": final["n_complete"],
            "budget": final.get("budget"), "pending_left": final["n_pending"]}


def kill9_asktell(kbo, work, kills, rng, tally):
    """kill -9 of `kbo ask` and `kbo tell` at random moments; a tell that returned 0 must be in the study."""
    db = work / "k9a.db"
    storage, study = f"sqlite:{db}", "k9a"
    base = ["--storage", storage, "--study", study]
    rc, out, err, hung = run([kbo, "optimize", "--problem", "branin", "--iters", "0", *base])
    if rc != 0:
        raise RuntimeError(f"kill9-asktell setup failed: {err}")
    told, before = {}, complete_trials(show(kbo, storage, study))
    for k in range(kills):
        # An ask, killed at a random moment (it may or may not have created its trial).
        p = subprocess.Popen([kbo, "ask", *base], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        time.sleep(rng.uniform(0.0, 0.15))
        p.send_signal(signal.SIGKILL)
        p.wait()
        # A full ask, then a tell killed at a random moment.
        rc, out, err, hung = run([kbo, "ask", *base])
        if hung or rc != 0:
            tally.add("hangs" if hung else "crashes", note=f"kill9-asktell ask #{k}: {rc} {err.strip()[-200:]}")
            continue
        trial = json.loads(out.strip().splitlines()[-1])
        value = round(rng.uniform(0, 10), 6)
        p = subprocess.Popen([kbo, "tell", *base, "--trial", str(trial["trial"]), "--value", repr(value)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 0.05))
        p.send_signal(signal.SIGKILL)
        rc = p.wait()
        if rc == 0:
            told[trial["trial"]] = value
        after = complete_trials(show(kbo, storage, study))
        check_monotone(before, after, tally, f"kill9-asktell #{k}")
        before = after
    final = show(kbo, storage, study)
    values = {t["id"]: t["value"] for t in final["trials"] if t["state"] == "complete"}
    for tid, v in told.items():
        if values.get(tid) != v:
            tally.add("lost", note=f"kill9-asktell: tell of trial {tid} returned 0 but the study has {values.get(tid)}")
    check_no_duplicates(final, tally, "kill9-asktell")
    sqlite_integrity(db, tally, "kill9-asktell")
    return {"kills": 2 * kills, "tells_acknowledged": len(told), "trials": len(final["trials"])}


def many_workers(kbo, work, storage, label, workers, trials, tally, strategy):
    """`kbo optimize --workers N` to `trials` trials; every evaluated result must be recorded exactly once."""
    ledger = work / f"{label}.ledger"
    env = dict(os.environ, TORTURE_LEDGER=str(ledger), TORTURE_SLEEP="0.05")
    study = f"w_{label}"
    cmd = [kbo, "optimize", "--objective", str(work / "objective.py"), "--bounds", "0:1,0:1,0:1", "--init", "5",
           "--iters", str(trials - 5), "--workers", str(workers), "--storage", storage, "--study", study]
    if strategy:
        cmd += ["--strategy", strategy]
    start = time.time()
    rc, out, err, hung = run(cmd, timeout=7200, env=env)
    elapsed = time.time() - start
    if hung:
        tally.add("hangs", note=f"workers {label}: hung")
    elif rc != 0:
        tally.add("crashes" if is_crash(rc) else "lost", note=f"workers {label}: exit {rc}: {err.strip()[-300:]}")
    final = show(kbo, storage, study)
    check_no_duplicates(final, tally, f"workers {label}")
    recorded = {t["id"]: t for t in final["trials"]}
    evaluated = [line.split() for line in ledger.read_text().splitlines()] if ledger.exists() else []
    seen = set()
    dropped = duplicated = 0
    for tid, value in evaluated:
        tid = int(tid)
        if tid in seen:
            duplicated += 1
        seen.add(tid)
        t = recorded.get(tid)
        if t is None or t["state"] != "complete" or abs(t["value"] - float(value)) > 1e-12 * max(1, abs(float(value))):
            dropped += 1
    if dropped:
        tally.add("lost", dropped, f"workers {label}: {dropped} evaluated results not recorded")
    if duplicated:
        tally.add("duplicated", duplicated, f"workers {label}: {duplicated} trials evaluated twice")
    return {"storage": label, "workers": workers, "trials": len(final["trials"]), "complete": final["n_complete"],
            "evaluated": len(evaluated), "dropped": dropped, "evaluated_twice": duplicated,
            "worker_lost_retries": sum(1 for t in final["trials"] if t.get("reason") == "worker lost"),
            "seconds": round(elapsed, 1), "strategy": strategy or "default"}


class PostgresCluster:
    """A throw-away cluster (initdb in a temp dir, a free port, as `postgres` when run as root)."""

    def __init__(self, pg_bin):
        self.bin = pathlib.Path(pg_bin)
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="kbo_torture_pg_"))
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        subprocess.run([*self.as_user, self.bin / "initdb", "-D", self.dir / "data", "-A", "trust", "-U", "kbo"],
                       check=True, capture_output=True)
        subprocess.run([*self.as_user, self.bin / "pg_ctl", "-D", self.dir / "data", "-l", self.dir / "log", "-w",
                        "-o", f"-k {self.dir} -p {self.port} -c listen_addresses=127.0.0.1 -c max_connections=200",
                        "start"], check=True, capture_output=True)
        self.url = f"postgresql://kbo@127.0.0.1:{self.port}/postgres"

    def new_database(self, prefix):
        """A fresh database of this cluster (its URL)."""
        self.counter = getattr(self, "counter", 0) + 1
        name = f"{prefix}_{self.counter}"
        self.psql(self.url, f"CREATE DATABASE {name}")
        return f"postgresql://kbo@127.0.0.1:{self.port}/{name}"

    def psql(self, url, sql):
        subprocess.run(["psql", url, "-q", "-c", sql], check=True, capture_output=True)

    def signal_all(self, sig):
        """`sig` to the postmaster and every process it started (SIGSTOP: a hung server whose connections stay open)."""
        postmaster = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])
        pids = [postmaster]
        for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == postmaster:
                pids.append(int(stat.parent.name))
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass

    def close(self):
        subprocess.run([*self.as_user, self.bin / "pg_ctl", "-D", self.dir / "data", "-m", "fast", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


def malformed_cases(work):
    """(label, argv, stdin) of inputs that must be refused: exit 2 with a one-line message."""
    cases = []
    base = ["optimize", "--problem", "branin", "--iters", "1"]
    values = {"integer": ["abc", "1.5", "99999999999999999999", "", "-1", "3abc", "1e3"],
              "number": ["abc", "nan", "inf", "-inf", "1e999", "", "1,5"],
              "text": ["no-such-name", ""],
              "JSON object": ["{", "[1]", '{"no_such_section": {}}', "null", '"text"', '{"bo": 3}',
                              '{"bo": {"no_such_key": 1}}']}
    free_text = {"study", "objective", "config", "failed"}  # any text is a valid value of these
    valid_negative = {"value"}  # a told value may be any finite number
    ask = ["ask", "--storage", f"sqlite:{work / 'tell.db'}", "--study", "t"]
    for line in (work / "options.md").read_text().splitlines():
        if not line.startswith("| `--"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        name, kind = cells[0].strip("`")[2:], cells[1]
        if name in free_text or kind == "flag":
            continue
        for v in values.get(kind, []):
            if v.startswith("-") and name in valid_negative:
                continue
            cases.append((f"optimize --{name} {v!r}", [*base, f"--{name}", v], None))
            cases.append((f"ask --{name} {v!r}", [*ask, f"--{name}", v], None))
    for flag in ["--no-such-flag", "--iter", "--itres", "-z", "--storag", "--strategy"]:
        cases.append((f"unknown/incomplete flag {flag}", [*base, flag], None))
    for url in ["sqlite:", "mysql://x", "postgresql://nobody@127.0.0.1:1/none", "sqlite:/nonexistent/dir/x.db",
                "memory:x", "://", "sqlite://", "postgresql://"]:
        cases.append((f"storage {url}", [*base, "--storage", url], None))
    for bounds in ["0:1,", "1:0", "0:0", "a:b", "0:1:2", "nan:1", "0:inf", "-1e308:1e308", ",", "0;1"]:
        cases.append((f"bounds {bounds}", ["optimize", "--objective", "true", "--bounds", bounds, "--iters", "1"], None))
    configs = {
        "syntax": "iters = \n", "unknown key": "itres = 3\n", "wrong type": 'iters = "many"\n',
        "negative": "iters = -4\n", "bad enum": 'acq = "xx"\n', "bad table": "[bo]\nprior_mean = 3\n",
        "duplicate": "iters = 1\niters = 2\n", "array": "iters = [1]\n", "bad options": 'options = "{"\n',
        "nan": "beta = nan\n", "bad storage": 'storage = "x"\n', "unicode": "itérations = 1\n",
    }
    for label, text in configs.items():
        path = work / f"bad_{len(cases)}.toml"
        path.write_text('problem = "branin"\n' + text)
        cases.append((f"config {label}", ["optimize", "--config", str(path)], None))
    cases.append(("config missing file", ["optimize", "--config", str(work / "none.toml")], None))
    csvs = {"ragged": "x0,x1,y\n1,2,3\n1,2\n", "text cell": "x0,y\nabc,1\n", "nan": "x0,y\nnan,1\n2,3\n",
            "empty": "", "header only": "x0,y\n", "one column": "y\n1\n2\n", "inf": "x0,y\n1,inf\n2,3\n"}
    for label, text in csvs.items():
        path = work / f"bad_{len(cases)}.csv"
        path.write_text(text)
        cases.append((f"gp csv {label}", ["gp", "--train", str(path), "--test", str(path)], None))
    good = work / "good.csv"
    good.write_text("x0,y\n0.1,1\n0.5,2\n0.9,0\n")
    for flag, v in [("--seed", "-1"), ("--seed", "1.5"), ("--restarts", "-3")]:
        cases.append((f"gp {flag} {v}", ["gp", "--train", str(good), "--test", str(good), flag, v], None))
    cases.append(("gp missing csv", ["gp", "--train", str(work / "none.csv"), "--test", str(work / "none.csv")], None))
    for v in ["abc", "nan", "inf", "-inf", "1e400", "1e-400", ""]:
        cases.append((f"tell --value {v!r}", ["tell", "--storage", f"sqlite:{work / 'tell.db'}", "--study", "t",
                                             "--trial", "0", "--value", v], None))
    for t in ["-1", "999", "abc", "1.5"]:
        cases.append((f"tell --trial {t}", ["tell", "--storage", f"sqlite:{work / 'tell.db'}", "--study", "t",
                                           "--trial", t, "--value", "1"], None))
    for args in [["ask"], ["ask", "--storage", f"sqlite:{work / 'tell.db'}", "--study", "nope"],
                 ["show", "--storage", f"sqlite:{work / 'none.db'}", "--study", "x"], ["show"],
                 ["kfo", "--data", "nonexistent.csv"], ["bench", "kfo", "--svm-datasets", "nosuchset"],
                 ["nosuchcommand"], ["bench", "nosuchbench"]]:
        cases.append((" ".join(args), args, None))
    return cases


def malformed(kbo, work, tally):
    subprocess.run([kbo, "optimize", "--problem", "branin", "--iters", "0", "--storage",
                    f"sqlite:{work / 'tell.db'}", "--study", "t"], capture_output=True)
    (work / "options.md").write_text(subprocess.run([kbo, "options"], capture_output=True, text=True).stdout)
    rows = []
    for label, argv, stdin in malformed_cases(work):
        rc, out, err, hung = run([kbo, *argv], timeout=60, cwd=work)
        lines = [l for l in err.splitlines() if l.strip()]
        verdict = "refused"
        if hung:
            verdict = "hang"
            tally.add("hangs", note=f"malformed {label}: hung")
        elif is_crash(rc):
            verdict = "crash"
            tally.add("crashes", note=f"malformed {label}: exit {rc}: {err.strip()[-200:]}")
        elif rc == 0:
            verdict = "accepted"
            tally.add("silent_acceptances", note=f"malformed {label}: exit 0")
        elif rc != 2 or len(lines) != 1:
            verdict = f"exit {rc}, {len(lines)} stderr lines"
        rows.append({"input": label, "exit": rc, "verdict": verdict, "stderr": lines[-1] if lines else ""})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kbo", default=str(HERE.parents[1] / "build" / "kbo"))
    ap.add_argument("--out", default="reliability-out")
    ap.add_argument("--only", default="kill9-optimize,kill9-asktell,workers,malformed,regressions,stale-kill,"
                    + viewer_torture.PARTS)
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--strategy", default="", help="strategy of the many-workers runs (default: kbo's default)")
    ap.add_argument("--pg-bin", default=str(next(iter(sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"))), "")))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stale-kills", type=int, default=200, help="kill points of the stale-kill part, per storage")
    ap.add_argument("--frozen-limit", type=float, default=60,
                    help="reconnect limit of the frozen-server case (60: kbo's own; less sets the test hook)")
    ap.add_argument("--freeze", type=float, default=75, help="seconds the server is frozen (SIGSTOP)")
    ap.add_argument("--dashboard-trials", type=int, default=100000, help="trials of the dashboard-large study")
    args = ap.parse_args()
    kbo = str(pathlib.Path(args.kbo).resolve())
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="kbo_torture_"))
    (work / "objective.py").write_text(OBJECTIVE)
    (work / "objective.py").chmod(0o755)
    rng = random.Random(args.seed)
    tally = Tally()
    report = {"kbo": kbo, "args": vars(args)}
    only = set(args.only.split(","))
    try:
        if "kill9-optimize" in only:
            report["kill9_optimize"] = kill9_optimize(kbo, work, args.kills, rng, tally)
        if "kill9-asktell" in only:
            report["kill9_asktell"] = kill9_asktell(kbo, work, args.kills, rng, tally)
        if "workers" in only:
            report["workers"] = [many_workers(kbo, work, f"sqlite:{work / 'workers.db'}", "sqlite", args.workers,
                                              args.trials, tally, args.strategy)]
            if args.pg_bin:
                pg = PostgresCluster(args.pg_bin)
                try:
                    report["workers"].append(many_workers(kbo, work, pg.url, "postgresql", args.workers,
                                                          args.trials, tally, args.strategy))
                finally:
                    pg.close()
        if "malformed" in only:
            report["malformed"] = malformed(kbo, work, tally)
        counts = regressions.Counts()
        if "regressions" in only or "stale-kill" in only:
            pg = PostgresCluster(args.pg_bin) if args.pg_bin else None
            try:
                if "regressions" in only:
                    report["regressions"] = regressions.regressions(kbo, work, pg, counts, args.frozen_limit,
                                                                    args.freeze)
                if "stale-kill" in only:
                    report["stale_kill"] = [regressions.stale_kill(kbo, work, f"sqlite:{work / 'stale_kill.db'}",
                                                                   "SQLite", args.stale_kills, rng, counts)]
                    if pg:
                        report["stale_kill"].append(regressions.stale_kill(kbo, work, pg.new_database("stale_kill"),
                                                                           "PostgreSQL", args.stale_kills, rng, counts))
            finally:
                if pg:
                    pg.close()
            report["regression_counts"] = counts.c
            report["regression_cases"] = counts.rows
        viewer_torture.run_parts(only, kbo, work, tally, report, args.dashboard_trials)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["counts"] = tally.counts
    report["notes"] = tally.notes
    (out / "reliability.json").write_text(json.dumps(report, indent=1))
    print("| what | count |\n|---|---|")
    for k, v in tally.counts.items():
        print(f"| {k.replace('_', ' ')} | {v} |")
    if "malformed" in report:
        rows = report["malformed"]
        print(f"\nmalformed inputs: {len(rows)}; refused with exit 2 and one line: "
              f"{sum(r['verdict'] == 'refused' for r in rows)}")
        for r in rows:
            if r["verdict"] != "refused":
                print(f"- {r['input']}: {r['verdict']}: {r['stderr'][:160]}")
    for n in tally.notes:
        print("note:", n)
    if "regression_counts" in report:
        c = report["regression_counts"]
        print("\n| regression counts | |\n|---|---|")
        for k, v in c.items():
            print(f"| {k.replace('_', ' ')} | {v} |")
        for row in report["regression_cases"]:
            print(f"- item {row['item']}, {row['kind']}: {row['case']}: {'ok' if row['ok'] else 'NOT OK'}"
                  + ("" if row["ok"] else f" ({row['detail'][:200]})"))
        for s in report.get("stale_kill", []):
            print(f"- stale-kill {s['storage']}: {s['kills']} kills ({s['kills_between_ask_and_heartbeat']} left a trial "
                  f"between ask and first heartbeat), final exit {s['exit']}, {s['complete']} of {s['budget']} complete, "
                  f"{s['stuck_pending']} stuck pending, {s['worker_lost_retries']} worker-lost retries")
        bad = c["faults_injected"] - c["faults_survived"] + c["bad_inputs_tried"] - c["clean_errors"]
        if bad or c["lost"] or c["duplicated"] or c["stuck"] or c["silent_acceptances"]:
            return 1
    return 0 if not any(tally.counts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())

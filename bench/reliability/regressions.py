"""Regression cases of the torture suite (bench/reliability/torture.py --only regressions,stale-kill): each
defect found under torture gets a case that injects the fault or the bad input again and says whether kbo
survived it (a fault) or refused it cleanly (a bad input: exit 2 and one line). Counts feed the report's
faults injected/survived, bad inputs tried/clean errors/silent acceptances and lost/duplicated/stuck.

Cases are grouped by part name; parts of other areas (e.g. the dashboard's Host check, report embedding,
connection limits, large studies) add their own entries to CASES without touching these."""
import json
import os
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parents[1] / "tests" / "fixtures"


class Counts:
    """What the regression parts report (the same keys for every case)."""

    def __init__(self):
        self.c = {"faults_injected": 0, "faults_survived": 0, "bad_inputs_tried": 0, "clean_errors": 0,
                  "silent_acceptances": 0, "lost": 0, "duplicated": 0, "stuck": 0}
        self.rows = []

    def fault(self, item, label, survived, detail=""):
        self.c["faults_injected"] += 1
        self.c["faults_survived"] += bool(survived)
        self.rows.append({"item": item, "case": label, "kind": "fault", "ok": bool(survived), "detail": detail[-300:]})

    def bad_input(self, item, label, rc, stderr, accepted=False):
        self.c["bad_inputs_tried"] += 1
        lines = [l for l in (stderr or "").splitlines() if l.strip()]
        clean = not accepted and rc == 2 and len(lines) == 1
        self.c["clean_errors"] += clean
        self.c["silent_acceptances"] += accepted
        self.rows.append({"item": item, "case": label, "kind": "bad input", "ok": clean,
                          "detail": (lines[-1] if lines else f"exit {rc}")[-300:]})


def run(cmd, timeout=300, env=None, **kw):
    try:
        p = subprocess.run([str(c) for c in cmd], capture_output=True, timeout=timeout, env=env, **kw)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        return None, "", f"timed out after {timeout} s"


def show_json(kbo, storage, study):
    rc, out, err = run([kbo, "show", "--storage", storage, "--study", study, "--json"])
    return json.loads(out) if rc == 0 else None


def script(work, name, body):
    p = work / name
    p.write_bytes(b"#!/bin/sh\n" + body)
    p.chmod(0o755)
    return p


# ---- item 1: a running trial without a heartbeat row -------------------------------------------------------

def insert_trial_without_heartbeat(storage, study, pg=None):
    """The row a worker killed between its ask and its first heartbeat leaves (created two minutes ago)."""
    sql = ("INSERT INTO trials(study_id, number, x, state, worker, created_at) "
           "SELECT s.id, (SELECT COUNT(*) FROM trials t WHERE t.study_id = s.id), '[1.0, 2.0]', 'pending', "
           "'worker@elsewhere:4242', {now} - 120 FROM studies s WHERE s.name = '{study}'")
    sql = sql.format(now=time.time(), study=study)
    if storage.startswith("sqlite:"):
        with sqlite3.connect(storage[len("sqlite:"):]) as db:
            db.execute(sql)
    else:
        pg.psql(storage, sql)


def case_stale_trial(kbo, work, counts, storage, label, pg=None):
    base = ["--storage", storage, "--study", "stale"]
    run([kbo, "optimize", "--problem", "branin", "--init", "2", "--iters", "0", "--strategy", "random", *base])
    insert_trial_without_heartbeat(storage, "stale", pg)
    rc, out, err = run([kbo, "optimize", "--problem", "branin", "--init", "2", "--iters", "4", "--strategy", "random",
                        "--workers", "2", "--stale-after", "5", "--json", *base], timeout=600)
    j = json.loads(out) if rc == 0 else {}
    ok = rc == 0 and j.get("n_complete") == 6 and j.get("n_pending") == 0
    counts.c["stuck"] += 0 if ok else max(1, j.get("n_pending", 1))
    counts.fault(1, f"running trial without heartbeat row, then optimize --workers 2 ({label})", ok,
                 err if rc else f"n_complete {j.get('n_complete')}, n_pending {j.get('n_pending')}")


# ---- item 2: a byte that is not UTF-8 in an objective's stderr --------------------------------------------

LATIN1 = (b"read l\nx=$(echo \"$l\" | sed 's/.*\\[\\([^],]*\\).*/\\1/')\nprintf 'M\\374ller\\n' >&2\n"
          b"if awk \"BEGIN{exit !($x < 0.5)}\"; then exit 3; fi\necho \"$x\"\n")


def case_latin1_stderr(kbo, work, counts, storage, label, workers):
    obj = script(work, "latin1.sh", LATIN1)
    rc, out, err = run([kbo, "optimize", "--objective", obj, "--bounds", "0:1", "--init", "4", "--iters", "8",
                        "--strategy", "random", "--fail-fast", "0", "--workers", str(workers), "--json",
                        "--storage", storage, "--study", "latin1"], timeout=600)
    try:
        j = json.loads(out)
    except ValueError:
        j = {}
    shown = show_json(kbo, storage, "latin1")
    ok = (rc == 0 and j.get("n_complete", 0) + j.get("n_failed", 0) == 12 and shown is not None
          and any("M\ufffdller" in t.get("reason", "") for t in shown["trials"]))
    counts.fault(2, f"0xFC in an objective's stderr, --workers {workers} ({label})", ok, err)


# ---- item 6: a study name with a NUL byte ---------------------------------------------------------------------

def case_nul_name(kbo, work, counts):
    cfg = work / "nul.toml"
    cfg.write_text(f'problem = "branin"\niters = 1\nstorage = "{work / "nul.db"}"\nstudy = "a\\u0000b"\n')
    rc, out, err = run([kbo, "optimize", "--config", cfg])
    counts.bad_input(6, "study name with a NUL byte (TOML)", rc, err, accepted=rc == 0)


# ---- item 7: strict parsing, damage, terminal escapes, long lines -----------------------------------------------

def case_strict(kbo, work, counts):
    db = work / "strict.db"
    storage = f"sqlite:{db}"
    nul = script(work, "nul.sh", b"cat > /dev/null\nprintf '1.5\\000garbage\\n'\n")
    run([kbo, "optimize", "--objective", nul, "--bounds", "0:1", "--init", "1", "--iters", "0", "--fail-fast", "0",
         "--storage", storage, "--study", "nul"])
    j = show_json(kbo, storage, "nul")
    accepted = j is not None and j["n_complete"] > 0
    counts.bad_input(7, "objective prints 1.5\\0garbage", 2 if not accepted else 0,
                     j["trials"][0].get("reason", "") if j and j["trials"] else "no trial", accepted=accepted)
    big = script(work, "big.sh", b"cat > /dev/null\nprintf '{\"value\": 2.25, \"log\": \"'\n"
                                 b"head -c 3000000 /dev/zero | tr '\\0' x\nprintf '\"}\\n'\n")
    rc, out, err = run([kbo, "optimize", "--objective", big, "--bounds", "0:1", "--init", "1", "--iters", "0",
                        "--json", "--storage", storage, "--study", "big"])
    ok = rc == 0 and json.loads(out)["n_complete"] == 1
    counts.fault(7, "a valid 3 MB JSON value line", ok, err)
    run([kbo, "optimize", "--problem", "branin", "--init", "4", "--iters", "0", "--strategy", "random",
         "--storage", storage, "--study", "d"])
    with sqlite3.connect(db) as c:
        c.execute("UPDATE trials SET value = 'abc' WHERE number = 1 AND study_id = (SELECT id FROM studies WHERE name = 'd')")
    rc, out, err = run([kbo, "show", "--storage", storage, "--study", "d"])
    counts.bad_input(7, "stored value 'abc' (tampered file)", rc, err, accepted=rc == 0)
    with sqlite3.connect(db) as c:
        c.execute("UPDATE trials SET value = 1.5, x = '[0.1, 0.2, 0.3]' WHERE number = 1 "
                  "AND study_id = (SELECT id FROM studies WHERE name = 'd')")
    rc, out, err = run([kbo, "show", "--storage", storage, "--study", "d"])
    counts.bad_input(7, "stored row of another dimension", rc, err, accepted=rc == 0)
    name = "evil\x1b[2J\x1b]0;title\x07"
    run([kbo, "optimize", "--problem", "branin", "--init", "1", "--iters", "0", "--storage", storage, "--study", name])
    rc, out, err = run([kbo, "show", "--storage", storage, "--study", name])
    counts.fault(7, "escape sequences in a study name shown by kbo show", rc == 0 and "\x1b" not in out, out[:200])


# ---- item 9: a PostgreSQL server frozen with SIGSTOP --------------------------------------------------------

def case_frozen_server(kbo, work, counts, pg, limit_seconds, freeze_seconds):
    """kbo optimize mid-run, the server stopped for `freeze_seconds`: exit 74 after about `limit_seconds`."""
    obj = script(work, "slow.sh", b"read l\nsleep 0.2\necho 0.5\n")
    url = pg.new_database("frozen")
    env = dict(os.environ)
    if limit_seconds != 60:
        env["KBO_TEST_RECONNECT_SECONDS"] = str(limit_seconds)
    cmd = [kbo, "optimize", "--objective", obj, "--bounds", "0:1", "--init", "4", "--iters", "200", "--strategy",
           "random", "--storage", url, "--study", "f"]
    p = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    time.sleep(3)
    pg.signal_all(signal.SIGSTOP)
    frozen_at = time.time()
    try:
        p.wait(timeout=freeze_seconds)
    except subprocess.TimeoutExpired:
        pass
    exited_after = time.time() - frozen_at if p.returncode is not None else None
    pg.signal_all(signal.SIGCONT)
    if p.returncode is None:
        p.wait()
    err = p.stderr.read().decode(errors="replace")
    ok = p.returncode == 74 and exited_after is not None
    counts.fault(9, f"server frozen {freeze_seconds} s, limit {limit_seconds} s: exit {p.returncode} "
                    f"after {exited_after if exited_after is None else round(exited_after, 1)} s", ok, err)
    return {"limit": limit_seconds, "exit": p.returncode, "seconds_after_freeze": exited_after}


# ---- item 10: BBOB against the independent implementation ----------------------------------------------------

def case_bbob(counts):
    """Every line of tests/fixtures/bbob_reference.txt against kbo's Python module (when it is importable)."""
    try:
        import kbo as kbo_module
    except ImportError:
        return None
    rows = [l.split() for l in (FIXTURES / "bbob_reference.txt").read_text().splitlines() if l and l[0] != "#"]
    wrong = {}
    for f, inst, d, value, *x in rows:
        p = kbo_module.problem(f"bbob:{f}:{inst}", int(d))
        got = p([float(v) for v in x])
        if abs(got - float(value)) > 1e-9 * max(1.0, abs(float(value))):
            wrong[f] = wrong.get(f, 0) + 1
    counts.fault(10, f"24 BBOB functions at {len(rows)} points against an independent implementation",
                 not wrong, json.dumps(wrong))
    return wrong


# ---- 200 random kill points: nothing stuck ---------------------------------------------------------------

def stale_kill(kbo, work, storage, label, kills, rng, counts):
    """kill -9 of `kbo optimize --workers 2` (the whole process group) at random moments, with a pause between
    each ask and its first heartbeat (test hook) so that many kills land there; then the same command without
    kills must meet the budget with no pending trial left."""
    obj = script(work, "quick.sh", b"read l\nsleep 0.05\necho 1\n")
    budget = 12 * kills + 20
    cmd = [kbo, "optimize", "--objective", obj, "--bounds", "0:1,0:1", "--init", "5", "--iters", str(budget - 5),
           "--strategy", "random", "--workers", "2", "--stale-after", "3", "--storage", storage, "--study", "k"]
    env = dict(os.environ, KBO_TEST_PAUSE_AFTER_ASK_SECONDS="0.1")
    in_window = 0
    before = {}
    for k in range(kills):
        p = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                             start_new_session=True)
        time.sleep(rng.uniform(0.3, 2.0))
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        time.sleep(0.05)
        j = show_json(kbo, storage, "k")
        if j is None:
            continue
        # Trials left by this kill between an ask and its first heartbeat (running, no heartbeat yet).
        in_window += sum(1 for t in j["trials"] if t["state"] == "pending" and t.get("phase") == "running"
                         and "heartbeat_at" not in t)
        after = {t["id"]: (tuple(t["x"]), t["value"]) for t in j["trials"] if t["state"] == "complete"}
        counts.c["lost"] += sum(1 for tid, xv in before.items() if after.get(tid) != xv)
        before = after
    rc, out, err = run(cmd + ["--json"], timeout=3600)
    j = json.loads(out) if rc == 0 else show_json(kbo, storage, "k") or {"trials": []}
    pending = sum(1 for t in j["trials"] if t["state"] == "pending")
    ids = [t["id"] for t in j["trials"]]
    counts.c["stuck"] += pending
    counts.c["duplicated"] += len(ids) - len(set(ids))
    ok = rc == 0 and pending == 0 and j.get("n_complete") == budget
    counts.fault(1, f"{kills} random kill -9 of optimize --workers 2, then the same command ({label})", ok,
                 err if rc else "")
    return {"storage": label, "kills": kills, "kills_between_ask_and_heartbeat": in_window, "exit": rc,
            "complete": j.get("n_complete"), "budget": budget, "stuck_pending": pending,
            "worker_lost_retries": sum(1 for t in j["trials"] if t.get("reason") == "worker lost")}


def regressions(kbo, work, pg, counts, frozen_limit, freeze_seconds):
    report = {}
    case_stale_trial(kbo, work, counts, f"sqlite:{work / 'stale.db'}", "SQLite")
    case_latin1_stderr(kbo, work, counts, f"sqlite:{work / 'latin1.db'}", "SQLite", 1)
    if pg:
        case_stale_trial(kbo, work, counts, pg.new_database("stale"), "PostgreSQL", pg)
        case_latin1_stderr(kbo, work, counts, pg.new_database("latin1"), "PostgreSQL", 2)
    case_nul_name(kbo, work, counts)
    case_strict(kbo, work, counts)
    if pg:
        report["frozen"] = case_frozen_server(kbo, work, counts, pg, frozen_limit, freeze_seconds)
    report["bbob_mismatches"] = case_bbob(counts)
    return report

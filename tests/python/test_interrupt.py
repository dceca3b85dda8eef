"""Ctrl-C in a script that loops over kbo.minimize ends the script with KeyboardInterrupt (as in any Python
program), after the trial being evaluated is recorded in the store as interrupted; catch_interrupt=True keeps
the old behaviour (a Result with interrupted=True)."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import kbo

SCRIPT = textwrap.dedent("""
    import pathlib, signal, sys, time
    import kbo

    # Python leaves SIGINT ignored when its parent ignored it (a job started with `&`, as CI may run tests):
    # restore the handler that turns it into KeyboardInterrupt, as in an interactive session.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    started = pathlib.Path(sys.argv[2])

    def f(p):
        started.touch()  # the test sends SIGINT once an objective runs
        time.sleep(0.2)
        return (p["lr"] - 0.01) ** 2

    for seed in range(1000):  # a sweep: without KeyboardInterrupt it would go on
        kbo.minimize(f, {"lr": kbo.Float(1e-4, 1.0, log=True)}, init=3, iters=2, seed=seed,
                     storage=sys.argv[1], study=f"sweep-{seed}")
    print("the sweep ended without an interrupt")
""")


def test_sigint_in_a_sweep_raises_keyboard_interrupt_and_records_the_trial(tmp_path):
    script = tmp_path / "sweep.py"
    script.write_text(SCRIPT)
    db = tmp_path / "s.db"
    started = tmp_path / "started"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), OPENBLAS_NUM_THREADS="1")
    p = subprocess.Popen([sys.executable, str(script), f"sqlite:{db}", str(started)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while not started.exists():
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "the objective never ran"
            time.sleep(0.05)
        time.sleep(0.05)  # inside the objective's sleep
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode != 0, (out, err)
    assert "KeyboardInterrupt" in err.splitlines()[-1], err
    assert "the sweep ended" not in out
    # The store: the running trial is recorded as interrupted, nothing is left pending.
    study = kbo.Study(f"sqlite:{db}", "sweep-0")
    interrupted = [t for t in study.trials if t.state == "failed" and t.reason.startswith("interrupted")]
    assert len(interrupted) == 1, [(t.state, t.reason) for t in study.trials]
    assert all(t.state != "pending" for t in study.trials)


def test_catch_interrupt_returns_the_result():
    calls = []

    def f(x):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return float(x[0])

    with pytest.warns(RuntimeWarning, match="interrupted"):
        res = kbo.minimize(f, [(0.0, 1.0)], init=3, iters=3, seed=0, catch_interrupt=True)
    assert res.interrupted
    assert res.states.count("complete") == 2
    assert res.trials[-1].state == "failed" and res.trials[-1].reason.startswith("interrupted")


def test_keyboard_interrupt_in_the_objective_propagates():
    def f(x):
        raise KeyboardInterrupt

    try:
        kbo.minimize(f, [(0.0, 1.0)], init=2, iters=0, seed=0)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("KeyboardInterrupt was swallowed")

"""The commands of docs/guide/viewing.md run as written (in a temporary directory, `kbo` = the build's)."""
import os
import pathlib
import re
import shlex
import signal
import subprocess

import matplotlib

matplotlib.use("Agg")

from viewer_support import dashboard  # noqa: E402

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "viewing.md"


def test_guide_commands_run(tmp_path, kbo_bin, monkeypatch):
    text = GUIDE.read_text()
    commands = [line.strip() for line in text.splitlines() if line.startswith("    kbo ")]
    assert [c.split()[1] for c in commands] == ["optimize", "report", "dashboard"]
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for command in commands:
        args = shlex.split(command)[1:]
        if args[0] == "dashboard":  # serves until Ctrl-C: on a free port, then stopped
            with dashboard(kbo_bin, *args[1:]) as (proc, base):
                assert base.startswith("http://127.0.0.1:")
                proc.send_signal(signal.SIGINT)
                assert proc.wait(timeout=10) == 0
            continue
        p = subprocess.run([str(kbo_bin), *args], capture_output=True, text=True, env=env, timeout=300)
        assert p.returncode == 0, (command, p.stderr)
    assert (tmp_path / "report.html").stat().st_size > 500_000
    # The Python block, on the study the commands made.
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, str(GUIDE), "exec"), {})
    for png in ("convergence", "slices", "importances", "parallel"):
        assert (tmp_path / f"{png}.png").stat().st_size > 10_000

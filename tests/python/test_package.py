"""`pip install .` as a user runs it, into a fresh virtual environment: the module and the `kbo` command.

The C++ build is reused (KBO_CMAKE_BUILD_DIR = the build tree these tests run against), so this checks the
packaging — wheel contents, console script, the installed module — not the compiler."""
import json
import os
import pathlib
import subprocess

import kbo

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_pip_install_gives_module_and_command(tmp_path):
    build_dir = pathlib.Path(kbo._kbo.__file__).parent.parent.parent
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = dict(os.environ, KBO_CMAKE_BUILD_DIR=str(build_dir), PYTHONPATH="")
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", "-q",
                              str(ROOT)], env=env, capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-2000:]

    # The module imports from the venv (not from the build tree) …
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import kbo; print(kbo.__file__)"], env=env,
                           capture_output=True, text=True, check=True, cwd=tmp_path)
    assert str(venv) in where.stdout
    # … and the `kbo` command runs a study.
    run = subprocess.run([str(venv / "bin" / "kbo"), "optimize", "--problem", "branin", "--iters", "3", "--json"],
                         env=env, capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["n_complete"] == len(result["trials"]) > 3

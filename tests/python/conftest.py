"""Shared fixtures: the kbo CLI binary the Python results are compared with."""
import json
import os
import pathlib
import subprocess

import pytest

import kbo


def _find_binary() -> pathlib.Path:
    if os.environ.get("KBO_BINARY"):
        return pathlib.Path(os.environ["KBO_BINARY"])
    # build/python/kbo/_kbo*.so -> build/kbo (the build tree the module was built in)
    return pathlib.Path(kbo._kbo.__file__).parent.parent.parent / "kbo"


@pytest.fixture(scope="session")
def kbo_bin() -> pathlib.Path:
    path = _find_binary()
    if not path.is_file():
        pytest.fail(f"kbo executable not found at {path}: build it, or set KBO_BINARY")
    return path


@pytest.fixture(scope="session")
def run_cli(kbo_bin):
    """run_cli("optimize", "--problem", "branin", ...) -> parsed JSON of stdout (the command must succeed)."""

    def run(*args, parse=True):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=os.environ.get("OPENBLAS_NUM_THREADS", "1"))
        p = subprocess.run([str(kbo_bin), *map(str, args)], capture_output=True, text=True, env=env)
        assert p.returncode == 0, f"kbo {' '.join(map(str, args))} failed: {p.stderr}"
        return json.loads(p.stdout) if parse else p.stdout

    return run

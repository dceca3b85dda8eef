"""Every command in the user guide runs: the ```sh and ```python blocks of each docs/guide/*.md page, in
order, in a fresh directory (with `data/` linked to the repository's data sets and the `kbo` just built on
PATH), as a reader would type them. A block fenced ```sh expect-fail must exit non-zero (error examples).
Blocks in other languages (text, toml, cmake, console output) are shown, not run."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide"
# Pages whose commands need what a test run must not do (install into a prefix, pip, a network), or that
# have their own test (viewing.md: test_guide_viewing.py, which also stops the dashboard it starts).
NOT_RUN = {"install.md", "viewing.md"}

FENCE = re.compile(r"^```(sh|python)([^\n]*)\n(.*?)^```", re.M | re.S)


def blocks(page: pathlib.Path):
    """(language, flags, code) of every runnable fenced block of a page, in order."""
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in FENCE.finditer(page.read_text())]


PAGES = sorted(p for p in GUIDE.glob("*.md") if p.name not in NOT_RUN and blocks(p))


def test_the_guide_has_runnable_pages():
    names = {p.name for p in PAGES}
    assert {"first-study.md", "concepts.md", "workers.md", "troubleshooting.md"} <= names, names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_block_of_the_page_runs(page, kbo_bin, tmp_path):
    (tmp_path / "data").symlink_to(ROOT / "data")
    env = dict(os.environ)
    env["PATH"] = f"{kbo_bin.parent}{os.pathsep}{env.get('PATH', '')}"
    module_dir = pathlib.Path(__import__("kbo").__file__).absolute().parent.parent  # not resolved: build/python links the sources
    env["PYTHONPATH"] = f"{module_dir}{os.pathsep}{env.get('PYTHONPATH', '')}"
    env["MPLBACKEND"] = "Agg"
    for i, (language, flags, code) in enumerate(blocks(page)):
        cmd = ["bash", "-euo", "pipefail", "-c", code] if language == "sh" else [sys.executable, "-c", code]
        p = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        where = f"{page.name} block {i + 1} ({language} {flags}):\n{code}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}"
        if flags == "expect-fail":
            assert p.returncode != 0, where
        else:
            assert p.returncode == 0, where


def test_the_cli_reference_is_generated_from_the_option_table(kbo_bin):
    """docs/cli.md is `kbo options` (regenerate it with `build/kbo options > docs/cli.md`)."""
    out = subprocess.run([str(kbo_bin), "options"], capture_output=True, text=True, check=True).stdout
    assert out == (ROOT / "docs" / "cli.md").read_text(), "docs/cli.md is stale: run `build/kbo options > docs/cli.md`"


def test_the_python_reference_is_generated_from_the_docstrings():
    """docs/guide/python-api.md is scripts/python_reference.py's output for the module under test."""
    module_dir = pathlib.Path(__import__("kbo").__file__).absolute().parent.parent  # not resolved: build/python links the sources
    env = dict(os.environ, PYTHONPATH=str(module_dir))
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "python_reference.py")], capture_output=True,
                         text=True, check=True, env=env).stdout
    assert out == (GUIDE / "python-api.md").read_text(), (
        "docs/guide/python-api.md is stale: run `PYTHONPATH=build/python /usr/bin/python3 scripts/python_reference.py "
        "> docs/guide/python-api.md`")

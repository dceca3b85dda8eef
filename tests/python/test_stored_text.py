"""Text from outside in a study read from Python: a byte that is not UTF-8 in an objective's stderr (stored as
U+FFFD, so Study.trials decodes), and a study name with a NUL byte (refused: no storage can keep it)."""
import subprocess

import pytest

import kbo


def test_a_latin1_byte_in_an_objectives_stderr_reads_as_a_replacement_character(tmp_path, kbo_bin):
    objective = tmp_path / "latin1.sh"
    objective.write_text("#!/bin/sh\ncat > /dev/null\nprintf 'M\\374ller failed\\n' >&2\nexit 3\n")
    objective.chmod(0o755)
    url = f"sqlite:{tmp_path / 's.db'}"
    p = subprocess.run([str(kbo_bin), "optimize", "--objective", str(objective), "--bounds", "0:1", "--init", "3",
                        "--iters", "0", "--fail-fast", "0", "--storage", url, "--study", "s"], capture_output=True)
    assert p.returncode == 1, p.stderr  # no trial completed
    trials = kbo.Study(url, "s").trials
    assert [t.state for t in trials] == ["failed"] * 3
    assert all(t.reason == "exit status 3: M\ufffdller failed" for t in trials), [t.reason for t in trials]


def test_a_study_name_with_a_nul_byte_is_refused(tmp_path):
    url = f"sqlite:{tmp_path / 'n.db'}"
    with pytest.raises(ValueError, match="NUL byte"):
        kbo.Study(url, "a\x00b", [(0, 1)])
    with pytest.raises(ValueError, match="NUL byte"):
        kbo.minimize(kbo.problem("branin"), init=2, iters=0, storage=url, study="x\x00")

"""`kbo --help` as a new user reads it: the product's commands, the benchmark runners grouped under one
`kbo bench` entry that `kbo bench --help` expands, and no development history in any help text."""
import re
import subprocess

HISTORY = re.compile(r"\b(session|update|issue|paper)[ -]?[0-9]+", re.I)


def run(kbo_bin, *args):
    return subprocess.run([str(kbo_bin), *args], capture_output=True, text=True, timeout=60)


def runners(kbo_bin):
    """The runner names `kbo bench --help` lists (the lines after 'runners')."""
    out = run(kbo_bin, "bench", "--help").stdout
    listing = out.split("runners", 1)[1].splitlines()[1:]
    return [line.split()[0] for line in listing if line.startswith("  ")]


def test_the_top_level_help_groups_the_bench_runners_in_one_entry(kbo_bin):
    p = run(kbo_bin, "--help")
    assert p.returncode == 0, p.stderr
    bench_lines = [line for line in p.stdout.splitlines() if "bench" in line]
    assert 1 <= len(bench_lines) <= 3, bench_lines
    assert "kbo bench --help" in p.stdout
    for command in ("optimize", "ask", "tell", "show", "worker", "report", "dashboard", "options"):
        assert re.search(rf"^  {command} ", p.stdout, re.M), f"kbo --help does not list {command}"


def test_kbo_bench_help_lists_every_runner_and_each_runs_its_own_help(kbo_bin):
    names = runners(kbo_bin)
    assert {"gp", "bo", "bbob", "invariance", "sets", "adaptive", "adaptive-suite", "kfo", "parallel", "scale",
            "structure", "workers"} <= set(names), names
    for name in names:
        p = run(kbo_bin, "bench", name, "--help")
        assert p.returncode == 0 and p.stdout.strip(), (name, p.stderr)


def test_no_help_text_cites_development_history(kbo_bin):
    texts = [run(kbo_bin, "--help").stdout, run(kbo_bin, "bench", "--help").stdout]
    assert not HISTORY.search(texts[0] + texts[1]), [m.group(0) for t in texts for m in HISTORY.finditer(t)]
    # and the check can fail: it sees a history note where there is one
    assert HISTORY.search("quality cost of parallel workers (issue 9)")


def test_kbo_bench_without_a_runner_or_with_an_unknown_one_is_one_line_exit_2(kbo_bin):
    p = run(kbo_bin, "bench")
    assert p.returncode == 2 and "kbo bench <runner>" in p.stderr, p.stderr
    p = run(kbo_bin, "bench", "strucure")
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "unknown runner 'strucure'" in p.stderr and "structure" in p.stderr, p.stderr

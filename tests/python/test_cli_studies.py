"""The CLI's listing and convenience commands as a user runs them: `kbo studies`, `kbo show` and `kbo report`
without --study, `kbo report` without -o, `kbo options` on a terminal, and `kbo completion bash` (checked
against every command's own --help)."""
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import termios

import pytest

from viewer_support import cli, make_study, show


def studies_json(kbo_bin, url):
    return json.loads(cli(kbo_bin, "studies", "--storage", url, "--json").stdout)


def test_studies_lists_every_study_as_show_describes_it(tmp_path, kbo_bin):
    db = tmp_path / "two.db"
    make_study(kbo_bin, f"sqlite:{db}", name="b", iters=1)
    cli(kbo_bin, "ask", "--bounds", "0:1,0:1", "--maximize", "--storage", db, "--study", "up")  # one pending trial
    listed = studies_json(kbo_bin, f"sqlite:{db}")
    assert listed["storage"] == f"sqlite:{db}"
    rows = {r["study"]: r for r in listed["studies"]}
    assert set(rows) == {"b", "up"}
    for name, row in rows.items():
        s = show(kbo_bin, f"sqlite:{db}", name)
        for key in ("direction", "n_trials", "n_complete", "n_failed", "n_pending", "best_value", "best_trial"):
            assert row[key] == s[key], (name, key)
        # The last update is the latest trial event (creation, finish) of the study.
        events = [t["created_at"] for t in s["trials"]] + [t.get("finished_at", 0) for t in s["trials"]]
        assert row["last_update"] == pytest.approx(max(events), abs=1e-6)
    assert rows["up"]["direction"] == "maximize" and rows["up"]["best_value"] is None
    # The table: a header, one line per study with its name, direction and counts.
    table = cli(kbo_bin, "studies", "--storage", db).stdout.splitlines()
    assert table[0] == f"2 studies in sqlite:{db}"
    assert table[1].split()[:5] == ["study", "direction", "trials", "complete", "best"]
    line_b = next(l for l in table if l.startswith("b "))
    b = rows["b"]
    assert line_b.split()[:5] == ["b", "minimize", str(b["n_trials"]), str(b["n_complete"]), f"{b['best_value']:.8g}"]
    assert next(l for l in table if l.startswith("up ")).split()[:5] == ["up", "maximize", "1", "0", "-"]
    # It reads only: nothing changed.
    before = db.read_bytes()
    cli(kbo_bin, "studies", "--storage", db)
    assert db.read_bytes() == before


def test_studies_bad_input_is_one_line_and_exit_2(tmp_path, kbo_bin):
    for args, needle in [([], "--storage is required"), (["--storage", "memory"], "--storage is required"),
                         (["--storage", tmp_path / "missing.db"], "missing.db"), (["--storage", "memroy"], "memroy")]:
        p = cli(kbo_bin, "studies", *args, check=False)
        assert p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1, (args, p.stderr)
    assert not (tmp_path / "missing.db").exists()


def test_show_and_report_open_the_only_study_and_name_the_choices_otherwise(tmp_path, kbo_bin):
    db = tmp_path / "one.db"
    make_study(kbo_bin, f"sqlite:{db}", name="b", iters=1)
    shown = json.loads(cli(kbo_bin, "show", "--storage", db, "--json").stdout)
    assert shown == show(kbo_bin, f"sqlite:{db}", "b")
    # kbo report: no --study and no -o writes <study>.html in the current directory.
    p = subprocess.run([str(kbo_bin), "report", "--storage", str(db)], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("kbo report: wrote b.html (study 'b',") and (tmp_path / "b.html").is_file()
    assert '"study":"b"' in (tmp_path / "b.html").read_text().replace(" ", "")
    # A second study: --study is needed, and the error lists both and where to read about them.
    cli(kbo_bin, "ask", "--bounds", "0:1", "--storage", db, "--study", "other")
    for command in ("show", "report"):
        p = cli(kbo_bin, command, "--storage", db, check=False)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
        assert "--study is required" in p.stderr and "b, other" in p.stderr and "kbo studies" in p.stderr, p.stderr
    # A study named 'default' is what no --study has always meant.
    cli(kbo_bin, "ask", "--bounds", "0:1", "--storage", db, "--study", "default")
    assert json.loads(cli(kbo_bin, "show", "--storage", db, "--json").stdout)["study"] == "default"


def run_on_terminal(args, columns):
    """stdout of the command on a pseudo-terminal `columns` wide (stderr piped), and its exit code."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    p = subprocess.Popen(args, stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the command closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    p.wait(timeout=60)
    return b"".join(chunks).decode().replace("\r\n", "\n"), p.returncode


def test_options_prints_a_wrapped_table_on_a_terminal_and_markdown_otherwise(kbo_bin):
    markdown = cli(kbo_bin, "options").stdout
    out, code = run_on_terminal([str(kbo_bin), "options"], 100)
    assert code == 0
    assert "|---|" not in out and "`" not in out and "| `--" not in out
    for line in out.splitlines():  # a line is longer than the terminal only if it is one unbreakable word
        assert len(line) <= 100 or " " not in line.strip(), line
    # Every option of the Markdown reference is on the terminal too, at the start of its table row.
    options = re.findall(r"^\| `(--[a-z0-9-]+)` \|", markdown, re.M)
    assert len(options) > 30
    starts = {line.split()[0] for line in out.splitlines() if line.startswith("--")}
    assert set(options) <= starts
    assert "Which options each strategy honours\n----------" in out
    # --markdown on a terminal is the Markdown of a pipe (which is docs/cli.md).
    md_on_terminal, code = run_on_terminal([str(kbo_bin), "options", "--markdown"], 100)
    assert code == 0 and md_on_terminal == markdown


def complete(kbo_bin, tmp_path, *words):
    """The words bash completion offers after `kbo WORDS` (the last word is the one being completed)."""
    script = tmp_path / "kbo-completion.bash"
    if not script.exists():
        script.write_text(cli(kbo_bin, "completion", "bash").stdout)
    line = " ".join(["kbo", *words])
    code = (f'source "{script}"; COMP_WORDS=(kbo {" ".join(repr(w) for w in words)}); '
            f'COMP_CWORD={len(words)}; COMP_LINE={line!r}; _kbo; printf "%s\\n" "${{COMPREPLY[@]}}"')
    p = subprocess.run(["bash", "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return [w for w in p.stdout.split("\n") if w]


def help_flags(kbo_bin, command):
    """The flags `kbo COMMAND --help` documents: the first word of each option line of CLI11's help ("-o,--output")."""
    text = cli(kbo_bin, *command.split(), "--help").stdout
    return {flag for line in text.splitlines() if re.match(r"^  -", line) for flag in line.split()[0].split(",")}


def registered_commands(kbo_bin):
    """Every command, from the error an unknown command gets ("... (allowed: a, b c, ...)")."""
    p = cli(kbo_bin, "no-such-command", check=False)
    return re.search(r"\(allowed: (.*)\)$", p.stderr.strip()).group(1).split(", ")


def test_bash_completion_offers_every_command_and_exactly_each_commands_flags(tmp_path, kbo_bin):
    commands = registered_commands(kbo_bin)
    assert {"studies", "completion", "show", "report", "options", "optimize", "bench sets"} <= set(commands)
    assert set(complete(kbo_bin, tmp_path, "")) == {c.split()[0] for c in commands} | {"--help", "--version"}
    assert complete(kbo_bin, tmp_path, "stu") == ["studies"]
    for command in commands:
        if command in ("bench bbob", "bench moo", "bench noisy"):  # hand their arguments to bench/*/run.py: no flags of kbo's own
            assert complete(kbo_bin, tmp_path, *command.split(), "--") == []
            continue
        offered = set(complete(kbo_bin, tmp_path, *command.split(), "-"))
        assert offered == help_flags(kbo_bin, command), command
    assert set(complete(kbo_bin, tmp_path, "show", "--st")) == {"--storage", "--study"}
    # Second words of two-word commands.
    assert {c.split()[1] for c in commands if c.startswith("bench ")} == set(complete(kbo_bin, tmp_path, "bench", ""))
    # A flag's value is left to bash's file name completion (no flags offered).
    assert complete(kbo_bin, tmp_path, "show", "--storage", "") == []
    # After a flag that takes no value, the next flag is completed.
    assert set(complete(kbo_bin, tmp_path, "studies", "--json", "--")) == {"--storage", "--json", "--help"}
    p = cli(kbo_bin, "completion", "zsh", check=False)
    assert p.returncode == 2 and "allowed: bash" in p.stderr and p.stderr.count("\n") == 1


def test_bash_completion_works_in_an_interactive_shell(tmp_path, kbo_bin):
    """Sourced as a user does (`source <(kbo completion bash)`), the function is registered for kbo."""
    p = subprocess.run(["bash", "-c", f'source <("{kbo_bin}" completion bash) && complete -p kbo'],
                       capture_output=True, text=True)
    assert p.returncode == 0 and "-F _kbo" in p.stdout and p.stdout.rstrip().endswith(" kbo"), (p.stdout, p.stderr)

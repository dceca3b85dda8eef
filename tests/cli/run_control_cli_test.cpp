// A run a user can trust, through the CLI: Ctrl-C/SIGTERM/SIGHUP end the objective's processes and a re-run
// resumes; an objective that cannot run or fails the same way every time stops the run with its reason
// (and a fixed re-run continues); `kbo ask` trials that are never told neither block `kbo optimize` nor stay
// forever (`kbo pending`); `kbo tell` leaves a running trial to its worker; progress and summaries.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>

#include <regex>

#include "cli_support.hpp"
#include "kbo/storage/sqlite.hpp"

using namespace kbo::test;
using nlohmann::json;

namespace {

/// Objective that hangs (a background `sleep 1000` it waits for, its pid in DIR/sleep.<trial>.pid) unless
/// DIR/fixed exists; then prints x0 + x1.
void write_hanging_objective(const TempDir& dir) {
  std::ofstream(dir / "hang.sh") << "#!/bin/sh\nread line\n"
                                 << "if [ -f '" << (dir / "fixed") << "' ]; then echo \"$2 $3\" | awk '{print $1 + $2}'; exit 0; fi\n"
                                 << "sleep 1000 & echo $! > \"" << dir.path.string() << "/sleep.$1.pid\"\nwait $!\n";
}

bool wait_for(const std::function<bool()>& ok) {
  for (int i = 0; i < 1500; ++i) {  // 30 s: generous on a loaded machine; the usual case is milliseconds
    if (ok()) return true;
    usleep(20000);
  }
  return ok();
}

/// True once `pid` no longer runs (gone, or a zombie of init for an instant).
bool process_gone(int pid) {
  return wait_for([&] {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string content((std::istreambuf_iterator<char>(stat)), {});
    return content.empty() || content.find(") Z") != std::string::npos;
  });
}

std::vector<kbo::Trial> stored_trials(const std::string& db, const std::string& study) {
  try {
    return kbo::SqliteStorage(db).trials(study);
  } catch (const std::exception&) {
    return {};  // not created yet
  }
}

struct Interrupt {
  std::string name;
  std::string command;  // optimize … or worker …
  int signal;
  int workers;          // trials hanging at once
};
// gtest prints the case by name, not as raw bytes.
void PrintTo(const Interrupt& c, std::ostream* os) { *os << c.name; }

class InterruptCli : public ::testing::TestWithParam<Interrupt> {};

}  // namespace

TEST_P(InterruptCli, KillsTheObjectiveHandsTheTrialBackAndAReRunResumes) {
  const Interrupt& c = GetParam();
  TempDir dir("interrupt_" + c.name);
  write_hanging_objective(dir);
  const std::string db = dir / "i.db";
  const std::string st = " --storage sqlite:" + db + " --study s";
  const std::string objective = "sh " + (dir / "hang.sh") + " {trial} {x}";
  const std::string create = "optimize --bounds 0:1,0:1 --init 3 --iters 1 --seed 2" + st;
  if (c.command == "worker") {
    // The study and its budget (4) come from an optimize whose command cannot run: nothing is evaluated.
    ASSERT_EQ(run_kbo(create + " --objective /nonexistent/kbo-objective", dir).code, 1);
  }
  const std::string args = c.command == "worker"
                               ? "worker" + st + " -- " + quote(objective)
                               : create + " --objective " + quote(objective) +
                                     (c.workers > 1 ? " --workers " + std::to_string(c.workers) : "");
  const pid_t pid = spawn_kbo(args, dir / "run.out", dir / "run.err");
  ASSERT_GT(pid, 0);
  // Wait until `workers` objectives hang (their sleeps have written their pids).
  std::vector<int> sleeps;
  ASSERT_TRUE(wait_for([&] {
    sleeps.clear();
    for (const auto& e : fs::directory_iterator(dir.path))
      if (e.path().filename().string().rfind("sleep.", 0) == 0) {
        const std::string text = slurp(e.path());
        if (!text.empty() && text.back() == '\n') sleeps.push_back(std::stoi(text));
      }
    return static_cast<int>(sleeps.size()) >= c.workers;
  })) << slurp(dir / "run.err");
  ASSERT_EQ(kill(pid, c.signal), 0);
  EXPECT_EQ(wait_exit_code(pid), 128 + c.signal) << slurp(dir / "run.err");
  const std::string err = slurp(dir / "run.err");
  EXPECT_NE(err.find("interrupted: 0 of 4 trials done; re-run the same command to resume"), std::string::npos) << err;
  for (int sleep_pid : sleeps) EXPECT_TRUE(process_gone(sleep_pid)) << "the objective's sleep " << sleep_pid << " survived";

  // The hanging trials were handed back (pending, no owner), none counted as failed.
  const auto ts = stored_trials(db, "s");
  int queued = 0;
  for (const auto& t : ts) {
    EXPECT_NE(t.state, kbo::TrialState::Failed) << "trial " << t.id << ": " << t.reason;
    queued += t.state == kbo::TrialState::Pending && t.worker.empty();
  }
  EXPECT_EQ(queued, c.workers);

  // Fixed, the same command resumes: the handed-back trials are evaluated (same ids, same points).
  std::ofstream(dir / "fixed") << "";
  const CmdResult again = run_kbo(args, dir);
  ASSERT_EQ(again.code, 0) << again.err;
  const auto after = stored_trials(db, "s");
  ASSERT_EQ(after.size(), 4u);
  for (const auto& t : after) EXPECT_EQ(t.state, kbo::TrialState::Complete) << "trial " << t.id << ": " << t.reason;
  for (const auto& t : ts) {
    if (t.state != kbo::TrialState::Pending) continue;
    EXPECT_EQ(after[t.id].state, kbo::TrialState::Complete) << "trial " << t.id;
    EXPECT_EQ(after[t.id].x, t.x);
  }
}

INSTANTIATE_TEST_SUITE_P(Signals, InterruptCli,
                         ::testing::Values(Interrupt{"sigint", "optimize", SIGINT, 1},
                                           Interrupt{"sigterm", "optimize", SIGTERM, 1},
                                           Interrupt{"sighup", "optimize", SIGHUP, 1},
                                           Interrupt{"workers", "optimize", SIGTERM, 2},
                                           Interrupt{"worker", "worker", SIGINT, 1}),
                         [](const auto& info) { return info.param.name; });

TEST(FailingObjectiveCli, AMissingCommandStopsAtOnceAndAFixedReRunContinues) {
  TempDir dir("missing");
  const std::string script = dir / "obj.sh";
  const std::string args = "optimize --objective " + quote(script) + " --bounds 0:1 --init 2 --iters 1 --storage sqlite:" +
                           (dir / "m.db") + " --study m --json";
  const CmdResult r = run_kbo(args, dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot be run (exit status 127: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not found"), std::string::npos) << r.err;
  // Not executable: 126, same.
  std::ofstream(script) << "#!/bin/sh\nread line\necho \"$line\" | sed 's/.*\\[\\(.*\\)\\].*/\\1/'\n";
  const CmdResult noexec = run_kbo(args, dir);
  EXPECT_EQ(noexec.code, 1) << noexec.err;
  EXPECT_NE(noexec.err.find("exit status 126"), std::string::npos) << noexec.err;
  // Nothing was used up: the fixed command evaluates the whole budget.
  fs::permissions(script, fs::perms::owner_all);
  const CmdResult fixed = run_kbo(args, dir);
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  const json j = fixed.json();
  EXPECT_EQ(j["n_complete"].get<int>(), 3);
  EXPECT_EQ(j["n_failed"].get<int>(), 0);
  EXPECT_EQ(j["n_trials"].get<int>(), 3);
}

TEST(FailingObjectiveCli, TheSameFailureThreeTimesStopsWithItsReasonAndTheStudyContinues) {
  TempDir dir("same");
  const std::string script = dir / "obj.sh";
  std::ofstream(script) << "#!/bin/sh\necho 'starting' >&2\necho \"ModuleNotFoundError: No module named 'simx'\" >&2\nexit 1\n";
  fs::permissions(script, fs::perms::owner_all);
  const std::string args = "optimize --objective " + quote(script) + " --bounds 0:1 --init 3 --iters 5 --storage sqlite:" +
                           (dir / "f.db") + " --study f";
  const CmdResult r = run_kbo(args, dir);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("failed 3 times in a row with the same reason (exit status 1: ModuleNotFoundError: No module "
                       "named 'simx')"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--iters"), std::string::npos) << r.err;  // says how to extend the budget
  const json shown = run_kbo("show --json --storage sqlite:" + (dir / "f.db") + " --study f", dir).json();
  EXPECT_EQ(shown["n_trials"].get<int>(), 3);
  EXPECT_EQ(shown["n_failed"].get<int>(), 3);
  // Fixed: the study continues to its budget (the 3 failures count).
  std::ofstream(script) << "#!/bin/sh\nread line\necho 0.5\n";
  const CmdResult fixed = run_kbo(args + " --json", dir);
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  EXPECT_EQ(fixed.json()["n_complete"].get<int>(), 5);
  EXPECT_EQ(fixed.json()["n_failed"].get<int>(), 3);
  // --fail-fast 0 never stops early; a run that completes no trial still exits 1, naming the last reason.
  const CmdResult all_failed = run_kbo("optimize --objective 'echo boom >&2; exit 2' --bounds 0:1 --init 4 --iters 0 "
                                       "--fail-fast 0 --json",
                                       dir);
  EXPECT_EQ(all_failed.code, 1) << all_failed.err;
  EXPECT_EQ(all_failed.json()["n_failed"].get<int>(), 4);
  EXPECT_NE(all_failed.err.find("no trial completed"), std::string::npos) << all_failed.err;
  EXPECT_NE(all_failed.err.find("exit status 2: boom"), std::string::npos) << all_failed.err;
  EXPECT_EQ(run_kbo("optimize --objective 'exit 1' --bounds 0:1 --fail-fast -1", dir).code, 2);
}

TEST(ObjectiveOutputCli, TheValueIsPrintedBeforeTheProcessExitsAndMayBeJson) {
  TempDir dir("value");
  const CmdResult r = run_kbo("optimize --objective 'cat >/dev/null; (sleep 5; echo 99) & echo 1.0' --bounds 0:1 "
                              "--init 1 --iters 0 --json",
                              dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["trials"][0]["value"].get<double>(), 1.0);
  const CmdResult j = run_kbo("optimize --objective 'echo '\\''{\"value\": 2.5, \"seconds\": 3}'\\''' --bounds 0:1 "
                              "--init 1 --iters 0 --json",
                              dir);
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.json()["trials"][0]["value"].get<double>(), 2.5);
}

TEST(AskLeaseCli, AnUntoldAskNeitherBlocksTheBudgetNorStaysForever) {
  TempDir dir("lease");
  const std::string st = " --storage sqlite:" + (dir / "l.db") + " --study l";
  const std::string opt = "optimize --problem branin --init 2 --json" + st;
  ASSERT_EQ(run_kbo(opt + " --iters 0", dir).code, 0);
  const CmdResult asked = run_kbo("ask" + st, dir);
  ASSERT_EQ(asked.code, 0) << asked.err;
  const int id = asked.json()["trial"].get<int>();
  EXPECT_GT(asked.json()["lease_until"].get<double>(), 0.0);  // the default lease
  const CmdResult more = run_kbo(opt + " --iters 4", dir);
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_EQ(more.json()["n_complete"].get<int>(), 6);  // the budget is met without the asked trial
  EXPECT_EQ(more.json()["trials"][id]["phase"], "asked");

  // `kbo pending` lists it; a short lease runs out and the next run re-runs that point.
  const json pending = run_kbo("pending --json" + st, dir).json();
  ASSERT_EQ(pending["pending"].size(), 1u);
  EXPECT_EQ(pending["pending"][0]["id"].get<int>(), id);
  EXPECT_EQ(pending["pending"][0]["phase"], "asked");
  const json short_lease = run_kbo("ask --ask-timeout 0.2" + st, dir).json();
  const int short_id = short_lease["trial"].get<int>();
  usleep(400000);
  const json listed = run_kbo("pending --json" + st, dir).json();
  ASSERT_EQ(listed["pending"].size(), 2u);
  EXPECT_EQ(listed["pending"][1]["stale"], "lease expired");
  const CmdResult reaped = run_kbo(opt + " --iters 5", dir);
  ASSERT_EQ(reaped.code, 0) << reaped.err;
  const json r = reaped.json();
  EXPECT_EQ(r["trials"][short_id]["state"], "failed");
  EXPECT_EQ(r["trials"][short_id]["reason"], "ask lease expired");
  const auto& retry = r["trials"][short_id + 1];
  EXPECT_EQ(retry["retry_of"].get<int>(), short_id);
  EXPECT_EQ(retry["x"], short_lease["x"]);
  EXPECT_EQ(retry["state"], "complete");
  EXPECT_EQ(r["n_complete"].get<int>(), 7);
  const CmdResult late = run_kbo("tell --trial " + std::to_string(short_id) + " --value 3" + st, dir);
  EXPECT_EQ(late.code, 2);
  EXPECT_NE(late.err.find("ask lease expired"), std::string::npos) << late.err;

  // Abandoned by hand: no longer pending, not counted.
  const CmdResult gone = run_kbo("pending --abandon " + std::to_string(id) + st, dir);
  ASSERT_EQ(gone.code, 0) << gone.err;
  EXPECT_NE(gone.out.find("abandoned trial " + std::to_string(id)), std::string::npos) << gone.out;
  EXPECT_NE(gone.out.find("no pending trials"), std::string::npos) << gone.out;
  const json shown = run_kbo("show --json" + st, dir).json();
  EXPECT_EQ(shown["trials"][id]["reason"], "abandoned");
  EXPECT_EQ(shown["n_pending"].get<int>(), 0);
}

TEST(TellCli, ARunningTrialIsLeftToItsWorkerUnlessForced) {
  TempDir dir("running");
  // The objective waits for a file, so the trial is running while we tell it.
  const std::string flag = dir / "go";
  const std::string db = dir / "t.db";
  const std::string st = " --storage sqlite:" + db + " --study t";
  const pid_t pid = spawn_kbo("optimize --objective 'cat >/dev/null; while [ ! -f " + flag +
                                  " ]; do sleep 0.02; done; echo 7' --bounds 0:1 --init 1 --iters 0 --json" + st,
                              dir / "run.out", dir / "run.err");
  ASSERT_GT(pid, 0);
  ASSERT_TRUE(wait_for([&] {
    const auto ts = stored_trials(db, "t");
    return !ts.empty() && ts[0].heartbeat_at > 0.0;
  })) << slurp(dir / "run.err");
  EXPECT_EQ(run_kbo("show --json" + st, dir).json()["trials"][0]["phase"], "running");
  const CmdResult refused = run_kbo("tell --trial 0 --value 5" + st, dir);
  EXPECT_EQ(refused.code, 2);
  EXPECT_EQ(refused.err_lines(), 1) << refused.err;
  EXPECT_NE(refused.err.find("is running under optimize@"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--force"), std::string::npos) << refused.err;
  const CmdResult forced = run_kbo("tell --trial 0 --value 5 --force" + st, dir);
  ASSERT_EQ(forced.code, 0) << forced.err;
  std::ofstream(flag) << "";
  ASSERT_EQ(wait_exit_code(pid), 0) << slurp(dir / "run.err");
  EXPECT_NE(slurp(dir / "run.err").find("result of trial 0 dropped"), std::string::npos);
  const json j = json::parse(slurp(dir / "run.out"));
  EXPECT_EQ(j["trials"][0]["value"].get<double>(), 5.0);  // the forced value, not the worker's 7
  EXPECT_EQ(j["n_trials"].get<int>(), 1);
}

TEST(ProgressCli, ALinePerFinishedTrialAndAShortSummary) {
  TempDir dir("progress");
  const std::string st = " --storage sqlite:" + (dir / "p.db") + " --study p";
  const CmdResult r = run_kbo("optimize --problem branin --init 4 --iters 3 --seed 3" + st, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  // stderr (not a terminal): one line per finished trial, with the budget, time per trial and the best.
  const std::regex line(R"(\[(\d)/7\] trial (\d) complete [-0-9.e+]+ in [0-9.e+-]+ s \| elapsed \d\d:\d\d.* \| best [-0-9.e+]+ \(trial \d\))");
  int lines = 0;
  std::istringstream in(r.err);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l, m, line)) << l;
    EXPECT_EQ(std::stoi(m[1]), lines + 1);
    EXPECT_EQ(std::stoi(m[2]), lines);
    ++lines;
  }
  EXPECT_EQ(lines, 7);
  // stdout: the 5 best trials, counts, best, and where to see all.
  const json all = run_kbo("show --json" + st, dir).json();
  EXPECT_NE(r.out.find("top 5 of 7 complete trials"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("7 trials: 7 complete, 0 failed, 0 pending"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every trial: kbo show --storage sqlite:"), std::string::npos) << r.out;
  std::vector<std::pair<double, int>> by_value;
  for (const auto& t : all["trials"]) by_value.push_back({t["value"].get<double>(), t["id"].get<int>()});
  std::sort(by_value.begin(), by_value.end());
  std::istringstream rows(r.out);
  std::vector<int> shown;
  for (std::string l; std::getline(rows, l);) {
    std::smatch m;
    if (std::regex_match(l, m, std::regex(R"(\s+(\d)\*?\s+complete .*)"))) shown.push_back(std::stoi(m[1]));
  }
  ASSERT_EQ(shown.size(), 5u) << r.out;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(shown[i], by_value[i].second);

  // kbo show: every row; --top/--sort; CSV with the stored values.
  const CmdResult table = run_kbo("show" + st, dir);
  EXPECT_EQ(std::count(table.out.begin(), table.out.end(), '\n'), 1 + 1 + 7 + 2) << table.out;
  const json top2 = run_kbo("show --top 2 --json" + st, dir).json();
  ASSERT_EQ(top2["trials"].size(), 2u);
  EXPECT_EQ(top2["trials"][0]["id"].get<int>(), by_value[0].second);
  EXPECT_EQ(top2["trials"][1]["id"].get<int>(), by_value[1].second);
  EXPECT_EQ(top2["n_trials"].get<int>(), 7);
  EXPECT_EQ(run_kbo("show --format json" + st, dir).json(), all);
  const CmdResult csv = run_kbo("show --format csv --sort value" + st, dir);
  ASSERT_EQ(csv.code, 0) << csv.err;
  std::istringstream csv_in(csv.out);
  std::string header;
  std::getline(csv_in, header);
  EXPECT_EQ(header, "id,state,value,x0,x1,reason,worker");
  for (int i = 0; i < 7; ++i) {
    std::string l;
    ASSERT_TRUE(std::getline(csv_in, l));
    const int id = std::stoi(l.substr(0, l.find(',')));
    EXPECT_EQ(id, by_value[i].second);
    const auto v0 = l.find("complete,") + 9;
    EXPECT_EQ(std::stod(l.substr(v0, l.find(',', v0) - v0)), all["trials"][id]["value"].get<double>());
  }
  EXPECT_EQ(run_kbo("show --sort best" + st, dir).code, 2);
  EXPECT_EQ(run_kbo("show --format xml" + st, dir).code, 2);
}

TEST(ProgressCli, OnATerminalALiveLineShowsTheRunningTrial) {
  TempDir dir("tty");
  int master = -1, slave = -1;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  // stderr on the terminal; the first evaluation takes 2.5 s, long enough for the once-a-second redraw.
  const std::string cmd = std::string("exec '") + KBO_BINARY +
                          "' optimize --objective 'cat >/dev/null; sleep 2.5; echo 1' --bounds 0:1 --init 1 --iters 0 "
                          "> '" + (dir / "out") + "' < /dev/null";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(slave, STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(slave);
  std::string seen;
  char buf[4096];
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 30000) <= 0) break;
    const ssize_t got = read(master, buf, sizeof buf);
    if (got <= 0) break;  // EIO once the child side is closed
    seen.append(buf, static_cast<std::size_t>(got));
  }
  close(master);
  EXPECT_EQ(wait_exit_code(pid), 0) << seen;
  // Redrawn while the evaluation runs (not only when it starts, at 00:00).
  EXPECT_TRUE(seen.find("\r[0/1] trial 0 running 00:01") != std::string::npos ||
              seen.find("\r[0/1] trial 0 running 00:02") != std::string::npos)
      << seen;
  EXPECT_NE(seen.find("\033[K"), std::string::npos) << seen;
  EXPECT_NE(slurp(dir / "out").find("best: trial 0, value 1"), std::string::npos);
}

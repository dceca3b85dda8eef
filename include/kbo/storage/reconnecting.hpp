#pragma once
// ReconnectingStorage: waits out a database server that went away (a PostgreSQL restart, a network
// blip) instead of ending a long run. Each Storage call is retried while the backend throws
// ConnectionLost, with exponential backoff (0.1 s doubling to 5 s) for at most `give_up_after` seconds
// (kReconnectSeconds = 60 by default); after that the call throws StorageError (the CLI exits 74) and
// re-running the same command resumes the study.
//
// A retried call is safe because every Storage method is one transaction that the broken connection
// rolled back — except when the connection broke after COMMIT was sent and before it was acknowledged.
// For the two calls where that matters the retry first looks whether the first attempt landed: finish()
// returns the trial if it is already in the requested state with the requested value/reason, and ask()
// returns a pending trial of the same worker created since the first attempt, instead of a duplicate.
#include <memory>
#include <stdexcept>
#include <string>

#include "kbo/storage/storage.hpp"

namespace kbo {

/// The connection to the storage server broke during a call; the call may be retried after reconnecting.
struct ConnectionLost : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// How long a broken server connection is retried before the run stops (seconds).
inline constexpr double kReconnectSeconds = 60.0;

/// kReconnectSeconds, or the test hook KBO_TEST_RECONNECT_SECONDS (a positive number: tests of a frozen server
/// need not wait a minute). Also the longest a PostgreSQL statement waits for the server's answer: a server
/// that is stopped (SIGSTOP, a hung host) keeps its TCP connection open and answers keepalives, so only a
/// client-side deadline notices it.
double reconnect_seconds();

/// Called at least every 0.1 s while a retry waits for the server; it may throw to abandon the wait. The study
/// layer sets it (install_stop_signals) to throw Interrupted on Ctrl-C/SIGTERM/SIGHUP, so a stop request is
/// honoured during an outage instead of after the backoff (up to kReconnectSeconds). nullptr: none.
void set_reconnect_wait_check(void (*check)());

class ReconnectingStorage : public Storage {
 public:
  explicit ReconnectingStorage(std::shared_ptr<Storage> inner, double give_up_after = kReconnectSeconds);

  StudyRecord create_study_if_absent(const StudyRecord& wanted) override;
  std::optional<StudyRecord> load_study(const std::string& name) override;
  std::vector<std::string> study_names() override;
  void update_study_config(const std::string& name, const nlohmann::json& config) override;
  void update_study_budget(const std::string& name, std::optional<int> budget) override;
  Trial ask(const std::string& study, const SuggestFn& suggest, const std::string& worker) override;
  std::optional<Trial> claim_pending(const std::string& study, const TrialPredicate& claimable,
                                     const std::string& worker, bool running = true) override;
  Trial finish(const std::string& study, int trial_id, TrialState state, std::optional<double> value,
               const std::string& reason, const Teller& by, const std::vector<double>& constraints = {},
               const std::vector<double>& values = {}, std::optional<double> sem = std::nullopt) override;
  std::vector<Trial> add_completed(const std::string& study, const std::vector<EvaluatedPoint>& rows,
                                   const std::string& worker) override;
  bool set_lease(const std::string& study, int trial_id, double lease_until) override;
  bool set_info(const std::string& study, int trial_id, const nlohmann::json& info) override;
  bool release(const std::string& study, int trial_id, const std::string& worker) override;
  bool heartbeat(const std::string& study, int trial_id, const std::string& worker) override;
  std::vector<Trial> reap_lost(const std::string& study, double stale_after, double now,
                               const TrialPredicate& lost) override;
  std::vector<Trial> trials(const std::string& study) override;
  nlohmann::json load_model_state(const std::string& study) override;
  void save_model_state(const std::string& study, const nlohmann::json& state) override;
  std::string url() const override { return inner_->url(); }

 private:
  /// Calls body(attempt) (attempt = 0, 1, …) until it returns without ConnectionLost or time runs out.
  template <class F>
  auto retry(const F& body) -> decltype(body(0));

  std::shared_ptr<Storage> inner_;
  double give_up_after_;
};

}  // namespace kbo

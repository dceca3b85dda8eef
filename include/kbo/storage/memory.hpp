#pragma once
// In-process storage: studies live as long as the object (tests, benchmarks, `--storage memory`).
#include <map>
#include <mutex>

#include "kbo/storage/storage.hpp"

namespace kbo {

class MemoryStorage : public Storage {
 public:
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
  std::string url() const override { return "memory"; }

 private:
  struct Entry {
    StudyRecord record;
    std::vector<Trial> trials;
    nlohmann::json model_state;
  };
  Entry& entry(const std::string& name);  // InputError if absent; caller holds mutex_
  static std::optional<Trial> first_complete(const Entry& e);
  std::recursive_mutex mutex_;            // recursive: a suggest callback may read the trials again
  std::map<std::string, Entry> studies_;
};

}  // namespace kbo

#pragma once
// Background heartbeat of a worker's running trial (private to the study library).
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace kbo {

class Storage;

/// One thread per worker, beating for the trial set by beat_for() until idle(). It opens its own
/// storage connection (open_storage(url)) on first use — the worker's connection may be inside a long
/// ask transaction — except for "memory" storage, which it shares (that one is thread-safe).
class Heartbeat {
 public:
  Heartbeat(std::shared_ptr<Storage> storage, std::string study, std::string worker, double interval_seconds);
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  void beat_for(int trial_id);  // starts beating for this trial (the caller already beat once)
  void idle();                  // stops beating; returns once no beat for the old trial is in flight

 private:
  void loop();
  std::shared_ptr<Storage> shared_;
  std::string study_, worker_;
  double interval_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int trial_ = -1;
  bool beating_ = false;  // a beat is being written (idle() waits for it)
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace kbo

// Background heartbeat of a worker's running trial (see heartbeat.hpp).
#include "kbo/storage/heartbeat.hpp"

#include <chrono>
#include <cstdio>

#include "kbo/storage/storage.hpp"

namespace kbo {

Heartbeat::Heartbeat(std::shared_ptr<Storage> storage, std::string study, std::string worker, double interval_seconds)
    : shared_(std::move(storage)), study_(std::move(study)), worker_(std::move(worker)), interval_(interval_seconds) {
  thread_ = std::thread([this] { loop(); });
}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Heartbeat::beat_for(int trial_id) {
  {
    std::lock_guard lock(mutex_);
    trial_ = trial_id;
  }
  cv_.notify_all();
}

void Heartbeat::idle() {
  std::unique_lock lock(mutex_);
  trial_ = -1;
  cv_.wait(lock, [&] { return !beating_; });
}

void Heartbeat::loop() {
  std::shared_ptr<Storage> conn;
  bool warned = false;
  const auto period = std::chrono::duration<double>(interval_);
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait_for(lock, period, [&] { return stop_; });
    if (stop_) return;
    if (trial_ < 0) continue;
    const int trial = trial_;
    beating_ = true;
    lock.unlock();
    try {
      if (!conn) conn = shared_->url() == "memory" ? shared_ : open_storage(shared_->url());
      conn->heartbeat(study_, trial, worker_);  // false: finished or reaped meanwhile; the worker finds out
      warned = false;
    } catch (const std::exception& e) {
      // A transient database outage must not kill the evaluation; the trial may be reaped meanwhile.
      // Plain "kbo:" prefix: the same thread beats for `kbo optimize`, `kbo worker` and Python studies.
      if (!warned) std::fprintf(stderr, "kbo: heartbeat of trial %d failed (it keeps running): %s\n", trial, e.what());
      warned = true;
      conn.reset();
    }
    lock.lock();
    beating_ = false;
    cv_.notify_all();
  }
}

}  // namespace kbo

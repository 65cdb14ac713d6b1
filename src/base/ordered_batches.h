// Runs a function over a stream of items on N threads and hands the
// results on in input order. Items are gathered into batches (bounded in
// count and bytes, so memory stays bounded whatever the input size); one
// job processes each item as it arrives.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace husk {

template <typename In, typename Out>
class OrderedBatches {
 public:
  using Work = std::function<Out(const In&)>;
  using Emit = std::function<void(const In&, Out&)>;

  OrderedBatches(unsigned jobs, Work work, Emit emit)
      : jobs_(std::max(1u, jobs)), work_(std::move(work)), emit_(std::move(emit)) {}

  // 0: one job per core.
  static unsigned resolve_jobs(unsigned jobs) {
    return jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  }

  void push(In&& item, std::size_t bytes) {
    batch_bytes_ += bytes;
    batch_.push_back(std::move(item));
    if (jobs_ == 1 || batch_.size() >= 64 * jobs_ || batch_bytes_ >= kMaxBatchBytes) flush();
  }

  void finish() { flush(); }

 private:
  static constexpr std::size_t kMaxBatchBytes = 64u << 20;

  void flush() {
    if (batch_.empty()) return;
    std::vector<Out> results(batch_.size());
    if (jobs_ == 1 || batch_.size() == 1) {
      for (std::size_t i = 0; i < batch_.size(); ++i) results[i] = work_(batch_[i]);
    } else {
      std::atomic<std::size_t> next{0};
      // What a job throws must not end the process from a worker thread: the
      // first exception stops the batch and is thrown again here, where
      // the command's own handling sees it.
      std::exception_ptr failure;
      std::mutex failure_mutex;
      auto worker = [&] {
        try {
          for (std::size_t i = next++; i < batch_.size(); i = next++) results[i] = work_(batch_[i]);
        } catch (...) {
          std::lock_guard<std::mutex> lock(failure_mutex);
          if (!failure) failure = std::current_exception();
          next = batch_.size();
        }
      };
      std::vector<std::thread> threads;
      for (unsigned t = 1; t < jobs_; ++t) threads.emplace_back(worker);
      worker();
      for (std::thread& t : threads) t.join();
      if (failure) std::rethrow_exception(failure);
    }
    for (std::size_t i = 0; i < batch_.size(); ++i) emit_(batch_[i], results[i]);
    batch_.clear();
    batch_bytes_ = 0;
  }

  unsigned jobs_;
  Work work_;
  Emit emit_;
  std::vector<In> batch_;
  std::size_t batch_bytes_ = 0;
};

}  // namespace husk

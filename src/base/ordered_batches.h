// Runs a function over a stream of items on N threads and hands the
// results on in input order, on the caller's thread. The caller keeps
// reading while the jobs work: items wait in a window bounded in count and
// bytes (so memory stays bounded whatever the input size), each job takes
// the next waiting item as soon as it is free, and the results at the
// front of the window are handed on as they are ready. Nothing waits for
// the slowest item of a batch, and reading and writing overlap the work.
// A result is let go of on the thread that made it: glibc's malloc frees a
// block of another thread's arena under that arena's lock, and with two
// jobs those frees cost 4% of husk dedup's CPU (perf, 200,000 records).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace husk {

template <typename In, typename Out>
class OrderedBatches {
 public:
  using Work = std::function<Out(const In&)>;
  using Emit = std::function<void(const In&, Out&)>;

  // The window's bounds: items per job (small items, such as records of a
  // few hundred words, need many to keep the jobs busy while the caller's
  // thread is away), and the items' bytes.
  static constexpr std::size_t kMaxItemsPerJob = 1024;
  static constexpr std::size_t kMaxBytes = 64u << 20;

  OrderedBatches(unsigned jobs, Work work, Emit emit)
      : jobs_(std::max(1u, jobs)), work_(std::move(work)), emit_(std::move(emit)) {}

  ~OrderedBatches() { stop(); }

  OrderedBatches(const OrderedBatches&) = delete;
  OrderedBatches& operator=(const OrderedBatches&) = delete;

  // 0: one job per core.
  static unsigned resolve_jobs(unsigned jobs) {
    return jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  }

  // Queues an item (`bytes`: its size, for the window's bound), first
  // handing on the results that are ready; waits while the window is full.
  // What a job threw is thrown again here or in finish().
  void push(In&& item, std::size_t bytes) {
    if (jobs_ == 1) {
      Out out = work_(item);
      emit_(item, out);
      return;
    }
    start();
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      emit_ready(lock);
      if (window_.size() < kMaxItemsPerJob * jobs_ && (window_.empty() || bytes_ + bytes <= kMaxBytes)) break;
      if (!work_one(lock)) ready_.wait(lock);
    }
    window_.push_back(Slot{std::move(item), std::nullopt, bytes});
    bytes_ += bytes;
    waiting_.notify_one();
  }

  // Hands on every remaining result, in order.
  void finish() {
    if (jobs_ == 1 || window_.empty()) {
      stop();
      return;
    }
    {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {
        emit_ready(lock);
        if (window_.empty()) break;
        if (!work_one(lock)) ready_.wait(lock);
      }
    }
    stop();
  }

 private:
  struct Slot {
    In item;
    std::optional<Out> result;
    std::size_t bytes = 0;
    unsigned maker = 0;  // the job that made the result: 0 the caller's thread, t the worker t
  };

  // jobs - 1 threads; the caller's thread is the last job whenever the
  // window is full or the input is over, so that N jobs keep N cores busy
  // and no more.
  void start() {
    if (!workers_.empty()) return;
    spent_.resize(jobs_);
    for (unsigned t = 1; t < jobs_; ++t) workers_.emplace_back([this, t] { work_loop(t); });
  }

  // The first item no job has taken, when there is one: taken, worked on
  // outside the lock, its result stored. False when there is none.
  bool work_one(std::unique_lock<std::mutex>& lock) {
    Slot* slot = take();
    if (slot == nullptr) return false;
    run(slot, 0, lock);
    return true;
  }

  // Items are taken in window order: those before next_ are taken.
  Slot* take() { return next_ < window_.size() ? &window_[next_++] : nullptr; }

  void run(Slot* slot, unsigned maker, std::unique_lock<std::mutex>& lock) {
    std::vector<Out> spent;
    spent.swap(spent_[maker]);
    lock.unlock();
    spent.clear();
    std::optional<Out> out;
    std::exception_ptr thrown;
    try {
      out.emplace(work_(slot->item));
    } catch (...) {
      // What a job throws must not end the process from a worker thread:
      // the caller's thread throws it again, where the command's own
      // handling sees it.
      thrown = std::current_exception();
    }
    lock.lock();
    if (thrown && !failure_) failure_ = thrown;
    slot->result = thrown ? std::optional<Out>(Out()) : std::move(out);
    slot->maker = maker;
    // The caller waits only for the front's result (its room comes from
    // handing the front on): waking it for any other is wasted.
    if (slot == &window_.front() || thrown) ready_.notify_one();
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    waiting_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stopping_ = false;
  }

  // A job's thread: the first item no job has taken, as long as there is
  // one. Slots stay where they are while a job holds one (a deque moves no
  // element when another is added at the back or taken from the front, and
  // the front is taken only once its result is in).
  void work_loop(unsigned t) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      Slot* slot = nullptr;
      waiting_.wait(lock, [&] { return stopping_ || (slot = take()) != nullptr; });
      if (slot == nullptr) {
        std::vector<Out> spent;
        spent.swap(spent_[t]);
        lock.unlock();
        return;
      }
      run(slot, t, lock);
    }
  }

  // Hands on the results at the front of the window (with the lock
  // released while emit runs, so the jobs go on).
  void emit_ready(std::unique_lock<std::mutex>& lock) {
    while (!window_.empty() && window_.front().result) {
      if (failure_) {
        std::exception_ptr failure = failure_;
        lock.unlock();
        stop();
        std::rethrow_exception(failure);
      }
      Slot slot = std::move(window_.front());
      window_.pop_front();
      --next_;  // the front had a result, so it was taken
      bytes_ -= slot.bytes;
      lock.unlock();
      emit_(slot.item, *slot.result);
      lock.lock();
      // A worker's result goes back to it, to be let go of when it takes
      // its next item.
      if (slot.maker != 0) spent_[slot.maker].push_back(std::move(*slot.result));
    }
  }

  unsigned jobs_;
  Work work_;
  Emit emit_;
  std::mutex mutex_;
  std::condition_variable waiting_;  // jobs wait for items
  std::condition_variable ready_;    // the caller waits for results and room
  std::deque<Slot> window_;
  std::vector<std::vector<Out>> spent_;  // per job: its results handed on, to be let go of on its thread
  std::size_t next_ = 0;  // window_[next_ ...]: the items no job has taken
  std::size_t bytes_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> workers_;
};

}  // namespace husk

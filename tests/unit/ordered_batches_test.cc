// OrderedBatches against its serial twin: the same results, handed on in
// input order on the caller's thread, within a bounded window, whatever the
// number of jobs and however long each item takes; a job's exception
// reaches the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "base/ordered_batches.h"

namespace husk {
namespace {

// Work of uneven length: a few items take far longer than the rest.
std::string work_on(int item) {
  if (item % 97 == 0) std::this_thread::sleep_for(std::chrono::microseconds(300));
  uint64_t h = static_cast<uint64_t>(item) * 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < (item % 7) * 200; ++i) h = h * 6364136223846793005ull + 1442695040888963407ull;
  return std::to_string(item) + ":" + std::to_string(h);
}

TEST(OrderedBatches, ResultsInInputOrderLikeTheSerialTwin) {
  std::vector<std::string> serial;
  for (int i = 0; i < 12000; ++i) serial.push_back(work_on(i));
  for (unsigned jobs : {1u, 2u, 3u, 8u}) {
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<std::string> got;
    std::size_t pushed = 0, widest = 0;
    OrderedBatches<int, std::string> run(
        jobs, [](const int& i) { return work_on(i); },
        [&](const int& i, std::string& out) {
          EXPECT_EQ(std::this_thread::get_id(), caller);
          EXPECT_EQ(static_cast<std::size_t>(i), got.size());
          got.push_back(std::move(out));
        });
    for (int i = 0; i < 12000; ++i) {
      run.push(int(i), 100);
      ++pushed;
      widest = std::max(widest, pushed - got.size());
    }
    run.finish();
    EXPECT_EQ(got, serial) << jobs << " jobs";
    using Run = OrderedBatches<int, std::string>;
    EXPECT_LE(widest, Run::kMaxItemsPerJob * jobs + 1) << jobs << " jobs";
  }
}

TEST(OrderedBatches, TheWindowHoldsAtMostItsBytes) {
  std::size_t pushed = 0, emitted = 0, widest = 0;
  OrderedBatches<int, int> run(
      2, [](const int& i) { std::this_thread::sleep_for(std::chrono::microseconds(50)); return i; },
      [&](const int&, int&) { ++emitted; });
  for (int i = 0; i < 200; ++i) {
    run.push(int(i), std::size_t(16) << 20);  // 16 MiB each: four fit in the 64 MiB window
    ++pushed;
    widest = std::max(widest, pushed - emitted);
  }
  run.finish();
  EXPECT_EQ(emitted, 200u);
  EXPECT_LE(widest, 5u);
}

TEST(OrderedBatches, AJobsExceptionReachesTheCaller) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    std::size_t emitted = 0;
    bool caught = false;
    try {
      OrderedBatches<int, int> run(
          jobs, [](const int& i) -> int { if (i == 500) throw std::runtime_error("item 500"); return i; },
          [&](const int&, int&) { ++emitted; });
      for (int i = 0; i < 2000; ++i) run.push(int(i), 1);
      run.finish();
    } catch (const std::runtime_error& e) {
      caught = std::string(e.what()) == "item 500";
    }
    EXPECT_TRUE(caught) << jobs << " jobs";
    EXPECT_LE(emitted, 500u) << jobs << " jobs: nothing after the failed item is handed on";
  }
}

// A result that knows the thread that made it and counts the times it is
// let go of elsewhere (one moved from holds nothing and is not counted).
struct Made {
  std::thread::id maker;
  bool held = false;
  std::atomic<int>* elsewhere = nullptr;
  Made() = default;
  Made(std::atomic<int>* counter) : maker(std::this_thread::get_id()), held(true), elsewhere(counter) {}
  Made(Made&& o) noexcept : maker(o.maker), held(std::exchange(o.held, false)), elsewhere(o.elsewhere) {}
  Made& operator=(Made&& o) noexcept {
    maker = o.maker;
    held = std::exchange(o.held, false);
    elsewhere = o.elsewhere;
    return *this;
  }
  ~Made() {
    if (held && elsewhere != nullptr && std::this_thread::get_id() != maker) ++*elsewhere;
  }
};

TEST(OrderedBatches, AResultIsLetGoOfOnTheThreadThatMadeIt) {
  std::atomic<int> elsewhere{0};
  std::size_t emitted = 0;
  {
    OrderedBatches<int, Made> run(
        2, [&](const int& i) { (void)work_on(i); return Made(&elsewhere); },
        [&](const int&, Made& m) { emitted += m.held; });
    for (int i = 0; i < 5000; ++i) run.push(int(i), 100);
    run.finish();
  }
  EXPECT_EQ(emitted, 5000u);
  EXPECT_EQ(elsewhere.load(), 0) << "results let go of on another thread than their maker's";
}

}  // namespace
}  // namespace husk

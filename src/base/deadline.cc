// husk::Deadline (husk/extract.h): a page's budget of its thread's CPU
// time, paused while the page waits.
#include <ctime>

#include "husk/extract.h"

namespace husk {

namespace {

int64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

}  // namespace

Deadline Deadline::after(std::chrono::milliseconds budget) {
  Deadline d;
  if (budget.count() > 0) {
    d.budget_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(budget).count();
    d.since_ns = thread_cpu_ns();
  }
  return d;
}

bool Deadline::passed() const { return budget_ns >= 0 && spent_ns + (thread_cpu_ns() - since_ns) >= budget_ns; }

void Deadline::pause() {
  if (budget_ns >= 0) spent_ns += thread_cpu_ns() - since_ns;
}

void Deadline::resume() {
  if (budget_ns >= 0) since_ns = thread_cpu_ns();
}

}  // namespace husk

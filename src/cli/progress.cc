#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>

namespace husk::cli {

Progress::Progress(std::string label)
    : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::update(std::size_t pages, std::size_t errors, std::size_t bytes) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(500)) return;
  last_ = now;
  draw(pages, errors, bytes);
}

void Progress::stage(const std::string& doing, std::size_t done, std::size_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (doing == doing_ && now - last_ < std::chrono::milliseconds(500)) return;
  doing_ = doing;
  last_ = now;
  std::fprintf(stderr, "\r%s: %s: %zu/%zu\033[K", label_.c_str(), doing.c_str(), done, total);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::draw(std::size_t pages, std::size_t errors, std::size_t bytes) {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (secs <= 0) secs = 1e-9;
  const double rate = static_cast<double>(pages) / secs;
  if (total_ > 0 && pages <= total_) {
    const double left = rate > 0 ? static_cast<double>(total_ - pages) / rate : 0;
    const auto whole = static_cast<long long>(left + 0.5);
    std::fprintf(stderr, "\r%s: %zu/%zu pages (%.0f%%), %zu errors, %.1f pages/s, %lld:%02lld left\033[K",
                 label_.c_str(), pages, total_, 100.0 * static_cast<double>(pages) / static_cast<double>(total_),
                 errors, rate, whole / 60, whole % 60);
  } else {
    std::fprintf(stderr, "\r%s: %zu pages, %zu errors, %.1f pages/s, %.1f MB/s\033[K", label_.c_str(), pages,
                 errors, rate, static_cast<double>(bytes) / 1e6 / secs);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::print(const std::string& line) {
  finish();
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || !drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace husk::cli

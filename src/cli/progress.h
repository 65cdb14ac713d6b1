// A one-line progress report on stderr, redrawn at most twice a second,
// only when stderr is a terminal (never in pipes, logs or CI).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace husk::cli {

class Progress {
 public:
  explicit Progress(std::string label);
  ~Progress();
  void update(std::size_t pages, std::size_t errors, std::size_t bytes);
  void finish();

 private:
  void draw(std::size_t pages, std::size_t errors, std::size_t bytes);
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace husk::cli

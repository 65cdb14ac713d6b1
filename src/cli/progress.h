// A one-line progress report on stderr, redrawn at most twice a second,
// only when stderr is a terminal (never in pipes, logs or CI): pages done
// (of how many, when known), errors, rate and, with a total, time left.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace husk::cli {

class Progress {
 public:
  explicit Progress(std::string label);
  ~Progress();
  // Whether anything is drawn (stderr is a terminal): a caller computes a
  // total only then.
  bool enabled() const { return enabled_; }
  // The pages the run will see; 0 when unknown.
  void set_total(std::size_t pages) { total_ = pages; }
  void update(std::size_t pages, std::size_t errors, std::size_t bytes);
  // A run of stages instead of pages ("train: block model, fold 2 of 5:
  // 40/150"): a new stage is drawn at once, its steps at most twice a
  // second.
  void stage(const std::string& doing, std::size_t done, std::size_t total);
  // A line of its own on stderr (a bad record named mid-run): the drawn
  // report is cleared first, and redrawn at the next update.
  void print(const std::string& line);
  void finish();

 private:
  void draw(std::size_t pages, std::size_t errors, std::size_t bytes);
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  std::size_t total_ = 0;
  std::string doing_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace husk::cli
